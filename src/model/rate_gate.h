#ifndef IOTALLY_MODEL_RATE_GATE_H
#define IOTALLY_MODEL_RATE_GATE_H

/*
 * CI gates on a rate: "rate:METRIC OP VALUE[/iteration]".
 *
 * METRIC, OP and VALUE are the grammar of diff's gates (model/diff.h,
 * diff_gate_parse): METRIC is "<kind>:<name>" as `iotally rate` names
 * metrics, OP '>' or '>=', VALUE a count or a size with a binary unit
 * (1MiB) per iteration; a percentage has no meaning per iteration and is
 * refused. The gate compares the lower bound of the rate's 95 % interval,
 * not the estimate: it trips only when the growth per iteration is shown
 * to pass the limit, so noise alone does not fail a build.
 */

#include <stdbool.h>

#include "model/diff.h"
#include "model/rate.h"
#include "util/diag.h"

struct rate_gate {
	struct diff_gate g;      /* g.text: the whole expression, as given */
	char *name;              /* "<kind>:<metric>", as the rate names metrics */

	/* Filled by rate_gate_check(). */
	bool checked, tripped;
	double low, rate;        /* the interval's lower bound and the estimate, per iteration */
	enum trend_unit unit;    /* the metric's */
};

/* 0, or -1 with a DIAG_USAGE *err naming the part that is wrong. */
int rate_gate_parse(const char *text, struct rate_gate *t, struct diag *err);
void rate_gate_release(struct rate_gate *t);

/*
 * Check the gate against a metric's rate. 0, or -1 with a DIAG_DATA *err
 * when the rate has no interval (too few iterations).
 */
int rate_gate_check(struct rate_gate *t, const struct rate_row *row, enum trend_unit unit,
		    struct diag *err);

#endif
