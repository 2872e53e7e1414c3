/*
 * Trend gates ("METRIC slope OP VALUE[/h|/sample]") and the capture-time
 * parser they depend on for per-hour rates: well-formed, malformed and
 * hostile expressions, and the comparison at its boundary.
 */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model/trend_gate.h"
#include "util/datetime.h"

#include <math.h>

static void
parse_ok(const char *text, struct trend_gate *t)
{
	struct diag err;
	diag_clear(&err);
	if (trend_gate_parse(text, t, &err) != 0)
		fail_msg("'%s': %s", text, err.msg);
}

static void
parse_bad(const char *text, const char *part)
{
	struct trend_gate t;
	struct diag err;
	diag_clear(&err);
	assert_int_equal(trend_gate_parse(text, &t, &err), -1);
	assert_int_equal(err.code, DIAG_USAGE);
	if (!strstr(err.msg, part))
		fail_msg("'%s': message '%s' does not say '%s'", text, err.msg, part);
	trend_gate_release(&t);
}

static void
test_parse(void **state)
{
	(void)state;
	struct trend_gate t;
	parse_ok("vmmap:IOSurface.dirty slope > 10MiB/h", &t);
	assert_string_equal(t.name, "vmmap:IOSurface.dirty");
	assert_int_equal(t.rate, TREND_PER_HOUR);
	assert_int_equal(t.g.value, 10 * 1024 * 1024);
	assert_int_equal(t.g.op, DIFF_OP_GT);
	assert_string_equal(t.g.text, "vmmap:IOSurface.dirty slope > 10MiB/h");
	trend_gate_release(&t);

	parse_ok("  vmmap:IOAccelerator (graphics):N.vsize   slope >= 5%/sample ", &t);
	assert_string_equal(t.name, "vmmap:IOAccelerator (graphics):N.vsize");
	assert_int_equal(t.rate, TREND_PER_SAMPLE);
	assert_true(t.g.percent);
	assert_int_equal(t.g.value, 500);
	assert_int_equal(t.g.op, DIFF_OP_GE);
	trend_gate_release(&t);

	/* No rate: per sample. Class names may hold '<' and '>'. */
	parse_ok("classes:OSValueObject<void*> slope > 2", &t);
	assert_string_equal(t.name, "classes:OSValueObject<void*>");
	assert_int_equal(t.rate, TREND_PER_SAMPLE);
	trend_gate_release(&t);

	parse_ok("track:total slope > 1M/hour", &t);
	assert_int_equal(t.rate, TREND_PER_HOUR);
	trend_gate_release(&t);
}

static void
test_parse_bad(void **state)
{
	(void)state;
	parse_bad("vmmap:IOSurface.dirty > 10MiB/h", "METRIC slope OP VALUE");
	parse_bad("vmmap:IOSurface.dirty slope < 10MiB", "'<' is not supported");
	parse_bad("vmmap:IOSurface.dirty slope > lots/h", "no operator");
	parse_bad("vmmap:IOSurface.dirty slope > 5 lots/h", "value");
	parse_bad("vmmap:IOSurface.dirty slope >", "no value");
	parse_bad("IOSurface slope > 1", "KIND:NAME");
	parse_bad("vmmap: slope > 1", "no metric before 'slope'");
	parse_bad("/h", "no operator");
	parse_bad("", "no operator");
	parse_bad("vmmap:x slope > 99999999999999999999999", "value");
}

static struct trend_result
result(double per_sample, double per_hour, double start)
{
	struct trend_result r;
	memset(&r, 0, sizeof(r));
	r.has_slope = true;
	r.per_sample.slope = per_sample;
	r.has_hour = !isnan(per_hour);
	r.per_hour.slope = per_hour;
	r.start = start;
	return r;
}

static void
test_check(void **state)
{
	(void)state;
	struct trend_gate t;
	struct diag err;
	diag_clear(&err);

	/* "> 10MiB/h" passes at exactly 10 MiB an hour, trips above. */
	parse_ok("vmmap:IOSurface.dirty slope > 10MiB/h", &t);
	struct trend_result r = result(1, 10485760, 100);
	assert_int_equal(trend_gate_check(&t, &r, TREND_BYTES, &err), 0);
	assert_false(t.tripped);
	r.per_hour.slope = 10485761;
	assert_int_equal(trend_gate_check(&t, &r, TREND_BYTES, &err), 0);
	assert_true(t.tripped);
	/* Per hour without capture times is an error, not a pass. */
	r = result(1, NAN, 100);
	assert_int_equal(trend_gate_check(&t, &r, TREND_BYTES, &err), -1);
	assert_int_equal(err.code, DIAG_DATA);
	assert_non_null(strstr(err.msg, "no slope per hour"));
	trend_gate_release(&t);

	/* ">= 2.5%": 2.5 per sample on a start of 100 trips exactly. */
	parse_ok("classes:IOSurface slope >= 2.5%", &t);
	r = result(2.5, NAN, 100);
	assert_int_equal(trend_gate_check(&t, &r, TREND_COUNT, &err), 0);
	assert_true(t.tripped);
	assert_true(fabs(t.slope - 2.5) < 1e-12);
	r = result(2.4, NAN, 100);
	assert_int_equal(trend_gate_check(&t, &r, TREND_COUNT, &err), 0);
	assert_false(t.tripped);
	/* A percentage of a start of 0 has no base. */
	r = result(2.4, NAN, 0);
	assert_int_equal(trend_gate_check(&t, &r, TREND_COUNT, &err), -1);
	trend_gate_release(&t);

	/* A falling metric never trips a growth gate of 0. */
	parse_ok("track:total slope > 0", &t);
	r = result(-5, NAN, 100);
	assert_int_equal(trend_gate_check(&t, &r, TREND_BYTES, &err), 0);
	assert_false(t.tripped);
	trend_gate_release(&t);
}

/*
 * Capture times: 2026-09-05 12:23:00.508 +0000 is 1788610980 s after the
 * epoch (20,701 days to 2026-09-05 x 86,400 + 12:23:00 = 44,580 s); the
 * offset is subtracted (+0200 is two hours earlier in UTC).
 */
static void
test_datetime(void **state)
{
	(void)state;
	int64_t ms;
	assert_true(datetime_parse("2026-09-05 12:23:00.508 +0000", &ms));
	assert_int_equal(ms, INT64_C(1788610980508));
	assert_true(datetime_parse("2026-09-05 14:23:00.508 +0200", &ms));
	assert_int_equal(ms, INT64_C(1788610980508));
	assert_true(datetime_parse("2026-09-05 12:23:00", &ms));
	assert_int_equal(ms, INT64_C(1788610980000));
	assert_true(datetime_parse("1970-01-01 00:00:00 +0000", &ms));
	assert_int_equal(ms, 0);
	/* Garbage, truncation and out-of-range fields. */
	assert_false(datetime_parse("", &ms));
	assert_false(datetime_parse("2026-09-05", &ms));
	assert_false(datetime_parse("2026-09-05 12:2", &ms));
	assert_false(datetime_parse("2026-13-05 12:23:00", &ms));
	assert_false(datetime_parse("2026-09-00 12:23:00", &ms));
	assert_false(datetime_parse("2026-09-05 25:23:00", &ms));
	assert_false(datetime_parse("2026-09-05 12:23:00.", &ms));
	assert_false(datetime_parse("2026-09-05 12:23:00 +02", &ms));
	assert_false(datetime_parse("Sat Sep  5 12:23:00 2026", &ms));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_datetime),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
