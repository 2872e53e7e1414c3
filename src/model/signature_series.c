/*
 * The verdict that names a series' signature: exact metrics first, a
 * rounded summary figure only when nothing exact was followed.
 */

#include "model/signature_series.h"

#include <stdbool.h>

/* The strongest verdict of the changed metrics that are (or are not) rounded. */
static enum trend_verdict
strongest(const struct trend_series *s, bool rounded, bool *seen)
{
	enum trend_verdict best = TREND_VERDICTS;
	for (size_t i = 0; i < s->nmetrics; i++) {
		const struct trend_metric *m = &s->metrics[i];
		if ((m->resolution > 0) != rounded)
			continue;
		*seen = true;
		if (!m->unchanged && m->r.verdict < best)
			best = m->r.verdict;
	}
	return best;
}

enum trend_verdict
signature_series_verdict(const struct trend_series *s)
{
	bool exact = false, rounded = false;
	enum trend_verdict best = strongest(s, false, &exact);
	return exact ? best : strongest(s, true, &rounded);
}
