#ifndef IOTALLY_REPORT_REPORT_JSON_WRITE_H
#define IOTALLY_REPORT_REPORT_JSON_WRITE_H

/*
 * The report model as JSON ("schema": "iotally.report/1"), the data the
 * HTML report embeds so its figures can be extracted exactly: the verdict,
 * provenance, warnings, and each section's tables (figures as integers:
 * bytes, counts and signed deltas; text as strings; an empty cell null)
 * and charts. Strings are cleaned to valid UTF-8 first. Keys in a fixed
 * order, so the same report gives the same bytes.
 */

#include <jansson.h>

#include "model/report.h"

#define REPORT_JSON_SCHEMA "iotally.report/1"

json_t *report_json(const struct report *r);

#endif
