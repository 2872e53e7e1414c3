/*
 * The gates of a series against what it holds (app/series_gates.h).
 */

#include "app/series_gates.h"

#include "app/kind.h"
#include "app/trend_run.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int
trend_gates_check_kind(const struct trend_gate *gates, size_t n, const char *kind,
		       struct diag *err)
{
	for (size_t i = 0; i < n; i++) {
		const struct trend_gate *g = &gates[i];
		const struct kind *k = kind_for_metric(g->g.kind);
		if (k && strcmp(k->name, kind) == 0)
			continue;
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				k ? "gate '%s': '%s:' metrics do not apply to %s captures"
				  : "gate '%s': unknown metric kind '%s' (this trend reads %s "
				    "captures)", g->g.text, g->g.kind, kind);
	}
	return 0;
}

/*
 * The sum of the parts the gate's kind makes of `g`'s metric, per sample
 * (NAN where no part has a value); false when it makes none the series holds.
 */
static bool
sum_parts(const struct trend_gate *g, const struct trend_series *s, double *v)
{
	const struct kind *k = kind_for_metric(g->g.kind);
	if (!k || !k->series_sum_part)
		return false;
	bool found = false;
	for (size_t i = 0; i < s->nsamples; i++)
		v[i] = NAN;
	struct strbuf part = STRBUF_INIT;
	for (size_t j = 0; k->series_sum_part(g->name, j, &part); j++) {
		const struct trend_metric *m = trend_series_find(s, part.buf);
		strbuf_reset(&part);
		if (!m)
			continue;
		found = true;
		for (size_t i = 0; i < s->nsamples; i++)
			if (!isnan(m->v[i]))
				v[i] = isnan(v[i]) ? m->v[i] : v[i] + m->v[i];
	}
	strbuf_release(&part);
	return found;
}

int
trend_gates_resolve(struct trend_gate *gates, size_t n, const struct trend_series *s,
		    const struct trend_params *p, struct diag *err)
{
	double *v = xmalloc((s->nsamples ? s->nsamples : 1) * sizeof(*v));
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		struct trend_gate *g = &gates[i];
		const struct trend_metric *m = trend_series_find(s, g->name);
		enum trend_unit unit = TREND_BYTES;
		if (m) {
			memcpy(v, m->v, s->nsamples * sizeof(*v));
			unit = m->unit;
		} else if (!sum_parts(g, s, v)) {
			rc = diag_set(err, DIAG_DATA, NULL, 0, 0,
				      "gate '%s': no capture holds '%s'", g->g.text, g->name);
			break;
		}
		struct trend_result r;
		trend_analyse_values(v, s->has_times ? s->hours : NULL, s->nsamples, unit,
				     m ? m->resolution : 0, false, p, &r);
		rc = trend_gate_check(g, &r, unit, err);
	}
	free(v);
	return rc;
}

int
trend_kind_run_gates(struct trend_kind_run *t, struct trend_gate *gates, size_t n,
		     struct diag *err)
{
	if (t->kind && trend_gates_check_kind(gates, n, t->kind, err) < 0)
		return -1;
	if (trend_gates_resolve(gates, n, &t->s, &t->p, err) < 0)
		return -1;
	t->rep.gates = gates;
	t->rep.ngates = n;
	return 0;
}

/* One gate against the kinds' rates. */
static int
rate_gate_find(struct rate_gate *g, const struct rate_kind_report *kinds, size_t nk,
	       struct diag *err)
{
	for (size_t k = 0; k < nk; k++) {
		const struct trend_metric *m = trend_series_find(kinds[k].series, g->name);
		if (!m)
			continue;
		for (size_t i = 0; i < kinds[k].rates->nrows; i++)
			if (kinds[k].rates->rows[i].m == m)
				return rate_gate_check(g, &kinds[k].rates->rows[i], m->unit, err);
		/* The same value in every iteration: exactly no growth. */
		struct rate_row still = { .m = m, .has_rate = true };
		return rate_gate_check(g, &still, m->unit, err);
	}
	return diag_set(err, DIAG_DATA, NULL, 0, 0, "gate '%s': no capture holds '%s'",
			g->g.text, g->name);
}

int
rate_gates_check(struct rate_gate *gates, size_t n, const struct rate_kind_report *kinds,
		 size_t nk, struct diag *err)
{
	for (size_t i = 0; i < n; i++)
		if (rate_gate_find(&gates[i], kinds, nk, err) < 0)
			return -1;
	return 0;
}
