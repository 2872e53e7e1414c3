/*
 * The rate report's words (report/rate_write.h): the summary line of
 * issue 52 from rows built by hand (the figures and the words are the
 * construction), the amounts with their interval in one unit, and the
 * summary when nothing leaks.
 */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "model/diff_classes.h"
#include "model/diff_vmmap.h"
#include "report/rate_write.h"

#include <math.h>

#define MiB (1024.0 * 1024.0)

static void
pm_is(double rate, double lo, double hi, enum trend_unit unit, const char *noun,
      const char *want)
{
	struct rate_row row = { .has_rate = true, .rate = rate, .lo = lo, .hi = hi };
	char out[96];
	rate_format_pm(out, &row, unit, noun);
	assert_string_equal(out, want);
}

static void
test_pm(void **state)
{
	(void)state;
	pm_is(12, 11.6, 12.4, TREND_COUNT, "instances", "+12.0 ± 0.4 instances");
	pm_is(48 * MiB, 46.8 * MiB, 49.2 * MiB, TREND_BYTES, "", "+48.0 ± 1.2 MiB");
	/* An uneven interval: its larger half. */
	pm_is(48 * MiB, 47 * MiB, 50 * MiB, TREND_BYTES, "", "+48.0 ± 2.0 MiB");
	/* The unit of the larger figure: a small rate with a wide interval. */
	pm_is(512 * 1024, -1.5 * MiB, 2.5 * MiB, TREND_BYTES, "", "+0.5 ± 2.0 MiB");
	pm_is(-3, -4, -2, TREND_COUNT, "", "-3.0 ± 1.0");
	pm_is(100, 100, 100, TREND_BYTES, "", "+100.0 ± 0.0 B");
	struct rate_row none = { .has_rate = false };
	char out[96];
	rate_format_pm(out, &none, TREND_BYTES, "");
	assert_string_equal(out, "-");
}

/* Two kinds' leaks, as issue 52 words them. */
static void
test_summary_leaks(void **state)
{
	(void)state;
	struct trend_metric m[3] = {
		{ .name = (char *)(uintptr_t)"classes:IOSurface", .unit = TREND_COUNT },
		{ .name = (char *)(uintptr_t)"vmmap:IOSurface:-.dirty", .unit = TREND_BYTES },
		{ .name = (char *)(uintptr_t)"vmmap:IOSurface:-.vsize", .unit = TREND_BYTES },
	};
	struct rate_row crow[1] = { { .m = &m[0], .verdict = RATE_LEAKS, .has_rate = true,
				      .rate = 12, .lo = 11.6, .hi = 12.4 } };
	struct rate_row vrow[2] = {
		{ .m = &m[1], .verdict = RATE_LEAKS, .has_rate = true, .rate = 48 * MiB,
		  .lo = 46.8 * MiB, .hi = 49.2 * MiB },
		/* shadowed by the dirty figure of the same type and state */
		{ .m = &m[2], .verdict = RATE_LEAKS, .has_rate = true, .rate = 48 * MiB,
		  .lo = 46.8 * MiB, .hi = 49.2 * MiB },
	};
	struct rate_series cs = { .rows = crow, .nrows = 1, .iterations = 22, .warmup = 2,
				  .count = { [RATE_LEAKS] = 1 } };
	struct rate_series vs = { .rows = vrow, .nrows = 2, .iterations = 22, .warmup = 2,
				  .count = { [RATE_LEAKS] = 2 } };
	/* the words the kinds' registry rows give (app/rate_run.c fills them) */
	struct rate_kind_report kinds[2] = {
		{ .kind = "classes", .rates = &cs, .label = diff_classes_metric_label,
		  .count_noun = "instances" },
		{ .kind = "vmmap", .rates = &vs, .label = diff_vmmap_metric_label,
		  .dirty_shadows = true },
	};
	struct rate_params rp = { 0 };
	struct rate_report r = { .kinds = kinds, .nkinds = 2, .rparams = &rp };
	struct strbuf sb = STRBUF_INIT;
	rate_summary(&r, &sb);
	assert_string_equal(sb.buf, "IOSurface +12.0 ± 0.4 instances and IOSurface dirty "
			    "+48.0 ± 1.2 MiB per iteration (20 iterations after 2 warm-up)");
	assert_int_equal(rate_report_leaks(&r), 3);
	strbuf_reset(&sb);
	/* without the rows' words: names after the kind, no noun, nothing shadowed */
	struct rate_kind_report bare[2] = {
		{ .kind = "classes", .rates = &cs },
		{ .kind = "vmmap", .rates = &vs },
	};
	r.kinds = bare;
	rate_summary(&r, &sb);
	assert_string_equal(sb.buf, "IOSurface +12.0 ± 0.4, IOSurface:-.dirty +48.0 ± 1.2 MiB "
			    "and IOSurface:-.vsize +48.0 ± 1.2 MiB per iteration (20 iterations "
			    "after 2 warm-up)");
	strbuf_release(&sb);
	/* the noun is the kind's own metrics' only (alloc: is the classes row's too) */
	assert_string_equal(rate_row_noun(&kinds[0], "classes:IOSurface"), "instances");
	assert_string_equal(rate_row_noun(&kinds[0], "alloc:instance"), "");
	assert_string_equal(rate_row_noun(&kinds[1], "vmmap:IOSurface:N.count"), "");
}

static void
test_summary_no_leak(void **state)
{
	(void)state;
	struct trend_metric m = { .name = (char *)(uintptr_t)"classes:IOSurface",
				  .unit = TREND_COUNT };
	struct rate_row row = { .m = &m, .verdict = RATE_WARMS_UP, .warm_until = 6 };
	struct rate_series rs = { .rows = &row, .nrows = 1, .iterations = 12, .warmup = 3,
				  .count = { [RATE_WARMS_UP] = 1 } };
	struct rate_kind_report kind = { .kind = "classes", .rates = &rs,
					 .label = diff_classes_metric_label,
					 .count_noun = "instances" };
	struct rate_params rp = { 0 };
	struct rate_report r = { .kinds = &kind, .nkinds = 1, .rparams = &rp };
	struct strbuf sb = STRBUF_INIT;
	rate_summary(&r, &sb);
	assert_string_equal(sb.buf, "No leak per operation: IOSurface warms up then stops "
			    "(flat from iteration 6) (9 iterations after 3 warm-up)");
	strbuf_reset(&sb);
	row.has_rate = true;
	row.rate = 0.3;
	row.lo = -0.5;
	row.hi = 1;
	rate_summary(&r, &sb);
	assert_string_equal(sb.buf, "No leak per operation: IOSurface warms up then stops "
			    "(flat from iteration 6, then +0.3 ± 0.8 instances per iteration) "
			    "(9 iterations after 3 warm-up)");
	strbuf_reset(&sb);
	row.verdict = RATE_NONE;
	rs.count[RATE_WARMS_UP] = 0;
	rs.count[RATE_NONE] = 1;
	rate_summary(&r, &sb);
	assert_string_equal(sb.buf, "No leak per operation: nothing grows per iteration "
			    "(9 iterations after 3 warm-up)");
	strbuf_reset(&sb);
	row.verdict = RATE_UNSURE;
	row.why = "too few iterations after the warm-up";
	row.more = 4;
	rate_summary(&r, &sb);
	assert_string_equal(sb.buf, "No leak per operation shown, but IOSurface is unsure: too "
			    "few iterations after the warm-up; about 4 more iterations would tell "
			    "(9 iterations after 3 warm-up)");
	strbuf_release(&sb);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pm),
		cmocka_unit_test(test_summary_leaks),
		cmocka_unit_test(test_summary_no_leak),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
