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
 *
 * A row is written as its keys are set, into one buffer: the bytes are
 * those jansson's json_dumpf(JSON_COMPACT | JSON_PRESERVE_ORDER) prints
 * for the same object (strings by report/jsontext.h's rule), without a
 * jansson value per key. Each key is set once per row.
 */

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct ndjson_row;

/*
 * Where the rows of one capture come from, for the commands that read
 * captures (vmmap, classes, track, footprint): what SQL needs to pair
 * captures without parsing paths.
 *   path  the input's path ("source")
 *   side  "before" for a capture of the first of exactly two operands,
 *         "after" for one of the second; NULL (null) otherwise
 *   pair  the capture's name in its folder operand, the name `iotally diff`
 *         pairs it by ("app-vmmap.txt"); NULL (null) for a file operand
 */
struct ndjson_source {
	const char *path;
	const char *side;
	const char *pair;
};

/* A new row with its first four keys (kind NULL: null, a kind not known). */
struct ndjson_row *ndjson_row_new(const char *schema, const char *row, const char *source,
				  const char *kind);
/*
 * The same, for a row of a capture: "source" is src->path, and the row
 * ends with the keys "side" and "pair" (after every key set on it).
 */
struct ndjson_row *ndjson_row_new_at(const char *schema, const char *row,
				     const struct ndjson_source *src, const char *kind);
/* Append key with any jansson value, which is taken (NULL: the key is left
 * out, as json_object_set_new() leaves it out). */
void ndjson_set(struct ndjson_row *row, const char *key, json_t *v);
void ndjson_set_null(struct ndjson_row *row, const char *key);
void ndjson_set_bool(struct ndjson_row *row, const char *key, bool b);
/* A string (report/jsontext.h's json_text), or null for NULL s. */
void ndjson_set_text(struct ndjson_row *row, const char *key, const char *s);
void ndjson_set_textn(struct ndjson_row *row, const char *key, const char *s, size_t n);
/* A figure (at most BYTES_MAX, as json_uint) when `has`, else null. */
void ndjson_set_uint(struct ndjson_row *row, const char *key, bool has, uint64_t v);
/* A signed integer when `has`, else null. */
void ndjson_set_int(struct ndjson_row *row, const char *key, bool has, int64_t v);
/* A string, or null. */
json_t *ndjson_text_or_null(const char *s);
/* A figure when `has`, else null. */
json_t *ndjson_uint_or_null(bool has, uint64_t v);
/* Print the row on one line and free it. 0, or -1 when out could not be written. */
int ndjson_row_write(FILE *out, struct ndjson_row *row);

#endif
