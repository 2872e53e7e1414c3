/*
 * Gates on a trend's slope (model/trend_gate.h): the Theil-Sen slope
 * against the limit.
 */

#include "model/trend_gate.h"

#include "model/series_gate.h"
#include "util/array.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* trend's words around diff's gate: " slope" after METRIC, a rate after VALUE. */
static const struct series_gate_per trend_pers[] = {
	{ "/h", TREND_PER_HOUR },
	{ "/hour", TREND_PER_HOUR },
	{ "/sample", TREND_PER_SAMPLE },
};

static const struct series_gate_form trend_form = {
	.prefix = "",
	.word = " slope",
	.pers = trend_pers,
	.npers = ARRAY_SIZE(trend_pers),
	.per_default = TREND_PER_SAMPLE,
	.expected = "'METRIC slope OP VALUE' (e.g. 'vmmap:IOSurface.dirty slope > 10MiB/h')",
};

int
trend_gate_parse(const char *text, struct trend_gate *t, struct diag *err)
{
	memset(t, 0, sizeof(*t));
	int per;
	int rc = series_gate_parse(&trend_form, text, &t->g, &t->name, &per, err);
	t->rate = (enum trend_rate)per;
	return rc;
}

void
trend_gate_release(struct trend_gate *t)
{
	diff_gate_release(&t->g);
	free(t->name);
	memset(t, 0, sizeof(*t));
}

int
trend_gate_check(struct trend_gate *t, const struct trend_result *r, enum trend_unit unit,
		 struct diag *err)
{
	bool hour = t->rate == TREND_PER_HOUR;
	if (hour ? !r->has_hour : !r->has_slope)
		return diag_set(err, DIAG_DATA, NULL, 0, 0,
				hour ? "gate '%s': no slope per hour (the captures carry no "
				       "usable capture times; use '/sample')"
				     : "gate '%s': too few samples for a slope", t->g.text);
	double slope = hour ? r->per_hour.slope : r->per_sample.slope;
	double limit = (double)t->g.value;
	if (t->g.percent) {
		if (!(r->start > 0))
			return diag_set(err, DIAG_DATA, NULL, 0, 0,
					"gate '%s': the metric starts at 0, so a percentage of "
					"it has no base", t->g.text);
		slope = 100 * slope / r->start;
		limit /= 100;   /* hundredths of a percent */
	}
	t->checked = true;
	t->unit = unit;
	t->slope = slope;
	t->tripped = series_gate_trips(&t->g, slope, limit);
	return 0;
}
