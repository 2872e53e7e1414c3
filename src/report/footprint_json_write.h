#ifndef IOTALLY_REPORT_FOOTPRINT_JSON_WRITE_H
#define IOTALLY_REPORT_FOOTPRINT_JSON_WRITE_H

/*
 * A footprint capture as JSON (schema iotally.footprint/1,
 * docs/json/footprint.schema.json): a figure is null when the capture does
 * not have it, else {"bytes" (or "count"), "exact", "slack", "at_least"}:
 * the true value lies within bytes +- slack.
 */

#include <stdbool.h>
#include <stdio.h>

#include "model/footprint.h"

/* 0, or -1 when `out` could not be written. */
int footprint_json_write(FILE *out, const struct footprint_capture *cap, const char *path,
			 bool all_categories);

#endif
