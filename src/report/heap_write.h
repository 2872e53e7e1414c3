#ifndef IOTALLY_REPORT_HEAP_WRITE_H
#define IOTALLY_REPORT_HEAP_WRITE_H

/*
 * The heap kind's writers: one capture as a text or Markdown table, JSON
 * (HEAP_SCHEMA) or NDJSON rows (HEAP_NDJSON_SCHEMA, docs/json/heap.md),
 * and a pair's table and JSON body for `iotally diff`. Rows in
 * heap_rows_ordered()'s order; class names are escaped (util/escape.h).
 */

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "model/heap.h"
#include "report/ndjson.h"

struct heap_write_opts {
	size_t top;            /* rows shown (0: all) */
	const char *match;     /* only classes whose name holds it (NULL: all) */
	bool markdown;
};

/* Does a row pass --match (a substring of its class name)? */
bool heap_row_matches(const struct heap_row *r, const char *match);

void heap_text_write(FILE *out, const struct heap_capture *cap, const struct heap_write_opts *o);
int heap_json_write(FILE *out, const struct heap_capture *cap, const char *path,
		    const struct heap_write_opts *o);
int heap_ndjson_write(FILE *out, const struct heap_capture *cap, const struct ndjson_source *src,
		      const struct heap_write_opts *o);
/* The error row of an input that could not be read (cli's sources hook). */
int heap_ndjson_write_error(FILE *out, const struct ndjson_source *src, const char *error);

/* `iotally diff`: the JSON body ("classes", "figures"); its tables are the report's
 * (model/report_heap.h). */
json_t *heap_diff_json(const struct heap_diff *d);

#endif
