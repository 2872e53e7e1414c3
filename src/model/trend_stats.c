#include "model/trend_stats.h"

#include "util/xalloc.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static const double PI = 3.14159265358979323846;

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void
swap_double(double *a, double *b)
{
	double t = *a;
	*a = *b;
	*b = t;
}

/*
 * Hoare partition of v[lo..hi] around the median of three of its values;
 * returns j with v[lo..j] <= pivot <= v[j+1..hi], lo <= j < hi.
 */
static size_t
partition(double *v, size_t lo, size_t hi)
{
	size_t mid = lo + (hi - lo) / 2;
	if (v[mid] < v[lo])
		swap_double(&v[mid], &v[lo]);
	if (v[hi] < v[lo])
		swap_double(&v[hi], &v[lo]);
	if (v[hi] < v[mid])
		swap_double(&v[hi], &v[mid]);
	double pivot = v[mid];
	size_t i = lo, j = hi;
	for (;;) {
		while (v[i] < pivot)
			i++;
		while (pivot < v[j])
			j--;
		if (i >= j)
			return j;
		swap_double(&v[i], &v[j]);
		i++;
		j--;
	}
}

double
trend_select(double *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;
	/* Quickselect, expected linear; past 2 log2(n) rounds (a pathological
	 * order) the rest is sorted, so the worst case is the sort's n log n. */
	unsigned depth = 2;
	for (size_t m = n; m > 1; m >>= 1)
		depth += 2;
	while (lo < hi) {
		if (depth-- == 0) {
			qsort(v + lo, hi - lo + 1, sizeof(*v), cmp_double);
			break;
		}
		size_t j = partition(v, lo, hi);
		if (k <= j)
			hi = j;
		else
			lo = j + 1;
	}
	return v[k];
}

double
trend_median(double *v, size_t n)
{
	double hi = trend_select(v, n, n / 2);
	if (n % 2)
		return hi;
	/* After the selection v[0..n/2) holds the smaller half: its largest. */
	double lo = v[0];
	for (size_t i = 1; i < n / 2; i++)
		if (v[i] > lo)
			lo = v[i];
	return (lo + hi) / 2;
}

double
trend_normal_p2(double z)
{
	return erfc(fabs(z) / sqrt(2.0));
}

/*
 * Sum over groups of equal values of t(t - 1)(2t + 5), the tie term of
 * Var(S), and of t(t - 1) / 2, the tied pairs. v is sorted.
 */
static void
tie_terms(const double *v, size_t n, double *var_term, double *tied_pairs)
{
	*var_term = 0;
	*tied_pairs = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		while (j < n && v[j] == v[i])
			j++;
		double t = (double)(j - i);
		*var_term += t * (t - 1) * (2 * t + 5);
		*tied_pairs += t * (t - 1) / 2;
		i = j;
	}
}

/* tie_terms() of the values of v, in any order (copied and sorted). */
static void
tie_terms_of(const double *v, size_t n, double *var_term, double *tied_pairs)
{
	double *sorted = xmalloc(n * sizeof(*sorted));
	memcpy(sorted, v, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_double);
	tie_terms(sorted, n, var_term, tied_pairs);
	free(sorted);
}

int
trend_mann_kendall(const double *y, size_t n, struct trend_mk *out)
{
	memset(out, 0, sizeof(*out));
	if (n < 3)
		return -1;
	int64_t s = 0;
	for (size_t k = 0; k + 1 < n; k++)
		for (size_t j = k + 1; j < n; j++)
			s += (y[j] > y[k]) - (y[j] < y[k]);
	double ties, tied_pairs;
	tie_terms_of(y, n, &ties, &tied_pairs);
	double dn = (double)n;
	double var = (dn * (dn - 1) * (2 * dn + 5) - ties) / 18;
	if (!(var > 0))
		return -1;
	double n0 = dn * (dn - 1) / 2;
	out->s = s;
	out->var_s = var;
	out->factor = 1;
	out->z = s > 0 ? ((double)s - 1) / sqrt(var) : s < 0 ? ((double)s + 1) / sqrt(var) : 0;
	out->p = trend_normal_p2(out->z);
	out->tau = (double)s / sqrt((n0 - tied_pairs) * n0);
	return 0;
}

void
trend_mk_inflate(struct trend_mk *mk, double factor)
{
	double var = mk->var_s / mk->factor * factor;
	mk->var_s = var;
	mk->factor = factor;
	mk->z = mk->s > 0 ? ((double)mk->s - 1) / sqrt(var)
	      : mk->s < 0 ? ((double)mk->s + 1) / sqrt(var) : 0;
	mk->p = trend_normal_p2(mk->z) / 2;
}

double
trend_ar1_factor(double rho, size_t n)
{
	if (!(rho > 0) || n < 3)
		return 1;
	double dn = (double)n, sum = 0, rk = 1;
	for (size_t k = 1; k < n; k++) {
		rk *= rho;
		double dk = (double)k;
		sum += (dn - dk) * (dn - dk - 1) * (dn - dk - 2) * (6 / PI) * asin(rk / 2);
	}
	double f = 1 + 2 / (dn * (dn - 1) * (dn - 2)) * sum;
	return f < 1 ? 1 : f;
}

double
trend_residual(double y, double fit)
{
	double d = y - fit;
	return fabs(d) <= 1e-12 * fmax(fabs(y), fabs(fit)) ? 0 : d;
}

/*
 * The lag-1 sample autocorrelation of e[0..n) about its mean, r1 = num /
 * den; false when the series is constant (den = 0).
 */
static bool
lag1_raw(const double *e, size_t n, double *r1)
{
	double m = 0, num = 0, den = 0;
	for (size_t i = 0; i < n; i++)
		m += e[i];
	m /= (double)n;
	for (size_t i = 0; i < n; i++) {
		den += (e[i] - m) * (e[i] - m);
		if (i + 1 < n)
			num += (e[i] - m) * (e[i + 1] - m);
	}
	if (!(den > 0))
		return false;
	*r1 = num / den;
	return true;
}

double
trend_lag1(const double *e, size_t n)
{
	double r;
	if (n < 4 || !lag1_raw(e, n, &r))
		return 0;
	r += (1 + 4 * r) / (double)n;
	return r > 0.9 ? 0.9 : r < -0.9 ? -0.9 : r;
}

double
trend_lag1_fit(const double *e, size_t n, size_t k)
{
	double dn = (double)n, dk = (double)k;
	if (n < 4 || !(dn - 2 * dk - 2 > 0))
		return 0;
	double r1;
	if (!lag1_raw(e, n, &r1))
		return 0;
	double r = (dn * r1 + dk) / (dn - 2 * dk - 2);
	return r > 0.9 ? 0.9 : r < -0.9 ? -0.9 : r;
}

/* The tie term of Var(S) for the values of v. */
static double
tie_var_term(const double *v, size_t n)
{
	double term, pairs;
	tie_terms_of(v, n, &term, &pairs);
	return term;
}

int
trend_theil_sen(const double *x, const double *y, size_t n, struct trend_ts *out)
{
	return trend_theil_sen_f(x, y, n, 1, out);
}

int
trend_theil_sen_f(const double *x, const double *y, size_t n, double factor,
		  struct trend_ts *out)
{
	memset(out, 0, sizeof(*out));
	size_t cap = n > 1 ? n * (n - 1) / 2 : 0, m = 0;
	double *slopes = xmalloc((cap ? cap : 1) * sizeof(*slopes));
	for (size_t i = 0; i + 1 < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (x[j] != x[i])
				slopes[m++] = (y[j] - y[i]) / (x[j] - x[i]);
	if (m == 0) {
		free(slopes);
		return -1;
	}
	out->slope = trend_median(slopes, m);
	out->npairs = m;

	/*
	 * Sen (1968) eq. 2.6: C = z sqrt(Var S) with Var S tie-corrected for x
	 * and y; the bounds are the slopes of ranks (N - C)/2 and (N + C)/2
	 * (1-based), rounded half to even (nearbyint), clamped to the slopes.
	 */
	double dn = (double)n, dm = (double)m;
	double var = (dn * (dn - 1) * (2 * dn + 5) - tie_var_term(x, n) - tie_var_term(y, n)) / 18;
	var *= factor;
	double c = var > 0 ? TREND_Z_975 * sqrt(var) : 0;
	double ru = nearbyint((dm + c) / 2), rl = nearbyint((dm - c) / 2) - 1;
	size_t iu = ru >= dm - 1 ? m - 1 : (size_t)ru;
	size_t il = rl <= 0 ? 0 : (size_t)rl;
	/* Each selection leaves the array a permutation: order statistics stay exact. */
	out->lo = trend_select(slopes, m, il);
	out->hi = trend_select(slopes, m, iu);

	double *resid = slopes;   /* n <= m + 1 is not guaranteed: reuse only when it fits */
	if (n > cap)
		resid = xmalloc(n * sizeof(*resid));
	for (size_t i = 0; i < n; i++)
		resid[i] = y[i] - out->slope * x[i];
	out->intercept = trend_median(resid, n);
	if (resid != slopes)
		free(resid);
	free(slopes);
	return 0;
}

struct ranked_p {
	double p;
	size_t index;
};

static int
cmp_ranked(const void *a, const void *b)
{
	const struct ranked_p *x = a, *y = b;
	if (x->p != y->p)
		return x->p < y->p ? -1 : 1;
	return (x->index > y->index) - (x->index < y->index);
}

void
trend_bh_adjust(const double *p, size_t m, double *q)
{
	if (m == 0)
		return;
	struct ranked_p *r = xmalloc(m * sizeof(*r));
	for (size_t i = 0; i < m; i++)
		r[i] = (struct ranked_p){ p[i], i };
	qsort(r, m, sizeof(*r), cmp_ranked);
	double running = 1;
	for (size_t k = m; k-- > 0;) {
		double v = r[k].p * (double)m / (double)(k + 1);
		if (v < running)
			running = v;
		q[r[k].index] = running;
	}
	free(r);
}
