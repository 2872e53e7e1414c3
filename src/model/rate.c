/*
 * The change per iteration of each metric (model/rate.h, docs/rate.md):
 * trend's analysis on the sample axis, read as a rate.
 */

#include "model/rate.h"

#include "util/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const verdict_names[RATE_VERDICTS] = {
	[RATE_LEAKS] = "LEAKS PER OPERATION",
	[RATE_WARMS_UP] = "WARMS UP THEN STOPS",
	[RATE_UNSURE] = "UNSURE",
	[RATE_NONE] = "NONE",
};

const char *
rate_verdict_name(enum rate_verdict v)
{
	return v < RATE_VERDICTS ? verdict_names[v] : "?";
}

void
rate_params_default(struct rate_params *rp)
{
	rp->floor_bytes = 0;
	rp->floor_count = 0;
}

static double
floor_of(const struct rate_params *rp, enum trend_unit unit)
{
	return unit == TREND_BYTES ? rp->floor_bytes : rp->floor_count;
}

void
rate_trend_params(const struct rate_params *rp, size_t nsamples, struct trend_params *p)
{
	trend_params_default(p, nsamples);
	/*
	 * trend asks a leak to grow 1 MiB (4 counts) over the window; a rate
	 * asks it to grow by the floor every iteration, which over the
	 * analysed span is the floor times the span. Rising by more than one
	 * rounding step and the corrected test at alpha still apply.
	 */
	size_t span = nsamples > p->warmup + 1 ? nsamples - p->warmup - 1 : 1;
	p->min_bytes = rp->floor_bytes * (double)span;
	p->min_count = rp->floor_count * (double)span;
	p->min_percent = 0;
}

/* The iterations more that would show a rise of `rate` per iteration at this noise. */
static size_t
more_iterations(const struct trend_result *r, double rate, const struct trend_params *p)
{
	if (!(rate > 0) || !r->has_slope)
		return r->more_samples;
	double rho = r->rho > 0 ? r->rho : TREND_RHO_FLOOR;
	size_t base = r->n > 1 ? r->n : 1;
	size_t need = trend_samples_needed(rate, r->noise, trend_ar1_factor(rho, base), p->alpha);
	return need > r->n ? need - r->n : r->more_samples;
}

void
rate_decide(const struct trend_result *r, enum trend_unit unit, const struct trend_params *p,
	    const struct rate_params *rp, struct rate_row *row)
{
	double fl = floor_of(rp, unit);
	row->has_rate = r->has_slope;
	row->rate = r->has_slope ? r->per_sample.slope : NAN;
	row->lo = r->has_slope ? r->per_sample.lo : NAN;
	row->hi = r->has_slope ? r->per_sample.hi : NAN;
	row->more = 0;
	row->warm_until = 0;
	row->rate_from = p->warmup + 1;
	switch (r->verdict) {
	case TREND_LEAK:
		if (row->lo > fl) {
			row->verdict = RATE_LEAKS;
			row->why = r->stairs ? "rose in steps and kept rising"
					     : "grows by about the same amount every iteration";
		} else {
			/* trend's other routes (rounded steps, least squares): no interval above the floor */
			row->verdict = RATE_UNSURE;
			row->why = "grows, but the interval per iteration reaches the floor";
			row->more = more_iterations(r, row->rate - fl, p);
		}
		return;
	case TREND_GROWING:
		row->verdict = RATE_UNSURE;
		row->why = "grows, but in volatile or empty purgeable memory, which the kernel may "
			   "discard";
		return;
	case TREND_PLATEAU:
		row->verdict = RATE_WARMS_UP;
		row->why = "rose over the first iterations, then stopped";
		row->warm_until = r->plateau_end + 1;
		return;
	case TREND_STEP:
		row->verdict = RATE_WARMS_UP;
		row->why = "rose once, then stayed flat";
		row->warm_until = r->step_at + 1;
		return;
	case TREND_STABLE:
		row->verdict = RATE_NONE;
		row->why = r->why;
		return;
	case TREND_NO_TREND:
		row->verdict = RATE_UNSURE;
		row->why = r->why;
		row->more = r->more_samples;
		return;
	case TREND_INSUFFICIENT:
	default:
		row->verdict = RATE_UNSURE;
		row->why = strcmp(r->why, "too many samples without a value") == 0
			   ? "too many iterations without a value"
			   : "too few iterations after the warm-up";
		row->more = r->more_samples;
		return;
	}
}

void
rate_flat_tail(const double *v, size_t nsamples, size_t warmup, double rho, struct rate_row *row)
{
	size_t from = row->warm_until ? row->warm_until - 1 : 0;
	if (from < warmup)
		from = warmup;
	if (row->verdict != RATE_WARMS_UP || from >= nsamples)
		return;
	double *x = xmalloc((nsamples - from) * sizeof(*x));
	double *y = xmalloc((nsamples - from) * sizeof(*y));
	size_t n = 0;
	for (size_t k = from; k < nsamples; k++)
		if (!isnan(v[k])) {
			x[n] = (double)(k + 1);
			y[n++] = v[k];
		}
	struct trend_ts ts;
	if (n >= 3 && trend_theil_sen_f(x, y, n, trend_ar1_factor(rho > 0 ? rho : TREND_RHO_FLOOR, n),
					&ts) == 0) {
		row->has_rate = true;
		row->rate = ts.slope;
		row->lo = ts.lo;
		row->hi = ts.hi;
		row->rate_from = from + 1;
	}
	free(x);
	free(y);
}

void
rate_analyse_values(const double *v, size_t nsamples, enum trend_unit unit, double resolution,
		    bool leak_exempt, const struct trend_params *p, const struct rate_params *rp,
		    struct trend_result *r, struct rate_row *row)
{
	trend_analyse_values(v, NULL, nsamples, unit, resolution, leak_exempt, p, r);
	row->m = NULL;
	rate_decide(r, unit, p, rp, row);
	rate_flat_tail(v, nsamples, p->warmup, r->rho, row);
}

void
rate_series_analyse(struct trend_series *s, const struct trend_params *p,
		    const struct rate_params *rp, struct rate_series *out)
{
	memset(out, 0, sizeof(*out));
	/*
	 * The iteration is the axis: trend's verdicts per hour are not a rate.
	 * The series stays on it (a page drawn from it shows iterations); its
	 * hours are kept.
	 */
	s->has_times = false;
	trend_series_analyse(s, p);
	out->iterations = s->nsamples;
	out->warmup = p->warmup < s->nsamples ? p->warmup : s->nsamples;
	const struct trend_metric **ranked;
	size_t n = trend_series_ranked(s, &ranked);
	out->unchanged = s->nmetrics - n;
	out->rows = xcalloc(n ? n : 1, sizeof(*out->rows));
	/* Stable by rate verdict over trend's ranking: one pass per verdict. */
	struct rate_row *tmp = xcalloc(n ? n : 1, sizeof(*tmp));
	for (size_t i = 0; i < n; i++) {
		tmp[i].m = ranked[i];
		rate_decide(&ranked[i]->r, ranked[i]->unit, p, rp, &tmp[i]);
		rate_flat_tail(ranked[i]->v, s->nsamples, p->warmup, ranked[i]->r.rho, &tmp[i]);
		out->count[tmp[i].verdict]++;
	}
	for (int v = 0; v < RATE_VERDICTS; v++)
		for (size_t i = 0; i < n; i++)
			if (tmp[i].verdict == (enum rate_verdict)v)
				out->rows[out->nrows++] = tmp[i];
	free(tmp);
	free(ranked);
}

void
rate_series_release(struct rate_series *r)
{
	free(r->rows);
	memset(r, 0, sizeof(*r));
}


void
rate_metric_label(const char *name, rate_label_fn *label, char *out, size_t size)
{
	if (size == 0)
		return;
	const char *colon = strchr(name, ':');
	if (!colon) {
		snprintf(out, size, "%s", name);
		return;
	}
	char kind[32];
	snprintf(kind, sizeof(kind), "%.*s", (int)(colon - name), name);
	if (label)
		label(kind, colon + 1, out, size);
	else
		snprintf(out, size, "%s", colon + 1);
}
