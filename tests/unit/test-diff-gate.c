#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model/diff.h"
#include "model/diff_vmmap.h"
#include "model/footprint.h"
#include "model/gpu.h"
#include "util/strbuf.h"

#include <stdio.h>

static void
parse_ok(const char *text, struct diff_gate *g)
{
	struct diag err;
	diag_clear(&err);
	assert_int_equal(diff_gate_parse(text, g, &err), 0);
}

static void
parse_bad(const char *text, const char *part)
{
	struct diff_gate g;
	struct diag err;
	diag_clear(&err);
	assert_int_equal(diff_gate_parse(text, &g, &err), -1);
	assert_int_equal(err.code, DIAG_USAGE);
	assert_non_null(strstr(err.msg, part));
	diff_gate_release(&g);
}

static void
test_parse_parts(void **state)
{
	(void)state;
	struct diff_gate g;
	parse_ok("  vmmap:IOAccelerator (graphics):N.vsize >= +1.5G ", &g);
	assert_string_equal(g.kind, "vmmap");
	assert_string_equal(g.metric, "IOAccelerator (graphics):N.vsize");
	assert_int_equal(g.op, DIFF_OP_GE);
	assert_false(g.percent);
	assert_int_equal(g.value, 1610612736);
	assert_string_equal(g.value_text, "+1.5G");
	diff_gate_release(&g);

	parse_ok("track:total>-64K", &g);
	assert_int_equal(g.op, DIFF_OP_GT);
	assert_int_equal(g.value, -65536);
	diff_gate_release(&g);

	parse_ok("track:sites > 0x10", &g);
	assert_int_equal(g.value, 16);
	diff_gate_release(&g);

	parse_ok("vmmap:IOSurface.count > +2.5%", &g);
	assert_true(g.percent);
	assert_int_equal(g.value, 250);
	diff_gate_release(&g);

	parse_ok("vmmap:IOSurface.count > 10%", &g);
	assert_int_equal(g.value, 1000);
	diff_gate_release(&g);

	parse_ok("classes:OSValueObject<void*> > -2", &g);
	assert_string_equal(g.metric, "OSValueObject<void*>");
	assert_int_equal(g.value, -2);
	diff_gate_release(&g);

	parse_ok("classes:A<B<int>> >= 3", &g);
	assert_string_equal(g.metric, "A<B<int>>");
	assert_int_equal(g.op, DIFF_OP_GE);
	diff_gate_release(&g);

	parse_ok("track:total > +1MiB", &g);
	assert_int_equal(g.value, 1048576);
	diff_gate_release(&g);
}

static void
test_parse_errors(void **state)
{
	(void)state;
	parse_bad("vmmap:IOSurface.count +5", "no operator");
	parse_bad("vmmap:IOSurface.count < 5", "'<'");
	parse_bad("vmmap:IOSurface.count <= 5", "'<'");
	parse_bad("classes:Foo<int> < 5", "'<'");
	parse_bad("classes:Foo<int>", "no value");
	parse_bad("IOSurface.count > 5", "KIND:NAME");
	parse_bad(":x > 5", "KIND:NAME");
	parse_bad("vmmap: > 5", "KIND:NAME");
	parse_bad(" > 5", "no metric");
	parse_bad("track:total >", "no value");
	parse_bad("track:total > +", "value '+'");
	parse_bad("track:total > 5Q", "value '5Q'");
	parse_bad("track:total > 1.001%", "value '1.001%'");
	parse_bad("track:total > 1.%", "value '1.%'");
	parse_bad("track:total > %", "value '%'");
	parse_bad("track:total > 9223372036854775808", "value");
	parse_bad("track:total > 99999999999999999999%", "value");
}

static bool
trips(const char *text, int64_t before, int64_t after)
{
	struct diff_gate g;
	struct diag err;
	parse_ok(text, &g);
	assert_int_equal(diff_gate_check(&g, before, after, &err), 0);
	assert_int_equal(g.delta, after - before);
	bool t = g.tripped;
	diff_gate_release(&g);
	return t;
}

static void
test_check_boundaries(void **state)
{
	(void)state;
	assert_false(trips("k:m > +5", 10, 15));
	assert_true(trips("k:m > +5", 10, 16));
	assert_true(trips("k:m >= +5", 10, 15));
	assert_false(trips("k:m >= +5", 10, 14));
	assert_true(trips("k:m > -5", 10, 6));
	assert_false(trips("k:m > -5", 10, 5));
	assert_false(trips("k:m > +0", 7, 7));
	/* Percentages are exact: 10% of 100 is 10. */
	assert_false(trips("k:m > +10%", 100, 110));
	assert_true(trips("k:m > +10%", 100, 111));
	assert_true(trips("k:m >= +10%", 100, 110));
	assert_true(trips("k:m > +35.71%", 14, 19));
	assert_false(trips("k:m > +35.72%", 14, 19));
	/* From zero: any increase trips, no change passes. */
	assert_true(trips("k:m > +1000%", 0, 1));
	assert_false(trips("k:m >= +0%", 0, 0));
	/* Large figures do not wrap. */
	assert_true(trips("k:m > +50%", INT64_MAX / 2, INT64_MAX));
	assert_false(trips("k:m > +100%", INT64_MAX / 2, INT64_MAX / 2 * 2));
	assert_true(trips("k:m > +100%", INT64_MAX / 2, INT64_MAX));
}

static void
test_check_overflow(void **state)
{
	(void)state;
	struct diff_gate g;
	struct diag err;
	parse_ok("k:m > 0", &g);
	assert_int_equal(diff_gate_check(&g, INT64_MIN, INT64_MAX, &err), -1);
	assert_int_equal(err.code, DIAG_DATA);
	diff_gate_release(&g);
	int64_t d;
	assert_int_equal(diff_delta_u64(5, 3, &d), 0);
	assert_int_equal(d, -2);
	assert_int_equal(diff_delta_u64(UINT64_MAX, 3, &d), -1);
}

/*
 * A gate's unit follows the descriptor tables: each vmmap field as
 * vmmap_fields declares it, footprint's regions a count and its other
 * figures bytes, whatever the type, category or process name holds.
 */
static void
test_metric_units(void **state)
{
	(void)state;
	char m[64];
	for (int f = 0; f < VMMAP_FIELDS; f++) {
		snprintf(m, sizeof(m), "IOSurface:N.%s", vmmap_fields[f].name);
		assert_int_equal(diff_vmmap_metric_is_bytes(m), vmmap_fields[f].unit == METRIC_BYTES);
	}
	assert_false(diff_vmmap_metric_is_bytes("IOAccelerator (graphics).count"));
	assert_true(diff_vmmap_metric_is_bytes("gpu.vsize"));
	assert_true(diff_vmmap_metric_is_bytes("footprint"));
	for (int f = 0; f < FOOTPRINT_FIELDS; f++) {
		snprintf(m, sizeof(m), "process:com.example [7]:IOSurface.%s", footprint_fields[f].name);
		assert_int_equal(footprint_metric_unit(m), footprint_fields[f].unit);
	}
	assert_int_equal(footprint_metric_unit("IOSurface.regions"), METRIC_COUNT);
	assert_int_equal(footprint_metric_unit("gpu.dirty"), METRIC_BYTES);
	assert_int_equal(footprint_metric_unit("phys_footprint_peak"), METRIC_BYTES);
	/* A process name with dots names no field: its figure is the footprint. */
	assert_int_equal(footprint_metric_unit("process:com.example.app:footprint"), METRIC_BYTES);
}

/*
 * A gate's limit for people. Bytes worked out by hand: 256M = 256 x 2^20 =
 * 268435456; 1.5G = 1.5 x 2^30 = 1610612736; 0x2000 = 8192; 64K = 65536;
 * 407896064 = 389 x 2^20 (389 MiB exactly); 402653183 = 384 x 2^20 - 1, not
 * a whole 1/100 MiB (~384 MiB); 12289 = 12 x 2^10 + 1 (~12 KiB).
 */
static void
test_limit_text(void **state)
{
	(void)state;
	static const struct {
		const char *gate;
		bool bytes;
		const char *limit;
	} cases[] = {
		{ "vmmap:gpu.dirty > +256M", true, "> +256M (+268435456 bytes)" },
		{ "vmmap:gpu.dirty >= +1.5G", true, ">= +1.5G (+1610612736 bytes)" },
		{ "track:total >= 0x2000", true, ">= 0x2000 (+8192 bytes)" },
		{ "track:total > -64KiB", true, "> -64KiB (-65536 bytes)" },
		{ "vmmap:gpu.vsize >= +407896064", true, ">= +407896064 (+389 MiB)" },
		{ "vmmap:gpu.vsize > +402653183", true, "> +402653183 (~+384 MiB)" },
		{ "track:total > -12289", true, "> -12289 (~-12 KiB)" },
		{ "track:total > 512", true, "> 512 (+512 B)" },
		/* Zero is zero in every unit; a percentage and a count have none. */
		{ "vmmap:gpu.dirty > +0", true, "> +0" },
		{ "vmmap:gpu.dirty > +0M", true, "> +0M" },
		{ "vmmap:gpu.dirty > +10%", true, "> +10%" },
		{ "vmmap:IOSurface.count > +5", false, "> +5" },
		{ "vmmap:IOSurface.count > +5K", false, "> +5K" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct diff_gate g;
		struct strbuf sb = STRBUF_INIT;
		parse_ok(cases[i].gate, &g);
		g.bytes = cases[i].bytes;
		strbuf_addstr(&sb, "[");   /* appended: what was there stays */
		diff_gate_limit_text(&g, &sb);
		assert_string_equal(sb.buf + 1, cases[i].limit);
		assert_int_equal(sb.buf[0], '[');
		strbuf_release(&sb);
		diff_gate_release(&g);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_parts),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_check_boundaries),
		cmocka_unit_test(test_check_overflow),
		cmocka_unit_test(test_metric_units),
		cmocka_unit_test(test_limit_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
