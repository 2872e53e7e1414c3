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
	double var_s;    /* tie-corrected variance of S */
	double z;        /* (S - sgn S) / sqrt(Var S); 0 when S = 0 */
	double p;        /* two-sided, from the normal approximation */
	double tau;      /* S / sqrt((n0 - n1) n0), n1 = tied pairs of y */
};

/*
 * Mann-Kendall over y[0..n) in order. 0, or -1 when n < 3 or Var(S) is 0
 * (every value equal): there is no test then.
 */
int trend_mann_kendall(const double *y, size_t n, struct trend_mk *out);

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

/*
 * Benjamini-Hochberg adjusted p-values: q[i] = min over the p-values ranked
 * at or above p[i] of p_(j) m / j, capped at 1. Rejecting every q <= a keeps
 * the false discovery rate at or below a (independent or positively
 * dependent tests). p and q may be the same array.
 */
void trend_bh_adjust(const double *p, size_t m, double *q);

/* The median of v[0..n), n > 0; sorts v. */
double trend_median_sort(double *v, size_t n);

/* Two-sided p-value of a standard normal z: erfc(|z| / sqrt 2). */
double trend_normal_p2(double z);

#endif
