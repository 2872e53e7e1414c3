#ifndef IOTALLY_REPORT_CLASSES_NDJSON_WRITE_H
#define IOTALLY_REPORT_CLASSES_NDJSON_WRITE_H

/*
 * `iotally classes --format ndjson`: the rows of one input, schema
 * CLASSES_NDJSON_SCHEMA (docs/json/classes-ndjson.md). Per input, in order:
 * one "input" row, one "snapshot" row (the snapshot read: its source
 * format, how many classes it lists, its allocation totals) and one
 * "class" row per class shown, in the order given.
 */

#include <stddef.h>
#include <stdio.h>

#include "model/classes.h"

/* Where the rows come from (report/ndjson.h). */
struct ndjson_source;

struct classes_ndjson_input {
	const struct ndjson_source *src;
	size_t index;                         /* the snapshot's 1-based position */
	const struct classes_snapshot *s;
	const struct class_count *const *v;   /* the classes shown, in order */
	size_t n;
};

/* 0, or -1 when out could not be written. */
int classes_ndjson_write(FILE *out, const struct classes_ndjson_input *in);

/* The one row of an input that could not be read: `error` says why. */
int classes_ndjson_write_error(FILE *out, const struct ndjson_source *src, const char *error);

#endif
