#ifndef IOTALLY_REPORT_CLASSES_JSON_WRITE_H
#define IOTALLY_REPORT_CLASSES_JSON_WRITE_H

/*
 * `iotally classes --format json`: schema "iotally.classes/1", documented
 * in docs/json/classes.md (JSON Schema: docs/json/classes.schema.json).
 * Keys come in a fixed order; classes in listing order (by count with
 * --top), so the output is deterministic and diffable.
 */

#include <stdio.h>

#include "model/classes.h"
#include "model/hierarchy.h"


struct classes_json_opts {
	const char *path;                    /* the input's name as given */
	size_t nsnapshots;                   /* snapshots in the input */
	size_t index;                        /* 1-based number of the one written */
	const struct class_count *const *v;  /* the selected classes */
	size_t n;
	char *const *query;                  /* class-names mode: names in argument order */
	size_t nquery;
	const struct hierarchy *direct;      /* add direct counts (NULL: do not) */
};

/* 0, or -1 when writing fails. */
int classes_json_write(FILE *out, const struct classes_snapshot *s,
		       const struct classes_json_opts *opts);

#endif
