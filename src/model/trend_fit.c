#include "model/trend_fit.h"

#include "model/trend_stats.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdlib.h>

/*
 * Least squares of y on u: slope, intercept, RSS; false when u does not
 * vary. trend.c's line_t_of() fits the same line but snaps residuals at the
 * rounding level (trend_residual) for its t; here the raw RSS ranks
 * breakpoints and only the best is snapped, so the two stay apart (see
 * there).
 */
static bool
ols(const double *u, const double *y, size_t n, double *b, double *a, double *rss,
    double *suu_out)
{
	double mu = 0, my = 0;
	for (size_t i = 0; i < n; i++) {
		mu += u[i];
		my += y[i];
	}
	mu /= (double)n;
	my /= (double)n;
	double suu = 0, suy = 0;
	for (size_t i = 0; i < n; i++) {
		suu += (u[i] - mu) * (u[i] - mu);
		suy += (u[i] - mu) * (y[i] - my);
	}
	if (!(suu > 0))
		return false;
	*b = suy / suu;
	*a = my - *b * mu;
	/* Summed directly, not as Syy - b Suy: no cancellation on an exact fit. */
	double r = 0;
	for (size_t i = 0; i < n; i++) {
		double e = y[i] - (*a + *b * u[i]);
		r += e * e;
	}
	*rss = r;
	*suu_out = suu;
	return true;
}

int
trend_plateau_fit(const double *x, const double *y, size_t n, size_t min_tail,
		  struct trend_plateau *out)
{
	if (min_tail < 2 || n < min_tail + 2)
		return -1;
	double *u = xmalloc(n * sizeof(*u));
	double best = INFINITY, best_a = 0, best_b = 0, best_suu = 0;
	size_t best_e = 0;
	for (size_t e = 1; e + min_tail <= n; e++) {
		for (size_t i = 0; i < n; i++)
			u[i] = x[i] < x[e] ? x[i] : x[e];
		double a, b, rss, suu;
		if (ols(u, y, n, &b, &a, &rss, &suu) && rss < best) {
			best = rss;
			best_e = e;
			best_a = a;
			best_b = b;
			best_suu = suu;
		}
	}
	/* An exact fit up to rounding in the sums: no noise left. */
	double scale = 0;
	for (size_t i = 0; i < n; i++)
		scale = fmax(scale, fabs(y[i]));
	if (best <= 1e-24 * (double)n * scale * scale)
		best = 0;
	double la, lb, lrss, lsuu;
	if (best_e == 0 || !ols(x, y, n, &lb, &la, &lrss, &lsuu)) {
		free(u);
		return -1;
	}
	out->end = best_e;
	out->slope = best_b;
	out->start = best_a + best_b * x[0];
	out->rise = best_b * (x[best_e] - x[0]);
	out->rss = best;
	out->rss_line = lrss;
	out->sigma = sqrt(best / (double)(n - 3));
	out->se_slope = out->sigma / sqrt(best_suu);
	for (size_t i = 0; i < n; i++)
		u[i] = trend_residual(y[i], best_a + best_b * (x[i] < x[best_e] ? x[i] : x[best_e]));
	out->rho = trend_lag1(u, n);
	free(u);
	return 0;
}

/* Sum of squares about the mean of y[a..b), from prefix sums. */
static double
seg_ss(const double *s1, const double *s2, size_t a, size_t b, double *mean)
{
	double k = (double)(b - a), sum = s1[b] - s1[a];
	*mean = sum / k;
	double ss = (s2[b] - s2[a]) - sum * sum / k;
	return ss > 0 ? ss : 0;
}

int
trend_stairs_fit(const double *y, size_t n, size_t min_seg, struct trend_stairs *out)
{
	if (min_seg < 1 || n < 3 * min_seg)
		return -1;
	/* Centred first: prefix sums of squares of large byte counts lose nothing. */
	double *s1 = xmalloc((n + 1) * sizeof(*s1)), *s2 = xmalloc((n + 1) * sizeof(*s2));
	double c = y[0];
	s1[0] = s2[0] = 0;
	for (size_t i = 0; i < n; i++) {
		s1[i + 1] = s1[i] + (y[i] - c);
		s2[i + 1] = s2[i] + (y[i] - c) * (y[i] - c);
	}
	out->rss = INFINITY;
	for (size_t a1 = min_seg; a1 + 2 * min_seg <= n; a1++)
		for (size_t a2 = a1 + min_seg; a2 + min_seg <= n; a2++) {
			double m[3];
			double rss = seg_ss(s1, s2, 0, a1, &m[0]) + seg_ss(s1, s2, a1, a2, &m[1]) +
				     seg_ss(s1, s2, a2, n, &m[2]);
			if (rss < out->rss) {
				out->rss = rss;
				out->at1 = a1;
				out->at2 = a2;
				for (int k = 0; k < 3; k++)
					out->level[k] = m[k] + c;
			}
		}
	free(s1);
	free(s2);
	return 0;
}
