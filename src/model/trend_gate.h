#ifndef IOTALLY_MODEL_TREND_GATE_H
#define IOTALLY_MODEL_TREND_GATE_H

/*
 * CI gates on a trend's slope: "METRIC slope OP VALUE[/h|/sample]".
 *
 * METRIC, OP and VALUE are the grammar of diff's gates (model/diff.h,
 * diff_gate_parse): METRIC is "<kind>:<name>", OP '>' or '>=', VALUE a
 * count or a size with a binary unit (10MiB) or a percentage. Here VALUE
 * is a rate: per hour ("/h", "/hour"; needs capture times) or per sample
 * ("/sample", or no suffix); a percentage is of the metric's fitted start
 * level. The gate trips when the Theil-Sen slope compares true against
 * VALUE, so "> 10MiB/h" passes at exactly 10 MiB an hour.
 */

#include <stdbool.h>

#include "model/diff.h"
#include "model/trend.h"
#include "util/diag.h"

enum trend_rate {
	TREND_PER_SAMPLE,
	TREND_PER_HOUR,
};

struct trend_gate {
	struct diff_gate g;      /* g.text is the whole expression; g.metric without " slope" */
	char *name;              /* "<kind>:<metric>", as the trend names metrics */
	enum trend_rate rate;

	/* Filled by trend_gate_check(). */
	bool checked, tripped;
	double slope;            /* per the gate's rate; a percentage when g.percent */
	enum trend_unit unit;    /* the metric's */
};

/* 0, or -1 with a DIAG_USAGE *err naming the part that is wrong. */
int trend_gate_parse(const char *text, struct trend_gate *t, struct diag *err);
void trend_gate_release(struct trend_gate *t);

/*
 * Check the gate against a metric's result. 0, or -1 with a DIAG_DATA
 * *err when the result has no slope on the gate's axis (no capture times
 * for a per-hour gate, too few samples) or a percentage has no start level.
 */
int trend_gate_check(struct trend_gate *t, const struct trend_result *r,
		     enum trend_unit unit, struct diag *err);

#endif
