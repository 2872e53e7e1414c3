/*
 * Trend statistics against values worked out by hand. Each case shows its
 * arithmetic; where a normal tail is needed, the figure is
 * erfc(|z| / sqrt 2) from Python's math.erfc, an implementation separate
 * from the C library's.
 */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/trend_fit.h"
#include "model/trend_stats.h"

#include <math.h>

#define EPS 1e-9

/* cmocka's assert_float_equal rounds to float: compare doubles here. */
#define assert_near(a, b, eps) assert_near_at((a), (b), (eps), #a)
static void
assert_near_at(double a, double b, double eps, const char *what)
{
	if (!(fabs(a - b) <= eps))
		fail_msg("%s = %.17g, expected %.17g", what, a, b);
}

/*
 * y = 10, 15, 14, 20 (no ties). Pairs k < j: (10,15) +, (10,14) +,
 * (10,20) +, (15,14) -, (15,20) +, (14,20) + => S = 5 - 1 = 4.
 * Var S = n(n-1)(2n+5)/18 = 4*3*13/18 = 8.6667; z = (S - 1)/sqrt(Var) =
 * 3/2.94392 = 1.0190493; p = 0.3081795; tau = S / (n(n-1)/2) = 4/6.
 */
static void
test_mk_no_ties(void **state)
{
	(void)state;
	const double y[] = { 10, 15, 14, 20 };
	struct trend_mk mk;
	assert_int_equal(trend_mann_kendall(y, 4, &mk), 0);
	assert_int_equal(mk.s, 4);
	assert_near(mk.var_s, 156.0 / 18, EPS);
	assert_near(mk.z, 1.0190493307301363, EPS);
	assert_near(mk.p, 0.308179547467054, EPS);
	assert_near(mk.tau, 4.0 / 6, EPS);
}

/*
 * y = 1, 2, 2, 3, 3, 3. S: 1 against the five later values +5; first 2:
 * 0 +1 +1 +1 = +3; second 2: +3; the 3s among themselves 0 => S = 11.
 * Tie groups t = 2 and t = 3: Var S = [6*5*17 - 2*1*9 - 3*2*11]/18 =
 * (510 - 18 - 66)/18 = 426/18; z = 10/sqrt(23.667) = 2.0555661,
 * p = 0.0398244. Tied pairs n1 = 1 + 3 = 4, n0 = 15: tau-b =
 * 11/sqrt(11 * 15) = 0.8563488.
 */
static void
test_mk_ties(void **state)
{
	(void)state;
	const double y[] = { 1, 2, 2, 3, 3, 3 };
	struct trend_mk mk;
	assert_int_equal(trend_mann_kendall(y, 6, &mk), 0);
	assert_int_equal(mk.s, 11);
	assert_near(mk.var_s, 426.0 / 18, EPS);
	assert_near(mk.z, 2.055566129482595, EPS);
	assert_near(mk.p, 0.039824355364810736, EPS);
	assert_near(mk.tau, 0.8563488385776753, EPS);
}

/* A falling series mirrors a rising one: S and z change sign, p stays. */
static void
test_mk_falling(void **state)
{
	(void)state;
	const double y[] = { 20, 14, 15, 10 };
	struct trend_mk mk;
	assert_int_equal(trend_mann_kendall(y, 4, &mk), 0);
	assert_int_equal(mk.s, -4);
	assert_near(mk.z, -1.0190493307301363, EPS);
	assert_near(mk.p, 0.308179547467054, EPS);
}

/* No test without variance or with fewer than three values. */
static void
test_mk_degenerate(void **state)
{
	(void)state;
	const double flat[] = { 7, 7, 7, 7, 7 };
	const double two[] = { 1, 2 };
	struct trend_mk mk;
	assert_int_equal(trend_mann_kendall(flat, 5, &mk), -1);
	assert_int_equal(trend_mann_kendall(two, 2, &mk), -1);
}

/*
 * x = 1..5, y = 1, 2, 3, 4, 10 (one outlier). Pairwise slopes: six of 1
 * (every pair among the first four), 9/4, 8/3, 7/2, 6. Sorted, N = 10; the
 * median of ranks 5 and 6 is 1 (least squares would say 2).
 * Interval (Sen 1968, eq. 2.6): Var S = 5*4*15/18 = 16.667, C = 1.96 *
 * 4.0825 = 8.0016; upper rank round((10 + C)/2) = 9 (0-based, the last:
 * 6), lower rank round((10 - C)/2) - 1 = 0 (1). Intercept: median of
 * y - x = 0, 0, 0, 0, 5 = 0.
 */
static void
test_ts_outlier(void **state)
{
	(void)state;
	const double x[] = { 1, 2, 3, 4, 5 }, y[] = { 1, 2, 3, 4, 10 };
	struct trend_ts ts;
	assert_int_equal(trend_theil_sen(x, y, 5, &ts), 0);
	assert_int_equal(ts.npairs, 10);
	assert_near(ts.slope, 1, EPS);
	assert_near(ts.lo, 1, EPS);
	assert_near(ts.hi, 6, EPS);
	assert_near(ts.intercept, 0, EPS);
}

/*
 * x = 1..10, y = x + 1 for odd x, x + 2 for even x. A pair of the same
 * parity has slope 1 (20 pairs); odd i < even j: 1 + 1/d with d = j - i
 * odd (15 pairs: d = 1 x5 -> 2, 3 x4 -> 4/3, 5 x3 -> 6/5, 7 x2 -> 8/7,
 * 9 x1 -> 10/9); even i < odd j: 1 - 1/d (10 pairs, all below 1).
 * Sorted: 10 below 1, 20 ones, 15 above. Median (23rd of 45) = 1.
 * Var S = 10*9*25/18 = 125, C = 1.96 * 11.1803 = 21.913; upper 0-based
 * rank round(33.457) = 33: the 4th value above 1 (10/9, 8/7, 8/7, 6/5)
 * = 6/5; lower rank round(11.543) - 1 = 11: a 1. Intercept: median of
 * y - x (five 1s, five 2s) = 1.5.
 */
static void
test_ts_zigzag(void **state)
{
	(void)state;
	double x[10], y[10];
	for (int i = 0; i < 10; i++) {
		x[i] = i + 1;
		y[i] = x[i] + ((i + 1) % 2 ? 1 : 2);
	}
	struct trend_ts ts;
	assert_int_equal(trend_theil_sen(x, y, 10, &ts), 0);
	assert_int_equal(ts.npairs, 45);
	assert_near(ts.slope, 1, EPS);
	assert_near(ts.lo, 1, EPS);
	assert_near(ts.hi, 1.2, EPS);
	assert_near(ts.intercept, 1.5, EPS);
}

/*
 * Ties in x (two samples at the same time): x = 1, 1, 2, 3,
 * y = 1, 3, 2, 5. The pair at x = 1 has no slope; the other five are
 * 1, 2, -1, 1, 3 -> sorted -1 1 1 2 3, median 1. Var S =
 * (4*3*13 - 2*1*9)/18 = 7.667 (the x tie), C = 5.427: upper rank
 * round(5.21) = 5 clamps to 4 (3), lower round(-0.21) - 1 clamps to 0
 * (-1). Intercept: median of y - x = 0, 2, 0, 2 = 1.
 */
static void
test_ts_tied_x(void **state)
{
	(void)state;
	const double x[] = { 1, 1, 2, 3 }, y[] = { 1, 3, 2, 5 };
	struct trend_ts ts;
	assert_int_equal(trend_theil_sen(x, y, 4, &ts), 0);
	assert_int_equal(ts.npairs, 5);
	assert_near(ts.slope, 1, EPS);
	assert_near(ts.lo, -1, EPS);
	assert_near(ts.hi, 3, EPS);
	assert_near(ts.intercept, 1, EPS);
}

static void
test_ts_degenerate(void **state)
{
	(void)state;
	const double x[] = { 4, 4, 4 }, y[] = { 1, 2, 3 };
	struct trend_ts ts;
	assert_int_equal(trend_theil_sen(x, y, 3, &ts), -1);
	assert_int_equal(trend_theil_sen(x, y, 1, &ts), -1);
}

/*
 * Benjamini & Hochberg (1995), section 4: the 15 p-values of Neuhaus et
 * al.; at q = 0.05 the procedure rejects the four smallest (p <= 0.0095).
 * Adjusted values by hand: p(4) * 15/4 = 0.035625; p(6) * 15/6 = 0.0695 is
 * above p(7) * 15/7 = 0.0638571, so q(6) = q(7) = 0.0638571; the largest
 * stays 1. The input is shuffled: q follows each p to its place.
 */
static void
test_bh_paper(void **state)
{
	(void)state;
	const double sorted[15] = { 0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298,
				    0.0344, 0.0459, 0.3240, 0.4262, 0.5719, 0.6528, 0.7590,
				    1.000 };
	const size_t order[15] = { 7, 0, 14, 3, 10, 5, 1, 12, 6, 9, 2, 13, 4, 11, 8 };
	double p[15], q[15];
	for (size_t i = 0; i < 15; i++)
		p[i] = sorted[order[i]];
	trend_bh_adjust(p, 15, q);
	size_t rejected = 0;
	for (size_t i = 0; i < 15; i++) {
		rejected += q[i] <= 0.05;
		if (order[i] == 3)
			assert_near(q[i], 0.0095 * 15 / 4, EPS);
		if (order[i] == 5 || order[i] == 6)
			assert_near(q[i], 0.0298 * 15 / 7, EPS);
		if (order[i] == 14)
			assert_near(q[i], 1, EPS);
		if (order[i] == 0)
			assert_near(q[i], 0.0001 * 15, EPS);
	}
	assert_int_equal(rejected, 4);
	/* In place. */
	trend_bh_adjust(p, 15, p);
	assert_memory_equal(p, q, sizeof(q));
}

static void
test_median(void **state)
{
	(void)state;
	double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 };
	assert_near(trend_median(odd, 3), 3, EPS);
	assert_near(trend_median(even, 4), 2.5, EPS);
}

static int
cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/*
 * The selection gives what a full sort has at each rank, on orders that
 * trouble a quickselect (sorted, reversed, all equal, organ pipe, few
 * distinct values) and on pseudo-random ones.
 */
static void
test_select_matches_sort(void **state)
{
	(void)state;
	enum { N = 257 };
	static double v[N], sorted[N], work[N];
	uint32_t seed = 12345;
	for (int shape = 0; shape < 6; shape++) {
		for (size_t n = 1; n <= N; n += (n < 12 ? 1 : 37)) {
			for (size_t i = 0; i < n; i++) {
				seed = seed * 1103515245u + 12345u;
				switch (shape) {
				case 0: v[i] = (double)i; break;
				case 1: v[i] = (double)(n - i); break;
				case 2: v[i] = 7; break;
				case 3: v[i] = (double)(i < n / 2 ? i : n - i); break;
				case 4: v[i] = (double)((seed >> 16) % 3); break;
				default: v[i] = (double)(seed >> 8) / 65536.0 - 64; break;
				}
			}
			memcpy(sorted, v, n * sizeof(*v));
			qsort(sorted, n, sizeof(*sorted), cmp_dbl);
			for (size_t k = 0; k < n; k++) {
				memcpy(work, v, n * sizeof(*v));
				assert_true(trend_select(work, n, k) == sorted[k]);
			}
			memcpy(work, v, n * sizeof(*v));
			double med = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
			assert_true(trend_median(work, n) == med);
		}
	}
}


/*
 * Hamed-Rao's n/n* for AR(1) noise with rho = 0.5 (../shared/trend-methods.md
 * worked example c): r_k = (6/pi) asin(0.5^k / 2), r_1 = 0.48256;
 * n = 5: 1 + (24 r_1 + 6 r_2) / 30 = 1.433939 (the other terms are 0);
 * 12, 24, 50: 2.119634, 2.482051, 2.700710 (Python's math.asin, summed
 * term by term). rho <= 0 gives 1.
 */
static void
test_ar1_factor(void **state)
{
	(void)state;
	assert_near(trend_ar1_factor(0.5, 5), 1.4339386968345198, 1e-12);
	assert_near(trend_ar1_factor(0.5, 12), 2.1196340387144748, 1e-12);
	assert_near(trend_ar1_factor(0.5, 24), 2.4820513862232123, 1e-12);
	assert_near(trend_ar1_factor(0.5, 50), 2.700710155296317, 1e-12);
	assert_near(trend_ar1_factor(0, 12), 1, 0);
	assert_near(trend_ar1_factor(-0.3, 12), 1, 0);
}

/*
 * e = 1, 2, 3, 4: deviations -1.5 -0.5 0.5 1.5, lag-1 products 0.75 -0.25
 * 0.75 = 1.25 over 5 = 0.25, plus the bias term (1 + 4 * 0.25) / 4 = 0.5:
 * 0.75. An alternating series gives -0.75 - 0.5 = -1.25, capped at -0.9.
 */
static void
test_lag1(void **state)
{
	(void)state;
	const double up[] = { 1, 2, 3, 4 }, alt[] = { 1, -1, 1, -1 }, flat[] = { 2, 2, 2, 2 };
	assert_near(trend_lag1(up, 4), 0.75, EPS);
	assert_near(trend_lag1(alt, 4), -0.9, EPS);
	assert_near(trend_lag1(flat, 4), 0, 0);
	assert_near(trend_lag1(up, 3), 0, 0);
	assert_near(trend_residual(1e9, 1e9 + 1e-4), 0, 0);
	assert_near(trend_residual(10, 7), 3, 0);
}

/*
 * The bias-corrected estimate for residuals of a fit with k parameters,
 * (n r + k) / (n - 2k - 2). e = 2 0 1 3 1 0 2 1 0 0 (n = 10): mean 1,
 * deviations 1 -1 0 2 0 -1 1 0 -1 -1, squares summing to 10, lag-1
 * products -1 0 0 0 0 -1 0 0 1 = -1, so r = -0.1 and n r = -1:
 * k = 1 (Kendall's (1 + 4 rho) / n inverted): (-1 + 1) / 6 = 0;
 * k = 2 (a line): (-1 + 2) / 4 = 0.25; k = 3: (-1 + 3) / 2 = 1, capped at
 * 0.9; k = 4: n - 2k - 2 = 0, no estimate (0).
 */
static void
test_lag1_fit(void **state)
{
	(void)state;
	const double e[] = { 2, 0, 1, 3, 1, 0, 2, 1, 0, 0 };
	const double flat[] = { 3, 3, 3, 3, 3, 3, 3, 3, 3, 3 };
	assert_near(trend_lag1_fit(e, 10, 1), 0, EPS);
	assert_near(trend_lag1_fit(e, 10, 2), 0.25, EPS);
	assert_near(trend_lag1_fit(e, 10, 3), 0.9, EPS);
	assert_near(trend_lag1_fit(e, 10, 4), 0, 0);
	assert_near(trend_lag1_fit(flat, 10, 2), 0, 0);
	assert_near(trend_lag1_fit(e, 3, 0), 0, 0);
}

/*
 * ../shared/trend-methods.md worked example a): y = 1,2,3,3,3,3,3,3:
 * S = 13, Var S = (8*7*21 - 6*5*17)/18 = 37, z = 12/sqrt 37 = 1.9728.
 * With Var S doubled: z = 12/sqrt 74 = 1.3949717, one-sided p =
 * erfc(z/sqrt 2)/2 = 0.0815122.
 */
static void
test_mk_inflate(void **state)
{
	(void)state;
	const double y[] = { 1, 2, 3, 3, 3, 3, 3, 3 };
	struct trend_mk mk;
	assert_int_equal(trend_mann_kendall(y, 8, &mk), 0);
	assert_int_equal(mk.s, 13);
	assert_near(mk.var_s, 37, EPS);
	assert_near(mk.z, 12 / sqrt(37), EPS);
	trend_mk_inflate(&mk, 2);
	assert_near(mk.var_s, 74, EPS);
	assert_near(mk.factor, 2, 0);
	assert_near(mk.z, 1.3949716649258315, EPS);
	assert_near(mk.p, 0.08151219215328517, 1e-12);
	trend_mk_inflate(&mk, 1);   /* back to the plain test */
	assert_near(mk.var_s, 37, EPS);
}

/*
 * The same y against x = 0..7: the plateau y = 1 + min(x, 2) fits exactly
 * (RSS 0) with the tail from index 2, rise 2, slope 1. The line: mean x
 * 3.5, mean y 2.625, Sxx 42, Sxy 9.5, Syy 3.875, RSS = 3.875 - 9.5^2/42 =
 * 1.7261905. The tail must be 4 points or more: a tail of 7 points leaves
 * too few to rise.
 */
static void
test_plateau_fit(void **state)
{
	(void)state;
	const double x[] = { 0, 1, 2, 3, 4, 5, 6, 7 }, y[] = { 1, 2, 3, 3, 3, 3, 3, 3 };
	struct trend_plateau pl;
	assert_int_equal(trend_plateau_fit(x, y, 8, 4, &pl), 0);
	assert_int_equal(pl.end, 2);
	assert_near(pl.rss, 0, 1e-12);
	assert_near(pl.slope, 1, 1e-12);
	assert_near(pl.rise, 2, 1e-12);
	assert_near(pl.start, 1, 1e-12);
	assert_near(pl.rss_line, 3.875 - 9.5 * 9.5 / 42, 1e-12);
	assert_int_equal(trend_plateau_fit(x, y, 8, 7, &pl), -1);
}

/*
 * y = 0 0 0 5 5 5 9 9 9 (+1 on the last of each level): levels 0, 5, 9
 * with breaks at 3 and 6 are the best three-level fit, means 1/3, 16/3
 * and 28/3, RSS = 3 * (2 * (1/3)^2 + (2/3)^2) = 2.
 */
static void
test_stairs_fit(void **state)
{
	(void)state;
	const double y[] = { 0, 0, 1, 5, 5, 6, 9, 9, 10 };
	struct trend_stairs st;
	assert_int_equal(trend_stairs_fit(y, 9, 2, &st), 0);
	assert_int_equal(st.at1, 3);
	assert_int_equal(st.at2, 6);
	assert_near(st.level[0], 1.0 / 3, 1e-12);
	assert_near(st.level[1], 16.0 / 3, 1e-12);
	assert_near(st.level[2], 28.0 / 3, 1e-12);
	assert_near(st.rss, 2, 1e-9);
	assert_int_equal(trend_stairs_fit(y, 5, 2, &st), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mk_no_ties),
		cmocka_unit_test(test_mk_ties),
		cmocka_unit_test(test_mk_falling),
		cmocka_unit_test(test_mk_degenerate),
		cmocka_unit_test(test_ts_outlier),
		cmocka_unit_test(test_ts_zigzag),
		cmocka_unit_test(test_ts_tied_x),
		cmocka_unit_test(test_ts_degenerate),
		cmocka_unit_test(test_bh_paper),
		cmocka_unit_test(test_median),
		cmocka_unit_test(test_select_matches_sort),
		cmocka_unit_test(test_ar1_factor),
		cmocka_unit_test(test_lag1),
		cmocka_unit_test(test_lag1_fit),
		cmocka_unit_test(test_mk_inflate),
		cmocka_unit_test(test_plateau_fit),
		cmocka_unit_test(test_stairs_fit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
