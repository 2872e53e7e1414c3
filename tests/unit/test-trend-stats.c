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
#include <string.h>

#include <cmocka.h>

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
	assert_near(trend_median_sort(odd, 3), 3, EPS);
	assert_near(trend_median_sort(even, 4), 2.5, EPS);
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
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
