#ifndef IOTALLY_MODEL_TREND_STATS_H
#define IOTALLY_MODEL_TREND_STATS_H

/*
 * Trend statistics for short series (3 to a few hundred samples): pure
 * functions over arrays the caller owns, no allocation visible outside.
 * docs/trend.md gives every formula with its reference.
 *
 *   trend_mann_kendall  Mann-Kendall S, tie-corrected Var(S), continuity-
 *                       corrected z, two-sided normal p, Kendall's tau-b
 *   trend_theil_sen     Theil-Sen slope (median of pairwise slopes) with
 *                       the distribution-free interval of Sen (1968) eq. 2.6
 *   trend_bh_adjust     Benjamini-Hochberg (1995) adjusted p-values
 *
 * Values are doubles: byte counts up to 2^53 are exact, and above that the
 * relative error (1e-16) is far below what a trend can resolve.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The standard normal quantile for a two-sided 95 % interval. */
#define TREND_Z_975 1.959963984540054

struct trend_mk {
	int64_t s;       /* sum over k < j of sgn(y_j - y_k) */
	double var_s;    /* tie-corrected variance of S, times `factor` */
	double factor;   /* variance inflation for correlated samples (1: none) */
	double z;        /* (S - sgn S) / sqrt(Var S); 0 when S = 0 */
	double p;        /* two-sided, from the normal approximation */
	double tau;      /* S / sqrt((n0 - n1) n0), n1 = tied pairs of y */
};

/*
 * Mann-Kendall over y[0..n) in order. 0, or -1 when n < 3 or Var(S) is 0
 * (every value equal): there is no test then.
 */
int trend_mann_kendall(const double *y, size_t n, struct trend_mk *out);

/*
 * Multiply Var(S) by `factor` (n / n* of Hamed & Rao 1998) and work out z
 * and p again: the test for correlated samples.
 */
void trend_mk_inflate(struct trend_mk *mk, double factor);

/*
 * Hamed & Rao's (1998) n / n* for noise that is AR(1) with lag-1
 * correlation rho, taking the ranks' autocorrelation as that of Gaussian
 * AR(1) noise, r_k = (6 / pi) asin(rho^k / 2):
 *   n / n* = 1 + 2 / (n (n-1) (n-2)) sum_{k=1}^{n-1} (n-k)(n-k-1)(n-k-2) r_k
 * At least 1 (rho <= 0 or n < 3 give 1).
 */
double trend_ar1_factor(double rho, size_t n);

/*
 * y - fit, or 0 when they differ only by the rounding of doubles (a
 * relative 1e-12): the residual of an exact fit is 0, not rounding noise
 * whose correlation would mean nothing.
 */
double trend_residual(double y, double fit);

/*
 * Lag-1 autocorrelation of e[0..n) about its mean, plus the small-sample
 * bias term (1 + 4 r) / n (Kendall 1954; the estimator of
 * ../shared/trend-methods.md R2), capped to [-0.9, 0.9]. 0 when n < 4 or
 * e has no spread.
 */
double trend_lag1(const double *e, size_t n);

/*
 * Lag-1 autocorrelation r of the residuals e[0..n) of a fit with k
 * parameters, corrected for its bias: E r ~ rho - (k + (2k + 2) rho) / n,
 * Kendall's (1954) (1 + 4 rho) / n for k = 1 (the mean), and for k = 2 (a
 * line) and 3 (a line with a breakpoint) measured by simulation to within
 * 0.5 / n; inverted, rho = (n r + k) / (n - 2k - 2). Capped to [-0.9, 0.9];
 * 0 when n < 4, n <= 2k + 2 or e has no spread.
 */
double trend_lag1_fit(const double *e, size_t n, size_t k);

struct trend_ts {
	double slope;            /* median of the pairwise slopes */
	double lo, hi;           /* 95 % interval (Sen 1968, eq. 2.6) */
	double intercept;        /* median of y_i - slope * x_i */
	size_t npairs;           /* pairs with x_i != x_j */
};

/*
 * Theil-Sen over the points (x_i, y_i), i < n. Pairs with equal x carry no
 * slope and are skipped. 0, or -1 when fewer than two points differ in x.
 */
int trend_theil_sen(const double *x, const double *y, size_t n, struct trend_ts *out);
/* The same with Var S multiplied by `factor` for the interval (correlated samples). */
int trend_theil_sen_f(const double *x, const double *y, size_t n, double factor,
		      struct trend_ts *out);

/*
 * Benjamini-Hochberg adjusted p-values: q[i] = min over the p-values ranked
 * at or above p[i] of p_(j) m / j, capped at 1. Rejecting every q <= a keeps
 * the false discovery rate at or below a (independent or positively
 * dependent tests). p and q may be the same array.
 */
void trend_bh_adjust(const double *p, size_t m, double *q);

/* The median of v[0..n), n > 0; reorders v (a selection, not a full sort). */
double trend_median(double *v, size_t n);
/*
 * The k-th smallest of v[0..n) (0-based, k < n), exactly as v sorted
 * would have it at k; reorders v. Linear expected time, n log n at worst.
 */
double trend_select(double *v, size_t n, size_t k);

/* Two-sided p-value of a standard normal z: erfc(|z| / sqrt 2). */
double trend_normal_p2(double z);

#endif
