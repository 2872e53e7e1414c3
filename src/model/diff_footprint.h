#ifndef IOTALLY_MODEL_DIFF_FOOTPRINT_H
#define IOTALLY_MODEL_DIFF_FOOTPRINT_H

/*
 * Two footprint processes compared (model/footprint.h): per category and
 * field the figure before and after and their change, and the gate metrics
 * of the kind ("footprint:<Category>.<field>", "footprint:gpu.dirty",
 * "footprint:phys_footprint", ...). Not wired to `iotally diff` yet: the
 * pieces the kind registry's diff adapter will call.
 *
 * A figure one side lacks stays unknown: the row has no delta, and a gate
 * on it is not evaluable (never compared against an invented 0). A delta
 * of rounded figures is within the sum of both slacks.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/footprint.h"
#include "util/diag.h"

struct diff_footprint_row {
	const char *category;        /* borrowed from a side; NULL: process-wide */
	const char *metric;          /* process-wide: "phys_footprint", "gpu.dirty", ... */
	enum footprint_field field;  /* for a category */
	struct footprint_figure before, after;
	bool has_delta;              /* both known */
	int64_t delta;               /* after - before */
	uint64_t slack;              /* |true delta - delta| <= slack */
};

struct diff_footprint {
	const struct footprint_process *before, *after;   /* borrowed */
	struct diff_footprint_row *rows;   /* process-wide first, then categories in
					    * BEFORE's order, then those only AFTER has */
	size_t nrows, alloc;
};

/* 0, or -1 with *err (DIAG_DATA) when a slack sum passes 2^63 - 1. */
int diff_footprint_compare(struct diff_footprint *d, const struct footprint_process *before,
			   const struct footprint_process *after, struct diag *err);
void diff_footprint_release(struct diff_footprint *d);

/*
 * A gate's two figures: `metric` without the "footprint:" prefix (names as
 * footprint_metric() takes them). 0 with both (each known or not: a gate
 * on an unknown one is not evaluable, and *missing names the side,
 * "BEFORE" or "AFTER", NULL when both are known); -1 with *err (DIAG_USAGE)
 * for a name no capture can have.
 */
int diff_footprint_metric(const struct diff_footprint *d, const char *metric,
			  struct footprint_figure *before, struct footprint_figure *after,
			  const char **missing, struct diag *err);

#endif
