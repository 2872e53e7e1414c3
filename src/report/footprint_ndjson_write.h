#ifndef IOTALLY_REPORT_FOOTPRINT_NDJSON_WRITE_H
#define IOTALLY_REPORT_FOOTPRINT_NDJSON_WRITE_H

/*
 * --format ndjson of footprint captures (report/ndjson.h, schema
 * iotally.footprint-ndjson/1, docs/json/footprint-ndjson.md): an 'input'
 * row per input, a 'process' row per process (its header figures and
 * gpu_dirty) and a 'category' row per shown category. A figure the capture
 * lacks is null, never 0; `rounded` says a figure of the row was printed
 * rounded by footprint, `lower_bound` that rows were elided.
 */

#include <stdbool.h>
#include <stdio.h>

#include "model/footprint.h"

/* Where the rows come from (report/ndjson.h). */
struct ndjson_source;

int footprint_ndjson_write(FILE *out, const struct footprint_capture *cap, const struct ndjson_source *src,
			   bool all_categories);
/* The 'input' row of an input that could not be read. */
int footprint_ndjson_write_error(FILE *out, const struct ndjson_source *src, const char *error);

#endif
