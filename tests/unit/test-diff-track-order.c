/*
 * The order of track diff call sites when change, byte delta and bytes
 * tie: by label as strcmp() orders the labels' text (so "via frame 10"
 * before "via frame 9", and a symbol that reads like a "via" compared
 * byte by byte), then by frames, an allocation before a mapping.
 *
 * The sort compares labels without building them; the expected orders
 * below are stated by hand from the construction, and a second check
 * holds random hostile names to strcmp() of the labels as written.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/diff_track.h"
#include "model/track.h"
#include "track-records.h"

#define KERNEL "kernel.development"

/* One record of 0x1000 bytes: frame 0 in `module` (`symbol0`), then kernel frames. */
static void
add_site(struct diff_track *d, int side, bool mapping, const char *module, const char *symbol0,
	 const char *const *kernel_symbols, size_t n)
{
	struct track_record r;
	struct diag err;
	track_record_init(&r);
	r.type = mapping ? TRACK_RECORD_MAP : TRACK_RECORD_ALLOC;
	r.bytes = 0x1000;
	r.size[0] = 0x1000;
	r.count = 1;
	add_text_frame(&r, module, symbol0);
	for (size_t i = 0; i < n; i++)
		add_text_frame(&r, KERNEL, kernel_symbols[i]);
	assert_int_equal(diff_track_add_record(d, side, &r, "t", &err), 0);
	track_record_release(&r);
}

#define SITE(d, mapping, module, sym0, ...)                                                  \
	do {                                                                                 \
		static const char *const k_[] = { __VA_ARGS__ };                             \
		add_site(d, 1, mapping, module, sym0, k_, sizeof(k_) / sizeof(k_[0]));       \
	} while (0)

static void
assert_order(const struct diff_track *d, const char *const *want, const bool *want_mapping,
	     size_t n)
{
	const struct diff_track_site **s;
	struct strbuf label = STRBUF_INIT;
	assert_int_equal(diff_track_sorted_sites(d, &s), n);
	for (size_t i = 0; i < n; i++) {
		strbuf_reset(&label);
		diff_track_site_label(d, s[i], &label);
		if (strcmp(label.buf, want[i]) != 0 || s[i]->mapping != want_mapping[i])
			fail_msg("site %zu: '%s'%s, expected '%s'%s", i, label.buf,
				 s[i]->mapping ? " (mapping)" : "", want[i],
				 want_mapping[i] ? " (mapping)" : "");
	}
	strbuf_release(&label);
	free(s);
}

/*
 * Ten new sites of 0x1000 bytes each, added in an order unrelated to the
 * expected one. In the group of com.example.a's Kext::alloc():
 * E and F share frames 0-9 and part at 10, G shares 0-8 with them and parts
 * at 9, S1 and S2 share 0-1 and part at 2, S3 parts from all at 1; M is a
 * mapping with S3's frames, alone among the group's mappings, so it has no
 * "via" and its label is a prefix of the others'. H is charged to a symbol
 * that reads "Kext::alloc() via frame 1: a": its own group, no "via", and
 * byte by byte it falls after "via frame 10" and before "via frame 1: f0".
 * A1 and M1 (com.example.c) have the same frames and the same label: the
 * allocation comes first.
 */
static void
test_tie_break_by_label_text(void **state)
{
	(void)state;
	struct diff_track d;
	diff_track_init(&d, false);
	SITE(&d, false, "com.example.a", "Kext::alloc()", "c1()", "c2()", "c3()", "c4()", "c5()",
	     "c6()", "c7()", "c8()", "z()");                                          /* G */
	SITE(&d, false, "com.example.c", "Kext::alloc()", "q()");                    /* A1 */
	SITE(&d, false, "com.example.a", "Kext::alloc()", "f1()", "g2()");           /* S2 */
	SITE(&d, true, "com.example.a", "Kext::alloc()", "f0()");                    /* M */
	SITE(&d, false, "com.example.a", "Kext::alloc() via frame 1: a", "f0()");    /* H */
	SITE(&d, false, "com.example.a", "Kext::alloc()", "c1()", "c2()", "c3()", "c4()", "c5()",
	     "c6()", "c7()", "c8()", "c9()", "y()");                                  /* F */
	SITE(&d, false, "com.example.a", "Kext::alloc()", "f1()", "g1()");           /* S1 */
	SITE(&d, true, "com.example.c", "Kext::alloc()", "q()");                     /* M1 */
	SITE(&d, false, "com.example.a", "Kext::alloc()", "c1()", "c2()", "c3()", "c4()", "c5()",
	     "c6()", "c7()", "c8()", "c9()", "x()");                                  /* E */
	SITE(&d, false, "com.example.a", "Kext::alloc()", "f0()");                   /* S3 */
	static const char *const want[] = {
		"com.example.a: Kext::alloc()",                                             /* M */
		"com.example.a: Kext::alloc() via frame 10: x() (" KERNEL ")",              /* E */
		"com.example.a: Kext::alloc() via frame 10: y() (" KERNEL ")",              /* F */
		"com.example.a: Kext::alloc() via frame 1: a",                              /* H */
		"com.example.a: Kext::alloc() via frame 1: f0() (" KERNEL ")",              /* S3 */
		"com.example.a: Kext::alloc() via frame 2: g1() (" KERNEL ")",              /* S1 */
		"com.example.a: Kext::alloc() via frame 2: g2() (" KERNEL ")",              /* S2 */
		"com.example.a: Kext::alloc() via frame 9: z() (" KERNEL ")",               /* G */
		"com.example.c: Kext::alloc()",                                             /* A1 */
		"com.example.c: Kext::alloc()",                                             /* M1 */
	};
	static const bool want_mapping[] = {
		true, false, false, false, false, false, false, false, false, true,
	};
	assert_order(&d, want, want_mapping, sizeof(want) / sizeof(want[0]));
	diff_track_release(&d);
}

/* Names chosen to trip a comparison that is not strcmp() of the whole label. */
static const char *const hostile_modules[] = {
	"com.example.a", "com.example.a: f()", "com.example.", "com.example.a via frame 1",
};
static const char *const hostile_symbols[] = {
	"f()", "f() via frame 1: a", "f() via frame 10", "", "f",
};

static void
random_frame(struct track_record *r, uint32_t *seed)
{
	const char *m = hostile_modules[next_random(seed) % 4];
	const char *s = hostile_symbols[next_random(seed) % 5];
	if (next_random(seed) % 3 == 0)
		m = KERNEL;
	add_frame_at(r, m, 0xfffffff000001000ULL + (next_random(seed) % 3) * 0x10, s,
		     next_random(seed) % 2 ? 0x10 : 0x20);
}

static int
sign(int c)
{
	return (c > 0) - (c < 0);
}

/* Adjacent sites of the sorted order, when their figures tie, have labels in strcmp() order. */
static void
check_random(bool match_offsets, uint32_t seed)
{
	struct diff_track d;
	struct track_record r;
	struct diag err;
	diff_track_init(&d, match_offsets);
	track_record_init(&r);
	for (int k = 0; k < 800; k++) {
		track_record_reset(&r);
		r.type = next_random(&seed) % 6 == 0 ? TRACK_RECORD_MAP : TRACK_RECORD_ALLOC;
		r.bytes = next_random(&seed) % 2 ? 0x1000 : 0x2000;
		r.size[0] = r.bytes;
		r.count = 1;
		size_t depth = next_random(&seed) % 12;
		for (size_t i = 0; i < depth; i++)
			random_frame(&r, &seed);
		assert_int_equal(diff_track_add_record(&d, next_random(&seed) % 2, &r, "t", &err), 0);
	}
	const struct diff_track_site **s;
	size_t n = diff_track_sorted_sites(&d, &s);
	assert_true(n > 200);
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	size_t ties = 0;
	for (size_t i = 0; i + 1 < n; i++) {
		const struct diff_track_site *x = s[i], *y = s[i + 1];
		uint64_t dx = diff_track_site_side(&d, x, 0)->bytes > diff_track_site_side(&d, x, 1)->bytes ? diff_track_site_side(&d, x, 0)->bytes - diff_track_site_side(&d, x, 1)->bytes
								  : diff_track_site_side(&d, x, 1)->bytes - diff_track_site_side(&d, x, 0)->bytes;
		uint64_t dy = diff_track_site_side(&d, y, 0)->bytes > diff_track_site_side(&d, y, 1)->bytes ? diff_track_site_side(&d, y, 0)->bytes - diff_track_site_side(&d, y, 1)->bytes
								  : diff_track_site_side(&d, y, 1)->bytes - diff_track_site_side(&d, y, 0)->bytes;
		if (diff_track_site_change(&d, x) != diff_track_site_change(&d, y) || dx != dy ||
		    diff_track_site_side(&d, x, 1)->bytes != diff_track_site_side(&d, y, 1)->bytes)
			continue;
		strbuf_reset(&a);
		strbuf_reset(&b);
		diff_track_site_label(&d, x, &a);
		diff_track_site_label(&d, y, &b);
		if (sign(strcmp(a.buf, b.buf)) > 0)
			fail_msg("'%s' sorted before '%s'", a.buf, b.buf);
		ties++;
	}
	assert_true(ties > 100);
	strbuf_release(&a);
	strbuf_release(&b);
	free(s);
	track_record_release(&r);
	diff_track_release(&d);
}

static void
test_tie_break_is_strcmp_of_labels(void **state)
{
	(void)state;
	check_random(false, 11);
	check_random(true, 12);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tie_break_by_label_text),
		cmocka_unit_test(test_tie_break_is_strcmp_of_labels),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
