/*
 * The rate model (model/rate.h, docs/rate.md): series built with a known
 * growth per iteration give that rate inside its interval and the verdict
 * the construction implies; each trend verdict is read as its rate
 * verdict; unknown figures stay unknown; the iteration, not the capture
 * time, is the axis; gates compare the interval's lower bound.
 */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model/diff_classes.h"
#include "model/diff_footprint.h"
#include "model/diff_track.h"
#include "model/diff_vmmap.h"
#include "model/rate.h"
#include "model/rate_gate.h"

#include <math.h>

#define MiB (1024.0 * 1024.0)

/* Deterministic noise: a fixed sequence in [-1, 1] (no generator needed). */
static double
wiggle(size_t i)
{
	static const double w[] = { 0.3, -0.7, 0.9, -0.2, -0.5, 0.6, 0.1, -0.9, 0.4, -0.1,
				    0.8, -0.6, 0.2, -0.3, 0.7, -0.8, 0.5, 0.0, -0.4, 0.95 };
	return w[i % (sizeof(w) / sizeof(w[0]))];
}

static void
analyse(const double *v, size_t n, enum trend_unit unit, struct rate_row *row)
{
	struct rate_params rp;
	struct trend_params p;
	struct trend_result r;
	rate_params_default(&rp);
	rate_trend_params(&rp, n, &p);
	rate_analyse_values(v, n, unit, 0, false, &p, &rp, &r, row);
}

/* +12 instances every iteration, exactly: the rate is 12 and the interval has no width. */
static void
test_exact_leak(void **state)
{
	(void)state;
	double v[22];
	for (size_t i = 0; i < 22; i++)
		v[i] = 40 + 12 * (double)i;
	struct rate_row row;
	analyse(v, 22, TREND_COUNT, &row);
	assert_int_equal(row.verdict, RATE_LEAKS);
	assert_true(row.has_rate);
	assert_true(row.rate == 12 && row.lo == 12 && row.hi == 12);
}

/* +48 MiB per iteration with +-1 MiB of noise: the interval holds 48 MiB and is above 0. */
static void
test_noisy_leak(void **state)
{
	(void)state;
	double v[22];
	for (size_t i = 0; i < 22; i++)
		v[i] = 100 * MiB + 48 * MiB * (double)i + wiggle(i) * MiB;
	struct rate_row row;
	analyse(v, 22, TREND_BYTES, &row);
	assert_int_equal(row.verdict, RATE_LEAKS);
	assert_true(row.lo <= 48 * MiB && 48 * MiB <= row.hi);
	assert_true(row.lo > 0);
	assert_true(row.hi - row.lo < 4 * MiB);
}

/* Noise about a flat level: no growth per iteration. */
static void
test_no_leak(void **state)
{
	(void)state;
	double v[20];
	for (size_t i = 0; i < 20; i++)
		v[i] = 64 * MiB + wiggle(i) * MiB;
	struct rate_row row;
	analyse(v, 20, TREND_BYTES, &row);
	assert_int_equal(row.verdict, RATE_NONE);
	assert_true(row.lo <= 0 && 0 <= row.hi);
}

/* A cache that fills: +8 MiB for 6 iterations, then flat (with noise). */
static void
test_warms_up(void **state)
{
	(void)state;
	double v[24];
	for (size_t i = 0; i < 24; i++)
		v[i] = 64 * MiB + 8 * MiB * fmin((double)i, 6) + 0.5 * wiggle(i) * MiB;
	struct rate_row row;
	analyse(v, 24, TREND_BYTES, &row);
	assert_int_equal(row.verdict, RATE_WARMS_UP);
	assert_true(row.warm_until >= 6 && row.warm_until <= 8);
	/* The rate is the flat stretch's: about 0, not the rise spread over the window. */
	assert_int_equal(row.rate_from, row.warm_until);
	assert_true(row.lo <= 0 && 0 <= row.hi);
	assert_true(fabs(row.rate) < 0.5 * MiB);
}

/* Too few iterations: UNSURE, with how many more the noise needs. */
static void
test_unsure(void **state)
{
	(void)state;
	double v[4] = { 10 * MiB, 12 * MiB, 11 * MiB, 13 * MiB };
	struct rate_row row;
	analyse(v, 4, TREND_BYTES, &row);
	assert_int_equal(row.verdict, RATE_UNSURE);
	assert_true(row.more > 0);
}

/*
 * A figure the captures do not give is missing, never 0: a third of the
 * iterations unknown is too many to say (a 0 there would be a drop), and a
 * few unknown leave the rate of the known ones.
 */
static void
test_unknown_not_zero(void **state)
{
	(void)state;
	double v[20];
	for (size_t i = 0; i < 20; i++)
		v[i] = i % 3 == 1 ? NAN : 5 * MiB * (double)i;
	struct rate_row row;
	analyse(v, 20, TREND_BYTES, &row);
	assert_int_equal(row.verdict, RATE_UNSURE);
	assert_string_equal(row.why, "too many iterations without a value");

	for (size_t i = 0; i < 20; i++)
		v[i] = i == 9 ? NAN : 5 * MiB * (double)i;
	analyse(v, 20, TREND_BYTES, &row);
	assert_int_equal(row.verdict, RATE_LEAKS);
	assert_true(row.rate == 5 * MiB);
}

/* Each trend verdict as its rate verdict; LEAK needs the interval above the floor. */
static void
test_decide(void **state)
{
	(void)state;
	struct trend_params p;
	struct rate_params rp;
	struct trend_result r;
	struct rate_row row;
	trend_params_default(&p, 20);
	rate_params_default(&rp);
	memset(&r, 0, sizeof(r));
	r.has_slope = true;
	r.per_sample.slope = 10;
	r.per_sample.lo = 2;
	r.per_sample.hi = 18;
	r.why = "";
	r.verdict = TREND_LEAK;
	rate_decide(&r, TREND_COUNT, &p, &rp, &row);
	assert_int_equal(row.verdict, RATE_LEAKS);
	rp.floor_count = 2;   /* the lower bound at the floor: not shown above it */
	rate_decide(&r, TREND_COUNT, &p, &rp, &row);
	assert_int_equal(row.verdict, RATE_UNSURE);
	rate_decide(&r, TREND_BYTES, &p, &rp, &row);   /* the count floor is not the bytes one */
	assert_int_equal(row.verdict, RATE_LEAKS);
	r.verdict = TREND_GROWING;
	rate_decide(&r, TREND_BYTES, &p, &rp, &row);
	assert_int_equal(row.verdict, RATE_UNSURE);
	r.verdict = TREND_PLATEAU;
	r.plateau_end = 4;
	rate_decide(&r, TREND_BYTES, &p, &rp, &row);
	assert_int_equal(row.verdict, RATE_WARMS_UP);
	assert_int_equal(row.warm_until, 5);
	r.verdict = TREND_STEP;
	r.step_at = 9;
	rate_decide(&r, TREND_BYTES, &p, &rp, &row);
	assert_int_equal(row.verdict, RATE_WARMS_UP);
	assert_int_equal(row.warm_until, 10);
	r.verdict = TREND_STABLE;
	rate_decide(&r, TREND_BYTES, &p, &rp, &row);
	assert_int_equal(row.verdict, RATE_NONE);
	r.verdict = TREND_NO_TREND;
	r.more_samples = 7;
	rate_decide(&r, TREND_BYTES, &p, &rp, &row);
	assert_int_equal(row.verdict, RATE_UNSURE);
	assert_int_equal(row.more, 7);
	r.verdict = TREND_INSUFFICIENT;
	r.why = "too few samples after the warm-up";
	rate_decide(&r, TREND_BYTES, &p, &rp, &row);
	assert_int_equal(row.verdict, RATE_UNSURE);
	assert_string_equal(row.why, "too few iterations after the warm-up");
}

/*
 * The iteration is the axis: samples taken at uneven times (the last ten
 * an hour apart, the first ten a minute apart) still give the growth per
 * sample; the series is left on that axis, its hours kept. Rows: LEAKS before NONE.
 */
static void
test_series_axis(void **state)
{
	(void)state;
	struct trend_series s;
	trend_series_init(&s);
	size_t n = 20;
	double hours[20];
	size_t perm[20];
	for (size_t i = 0; i < n; i++) {
		size_t k = trend_series_add_sample(&s, true);
		trend_series_set(&s, k, "classes:OSString", TREND_COUNT, true, false,
				 4000 + (double)(i % 2));
		trend_series_set(&s, k, "classes:IOSurface", TREND_COUNT, true, false,
				 7 + 3 * (double)i);
		trend_series_set(&s, k, "classes:IOPCIDevice", TREND_COUNT, true, false, 3);
		perm[i] = i;
		hours[i] = i < 10 ? (double)i / 60 : 10.0 / 60 + (double)(i - 9);
	}
	trend_series_reorder(&s, perm, hours);
	trend_series_finish(&s);
	assert_true(s.has_times);
	struct rate_params rp;
	struct trend_params p;
	struct rate_series rs;
	rate_params_default(&rp);
	rate_trend_params(&rp, n, &p);
	rate_series_analyse(&s, &p, &rp, &rs);
	assert_false(s.has_times);
	assert_true(s.hours[19] == hours[19]);
	assert_int_equal(rs.iterations, 20);
	assert_int_equal(rs.warmup, 4);
	assert_int_equal(rs.unchanged, 1);
	assert_int_equal(rs.nrows, 2);
	assert_string_equal(rs.rows[0].m->name, "classes:IOSurface");
	assert_int_equal(rs.rows[0].verdict, RATE_LEAKS);
	assert_true(rs.rows[0].rate == 3);
	assert_int_equal(rs.rows[1].verdict, RATE_NONE);
	assert_int_equal(rs.count[RATE_LEAKS], 1);
	assert_int_equal(rs.count[RATE_NONE], 1);
	rate_series_release(&rs);
	trend_series_release(&s);
}

/* Each kind's words, as its registry row binds them (app/kind_<name>.c). */
static rate_label_fn *
label_fn(const char *name)
{
	if (strncmp(name, "vmmap:", 6) == 0)
		return diff_vmmap_metric_label;
	if (strncmp(name, "footprint:", 10) == 0)
		return diff_footprint_metric_label;
	if (strncmp(name, "track:", 6) == 0)
		return diff_track_metric_label;
	return diff_classes_metric_label;
}

static void
label_is(const char *name, const char *want)
{
	char out[128];
	rate_metric_label(name, label_fn(name), out, sizeof(out));
	assert_string_equal(out, want);
}

static void
test_labels(void **state)
{
	(void)state;
	label_is("classes:IOSurface", "IOSurface");
	label_is("vmmap:IOSurface:N.dirty", "IOSurface non-volatile dirty");
	label_is("vmmap:IOSurface:V.vsize", "IOSurface volatile vsize");
	label_is("vmmap:IOAccelerator (graphics):-.dirty", "IOAccelerator (graphics) dirty");
	label_is("vmmap:A:B:E.resident", "A:B empty resident");
	label_is("vmmap:gpu.dirty", "GPU dirty (vmmap)");
	label_is("vmmap:footprint", "physical footprint (vmmap)");
	label_is("footprint:gpu.dirty", "GPU dirty");
	label_is("footprint:phys_footprint", "physical footprint");
	label_is("footprint:IOSurface.dirty", "IOSurface dirty");
	label_is("track:total", "tracked total");
	label_is("track:com.apple.iokit.IOSurface", "com.apple.iokit.IOSurface (tracked)");
	label_is("alloc:instance", "IOKit instance allocations");
	label_is("nokind", "nokind");
	/* no words of its kind: the name after the kind */
	char out[64];
	rate_metric_label("vmmap:IOSurface:N.dirty", NULL, out, sizeof(out));
	assert_string_equal(out, "IOSurface:N.dirty");
	char tiny[4];
	rate_metric_label("classes:IOSurface", diff_classes_metric_label, tiny, sizeof(tiny));
	assert_string_equal(tiny, "IOS");
}

static void
test_gate(void **state)
{
	(void)state;
	struct rate_gate g;
	struct diag err;
	diag_clear(&err);
	assert_int_equal(rate_gate_parse("rate:footprint:gpu.dirty > 1MiB", &g, &err), 0);
	assert_string_equal(g.name, "footprint:gpu.dirty");
	assert_int_equal(g.g.value, 1024 * 1024);
	struct rate_row row = { .has_rate = true, .rate = 3 * MiB, .lo = MiB, .hi = 5 * MiB };
	/* The lower bound exactly at the limit: '>' passes, '>=' trips. */
	assert_int_equal(rate_gate_check(&g, &row, TREND_BYTES, &err), 0);
	assert_false(g.tripped);
	assert_true(g.low == MiB && g.rate == 3 * MiB);
	rate_gate_release(&g);
	assert_int_equal(rate_gate_parse("rate:footprint:gpu.dirty >= 1MiB/iteration", &g, &err), 0);
	assert_int_equal(rate_gate_check(&g, &row, TREND_BYTES, &err), 0);
	assert_true(g.tripped);
	/* The estimate above the limit but the lower bound under it: no proof, no failure. */
	row.lo = 0.5 * MiB;
	assert_int_equal(rate_gate_check(&g, &row, TREND_BYTES, &err), 0);
	assert_false(g.tripped);
	row.has_rate = false;
	assert_int_equal(rate_gate_check(&g, &row, TREND_BYTES, &err), -1);
	assert_int_equal(err.code, DIAG_DATA);
	rate_gate_release(&g);

	const char *bad[] = { "footprint:gpu.dirty > 1MiB", "rate:", "rate:classes:X > 5%",
			      "rate:classes:X", "rate:classes:X < 3" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		diag_clear(&err);
		assert_int_equal(rate_gate_parse(bad[i], &g, &err), -1);
		assert_int_equal(err.code, DIAG_USAGE);
		rate_gate_release(&g);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_leak),
		cmocka_unit_test(test_noisy_leak),
		cmocka_unit_test(test_no_leak),
		cmocka_unit_test(test_warms_up),
		cmocka_unit_test(test_unsure),
		cmocka_unit_test(test_unknown_not_zero),
		cmocka_unit_test(test_decide),
		cmocka_unit_test(test_series_axis),
		cmocka_unit_test(test_labels),
		cmocka_unit_test(test_gate),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
