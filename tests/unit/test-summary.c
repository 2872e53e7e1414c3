/*
 * The summary block (model/summary.h): the cost's source rule over every
 * combination of known and unknown figures, a growth phrased in the
 * summary's words (sizes worked out by hand), the largest growths kept,
 * and the lines composed from facts; and the one text byte formatter
 * (util/size.h size_format_text) with its "~" for rounded inputs.
 */

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/diff_vmmap.h"
#include "model/gpu.h"
#include "model/heap.h"
#include "model/summary.h"
#include "util/size.h"
#include "util/strbuf.h"

#define MiB (UINT64_C(1) << 20)

static void
check_text(int64_t v, unsigned flags, const char *want)
{
	char b[32];
	size_format_text(v, flags, b);
	assert_string_equal(b, want);
}

static void
test_text_formatter(void **state)
{
	(void)state;
	check_text(0, 0, "0 B");
	check_text(0, SIZE_TEXT_SIGNED, "0 B");
	check_text(5120 * 1024, SIZE_TEXT_SIGNED, "+5 MiB");     /* vmmap's "+5120K" */
	check_text(-1536, SIZE_TEXT_SIGNED, "-1.5 KiB");
	check_text(-1536, 0, "-1.5 KiB");                       /* a minus is never dropped */
	/* 140.625 MiB: hundredths rounded half up, and "~" since it is cut. */
	check_text(147456000, 0, "~140.63 MiB");
	/* Exact in hundredths, but from a rounded input: still "~". */
	check_text(922 * (int64_t)MiB, SIZE_TEXT_ROUNDED, "~922 MiB");
	check_text(64 * (int64_t)MiB, SIZE_TEXT_SIGNED | SIZE_TEXT_ROUNDED, "~+64 MiB");
	check_text(INT64_MIN + 1, SIZE_TEXT_SIGNED, "~-8 EiB");
}

static void
phrase(const struct summary_growth *g, const char *want)
{
	struct strbuf sb = STRBUF_INIT;
	summary_growth_phrase(g, &sb);
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
}

static void
test_growth_phrase(void **state)
{
	(void)state;
	/* 3 regions of 128 MiB: 402653184 bytes, a whole multiple of 3. */
	phrase(&(struct summary_growth){ .what = "IOAccelerator (graphics)",
		 .state = "non-volatile", .has_count = true, .count = 3, .has_bytes = true,
		 .bytes = 3 * 128 * (int64_t)MiB, .count_noun = "region", .regions = true },
	       "IOAccelerator (graphics), non-volatile: +3 \u00d7 128 MiB");
	/* 5 MiB over 3 regions is not a whole size each: the sum and the count. */
	phrase(&(struct summary_growth){ .what = "IOSurface", .state = "non-volatile",
		 .has_count = true, .count = 3, .has_bytes = true, .bytes = 5 * (int64_t)MiB,
		 .count_noun = "region", .regions = true },
	       "IOSurface, non-volatile: +5 MiB (+3 regions)");
	/* Allocations are not regions: never "N × size". */
	phrase(&(struct summary_growth){ .what = "kext: f()", .has_count = true, .count = 4,
		 .has_bytes = true, .bytes = 4 * 256 * 1024, .count_noun = "allocation" },
	       "kext: f(): +1 MiB (+4 allocations)");
	phrase(&(struct summary_growth){ .what = "a", .has_count = true, .count = 1,
		 .has_bytes = true, .bytes = 4096, .count_noun = "allocation" },
	       "a: +4 KiB (+1 allocation)");
	phrase(&(struct summary_growth){ .what = "IOSurface (footprint dirty)", .has_bytes = true,
		 .bytes = 64 * (int64_t)MiB, .rounded = true },
	       "IOSurface (footprint dirty): ~+64 MiB");
	phrase(&(struct summary_growth){ .what = "OSDictionary", .has_count = true, .count = 100 },
	       "OSDictionary: +100");
	/* Shrinking regions of equal size read the same way, with a minus. */
	phrase(&(struct summary_growth){ .what = "T", .has_count = true, .count = -2,
		 .has_bytes = true, .bytes = -2 * (int64_t)MiB, .regions = true },
	       "T: -2 \u00d7 1 MiB");
}

static struct summary_amount
known(uint64_t v)
{
	return (struct summary_amount){ .known = true, .value = v };
}

static void
test_cost_source_rule(void **state)
{
	(void)state;
	struct summary_facts f;
	/* Nothing noted: no cost. */
	summary_facts_init(&f, true);
	assert_int_equal(summary_cost_source(&f), SUMMARY_SOURCES);
	/* Resident only. */
	summary_note_cost(&f, SUMMARY_SRC_RESIDENT, 0, known(1));
	summary_note_cost(&f, SUMMARY_SRC_RESIDENT, 1, known(2));
	assert_int_equal(summary_cost_source(&f), SUMMARY_SRC_RESIDENT);
	/* vmmap's dirty + swapped known on both sides wins over resident. */
	summary_note_cost(&f, SUMMARY_SRC_VMMAP, 0, known(3));
	summary_note_cost(&f, SUMMARY_SRC_VMMAP, 1, known(4));
	assert_int_equal(summary_cost_source(&f), SUMMARY_SRC_VMMAP);
	/* footprint known on one side of a pair only: not comparable, vmmap stays. */
	summary_note_cost(&f, SUMMARY_SRC_FOOTPRINT, 1, known(5));
	summary_note_cost(&f, SUMMARY_SRC_FOOTPRINT, 0, (struct summary_amount){ 0 });
	assert_int_equal(summary_cost_source(&f), SUMMARY_SRC_VMMAP);
	summary_note_cost(&f, SUMMARY_SRC_FOOTPRINT, 0, known(0));   /* known 0 is known */
	assert_int_equal(summary_cost_source(&f), SUMMARY_SRC_FOOTPRINT);
	summary_facts_release(&f);
	/* One capture reads its only side. */
	summary_facts_init(&f, false);
	summary_note_cost(&f, SUMMARY_SRC_FOOTPRINT, 1, (struct summary_amount){ 0 });
	summary_note_cost(&f, SUMMARY_SRC_VMMAP, 1, known(7));
	assert_int_equal(summary_cost_source(&f), SUMMARY_SRC_VMMAP);
	summary_facts_release(&f);
}

static void
test_largest_kept(void **state)
{
	(void)state;
	struct summary_list l = { 0 };
	static const char *const names[] = { "a", "b", "c", "d", "e" };
	static const int64_t sizes[] = { 10, 50, 30, -100, 40 };
	for (size_t i = 0; i < 5; i++)
		summary_offer(&l, &(struct summary_growth){ .what = names[i], .has_bytes = true,
			      .bytes = sizes[i] }, NULL, 0);
	/* d shrank: not a growth. The three largest of a b c e, the fourth counted. */
	assert_int_equal(l.n, 3);
	assert_string_equal(l.items[0].what, "b");
	assert_string_equal(l.items[1].what, "e");
	assert_string_equal(l.items[2].what, "c");
	assert_int_equal(l.more, 1);
	struct summary_facts f;
	summary_facts_init(&f, true);
	f.grew_regions = l;
	summary_facts_release(&f);
}

static void
test_lines(void **state)
{
	(void)state;
	struct summary_facts f;
	summary_facts_init(&f, true);
	/* footprint GPU dirty + swapped 897.5 MiB -> 961.5 MiB: +64 MiB exactly. */
	summary_note_cost(&f, SUMMARY_SRC_FOOTPRINT, 0, known(941096960 + 16384));
	summary_note_cost(&f, SUMMARY_SRC_FOOTPRINT, 1, known(1008205824 + 16384));
	summary_note_cost(&f, SUMMARY_SRC_VMMAP, 0, known(1));
	summary_note_cost(&f, SUMMARY_SRC_VMMAP, 1, known(2));
	summary_offer(&f.grew_regions, &(struct summary_growth){ .what = "IOSurface",
		      .state = "non-volatile", .has_count = true, .count = 5, .has_bytes = true,
		      .bytes = 5 * (int64_t)MiB, .regions = true }, NULL, 0);
	summary_offer(&f.grew_regions, &(struct summary_growth){
		      .what = "IOAccelerator (graphics)", .state = "non-volatile",
		      .has_count = true, .count = 3, .has_bytes = true,
		      .bytes = 384 * (int64_t)MiB, .regions = true }, NULL, 0);
	static const char *const bt[] = { "NewCache::grow(unsigned long) (com.example)",
					   "IOService::start (kernel)" };
	summary_offer(&f.sites, &(struct summary_growth){ .what = "com.example: NewCache::grow",
		      .has_count = true, .count = 4, .has_bytes = true, .bytes = (int64_t)MiB,
		      .count_noun = "allocation" }, bt, 2);
	summary_note_class(&f, "OSDictionary", 100);
	summary_note_class(&f, "IOSurface", 5);
	summary_note_class(&f, "Gone", -2);
	struct summary s;
	summary_build(&f, &s);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.lines[0].kind, SUMMARY_LINE_COST);
	assert_string_equal(s.lines[0].text, "Cost: +64 MiB (~897.52 MiB \u2192 ~961.52 MiB), "
			    "GPU dirty + swapped (footprint)");
	assert_true(s.lines[0].has_bytes);
	assert_int_equal(s.lines[0].bytes, 67108864);
	assert_string_equal(s.lines[1].text, "Grew: IOAccelerator (graphics), non-volatile: "
			    "+3 \u00d7 128 MiB; IOSurface, non-volatile: +5 \u00d7 1 MiB");
	assert_string_equal(s.lines[2].text, "Where: com.example: NewCache::grow: +1 MiB "
			    "(+4 allocations); classes OSDictionary +100, IOSurface +5");
	assert_int_equal(s.lines[2].ndetail, 2);
	assert_string_equal(s.lines[2].detail[1], "IOService::start (kernel)");
	summary_release(&s);
	/* A series leads with its verdict; merged facts keep every line. */
	struct summary_facts all;
	summary_facts_init(&all, true);
	summary_note_verdict(&f, "LEAK: vmmap:gpu.dirty ~+96.08 MiB/h");
	summary_facts_merge(&all, &f);
	summary_build(&all, &s);
	assert_int_equal(s.n, 4);
	assert_int_equal(s.lines[0].kind, SUMMARY_LINE_VERDICT);
	assert_string_equal(s.lines[0].text, "Verdict: LEAK: vmmap:gpu.dirty ~+96.08 MiB/h");
	assert_int_equal(s.lines[3].kind, SUMMARY_LINE_WHERE);
	summary_release(&s);
	summary_facts_release(&all);
	summary_facts_release(&f);
}

/*
 * Virtual size comes second on the cost line, never first: its change for
 * a pair, its figure for one capture; absent when a side lacks it.
 */
static void
test_virtual_second(void **state)
{
	(void)state;
	struct summary_facts f;
	summary_facts_init(&f, true);
	summary_note_cost(&f, SUMMARY_SRC_VMMAP, 0, known(100 * MiB));
	summary_note_cost(&f, SUMMARY_SRC_VMMAP, 1, known(105 * MiB));
	/* 2 GiB -> 2 GiB + 389 MiB of virtual size: larger, and still second. */
	summary_note_virtual(&f, 0, known(2048 * MiB));
	summary_note_virtual(&f, 1, known(2437 * MiB));
	struct summary s;
	summary_build(&f, &s);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.lines[0].text, "Cost: +5 MiB (100 MiB → 105 MiB), "
			    "GPU dirty + swapped (vmmap); virtual +389 MiB");
	assert_int_equal(s.lines[0].bytes, 5 * (int64_t)MiB);
	summary_release(&s);
	/* One side unknown: no virtual figure rather than a wrong one. */
	summary_note_virtual(&f, 0, (struct summary_amount){ 0 });
	summary_build(&f, &s);
	assert_string_equal(s.lines[0].text, "Cost: +5 MiB (100 MiB → 105 MiB), "
			    "GPU dirty + swapped (vmmap)");
	summary_release(&s);
	summary_facts_release(&f);
	/* One capture: the figure itself. */
	summary_facts_init(&f, false);
	summary_note_cost(&f, SUMMARY_SRC_VMMAP, 1, known(1280 * MiB));
	summary_note_virtual(&f, 1, known(3 * 1024 * MiB + 512 * MiB));
	summary_build(&f, &s);
	assert_string_equal(s.lines[0].text, "Cost: 1.25 GiB, GPU dirty + swapped (vmmap); "
			    "virtual 3.5 GiB");
	summary_release(&s);
	summary_facts_release(&f);
}

/* Nothing known: no cost line, and unknown is never shown as 0. */
static void
test_unknown_never_zero(void **state)
{
	(void)state;
	struct summary_facts f;
	summary_facts_init(&f, false);
	summary_note_cost(&f, SUMMARY_SRC_FOOTPRINT, 1, (struct summary_amount){ 0 });
	summary_note_cost(&f, SUMMARY_SRC_VMMAP, 1, (struct summary_amount){ 0 });
	struct summary s;
	summary_build(&f, &s);
	assert_int_equal(s.n, 0);
	summary_release(&s);
	summary_facts_release(&f);
}

/* A tripped vmmap gate's phrase: the row it picks, in the grew line's words. */
static char *
gate_phrase(const struct diff_vmmap *d, const char *metric)
{
	int field = -1;
	const struct diff_vmmap_row *row = diff_vmmap_metric_grew_most(d, metric, &field);
	if (!row)
		return NULL;
	struct summary_growth g;
	summary_growth_of_vmmap_row(row, field, &g);
	struct strbuf sb = STRBUF_INIT;
	summary_growth_phrase(&g, &sb);
	return strbuf_detach(&sb, NULL);
}

static void
assert_phrase(const struct diff_vmmap *d, const char *metric, const char *want)
{
	char *got = gate_phrase(d, metric);
	if (!want) {
		assert_null(got);
		return;
	}
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

/*
 * A diff built by hand: 3 IOAccelerator (graphics) regions of 128 MiB
 * added non-volatile, none dirty; 5 IOSurface regions of 1 MiB added,
 * all dirty; a volatile IOSurface region gone; MALLOC_SMALL grew most of
 * all but is no GPU type. Each gate names the row its selection grew most
 * in its own field, in the summary block's words.
 */
static void
test_vmmap_gate_phrase(void **state)
{
	(void)state;
	static const char *types[] = { "IOAccelerator (graphics)", "IOSurface", "MALLOC_SMALL" };
	struct diff_vmmap_row rows[] = {
		{ types[0], VMMAP_PURGE_N, { 2, 2 * 64 * MiB, 2 * 64 * MiB, 0, 0 },
		  { 5, 2 * 64 * MiB + 3 * 128 * MiB, 2 * 64 * MiB, 0, 0 } },
		{ types[1], VMMAP_PURGE_N, { 14, 14 * MiB, 14 * MiB, 14 * MiB, 0 },
		  { 19, 19 * MiB, 19 * MiB, 19 * MiB, 0 } },
		{ types[1], VMMAP_PURGE_V, { 1, 4 * MiB, 4 * MiB, 0, 0 }, { 0, 0, 0, 0, 0 } },
		{ types[2], VMMAP_PURGE_NONE, { 10, 10 * MiB, 10 * MiB, 10 * MiB, 0 },
		  { 2010, 2010 * MiB, 2010 * MiB, 2010 * MiB, 0 } },
	};
	struct diff_vmmap d = { .rows = rows, .nrows = 4, .types = types, .ntypes = 3 };
	assert_phrase(&d, "gpu.vsize", "IOAccelerator (graphics), non-volatile: +3 \u00d7 128 MiB");
	assert_phrase(&d, "IOAccelerator (graphics):N.vsize",
		      "IOAccelerator (graphics), non-volatile: +3 \u00d7 128 MiB");
	/* Another field than the regions' own size is named; its bytes are not "× size". */
	assert_phrase(&d, "gpu.dirty", "IOSurface, non-volatile: +5 MiB dirty (+5 regions)");
	assert_phrase(&d, "IOSurface.count", "IOSurface, non-volatile: +5 regions");
	/* A glob and a substring select as the metric does. */
	assert_phrase(&d, "IOS*.vsize", "IOSurface, non-volatile: +5 \u00d7 1 MiB");
	assert_phrase(&d, "MALLOC.vsize", "MALLOC_SMALL: +2000 \u00d7 1 MiB");
	/* Nothing of the selection grew (the volatile state shrank): no phrase. */
	assert_phrase(&d, "IOSurface:V.vsize", NULL);
	assert_phrase(&d, "gpu.swapped", NULL);
	/* Not a metric of region lines: nothing to name. */
	assert_phrase(&d, "footprint", NULL);
	assert_phrase(&d, "gpu.bogus", NULL);
	d.by_summary = true;
	assert_phrase(&d, "gpu.vsize", NULL);
}

/*
 * A malloc class's growth: its binary beside its name, bytes and instances
 * (worked out by hand); the Grew line takes the heap's classes only when no
 * vmmap or footprint figure grew.
 */
static void
test_heap_growth(void **state)
{
	(void)state;
	struct heap_diff_row rows[] = {
		{ "non-object", "", "", 2000, 4096000, 2400, 15581184, true, true },
		{ "CFString", "ObjC", "CoreFoundation", 1000, 128000, 1150, 147200, true, true },
		{ "Swift.Array<Frame>", "Swift", "Ferryx", 150, 38400, 0, 0, true, false },
	};
	struct heap_capture cap = { 0 };
	struct heap_diff d = { .before = &cap, .after = &cap, .rows = rows, .nrows = 3 };
	struct strbuf what = STRBUF_INIT, sb = STRBUF_INIT;
	struct summary_growth g;
	summary_growth_of_heap_row(&rows[1], false, &what, &g);
	summary_growth_phrase(&g, &sb);
	/* 147200 - 128000 = 19200 bytes = 18.75 KiB exactly. */
	assert_string_equal(sb.buf, "CFString (CoreFoundation): +18.75 KiB (+150 instances)");
	struct summary_facts f;
	summary_facts_init(&f, true);
	summary_note_heap_growth(&f, &d);
	/* The Swift row shrank: only growths are kept, largest bytes first. */
	assert_int_equal(f.grew_heap.n, 2);
	struct summary s;
	summary_build(&f, &s);
	assert_int_equal(s.n, 1);
	/* 11485184 bytes = 10.953 MiB: "~" as it is not a whole hundredth. */
	assert_string_equal(s.lines[0].text, "Grew: non-object: ~+10.95 MiB (+400 instances); "
			    "CFString (CoreFoundation): +18.75 KiB (+150 instances)");
	summary_release(&s);
	/* A vmmap growth comes first: the heap's classes are the fallback. */
	summary_offer(&f.grew_regions, &(struct summary_growth){ .what = "IOSurface",
		      .state = "non-volatile", .has_count = true, .count = 1, .has_bytes = true,
		      .bytes = (int64_t)MiB, .regions = true }, NULL, 0);
	summary_build(&f, &s);
	assert_string_equal(s.lines[0].text, "Grew: IOSurface, non-volatile: +1 \u00d7 1 MiB");
	summary_release(&s);
	summary_facts_release(&f);
	strbuf_release(&what);
	strbuf_release(&sb);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_formatter),
		cmocka_unit_test(test_growth_phrase),
		cmocka_unit_test(test_cost_source_rule),
		cmocka_unit_test(test_largest_kept),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_virtual_second),
		cmocka_unit_test(test_unknown_never_zero),
		cmocka_unit_test(test_vmmap_gate_phrase),
		cmocka_unit_test(test_heap_growth),
	};
	return cmocka_run_group_tests_name("summary", tests, NULL, NULL);
}
