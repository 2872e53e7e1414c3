#ifndef IOTALLY_REPORT_VMMAP_NDJSON_WRITE_H
#define IOTALLY_REPORT_VMMAP_NDJSON_WRITE_H

/*
 * `iotally vmmap --format ndjson`: the rows of one input, schema
 * VMMAP_NDJSON_SCHEMA (docs/json/vmmap-ndjson.md). Per input, in order: one
 * "input" row; then per dump one "dump" row (the totals of the selected
 * types), its "group" rows (type and purge state, exact bytes, sorted as
 * the JSON report sorts them) and its "summary" rows (vmmap's own summary
 * table for the selected types, rounded, in table order).
 */

#include <stddef.h>
#include <stdio.h>

#include "model/vmmap.h"

/*
 * The rows of `cap`, read from `path`: every dump, or only dump `only`
 * (1-based) when it is not 0. 0, or -1 when out could not be written.
 */
int vmmap_ndjson_write(FILE *out, const struct vmmap_capture *cap, const char *path,
		       size_t only);

/* The one row of an input that could not be read: `error` says why. */
int vmmap_ndjson_write_error(FILE *out, const char *path, const char *error);

#endif
