#include "model/trend.h"

#include "util/array.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const verdict_names[TREND_VERDICTS] = {
	"LEAK", "GROWING", "PLATEAU", "STEP", "NO TREND", "STABLE", "INSUFFICIENT",
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

void
trend_series_set_resolution(struct trend_series *s, const char *name, double q)
{
	size_t *slot = strmap_get(&s->index, name, strlen(name));
	if (slot && q > s->metrics[*slot].resolution)
		s->metrics[*slot].resolution = q;
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
	array_copy(s->complete, c, n, sizeof(*c));   /* NULL when no sample */
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
	return trend_median(tmp, n);
}

/* 1.4826 x the median absolute deviation: sigma for normal noise. */
static double
robust_sigma(const double *y, size_t n, double med, double *tmp)
{
	for (size_t i = 0; i < n; i++)
		tmp[i] = fabs(y[i] - med);
	return 1.4826 * trend_median(tmp, n);
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
trend_step_find(const double *x, const double *y, size_t n, double min_growth,
		double resolution, size_t *at, double *size)
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
		/* Rounded values: a run's spread of one rounding step is rounding, not noise. */
		sigma = fmax(sigma, resolution);
		/* The jump's t with the levels' errors inflated for AR(1) noise. */
		for (size_t i = 0; i < n; i++)
			tmp[i] = trend_residual(y[i], i < k_best ? m1 : m2);
		double rho = fmax(TREND_RHO_FLOOR, trend_lag1(tmp, n));
		double se = sigma * sqrt((1 / (double)k_best + 1 / (double)(n - k_best)) *
					 (1 + rho) / (1 - rho));
		step = jump > 0 && jump >= min_growth && jump > resolution &&
		       best <= TREND_STEP_FIT * lin && jump >= TREND_PLATEAU_T * se &&
		       segment_growth(x, y, k_best) <= TREND_TAIL_RATIO * jump &&
		       segment_growth(x + k_best, y + k_best, n - k_best) <= TREND_TAIL_RATIO * jump;
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
	double first = median_copy(y, third, tmp), last = median_copy(y + n - third, third, tmp);
	double middle = median_copy(y + third, n - 2 * third, tmp);
	r->shift = last - first;
	r->thirds_rise = first < middle && middle < last;
	r->shift_sigma = robust_sigma(y + h, n - h, median_copy(y + h, n - h, tmp), tmp);
	free(tmp);
}

/* Counts are whole numbers: their rounding step is at least 1. */
static double
resolution_of(enum trend_unit unit, double declared)
{
	return unit == TREND_COUNT ? fmax(declared, 1) : fmax(declared, 0);
}

/* The two-sided normal quantile of alpha (bisection on erfc). */
static double
z_two_sided(double alpha)
{
	double lo = 0, hi = 40;
	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;
		if (trend_normal_p2(mid) > alpha)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

size_t
trend_samples_needed(double rate, double sigma, double factor, double alpha)
{
	if (!(rate > 0) || isnan(sigma) || sigma < 0)
		return 0;
	double z = (z_two_sided(alpha) + TREND_POWER_Z) * sigma / rate;
	double n3 = 12 * factor * z * z;
	if (n3 > 1e15)
		return (size_t)100000;
	double n = ceil(cbrt(n3) - 1e-9);
	return n < 3 ? 3 : n > 100000 ? 100000 : (size_t)n;
}

/* 1.4826 MAD of the residuals from a line: the noise about the trend. */
static double
line_noise(const double *x, const double *y, size_t n, const struct trend_ts *ts)
{
	double *e = xmalloc(n * sizeof(*e)), *tmp = xmalloc(n * sizeof(*tmp));
	for (size_t i = 0; i < n; i++)
		e[i] = y[i] - (ts->intercept + ts->slope * x[i]);
	double s = robust_sigma(e, n, median_copy(e, n, tmp), tmp);
	free(e);
	free(tmp);
	return s;
}

/*
 * The noise from one sample to the next, 1.4826 MAD of the differences
 * over sqrt 2: blind to a trend, and 0 for rounded values that change by
 * whole steps now and then (a staircase), which a line's residuals are
 * not. Exact values (no noise at all) give 0 too: the limit of rounded
 * ones.
 */
static double
step_noise(const double *y, size_t n)
{
	if (n < 2)
		return 0;
	double *d = xmalloc(n * sizeof(*d)), *tmp = xmalloc(n * sizeof(*tmp));
	for (size_t i = 0; i + 1 < n; i++)
		d[i] = trend_residual(y[i + 1], y[i]);
	double s = robust_sigma(d, n - 1, median_copy(d, n - 1, tmp), tmp) / sqrt(2);
	free(d);
	free(tmp);
	return s;
}

/*
 * The lag-1 correlation the trend test assumes (docs/trend.md §6): the
 * estimate from residuals about a line, corrected for its small-sample
 * bias (trend_lag1_fit, 2 parameters), plus one standard error
 * sqrt((1 - rho^2) / n), at least the floor and at most the cap. Series
 * whose drift the line takes for a trend have residuals that look less
 * correlated than the noise is, so the point estimate alone lets through
 * the false trends it should stop; one standard error above it, with the
 * floor, keeps the false LEAKs of AR(1) noise up to rho = 0.7 at or below
 * 1 % (§8). The cap: beyond it 12 to 50 samples cannot tell correlated
 * noise from a wandering level, and the factor would refuse any rise.
 * Under TREND_RHO_MIN_N residuals the estimate's standard error,
 * about sqrt(1 / n) n / (n - 6), is over 0.5: it says nothing, and the
 * floor alone is assumed.
 */
static double
test_rho(const double *e, size_t n)
{
	if (n < TREND_RHO_MIN_N)
		return TREND_RHO_FLOOR;
	double r = trend_lag1_fit(e, n, 2);
	r += TREND_RHO_UPPER_SE * sqrt((1 - r * r) / (double)n);
	r = fmax(TREND_RHO_FLOOR, r);
	return fmin(TREND_RHO_CAP, r);
}

/*
 * The variance factor for correlated samples: Hamed-Rao's n / n* for AR(1)
 * noise with lag-1 correlation test_rho() of the Theil-Sen residuals
 * (docs/trend.md §6). Rounded values whose noise is under half a rounding
 * step keep the floor and the plain estimate: their residuals are mostly
 * rounding error, a sawtooth whose correlation is not the noise's, and
 * the rules that ask for more than one rounding step keep their false
 * LEAKs at 0 (§8).
 */
static double
correlation_factor(const double *x, const double *y, size_t n, const struct trend_ts *ts,
		   bool rounded, double *rho)
{
	double *e = xmalloc(n * sizeof(*e));
	for (size_t i = 0; i < n; i++)
		e[i] = trend_residual(y[i], ts->intercept + ts->slope * x[i]);
	*rho = rounded ? fmax(TREND_RHO_FLOOR, trend_lag1(e, n)) : test_rho(e, n);
	free(e);
	return trend_ar1_factor(*rho, n);
}

/*
 * Two level shifts that keep rising: both jumps up, each significant
 * (t >= TREND_PLATEAU_T with the levels' standard errors inflated for
 * AR(1) noise, rho at least the floor) and more than two rounding steps,
 * and the last level no longer than the middle one (growth resumed after
 * a pause as long as the last, so the last is no evidence that it stopped).
 */
static bool
stairs_keep_rising(const struct trend_stairs *st, const double *x, const double *y, size_t n,
		   double resolution)
{
	double *e = xmalloc(n * sizeof(*e));
	for (size_t i = 0; i < n; i++)
		e[i] = trend_residual(y[i], st->level[i < st->at1 ? 0 : i < st->at2 ? 1 : 2]);
	double rho = fmax(TREND_RHO_FLOOR, trend_lag1(e, n));
	free(e);
	double fac = (1 + rho) / (1 - rho), sig2 = st->rss / (double)(n - 5);
	double n0 = (double)st->at1, n1 = (double)(st->at2 - st->at1), n2 = (double)(n - st->at2);
	double j1 = st->level[1] - st->level[0], j2 = st->level[2] - st->level[1];
	double se1 = sqrt(sig2 * fac * (1 / n0 + 1 / n1)), se2 = sqrt(sig2 * fac * (1 / n1 + 1 / n2));
	/* Levels, not a ramp: the first two grow less than the smaller jump. */
	double most = TREND_STAIR_FLAT * fmin(j1, j2);
	bool flat = segment_growth(x, y, st->at1) <= most &&
		    segment_growth(x + st->at1, y + st->at1, st->at2 - st->at1) <= most;
	return j1 > resolution && j2 > resolution && j1 >= TREND_PLATEAU_T * se1 &&
	       j2 >= TREND_PLATEAU_T * se2 && n2 <= n1 && flat;
}

/*
 * A plateau over every sample, the warm-up included: the best rise-then-
 * flat fit, the rise's t with the correlation allowed for, whether the
 * tail stopped growing, whether it fits better than a line, and whether
 * two level shifts with a short last level fit better still (a staircase
 * that keeps rising).
 */
static void
plateau_stats(const double *v, const double *hours, size_t nsamples, bool use_hours,
	      double floor, struct trend_result *r, bool *stopped, bool *beats_line)
{
	struct window f;
	window_build(&f, v, hours, nsamples, 0);
	const double *x = use_hours && f.hours ? f.xh : f.xs;
	size_t n = f.n, min_tail = (n + 3) / 4 < 4 ? 4 : (n + 3) / 4;
	struct trend_plateau *pl = &r->plateau;
	*stopped = *beats_line = false;
	r->plateau_points = n;
	double lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < n; i++) {
		lo = fmin(lo, f.y[i]);
		hi = fmax(hi, f.y[i]);
	}
	r->range = n ? hi - lo : 0;
	/*
	 * A step over every sample as well as after the warm-up: a rise that
	 * ends early in the window is no step when the warm-up shows it rising.
	 */
	size_t at = 0;
	r->step = n >= 3 && trend_step_find(x, f.y, n, floor, r->resolution, &at, &r->step_size);
	r->step_at = n ? f.idx[at] : 0;
	r->has_plateau = trend_plateau_fit(x, f.y, n, min_tail, pl) == 0;
	if (!r->has_plateau)
		goto out;
	r->plateau_end = f.idx[pl->end];
	double rho = fmax(TREND_RHO_FLOOR, pl->rho);
	double se = pl->se_slope * sqrt((1 + rho) / (1 - rho));
	r->plateau_t = se > 0 ? pl->slope / se : pl->slope > 0 ? INFINITY : 0;
	size_t tail = n - pl->end;
	struct trend_ts ts;
	struct trend_mk mk;
	r->tail_slope = trend_theil_sen(x + pl->end, f.y + pl->end, tail, &ts) == 0 ? ts.slope : 0;
	double tail_z = 0;
	if (trend_mann_kendall(f.y + pl->end, tail, &mk) == 0) {
		trend_mk_inflate(&mk, trend_ar1_factor(rho, tail));
		tail_z = mk.z;
	}
	/* Stopped: the tail grows at most half as fast, and not significantly (10 %). */
	*stopped = r->tail_slope <= TREND_TAIL_RATIO * pl->slope && tail_z < TREND_TAIL_Z;
	/*
	 * Shown to have slowed (an equivalence-style test, one-sided at 10 %):
	 * the upper bound of the tail's Theil-Sen interval, correlation
	 * allowed for, below the rise's slope. A steady leak's tail grows as
	 * fast as its "rise" and rarely passes; a plateau's flat tail does.
	 * The interval of trend_theil_sen_f is two-sided 95 %: its factor
	 * scaled by (z_0.90 / z_0.975)^2 makes the upper end one-sided 90 %.
	 */
	double eq = TREND_TAIL_Z / TREND_Z_975;
	r->tail_flat = trend_theil_sen_f(x + pl->end, f.y + pl->end, tail,
					 trend_ar1_factor(rho, tail) * eq * eq, &ts) == 0 &&
		       ts.hi < pl->slope;
	/*
	 * Bent, not straight: the plateau removes more of the line's squared
	 * error than correlated noise would, (RSS_line - RSS) / (sigma^2 F)
	 * >= 1.5 ln n, F = (1 + rho) / (1 - rho) the variance factor of AR(1)
	 * noise with the residuals' own rho: BIC's penalty for the breakpoint
	 * (ln n), raised by half and with the likelihood ratio deflated for
	 * correlation, so that steady leaks are rarely taken for plateaus.
	 */
	double dn = (double)n, brho = fmax(0, pl->rho), fac = (1 + brho) / (1 - brho);
	r->bend = pl->rss_line <= pl->rss ? 0
		: pl->sigma > 0 ? (pl->rss_line - pl->rss) / (pl->sigma * pl->sigma * fac) / log(dn)
				: INFINITY;
	*beats_line = r->bend >= TREND_BEND_BIC;
	struct trend_stairs st;
	size_t min_seg = n / 6 < 2 ? 2 : n / 6;
	if (n > 5 && trend_stairs_fit(f.y, n, min_seg, &st) == 0)
		r->stairs = stairs_keep_rising(&st, x, f.y, n, r->resolution);
out:
	window_release(&f);
}

/*
 * The least-squares slope's t, its standard error widened for AR(1)
 * correlation rho. Not trend_fit.c's ols(), on purpose: this fits about the
 * means (my + b (x - mx)) and snaps residuals within 1e-12 of the fit to 0
 * (trend_residual), so an exact line gives rss 0 and t = INFINITY, never a
 * t made of rounding; ols() sums raw residuals of a + b u and the plateau
 * fit snaps only the best total (below 1e-24 n max|y|^2), after ranking
 * breakpoints by it, where snapping each residual would make near ties
 * exact and move the chosen breakpoint. One function would
 * move the LEAK test (line_t >= TREND_LINE_T) or the plateau's knee on
 * series where the two differ by a rounding: kept apart.
 */
static double
line_t_of(const double *x, const double *y, size_t n, double rho)
{
	double mx = 0, my = 0;
	for (size_t i = 0; i < n; i++) {
		mx += x[i];
		my += y[i];
	}
	mx /= (double)n;
	my /= (double)n;
	double sxx = 0, sxy = 0;
	for (size_t i = 0; i < n; i++) {
		sxx += (x[i] - mx) * (x[i] - mx);
		sxy += (x[i] - mx) * (y[i] - my);
	}
	if (!(sxx > 0) || n < 3)
		return 0;
	double b = sxy / sxx, rss = 0;
	for (size_t i = 0; i < n; i++) {
		double e = trend_residual(y[i], my + b * (x[i] - mx));
		rss += e * e;
	}
	double se = sqrt(rss / (double)(n - 2) / sxx * (1 + rho) / (1 - rho));
	return se > 0 ? b / se : b > 0 ? INFINITY : 0;
}

/*
 * Rounded values: the level rises where a value passes every one before
 * it. It has stopped when the samples since its last rise outnumber those
 * of every earlier level between two rises (at least one such level: the
 * first is cut by the window): the staircase rule of §4 (a last level no
 * longer than the middle one is no evidence that growth stopped), on the
 * levels the rounding shows.
 */
static bool
level_stopped(const double *y, size_t n)
{
	size_t prev = 0, rises = 0, longest = 0;
	double hi = n ? y[0] : 0;
	for (size_t i = 1; i < n; i++) {
		if (!(y[i] > hi))
			continue;
		if (rises++ > 0 && i - prev > longest)
			longest = i - prev;
		prev = i;
		hi = y[i];
	}
	return rises >= 2 && n - prev > longest;
}

/* Everything but the verdict: the tests and fits of one metric. */
static void
analyse_stats(const double *v, const double *hours, size_t nsamples, enum trend_unit unit,
	      double resolution, const struct trend_params *p, struct trend_result *r,
	      bool *stopped, bool *beats_line)
{
	struct window w;
	memset(r, 0, sizeof(*r));
	*stopped = *beats_line = false;
	r->q = NAN;
	r->growth_pct = NAN;
	r->resolution = resolution_of(unit, resolution);
	size_t warmup = p->warmup < nsamples ? p->warmup : nsamples;
	window_build(&w, v, hours, nsamples, warmup);
	r->n = w.n;
	r->missing = nsamples - warmup - w.n;
	bool use_hours = hours_usable(&w);
	plateau_stats(v, hours, nsamples, use_hours, growth_floor(p, unit), r, stopped,
		      beats_line);
	if (w.n < 3)
		goto out;
	r->has_mk = trend_mann_kendall(w.y, w.n, &r->mk) == 0;
	r->has_slope = trend_theil_sen(w.xs, w.y, w.n, &r->per_sample) == 0;
	if (!r->has_slope)
		goto out;
	double noise = line_noise(w.xs, w.y, w.n, &r->per_sample);
	r->noise = fmax(noise, r->resolution / sqrt(12));
	/*
	 * Either measure under half a rounding step: the residuals about the
	 * line (a steady staircase) or the differences (steps far apart).
	 */
	r->rounding_dominates = fmin(noise, step_noise(w.y, w.n)) <= r->resolution / 2;
	double factor = correlation_factor(w.xs, w.y, w.n, &r->per_sample,
					   r->resolution > 0 && r->rounding_dominates, &r->rho);
	r->line_t = line_t_of(w.xs, w.y, w.n, r->rho);
	if (r->has_mk)
		trend_mk_inflate(&r->mk, factor);
	trend_theil_sen_f(w.xs, w.y, w.n, factor, &r->per_sample);
	r->has_hour = use_hours && trend_theil_sen_f(w.xh, w.y, w.n, factor, &r->per_hour) == 0;
	const double *x = r->has_hour ? w.xh : w.xs;
	const struct trend_ts *ts = r->has_hour ? &r->per_hour : &r->per_sample;
	size_t h = w.n / 2;   /* the second half: the last ceil(n / 2) samples */
	r->has_half = trend_theil_sen_f(x + h, w.y + h, w.n - h,
					trend_ar1_factor(r->rho, w.n - h), &r->half) == 0;
	r->has_first_half = trend_theil_sen_f(x, w.y, h, trend_ar1_factor(r->rho, h),
					      &r->first_half) == 0;
	r->growth = ts->slope * (x[w.n - 1] - x[0]);
	r->start = ts->intercept + ts->slope * x[0];
	if (r->start > 0)
		r->growth_pct = 100 * r->growth / r->start;
	level_shift(w.y, w.n, r);
	r->level_stopped = r->resolution > 0 && level_stopped(w.y, w.n);
	size_t at;
	double size;
	r->step = r->step && trend_step_find(x, w.y, w.n, growth_floor(p, unit), r->resolution,
					     &at, &size);
out:
	window_release(&w);
}

/*
 * At least the growth floor and the percentage of the start, and more than
 * one rounding step (a flat value that sits on a rounding boundary moves
 * by one step).
 */
static bool
big_enough(double rise, double start, const struct trend_params *p, enum trend_unit unit,
	   double resolution)
{
	if (!(rise >= growth_floor(p, unit)) || !(rise > resolution) || !(rise > 0))
		return false;
	return p->min_percent <= 0 || start <= 0 || rise >= p->min_percent / 100 * start;
}

/*
 * The rise a metric shows over the analysed window: the Theil-Sen growth,
 * or, for rounded values whose many equal pairs pull the median slope to
 * 0, the shift of the level (docs/trend.md §4, quantised metrics).
 */
static double
window_rise(const struct trend_result *r)
{
	return r->resolution > 0 ? fmax(r->growth, r->shift) : r->growth;
}

/* Samples to add so that a rise at the observed pace (or the floor's) is confirmed. */
static size_t
more_samples(const struct trend_result *r, const struct trend_params *p, enum trend_unit unit,
	     size_t want)
{
	size_t n = r->n > 1 ? r->n : 1, base = want > n ? want : n;
	double rate = growth_floor(p, unit) / (double)(base - 1 ? base - 1 : 1);
	if (r->has_slope && r->per_sample.slope > rate)
		rate = r->per_sample.slope;
	double factor = trend_ar1_factor(r->rho > 0 ? r->rho : TREND_RHO_FLOOR, base);
	size_t need = r->has_slope ? trend_samples_needed(rate, r->noise, factor, p->alpha) : 0;
	if (need < want)
		need = want;
	return need > r->n ? need - r->n : 0;
}

/*
 * Rounded values whose slope's interval reaches 0 (the level's shift is
 * all that says they rose) and whose level has stopped rising: the second
 * half of the window flat, on the levels the rounding shows.
 */
static bool
stopped_late(const struct trend_result *r, const struct trend_ts *ts)
{
	return r->resolution > 0 && !(ts->lo > 0) && r->level_stopped;
}

static void
decide(struct trend_result *r, const struct trend_params *p, size_t nsamples,
       enum trend_unit unit, bool leak_exempt, bool stopped, bool beats_line)
{
	size_t after = nsamples > p->warmup ? nsamples - p->warmup : 0;
	const struct trend_ts *ts = r->has_hour ? &r->per_hour : &r->per_sample;
	double res = r->resolution;
	double rise = window_rise(r);
	bool leak = r->has_mk && r->has_slope && r->mk.s > 0 && r->q < p->alpha &&
		    (ts->lo > 0 || (res > 0 && ts->lo >= 0 && r->shift > 0)) &&
		    big_enough(rise, r->start, p, unit, res);
	leak = leak || (r->stairs && big_enough(rise, r->start, p, unit, res));
	/*
	 * A clear, steady rise that the rank test cannot confirm because its
	 * statistic is bounded (at most n(n-1)/2 rising pairs, which a strong
	 * correlation factor can leave short of alpha): the least-squares
	 * slope at t >= TREND_LINE_T with the same correlation allowed for,
	 * the rank test at least hinting (q < 5 %). Only where rho is
	 * estimated (TREND_RHO_MIN_N samples): with the floor alone, a
	 * correlation above it would pass for a slope.
	 */
	leak = leak || (r->has_mk && r->has_slope && r->mk.s > 0 && r->q < TREND_HINT_ALPHA &&
			r->n >= TREND_RHO_MIN_N && r->line_t >= TREND_LINE_T && ts->slope > 0 &&
			big_enough(rise, r->start, p, unit, res));
	/*
	 * Rounded values whose noise is below half a rounding step (or values
	 * without noise): a rise is the level moving up by whole steps. The
	 * thirds' medians rising in turn, by more than one step in all, is
	 * more than flat values, which stay within one step, can show.
	 */
	bool qleak = r->rounding_dominates && r->thirds_rise &&
		     big_enough(r->shift, r->start, p, unit, res);
	const struct trend_plateau *pl = &r->plateau;
	bool plateau_size = r->has_plateau && pl->slope > 0 &&
			    big_enough(pl->rise, pl->start, p, unit, res);
	/*
	 * "Grows steadily and has not stopped" is not what a series shows whose
	 * rise-then-flat fit has a stopped tail and beats the line by half of
	 * BIC's penalty: it may be a plateau the stricter rule cannot confirm,
	 * so it is no LEAK (NO TREND says so).
	 */
	bool maybe_stopped = plateau_size && stopped && r->bend >= TREND_LEAK_BEND_BIC && !r->stairs && !(res > 0);
	bool withheld = (leak || qleak) && maybe_stopped && !(r->stairs && leak);
	/*
	 * Nor is a rounded rise whose slope's interval reaches 0 and whose
	 * level stopped rising: nothing then shows that it still grows. The
	 * thirds' rule gives such a LEAK to a level that moved up by whole
	 * steps early and then stayed (vmmap's footprint line rising by three
	 * steps and stopping).
	 */
	withheld = withheld || ((leak || qleak) && stopped_late(r, ts));
	if (withheld)
		leak = qleak = false;
	/* Everything of a plateau but a tail shown slower than the rise. */
	bool plateau_shape = plateau_size && r->plateau_t >= TREND_RISE_T && stopped &&
			     beats_line && !r->stairs;
	bool plateau = plateau_shape && r->tail_flat;
	/* A hint of a rise: the uncorrected tests at 5 %, one-sided. */
	/* A hint of a rise: the corrected test at 5 %, or a plateau's rise at t > 2. */
	bool hint_trend = r->has_mk && r->mk.s > 0 && r->mk.z > 1.6448536269514722 &&
			  big_enough(rise, r->start, p, unit, res);
	bool hint_plateau = plateau_size && r->plateau_t > 2;
	const char *grows = leak_exempt ? "grows steadily, but the kernel may discard volatile "
					  "or empty purgeable memory"
			    : r->stairs ? "rose in steps and kept rising"
			    : leak      ? "grows steadily and has not stopped"
					: "rose through every third of the window, more than rounding or noise explains";
	r->more_samples = 0;
	if (r->n < p->min_samples || r->n < 3) {
		r->verdict = TREND_INSUFFICIENT;
		r->why = "too few samples after the warm-up";
		r->more_samples = more_samples(r, p, unit, p->min_samples);
	} else if (after && (double)r->missing > p->max_missing * (double)after) {
		r->verdict = TREND_INSUFFICIENT;
		r->why = "too many samples without a value";
		r->more_samples = more_samples(r, p, unit, p->min_samples);
	} else if (res > 0 && r->range <= res) {
		r->verdict = TREND_STABLE;
		r->why = "moves by one rounding step at most";
	} else if ((!r->has_mk || !r->has_slope) && !plateau) {
		r->verdict = TREND_STABLE;
		r->why = "no change after the warm-up";
	} else if (r->stairs && leak) {
		r->verdict = leak_exempt ? TREND_GROWING : TREND_LEAK;
		r->why = grows;
	} else if (r->step) {
		r->verdict = TREND_STEP;
		r->why = "one jump between two flat stretches";
	} else if (plateau) {
		r->verdict = TREND_PLATEAU;
		r->why = r->plateau_end <= p->warmup
			 ? "rose during the warm-up, then growth stopped"
			 : "rose significantly, then growth stopped";
	} else if (leak || qleak) {
		r->verdict = leak_exempt ? TREND_GROWING : TREND_LEAK;
		r->why = grows;
	} else if (withheld && !plateau) {
		r->verdict = TREND_NO_TREND;
		r->why = "rises, but may have stopped: neither a steady leak nor a confirmed plateau";
		r->more_samples = more_samples(r, p, unit, r->n + 1);
	} else if (plateau_shape) {
		r->verdict = TREND_NO_TREND;
		r->why = "rose, then slowed, but the tail is too short or noisy to show that growth "
			 "stopped";
		r->more_samples = more_samples(r, p, unit, r->n + 1);
	} else if (hint_trend || hint_plateau) {
		r->verdict = TREND_NO_TREND;
		r->why = hint_trend ? "rises, but not significantly once correlated samples are "
				      "allowed for"
				    : "rose, then flat, but the rise is not significant once "
				      "correlated samples are allowed for";
		r->more_samples = more_samples(r, p, unit, r->n + 1);
	} else {
		r->verdict = TREND_STABLE;
		r->why = r->has_mk && r->mk.s > 0 && r->q < p->alpha
			 ? "grows less than the minimum growth"
			 : r->has_mk && r->mk.s < 0 && r->q < p->alpha && ts->hi < 0
			 ? "falls"
			 : "no rise above the minimum growth";
	}
}

/* The verdict's inputs decide() needs beside the result. */
struct shape {
	bool stopped, beats_line;
};

void
trend_analyse_values(const double *v, const double *hours, size_t nsamples,
		     enum trend_unit unit, double resolution, bool leak_exempt,
		     const struct trend_params *p, struct trend_result *r)
{
	struct shape sh;
	analyse_stats(v, hours, nsamples, unit, resolution, p, r, &sh.stopped, &sh.beats_line);
	if (r->has_mk)
		r->q = r->mk.p;
	decide(r, p, nsamples, unit, leak_exempt, sh.stopped, sh.beats_line);
}

void
trend_series_analyse(struct trend_series *s, const struct trend_params *p)
{
	size_t cap = s->nmetrics ? s->nmetrics : 1;
	double *pv = xmalloc(cap * sizeof(double));
	size_t *which = xmalloc(cap * sizeof(size_t));
	struct shape *sh = xmalloc(cap * sizeof(*sh));
	size_t m = 0;
	const double *hours = s->has_times ? s->hours : NULL;
	for (size_t i = 0; i < s->nmetrics; i++) {
		struct trend_metric *t = &s->metrics[i];
		if (t->unchanged)
			continue;
		analyse_stats(t->v, hours, s->nsamples, t->unit, t->resolution, p, &t->r,
			      &sh[i].stopped, &sh[i].beats_line);
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
			decide(&t->r, p, s->nsamples, t->unit, t->leak_exempt, sh[i].stopped,
			       sh[i].beats_line);
	}
	free(pv);
	free(which);
	free(sh);
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

double
trend_metric_end_value(const struct trend_metric *m, size_t n, bool last)
{
	for (size_t k = 0; k < n; k++) {
		double v = m->v[last ? n - 1 - k : k];
		if (!isnan(v))
			return v;
	}
	return NAN;
}
