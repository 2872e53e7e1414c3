/*
 * Verdicts on small series built by construction: the shape is known
 * because the values are written out, so each verdict follows from the
 * rules of docs/trend.md, not from what the code printed.
 */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/trend.h"
#include "model/trend_sample.h"

#include <math.h>

#define MiB (1024.0 * 1024.0)

/* |a - b| <= eps, saying which value missed. */
#define assert_near(a, b, eps) assert_near_at((a), (b), (eps), #a)
static void
assert_near_at(double a, double b, double eps, const char *what)
{
	if (!(fabs(a - b) <= eps))
		fail_msg("%s = %.10g, want %.10g (within %g)", what, a, b, eps);
}

static enum trend_verdict
verdict_of(const double *v, size_t n, enum trend_unit unit, bool exempt,
	   struct trend_result *r)
{
	struct trend_params p;
	trend_params_default(&p, n);
	trend_analyse_values(v, NULL, n, unit, 0, exempt, &p, r);
	return r->verdict;
}

static void
test_default_warmup(void **state)
{
	(void)state;
	assert_int_equal(trend_default_warmup(3), 2);
	assert_int_equal(trend_default_warmup(10), 2);
	assert_int_equal(trend_default_warmup(11), 3);   /* ceil(2.2) */
	assert_int_equal(trend_default_warmup(50), 10);
}

/* 2 MiB more in every sample, with a small alternating wobble. */
static void
test_linear_leak(void **state)
{
	(void)state;
	double v[12];
	struct trend_result r;
	for (int i = 0; i < 12; i++)
		v[i] = 100 * MiB + 2 * MiB * i + (i % 2 ? 0.1 * MiB : 0);
	assert_int_equal(verdict_of(v, 12, TREND_BYTES, false, &r), TREND_LEAK);
	assert_true(r.per_sample.lo > 1.5 * MiB && r.per_sample.hi < 2.5 * MiB);
	assert_int_equal(r.n, 9);   /* warm-up max(2, ceil(2.4)) = 3 */
	/* The same growth in volatile memory is not a leak. */
	assert_int_equal(verdict_of(v, 12, TREND_BYTES, true, &r), TREND_GROWING);
}

/* Rises by 4 MiB a sample for six samples, then stays at the top. */
static void
test_plateau(void **state)
{
	(void)state;
	double v[16];
	struct trend_result r;
	for (int i = 0; i < 16; i++)
		v[i] = 50 * MiB + 4 * MiB * (i < 9 ? i : 9) + (i % 3) * 0.05 * MiB;
	assert_int_equal(verdict_of(v, 16, TREND_BYTES, false, &r), TREND_PLATEAU);
	assert_string_equal(r.why, "rose significantly, then growth stopped");
	assert_false(r.step);
	assert_true(r.half.lo <= 0);
	/* Warm-up ceil(3.2) = 4: samples 4..8 rise by 4 MiB each, 9..15 are flat. */
	assert_int_equal(r.n, 12);
}

/* Flat at 40, one jump to 60 after the 8th sample, flat again. */
static void
test_step(void **state)
{
	(void)state;
	double v[14];
	struct trend_result r;
	for (int i = 0; i < 14; i++)
		v[i] = (i < 8 ? 40 : 60) + (i % 2);
	assert_int_equal(verdict_of(v, 14, TREND_COUNT, false, &r), TREND_STEP);
	assert_string_equal(r.why, "one jump between two flat stretches");
	assert_int_equal(r.n, 11);
	assert_int_equal(r.step_at, 8);
	/*
	 * The step is sized over every sample (it must be a step with the
	 * warm-up too): medians 40.5 before (40, 41, ... eight values), 60.5
	 * after.
	 */
	assert_true(r.step_size == 20);
}

/* A wobble with no direction. */
static void
test_flat(void **state)
{
	(void)state;
	const double w[] = { 3, -1, 2, 0, -2, 1, 3, -3, 0, 2, -1, 1 };
	double v[12];
	struct trend_result r;
	for (int i = 0; i < 12; i++)
		v[i] = 500 * MiB + w[i] * MiB;
	assert_int_equal(verdict_of(v, 12, TREND_BYTES, false, &r), TREND_STABLE);
	/* Not a fall, nor an unconfirmed rise (NO TREND): no rise at all (warm-up 3, 9 analysed). */
	assert_string_equal(r.why, "no rise above the minimum growth");
	assert_int_equal(r.n, 9);
	assert_false(r.step);
}

/* Steady growth of 0.05 MiB a sample: 0.45 MiB over the window, below 1 MiB. */
static void
test_below_floor(void **state)
{
	(void)state;
	double v[12];
	struct trend_result r;
	for (int i = 0; i < 12; i++)
		v[i] = 100 * MiB + 0.05 * MiB * i;
	assert_int_equal(verdict_of(v, 12, TREND_BYTES, false, &r), TREND_STABLE);
	assert_string_equal(r.why, "grows less than the minimum growth");
	/* The slope is found (0.05 MiB a sample), only the floor holds it back. */
	assert_true(fabs(r.per_sample.slope - 0.05 * MiB) < 1e-6 * MiB);
}

/* Five samples, two dropped as warm-up: three left, fewer than five. */
static void
test_too_few(void **state)
{
	(void)state;
	const double v[] = { 1, 2, 3, 4, 5 };
	struct trend_result r;
	assert_int_equal(verdict_of(v, 5, TREND_COUNT, false, &r), TREND_INSUFFICIENT);
	assert_string_equal(r.why, "too few samples after the warm-up");
	assert_int_equal(r.n, 3);
}

/* Three of ten analysed samples missing (> 20 %). */
static void
test_missing(void **state)
{
	(void)state;
	double v[12];
	struct trend_result r;
	for (int i = 0; i < 12; i++)
		v[i] = i % 3 == 1 && i > 2 ? NAN : 100 * i;
	assert_int_equal(verdict_of(v, 12, TREND_COUNT, false, &r), TREND_INSUFFICIENT);
	assert_string_equal(r.why, "too many samples without a value");
}

/* Hours as the axis: a slope per hour from the sample times. */
static void
test_per_hour(void **state)
{
	(void)state;
	double v[10], h[10];
	struct trend_params p;
	struct trend_result r;
	for (int i = 0; i < 10; i++) {
		h[i] = 0.25 * i;              /* every 15 minutes */
		v[i] = 1000 + 8 * i;          /* 8 a sample = 32 an hour */
	}
	trend_params_default(&p, 10);
	trend_analyse_values(v, h, 10, TREND_COUNT, 0, false, &p, &r);
	assert_true(r.has_hour);
	assert_true(fabs(r.per_hour.slope - 32) < 1e-9);
	assert_true(fabs(r.per_sample.slope - 8) < 1e-9);
	assert_int_equal(r.verdict, TREND_LEAK);
}

/* A series without a sample reorders as nothing: its arrays were never
 * allocated, and passing them to memcpy with a length of 0 is undefined
 * (the sanitizer build aborts on it). */
static void
test_series_reorder_empty(void **state)
{
	(void)state;
	struct trend_series s;
	trend_series_init(&s);
	trend_series_reorder(&s, NULL, NULL);
	assert_int_equal(s.nsamples, 0);
	trend_series_release(&s);
}

/* Absent from a complete sample = 0; reordering moves values with samples. */
static void
test_series(void **state)
{
	(void)state;
	struct trend_series s;
	trend_series_init(&s);
	for (int k = 0; k < 4; k++) {
		size_t i = trend_series_add_sample(&s, k != 3);
		trend_series_set(&s, i, "classes:Same", TREND_COUNT, true, false, 5);
		if (k >= 1)
			trend_series_set(&s, i, "classes:Late", TREND_COUNT, true, false, 10 * k);
	}
	const size_t perm[] = { 3, 2, 1, 0 };
	const double hours[] = { 0, 1, 2, NAN };
	trend_series_reorder(&s, perm, hours);
	trend_series_finish(&s);
	const struct trend_metric *late = trend_series_find(&s, "classes:Late");
	const struct trend_metric *same = trend_series_find(&s, "classes:Same");
	assert_non_null(late);
	assert_true(late->v[0] == 30 && late->v[1] == 20 && late->v[2] == 10);
	assert_true(late->v[3] == 0);   /* sample 0, complete, had none */
	assert_true(same->unchanged);
	assert_false(late->unchanged);
	assert_false(s.has_times);      /* one sample without a time */
	assert_null(trend_series_find(&s, "classes:None"));
	/* A metric absent from the incomplete sample stays missing there. */
	size_t i = trend_series_add_sample(&s, false);
	trend_series_finish(&s);
	assert_true(isnan(late->v[i]));
	trend_series_release(&s);
}

/*
 * Ranking: verdict first, then growth as a share of the start, then
 * name; unchanged metrics left out.
 */
static void
test_ranking(void **state)
{
	(void)state;
	struct trend_series s;
	struct trend_params p;
	trend_series_init(&s);
	for (int k = 0; k < 12; k++) {
		size_t i = trend_series_add_sample(&s, true);
		trend_series_set(&s, i, "a:big", TREND_COUNT, true, false, 1000 + 10 * k);
		trend_series_set(&s, i, "b:fast", TREND_COUNT, true, false, 10 + 10 * k);
		trend_series_set(&s, i, "c:flat", TREND_COUNT, true, false, 7);
		trend_series_set(&s, i, "d:wobble", TREND_COUNT, true, false, k % 2);
	}
	trend_series_finish(&s);
	trend_params_default(&p, s.nsamples);
	trend_series_analyse(&s, &p);
	const struct trend_metric **v;
	size_t n = trend_series_ranked(&s, &v);
	assert_int_equal(n, 3);
	assert_string_equal(v[0]->name, "b:fast");
	assert_string_equal(v[1]->name, "a:big");
	assert_string_equal(v[2]->name, "d:wobble");
	assert_int_equal(v[0]->r.verdict, TREND_LEAK);
	assert_int_equal(v[2]->r.verdict, TREND_STABLE);
	assert_true(v[0]->r.q >= v[0]->r.mk.p);   /* adjusted over 3 tests */
	free(v);
	trend_series_release(&s);
}


static enum trend_verdict
verdict_rounded(const double *v, size_t n, double step, struct trend_result *r)
{
	struct trend_params p;
	trend_params_default(&p, n);
	trend_analyse_values(v, NULL, n, TREND_BYTES, step, false, &p, r);
	return r->verdict;
}

/*
 * The warm-up never hides a plateau: 10, 20, then 30 eight times (counts).
 * The default warm-up (2 of 10) is the whole rise, so the analysed samples
 * do not change; over every sample y = 10 + 10 min(i, 2) fits exactly:
 * rise 20 (>= 4, the count floor), tail from sample 3, no growth in it.
 */
static void
test_plateau_in_warmup(void **state)
{
	(void)state;
	const double v[] = { 10, 20, 30, 30, 30, 30, 30, 30, 30, 30 };
	struct trend_result r;
	assert_int_equal(verdict_of(v, 10, TREND_COUNT, false, &r), TREND_PLATEAU);
	assert_string_equal(r.why, "rose during the warm-up, then growth stopped");
	assert_int_equal(r.plateau_end, 2);
	assert_true(fabs(r.plateau.rise - 20) < 1e-9);
	assert_true(isinf(r.plateau_t));
	/* A rise of 2 only is under the floor: no rise, so STABLE. */
	const double small[] = { 28, 29, 30, 30, 30, 30, 30, 30, 30, 30 };
	assert_int_equal(verdict_of(small, 10, TREND_COUNT, false, &r), TREND_STABLE);
}

/*
 * Issue 24's rounded footprint: 26.3 26.3 26.4 26.4 26.4 26.5 26.5 26.5
 * 26.6 26.6 26.6 26.6 GiB, rounded to 0.1 GiB (fixtures/trend/rise-flat-12:
 * a rise that stops at sample 9). Analysed (warm-up 3): 26.4 x2, 26.5 x3,
 * 26.6 x4 -- the thirds' medians rise in turn, by two steps in all, but
 * the slope's interval reaches 0 and the level has not risen for 4
 * samples, longer than the 3 its one complete earlier level lasted: no
 * LEAK, NO TREND ("may have stopped"). One more step at the end (26.7 at
 * sample 12) and the last level is 1 sample: a rounded rise that goes on,
 * LEAK. A flat value that flickers between two figures is one rounding
 * step: STABLE.
 */
static void
test_rounded(void **state)
{
	(void)state;
	const double tenths[] = { 263, 263, 264, 264, 264, 265, 265, 265, 266, 266, 266, 266 };
	const double rising[] = { 263, 263, 264, 264, 264, 265, 265, 265, 266, 266, 266, 267 };
	const double flicker[] = { 263, 264, 263, 263, 264, 264, 263, 264, 263, 263, 264, 263 };
	double GiB = 1024 * MiB, v[12];
	struct trend_result r;
	for (int i = 0; i < 12; i++)
		v[i] = tenths[i] * GiB / 10;
	assert_int_equal(verdict_rounded(v, 12, GiB / 10, &r), TREND_NO_TREND);
	assert_string_equal(r.why, "rises, but may have stopped: neither a steady leak nor a "
			   "confirmed plateau");
	assert_false(r.step);
	assert_true(r.thirds_rise && r.rounding_dominates && r.level_stopped);
	assert_true(r.per_sample.lo == 0);
	for (int i = 0; i < 12; i++)
		v[i] = rising[i] * GiB / 10;
	assert_int_equal(verdict_rounded(v, 12, GiB / 10, &r), TREND_LEAK);
	assert_false(r.level_stopped);
	for (int i = 0; i < 12; i++)
		v[i] = flicker[i] * GiB / 10;
	assert_int_equal(verdict_rounded(v, 12, GiB / 10, &r), TREND_STABLE);
	assert_string_equal(r.why, "moves by one rounding step at most");
	/* The same flicker unrounded, exactly as given: 0.1 GiB >= 1 MiB, not a rise either. */
	assert_int_not_equal(verdict_rounded(v, 12, 0, &r), TREND_LEAK);
}

/*
 * Two steps that keep rising: 100 MiB x4, 110 x4, 120 x4, +-0.2 MiB. Three
 * levels with breaks at 4 and 8 fit; each jump is 10 MiB against level
 * errors of a few tenths; the last level is as long as the middle one.
 */
static void
test_staircase(void **state)
{
	(void)state;
	double v[12];
	struct trend_result r;
	for (int i = 0; i < 12; i++)
		v[i] = (100 + 10 * (i / 4)) * MiB + (i % 2 ? 0.2 : -0.2) * MiB;
	assert_int_equal(verdict_of(v, 12, TREND_BYTES, false, &r), TREND_LEAK);
	assert_true(r.stairs);
	assert_string_equal(r.why, "rose in steps and kept rising");
	/* One step only (flat, jump, flat): STEP. */
	for (int i = 0; i < 12; i++)
		v[i] = (i < 6 ? 100 : 110) * MiB + (i % 2 ? 0.2 : -0.2) * MiB;
	assert_int_equal(verdict_of(v, 12, TREND_BYTES, false, &r), TREND_STEP);
}

/*
 * A clear rise the rank test leaves at a hint: 100 MiB plus 0 23 28 22 27,
 * then +50 MiB every 5 samples (20 samples, warm-up 4; the 16 analysed are
 * 27 50 73 78 72 77 100 ... 172 177 MiB, all distinct).
 * The correlation: Theil-Sen slope 10, intercept -10 (x = 5..20), lag-1
 * autocorrelation of the residuals r1 = 0.28392, bias-corrected
 * (16 r1 + 2) / (16 - 6) = 0.65427, plus sqrt((1 - 0.65427^2) / 16) =
 * 0.18907: 0.84334, capped at rho = 0.8. Mann-Kendall: S = 102, Var S =
 * 16*15*37/18 = 493.33 times n/n* = 4.312923 (rho 0.8, n 16), z =
 * 101/sqrt(2127.7) = 2.1896, one-sided p = 0.014277: a hint, not alpha.
 * Least squares: Sxx = 340, Sxy = 3356.5, slope 9.8721, RSS = 1550.87,
 * SE = sqrt(1550.87 / 14 / 340 x 9) = 1.7124 (F1 = 1.8 / 0.2 = 9), t =
 * 5.765 >= 4: LEAK (figures from a separate Python computation of the
 * same formulas).
 */
static void
test_leak_by_slope(void **state)
{
	(void)state;
	const double a[] = { 0, 23, 28, 22, 27, 50, 73, 78, 72, 77,
			     100, 123, 128, 122, 127, 150, 173, 178, 172, 177 };
	double v[20];
	struct trend_result r;
	for (int i = 0; i < 20; i++)
		v[i] = (100 + a[i]) * MiB;
	assert_int_equal(verdict_of(v, 20, TREND_BYTES, false, &r), TREND_LEAK);
	assert_near(r.rho, 0.8, 0);
	assert_near(r.mk.factor, 4.312923201804047, 1e-9);
	assert_int_equal(r.mk.s, 102);
	assert_near(r.q, 0.014276538648241681, 1e-9);
	assert_near(r.line_t, 5.765035292532304, 1e-9);
	assert_string_equal(r.why, "grows steadily and has not stopped");
}

/*
 * A ramp is no staircase: 100 MiB plus 8 8 9 12 19 20 21 23 27 30 39 44
 * quarter-MiB. The best three levels (each at least 2 samples) break at 4
 * and 10: means 9.25, 23.33, 41.5, jumps 14.08 and 18.17, the last level
 * (2 samples) no longer than the middle (6). But the middle level 19 20 21
 * 23 27 30 rises: its Theil-Sen slope (median of the 15 pairwise slopes)
 * is 2.2, growth 2.2 x 5 = 11 > 0.75 x 14.08 = 10.56, so these are no
 * flat levels: "grows steadily", not "rose in steps" (as before the rule).
 */
static void
test_ramp_not_staircase(void **state)
{
	(void)state;
	const double a[] = { 8, 8, 9, 12, 19, 20, 21, 23, 27, 30, 39, 44 };
	double v[12];
	struct trend_result r;
	for (int i = 0; i < 12; i++)
		v[i] = 100 * MiB + a[i] * MiB / 4;
	assert_int_equal(verdict_of(v, 12, TREND_BYTES, false, &r), TREND_LEAK);
	assert_false(r.stairs);
	assert_string_equal(r.why, "grows steadily and has not stopped");
}

/*
 * A tail too short to show that growth stopped: 100 MiB plus -1 2 9 15 14
 * 21 23 32 34 31 38 37 quarter-MiB. The rise-then-flat fit (tail at least
 * 4 samples) flattens from sample 9: slope 4.5104 a sample, RSS 59.24
 * against the line's 95.80. The tail 34 31 38 37 has pairwise slopes
 * -3 -1 1 2 3 7: median 1.5 <= 0.5 x 4.51, S = 2 (stopped), but with
 * N = 6 pairs and Var S = 4*3*13/18 = 8.667 the one-sided 90 % bound is
 * at rank round((6 + C)/2) with C = 1.2816 sqrt(8.667 F) >= 3.77 (F >= 1):
 * rank 5, the largest slope, 7 > 4.51: not shown slower than the rise.
 * Before the rule: PLATEAU; now NO TREND (the rank test's z = 2.03 on the
 * nine analysed is a hint, and under 14 samples there is no least-squares
 * route), not LEAK.
 */
static void
test_tail_not_shown_flat(void **state)
{
	(void)state;
	const double a[] = { -1, 2, 9, 15, 14, 21, 23, 32, 34, 31, 38, 37 };
	double v[12];
	struct trend_result r;
	for (int i = 0; i < 12; i++)
		v[i] = 100 * MiB + a[i] * MiB / 4;
	assert_int_equal(verdict_of(v, 12, TREND_BYTES, false, &r), TREND_NO_TREND);
	assert_int_equal(r.plateau_end, 8);
	assert_near(r.plateau.slope, 4.510416666666667 * MiB / 4, 1);
	assert_near(r.tail_slope, 1.5 * MiB / 4, 1e-6);
	assert_false(r.tail_flat);
	assert_string_equal(r.why, "rose, then slowed, but the tail is too short or noisy to "
				   "show that growth stopped");
}

/*
 * A rise the tests cannot confirm: 12 samples (warm-up 3: 11 10 11, about
 * level), then 10 12 11 13 12 14 13 16 15 MiB over 100 MiB. Mann-Kendall
 * on the nine: S = 26 (30 pairs up, 4 down, 2 tied), tie groups 12 x2 and
 * 13 x2: Var S = (9*8*23 - 2*2*1*9)/18 = 90; n/n* for rho 0.5, n = 9 is
 * 1.917199 (Python, as test_ar1_factor), so z = 25/sqrt(172.548) = 1.9032:
 * above 1.645 (a hint), under 2.326 (alpha 0.01 one-sided): NO TREND, with
 * some more samples advised. Without the correction z = 25/sqrt 90 = 2.635
 * would have called it LEAK.
 */
static void
test_no_trend(void **state)
{
	(void)state;
	const double w[] = { 11, 10, 11, 10, 12, 11, 13, 12, 14, 13, 16, 15 };
	double v[12];
	struct trend_result r;
	for (int i = 0; i < 12; i++)
		v[i] = 100 * MiB + w[i] * MiB;
	assert_int_equal(verdict_of(v, 12, TREND_BYTES, false, &r), TREND_NO_TREND);
	assert_int_equal(r.mk.s, 26);
	assert_true(fabs(r.mk.var_s - 90 * 1.917198551669171) < 1e-6);
	assert_true(fabs(r.mk.z - 25 / sqrt(90 * 1.917198551669171)) < 1e-9);
	assert_true(r.more_samples > 0);
}

/*
 * Samples needed: rate 1 per sample, sigma 1, no correlation, alpha 0.01:
 * (z_0.995 + z_0.8) = 2.5758 + 0.8416 = 3.4174; n^3 >= 12 * 3.4174^2 =
 * 140.14, n = 6. With factor 8 (n^3 >= 1121.1): 11. No rate: 0.
 */
static void
test_samples_needed(void **state)
{
	(void)state;
	assert_int_equal(trend_samples_needed(1, 1, 1, 0.01), 6);
	assert_int_equal(trend_samples_needed(1, 1, 8, 0.01), 11);
	assert_int_equal(trend_samples_needed(0, 1, 1, 0.01), 0);
	assert_int_equal(trend_samples_needed(1, 0, 1, 0.01), 3);
}

/*
 * A sample read apart (model/trend_sample.h) and added later gives the series
 * that calling trend_series_add_sample(), trend_series_set() and
 * trend_series_set_resolution() in the same order gives: metrics in the order
 * first given, a metric given twice summed, a resolution of a metric not yet
 * there ignored, a later larger one kept, `complete` carried.
 */
static void
calls_direct(struct trend_series *s, size_t k, double base)
{
	trend_series_set_resolution(s, "b", 7);          /* b not there yet: nothing */
	trend_series_set(s, k, "b", TREND_BYTES, true, false, base + 1);
	trend_series_set(s, k, "a", TREND_COUNT, false, true, base + 2);
	trend_series_set(s, k, "b", TREND_BYTES, true, false, 0.25);
	trend_series_set_resolution(s, "b", 3 + base);
	trend_series_set_resolution(s, "a", 1);
}

static void
calls_sample(struct trend_sample *t, double base)
{
	trend_sample_set_resolution(t, "b", 7);
	trend_sample_set(t, "b", TREND_BYTES, true, false, base + 1);
	trend_sample_set(t, "a", TREND_COUNT, false, true, base + 2);
	trend_sample_set(t, "b", TREND_BYTES, true, false, 0.25);
	trend_sample_set_resolution(t, "b", 3 + base);
	trend_sample_set_resolution(t, "a", 1);
}

static void
test_sample_replay(void **state)
{
	(void)state;
	struct trend_series direct, replayed;
	trend_series_init(&direct);
	trend_series_init(&replayed);
	for (int k = 0; k < 3; k++) {
		calls_direct(&direct, trend_series_add_sample(&direct, k != 1), 10.0 * k);
		struct trend_sample t;
		trend_sample_init(&t);
		t.complete = k != 1;
		calls_sample(&t, 10.0 * k);
		assert_int_equal(trend_series_add(&replayed, &t), (size_t)k);
		trend_sample_release(&t);
	}
	assert_int_equal(replayed.nsamples, 3);
	assert_int_equal(replayed.nmetrics, 2);
	assert_int_equal(direct.nmetrics, 2);
	/* By construction: b = base + 1 + 0.25, a = base + 2; b's resolution the largest given. */
	const char *names[] = { "b", "a" };
	for (size_t m = 0; m < 2; m++) {
		assert_string_equal(replayed.metrics[m].name, names[m]);
		assert_string_equal(direct.metrics[m].name, names[m]);
		assert_int_equal(replayed.metrics[m].unit, direct.metrics[m].unit);
		assert_int_equal(replayed.metrics[m].zero_fill, direct.metrics[m].zero_fill);
		assert_int_equal(replayed.metrics[m].leak_exempt, direct.metrics[m].leak_exempt);
		assert_true(replayed.metrics[m].resolution == direct.metrics[m].resolution);
		for (size_t k = 0; k < 3; k++)
			assert_true(replayed.metrics[m].v[k] == direct.metrics[m].v[k]);
	}
	assert_true(replayed.metrics[0].v[2] == 21.25);
	assert_true(replayed.metrics[1].v[1] == 12);
	assert_true(replayed.metrics[0].resolution == 23);
	for (size_t k = 0; k < 3; k++)
		assert_int_equal(replayed.complete[k], k != 1);
	trend_series_release(&direct);
	trend_series_release(&replayed);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_series_reorder_empty),
		cmocka_unit_test(test_default_warmup),
		cmocka_unit_test(test_linear_leak),
		cmocka_unit_test(test_plateau),
		cmocka_unit_test(test_step),
		cmocka_unit_test(test_flat),
		cmocka_unit_test(test_below_floor),
		cmocka_unit_test(test_too_few),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_per_hour),
		cmocka_unit_test(test_series),
		cmocka_unit_test(test_ranking),
		cmocka_unit_test(test_plateau_in_warmup),
		cmocka_unit_test(test_rounded),
		cmocka_unit_test(test_staircase),
		cmocka_unit_test(test_no_trend),
		cmocka_unit_test(test_leak_by_slope),
		cmocka_unit_test(test_ramp_not_staircase),
		cmocka_unit_test(test_tail_not_shown_flat),
		cmocka_unit_test(test_samples_needed),
		cmocka_unit_test(test_sample_replay),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
