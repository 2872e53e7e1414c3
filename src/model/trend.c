#include "model/trend.h"

#include "util/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const verdict_names[TREND_VERDICTS] = {
	"LEAK", "GROWING", "PLATEAU", "STEP", "STABLE", "INSUFFICIENT",
};

const char *
trend_verdict_name(enum trend_verdict v)
{
	return v < TREND_VERDICTS ? verdict_names[v] : "?";
}

size_t
trend_default_warmup(size_t nsamples)
{
	size_t w = (nsamples * 20 + 99) / 100;   /* ceil(20 %) */
	return w < 2 ? 2 : w;
}

void
trend_params_default(struct trend_params *p, size_t nsamples)
{
	p->warmup = trend_default_warmup(nsamples);
	p->min_samples = 5;
	p->max_missing = 0.2;
	p->alpha = 0.01;
	p->min_bytes = 1024.0 * 1024.0;
	p->min_count = 4;
	p->min_percent = 0;
}

/* ---- the series --------------------------------------------------------- */

void
trend_series_init(struct trend_series *s)
{
	memset(s, 0, sizeof(*s));
	strmap_init(&s->index);
}

void
trend_series_release(struct trend_series *s)
{
	for (size_t i = 0; i < s->nmetrics; i++) {
		free(s->metrics[i].name);
		free(s->metrics[i].v);
	}
	free(s->metrics);
	free(s->complete);
	free(s->hours);
	strmap_release(&s->index);
	memset(s, 0, sizeof(*s));
}

size_t
trend_series_add_sample(struct trend_series *s, bool complete)
{
	size_t k = s->nsamples;
	size_t old = s->samples_alloc;
	if (k + 1 > s->samples_alloc) {
		size_t a = old;
		s->complete = xgrow(s->complete, &a, k + 1, sizeof(*s->complete));
		a = old;
		s->hours = xgrow(s->hours, &a, k + 1, sizeof(*s->hours));
		for (size_t i = 0; i < s->nmetrics; i++) {
			size_t b = old;
			s->metrics[i].v = xgrow(s->metrics[i].v, &b, k + 1, sizeof(double));
		}
		s->samples_alloc = a;
	}
	s->complete[k] = complete;
	s->hours[k] = NAN;
	for (size_t i = 0; i < s->nmetrics; i++)
		s->metrics[i].v[k] = NAN;
	s->nsamples = k + 1;
	return k;
}

void
trend_series_set(struct trend_series *s, size_t sample, const char *name,
		 enum trend_unit unit, bool zero_fill, bool leak_exempt, double value)
{
	bool created;
	size_t *slot = strmap_put(&s->index, name, strlen(name), &created);
	if (created) {
		*slot = s->nmetrics;
		s->metrics = xgrow(s->metrics, &s->metrics_alloc, s->nmetrics + 1,
				   sizeof(*s->metrics));
		struct trend_metric *m = &s->metrics[s->nmetrics++];
		memset(m, 0, sizeof(*m));
		m->name = xstrdup(name);
		m->unit = unit;
		m->zero_fill = zero_fill;
		m->leak_exempt = leak_exempt;
		m->v = xmalloc((s->samples_alloc ? s->samples_alloc : 1) * sizeof(double));
		for (size_t i = 0; i < s->nsamples; i++)
			m->v[i] = NAN;
	}
	double *cell = &s->metrics[*slot].v[sample];
	*cell = isnan(*cell) ? value : *cell + value;
}

const struct trend_metric *
trend_series_find(const struct trend_series *s, const char *name)
{
	size_t *slot = strmap_get(&s->index, name, strlen(name));
	return slot ? &s->metrics[*slot] : NULL;
}

static void
permute(double *v, const size_t *perm, size_t n, double *tmp)
{
	for (size_t i = 0; i < n; i++)
		tmp[i] = v[perm[i]];
	memcpy(v, tmp, n * sizeof(*v));
}

void
trend_series_reorder(struct trend_series *s, const size_t *perm, const double *hours)
{
	size_t n = s->nsamples;
	double *tmp = xmalloc((n ? n : 1) * sizeof(*tmp));
	bool *c = xmalloc((n ? n : 1) * sizeof(*c));
	for (size_t i = 0; i < s->nmetrics; i++)
		permute(s->metrics[i].v, perm, n, tmp);
	for (size_t i = 0; i < n; i++)
		c[i] = s->complete[perm[i]];
	memcpy(s->complete, c, n * sizeof(*c));
	s->has_times = hours != NULL && n > 0;
	for (size_t i = 0; i < n; i++) {
		s->hours[i] = hours ? hours[i] : NAN;
		if (isnan(s->hours[i]))
			s->has_times = false;
	}
	free(c);
	free(tmp);
}

void
trend_series_finish(struct trend_series *s)
{
	for (size_t i = 0; i < s->nmetrics; i++) {
		struct trend_metric *m = &s->metrics[i];
		for (size_t k = 0; k < s->nsamples; k++)
			if (isnan(m->v[k]) && m->zero_fill && s->complete[k])
				m->v[k] = 0;
		m->unchanged = true;
		for (size_t k = 0; k < s->nsamples; k++)
			if (isnan(m->v[k]) || m->v[k] != m->v[0])
				m->unchanged = false;
	}
}

/* ---- one metric --------------------------------------------------------- */

/* Sum of |y - level(x)| with level a line or a constant. */
static double
abs_dev_line(const double *x, const double *y, size_t n, double a, double b)
{
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += fabs(y[i] - (a + b * x[i]));
	return sum;
}

static double
median_copy(const double *y, size_t n, double *tmp)
{
	memcpy(tmp, y, n * sizeof(*tmp));
	return trend_median_sort(tmp, n);
}

/* 1.4826 x the median absolute deviation: sigma for normal noise. */
static double
robust_sigma(const double *y, size_t n, double med, double *tmp)
{
	for (size_t i = 0; i < n; i++)
		tmp[i] = fabs(y[i] - med);
	return 1.4826 * trend_median_sort(tmp, n);
}

/* |growth over the segment| of a Theil-Sen line; 0 when x does not vary. */
static double
segment_growth(const double *x, const double *y, size_t n)
{
	struct trend_ts ts;
	if (n < 2 || trend_theil_sen(x, y, n, &ts) < 0)
		return 0;
	return fabs(ts.slope * (x[n - 1] - x[0]));
}

bool
trend_step_find(const double *x, const double *y, size_t n, double min_growth, size_t *at,
		double *size)
{
	size_t min_seg = n >= 10 ? 3 : 2;
	*at = 0;
	*size = 0;
	if (n < 2 * min_seg)
		return false;
	double *tmp = xmalloc(n * sizeof(*tmp));
	double best = INFINITY, m1 = 0, m2 = 0;
	size_t k_best = 0;
	for (size_t k = min_seg; k + min_seg <= n; k++) {
		double a = median_copy(y, k, tmp), b = median_copy(y + k, n - k, tmp);
		double sad = abs_dev_line(x, y, k, a, 0) + abs_dev_line(x + k, y + k, n - k, b, 0);
		if (sad < best) {
			best = sad;
			k_best = k;
			m1 = a;
			m2 = b;
		}
	}
	struct trend_ts ts;
	bool step = false;
	double jump = fabs(m2 - m1);
	if (trend_theil_sen(x, y, n, &ts) == 0) {
		double lin = abs_dev_line(x, y, n, ts.intercept, ts.slope);
		double sigma = fmax(robust_sigma(y, k_best, m1, tmp),
				    robust_sigma(y + k_best, n - k_best, m2, tmp));
		step = jump > 0 && jump >= min_growth && best <= 0.5 * lin &&
		       jump >= 2.5 * sigma &&
		       segment_growth(x, y, k_best) <= 0.25 * jump &&
		       segment_growth(x + k_best, y + k_best, n - k_best) <= 0.25 * jump;
	}
	free(tmp);
	*at = k_best;
	*size = m2 - m1;
	return step;
}

/* The analysed samples: after the warm-up, with a value. */
struct window {
	double *y, *xs, *xh;   /* value, sample number, hours */
	size_t *idx;           /* index in the whole series */
	size_t n;
	bool hours;            /* every analysed sample has a time */
};

static void
window_build(struct window *w, const double *v, const double *hours, size_t nsamples,
	     size_t warmup)
{
	size_t cap = nsamples ? nsamples : 1;
	w->y = xmalloc(cap * sizeof(double));
	w->xs = xmalloc(cap * sizeof(double));
	w->xh = xmalloc(cap * sizeof(double));
	w->idx = xmalloc(cap * sizeof(size_t));
	w->n = 0;
	w->hours = hours != NULL;
	for (size_t k = warmup; k < nsamples; k++) {
		if (isnan(v[k]))
			continue;
		w->y[w->n] = v[k];
		w->xs[w->n] = (double)(k + 1);
		w->xh[w->n] = hours ? hours[k] : NAN;
		if (!hours || isnan(hours[k]))
			w->hours = false;
		w->idx[w->n++] = k;
	}
}

static void
window_release(struct window *w)
{
	free(w->y);
	free(w->xs);
	free(w->xh);
	free(w->idx);
}

/* Hours are a usable axis when at least two analysed samples differ in time. */
static bool
hours_usable(const struct window *w)
{
	if (!w->hours)
		return false;
	for (size_t i = 1; i < w->n; i++)
		if (w->xh[i] != w->xh[0])
			return true;
	return false;
}

static double
growth_floor(const struct trend_params *p, enum trend_unit unit)
{
	return unit == TREND_BYTES ? p->min_bytes : p->min_count;
}

/*
 * How far the level moved: the median of the last third of the window
 * minus that of the first third, and the noise of the second half.
 */
static void
level_shift(const double *y, size_t n, struct trend_result *r)
{
	size_t third = n / 3, h = n / 2;
	double *tmp = xmalloc(n * sizeof(*tmp));
	r->shift = median_copy(y + n - third, third, tmp) - median_copy(y, third, tmp);
	r->shift_sigma = robust_sigma(y + h, n - h, median_copy(y + h, n - h, tmp), tmp);
	free(tmp);
}

/* Everything but the verdict: the tests and fits of one metric. */
static void
analyse_stats(const double *v, const double *hours, size_t nsamples, enum trend_unit unit,
	      const struct trend_params *p, struct trend_result *r)
{
	struct window w;
	memset(r, 0, sizeof(*r));
	r->q = NAN;
	r->growth_pct = NAN;
	size_t warmup = p->warmup < nsamples ? p->warmup : nsamples;
	window_build(&w, v, hours, nsamples, warmup);
	r->n = w.n;
	r->missing = nsamples - warmup - w.n;
	if (w.n < 3)
		goto out;
	r->has_mk = trend_mann_kendall(w.y, w.n, &r->mk) == 0;
	r->has_slope = trend_theil_sen(w.xs, w.y, w.n, &r->per_sample) == 0;
	r->has_hour = hours_usable(&w) && trend_theil_sen(w.xh, w.y, w.n, &r->per_hour) == 0;
	const double *x = r->has_hour ? w.xh : w.xs;
	const struct trend_ts *ts = r->has_hour ? &r->per_hour : &r->per_sample;
	if (!r->has_slope)
		goto out;
	size_t h = w.n / 2;   /* the second half: the last ceil(n / 2) samples */
	r->has_half = trend_theil_sen(x + h, w.y + h, w.n - h, &r->half) == 0;
	r->has_first_half = trend_theil_sen(x, w.y, h, &r->first_half) == 0;
	r->growth = ts->slope * (x[w.n - 1] - x[0]);
	r->start = ts->intercept + ts->slope * x[0];
	if (r->start > 0)
		r->growth_pct = 100 * r->growth / r->start;
	level_shift(w.y, w.n, r);
	size_t at = 0;
	r->step = trend_step_find(x, w.y, w.n, growth_floor(p, unit), &at, &r->step_size);
	r->step_at = w.idx[at];
out:
	window_release(&w);
}

static bool
passes_floor(const struct trend_result *r, const struct trend_params *p,
	     enum trend_unit unit)
{
	if (r->growth < growth_floor(p, unit))
		return false;
	return p->min_percent <= 0 || r->start <= 0 ||
	       r->growth >= p->min_percent / 100 * r->start;
}

static void
decide(struct trend_result *r, const struct trend_params *p, size_t nsamples,
       enum trend_unit unit, bool leak_exempt)
{
	size_t after = nsamples > p->warmup ? nsamples - p->warmup : 0;
	const struct trend_ts *ts = r->has_hour ? &r->per_hour : &r->per_sample;
	bool grows = r->has_mk && r->has_slope && r->mk.s > 0 && r->q < p->alpha &&
		     ts->lo > 0 && passes_floor(r, p, unit);
	bool rising = r->has_half && r->half.lo > 0;
	/*
	 * The second half grows clearly slower than the whole window, or than
	 * the first half: it stopped.
	 */
	double pace = r->has_first_half ? fmax(ts->slope, r->first_half.slope) : ts->slope;
	bool stopped = r->has_half && r->half.hi < pace;
	/* A plateau whose rise is short: the level moved up by far more than the noise. */
	bool shifted = stopped && r->has_slope && ts->lo > 0 &&
		       r->shift >= growth_floor(p, unit) && r->shift >= 2.5 * r->shift_sigma;
	if (r->n < p->min_samples || r->n < 3) {
		r->verdict = TREND_INSUFFICIENT;
		r->why = "too few samples after the warm-up";
	} else if (after && (double)r->missing > p->max_missing * (double)after) {
		r->verdict = TREND_INSUFFICIENT;
		r->why = "too many samples without a value";
	} else if (!r->has_mk || !r->has_slope) {
		r->verdict = TREND_STABLE;
		r->why = "no change after the warm-up";
	} else if (r->step) {
		r->verdict = TREND_STEP;
		r->why = "one jump between two flat stretches";
	} else if (grows && (rising || !stopped)) {
		r->verdict = leak_exempt ? TREND_GROWING : TREND_LEAK;
		r->why = leak_exempt ? "grows steadily, but the kernel may discard volatile "
				       "or empty purgeable memory"
		       : rising ? "grows steadily and still grows in the second half"
				: "grows steadily; the second half does not show that it stopped";
	} else if (grows || shifted) {
		r->verdict = TREND_PLATEAU;
		r->why = "grew, then flat in the second half";
	} else {
		r->verdict = TREND_STABLE;
		r->why = r->mk.s > 0 && r->q < p->alpha && ts->lo > 0
			 ? "grows less than the minimum growth"
			 : r->mk.s < 0 && r->q < p->alpha && ts->hi < 0 ? "falls"
			 : "no significant trend";
	}
}

void
trend_analyse_values(const double *v, const double *hours, size_t nsamples,
		     enum trend_unit unit, bool leak_exempt, const struct trend_params *p,
		     struct trend_result *r)
{
	analyse_stats(v, hours, nsamples, unit, p, r);
	if (r->has_mk)
		r->q = r->mk.p;
	decide(r, p, nsamples, unit, leak_exempt);
}

void
trend_series_analyse(struct trend_series *s, const struct trend_params *p)
{
	double *pv = xmalloc((s->nmetrics ? s->nmetrics : 1) * sizeof(double));
	size_t *which = xmalloc((s->nmetrics ? s->nmetrics : 1) * sizeof(size_t));
	size_t m = 0;
	const double *hours = s->has_times ? s->hours : NULL;
	for (size_t i = 0; i < s->nmetrics; i++) {
		struct trend_metric *t = &s->metrics[i];
		if (t->unchanged)
			continue;
		analyse_stats(t->v, hours, s->nsamples, t->unit, p, &t->r);
		if (t->r.has_mk && t->r.n >= p->min_samples) {
			pv[m] = t->r.mk.p;
			which[m++] = i;
		}
	}
	trend_bh_adjust(pv, m, pv);
	for (size_t k = 0; k < m; k++)
		s->metrics[which[k]].r.q = pv[k];
	for (size_t i = 0; i < s->nmetrics; i++) {
		struct trend_metric *t = &s->metrics[i];
		if (!t->unchanged)
			decide(&t->r, p, s->nsamples, t->unit, t->leak_exempt);
	}
	free(pv);
	free(which);
}

/* Growth as a share of the start level; no base (start <= 0) ranks first. */
static double
effect(const struct trend_metric *m)
{
	if (isnan(m->r.growth_pct))
		return m->r.growth > 0 ? INFINITY : 0;
	return fabs(m->r.growth_pct);
}

static int
cmp_ranked(const void *a, const void *b)
{
	const struct trend_metric *x = *(const struct trend_metric *const *)a;
	const struct trend_metric *y = *(const struct trend_metric *const *)b;
	if (x->r.verdict != y->r.verdict)
		return x->r.verdict < y->r.verdict ? -1 : 1;
	double ex = effect(x), ey = effect(y);
	if (ex != ey)
		return ex > ey ? -1 : 1;
	return strcmp(x->name, y->name);
}

size_t
trend_series_ranked(const struct trend_series *s, const struct trend_metric ***out)
{
	const struct trend_metric **v = xmalloc((s->nmetrics ? s->nmetrics : 1) * sizeof(*v));
	size_t n = 0;
	for (size_t i = 0; i < s->nmetrics; i++)
		if (!s->metrics[i].unchanged)
			v[n++] = &s->metrics[i];
	qsort(v, n, sizeof(*v), cmp_ranked);
	*out = v;
	return n;
}
