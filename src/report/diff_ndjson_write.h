#ifndef IOTALLY_REPORT_DIFF_NDJSON_WRITE_H
#define IOTALLY_REPORT_DIFF_NDJSON_WRITE_H

/*
 * `iotally diff --format ndjson`: the rows of one pair, schema
 * DIFF_NDJSON_SCHEMA (docs/json/diff-ndjson.md). Per pair, in order: one
 * "pair" row, one "change" row per changed figure of a changed item (long
 * form: item, metric, before, after, delta), in the order of the kind's
 * JSON report, and one "gate" row per gate checked on the pair.
 *
 * The changes are read from the kind's own JSON members (the `body` of
 * diff_json_write(), report/diff_report.h), so the rows say exactly what
 * `--format json` says: vmmap rows (type and purge state) and summary rows,
 * the footprint; classes and allocation totals; track sites, modules and
 * the total; footprint's process figures and categories (of a capture of
 * several processes their sums), then each process's own, section
 * "processes", the process named in columns of its own. Rows of a section
 * read from other files than the pair's (r->files) name those files.
 */

#include <jansson.h>
#include <stdio.h>

#include "report/diff_report.h"

/* `name`: the pair's file name in folders, NULL for two files. body's reference is taken. */
int diff_ndjson_write(FILE *out, const struct diff_report *r, const char *name, json_t *body);

/* The one row of a pair that could not be compared; kind NULL when unknown. */
int diff_ndjson_write_error(FILE *out, const char *name, const char *before, const char *after,
			    const char *kind, const char *error);

#endif
