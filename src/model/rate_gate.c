/*
 * Gates on the rate per iteration (model/rate_gate.h): the lower bound of
 * the interval against the limit.
 */

#include "model/rate_gate.h"

#include "model/series_gate.h"
#include "util/array.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* rate's words around diff's gate: "rate:" before METRIC, "/iteration" after VALUE. */
static const struct series_gate_per rate_pers[] = {
	{ "/iteration", 0 },
};

static const struct series_gate_form rate_form = {
	.prefix = "rate:",
	.pers = rate_pers,
	.npers = ARRAY_SIZE(rate_pers),
	.expected = "'rate:METRIC OP VALUE' (e.g. 'rate:footprint:gpu.dirty > 1MiB')",
	.no_percent = "a rate is bytes or a count per iteration, not a percentage",
};

int
rate_gate_parse(const char *text, struct rate_gate *t, struct diag *err)
{
	memset(t, 0, sizeof(*t));
	int per;
	return series_gate_parse(&rate_form, text, &t->g, &t->name, &per, err);
}

void
rate_gate_release(struct rate_gate *t)
{
	diff_gate_release(&t->g);
	free(t->name);
	memset(t, 0, sizeof(*t));
}

int
rate_gate_check(struct rate_gate *t, const struct rate_row *row, enum trend_unit unit,
		struct diag *err)
{
	if (!row->has_rate || isnan(row->lo))
		return diag_set(err, DIAG_DATA, NULL, 0, 0,
				"gate '%s': too few iterations for a rate", t->g.text);
	double limit = (double)t->g.value;
	t->checked = true;
	t->unit = unit;
	t->low = row->lo;
	t->rate = row->rate;
	t->tripped = series_gate_trips(&t->g, row->lo, limit);
	return 0;
}
