#ifndef IOTALLY_REPORT_NDJSON_H
#define IOTALLY_REPORT_NDJSON_H

/*
 * Rows of `--format ndjson`: one flat JSON object per line, for engines
 * that load newline-delimited JSON (DuckDB, Spark, BigQuery; docs/fleet.md).
 *
 * Every row of one command has the same keys in the same order (null where
 * a key does not apply to the row), so the rows of many runs form one
 * table; the first keys are always "schema", "row" (what the row
 * describes), "source" (the input's path) and "kind". Figures are exact
 * integers (at most 2^63 - 1, util/bytes.h); nothing is nested.
 */

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* A new row with its first four keys (kind NULL: null, a kind not known). */
json_t *ndjson_row_new(const char *schema, const char *row, const char *source,
		       const char *kind);
/* Set key (appended in call order); v is taken. */
void ndjson_set(json_t *row, const char *key, json_t *v);
/* A string, or null. */
json_t *ndjson_text_or_null(const char *s);
/* A figure when `has`, else null. */
json_t *ndjson_uint_or_null(bool has, uint64_t v);
/* Print the row on one line and free it. 0, or -1 when out could not be written. */
int ndjson_row_write(FILE *out, json_t *row);

#endif
