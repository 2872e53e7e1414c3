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

/* Where the rows come from (report/ndjson.h). */
struct ndjson_source;

/*
 * The rows of `cap`, read from `path`: every dump, or only dump `only`
 * (1-based) when it is not 0. 0, or -1 when out could not be written.
 */
int vmmap_ndjson_write(FILE *out, const struct vmmap_capture *cap, const struct ndjson_source *src,
		       size_t only);

/* The one row of an input that could not be read: `error` says why. */
int vmmap_ndjson_write_error(FILE *out, const struct ndjson_source *src, const char *error);

#endif
