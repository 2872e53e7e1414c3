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

#include <math.h>

#define MiB (1024.0 * 1024.0)

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
	assert_true(r.half.lo <= 0);
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
}

/* Five samples, two dropped as warm-up: three left, fewer than five. */
static void
test_too_few(void **state)
{
	(void)state;
	const double v[] = { 1, 2, 3, 4, 5 };
	struct trend_result r;
	assert_int_equal(verdict_of(v, 5, TREND_COUNT, false, &r), TREND_INSUFFICIENT);
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
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
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
