/*
 * Leak signatures (model/signature.h, model/signature_bucket.h) against
 * independent truth: size-bucket edges from x^2 >= 2^(2e+1) worked out in
 * exact integers (Python), ids from hashlib's SHA-256 of the canonical text,
 * and buckets of records built by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/signature.h"
#include "model/signature_bucket.h"
#include "model/signature_series.h"
#include "model/trend.h"
#include "util/xalloc.h"

static void
test_size_bucket_edges(void **state)
{
	(void)state;
	/* 2^26 * sqrt(2) = 94906265.6: 94906265^2 < 2^53 <= 94906266^2. */
	assert_int_equal(signature_size_bucket(94906265), 26);
	assert_int_equal(signature_size_bucket(94906266), 27);
	assert_int_equal(signature_size_bucket(128ull << 20), 27);
	assert_int_equal(signature_size_bucket((128ull << 20) * 105 / 100), 27);
	assert_int_equal(signature_size_bucket((128ull << 20) * 95 / 100), 27);
	assert_int_equal(signature_size_bucket(16384), 14);
	assert_int_equal(signature_size_bucket(1), 0);
	assert_int_equal(signature_size_bucket(0), 0);
	/* Past 2^32: 1.5 * 2^40 is above 2^40 * sqrt(2). */
	assert_int_equal(signature_size_bucket((1ull << 40) + (1ull << 39)), 41);
	assert_int_equal(signature_size_bucket((1ull << 40) + (1ull << 38)), 40);
	assert_int_equal(signature_size_bucket(UINT64_MAX), 63);
}

static void
test_bucket_text(void **state)
{
	char s[16];
	(void)state;
	signature_bucket_text(27, s, sizeof(s));
	assert_string_equal(s, "128M");
	signature_bucket_text(20, s, sizeof(s));
	assert_string_equal(s, "1M");
	signature_bucket_text(14, s, sizeof(s));
	assert_string_equal(s, "16K");
	signature_bucket_text(30, s, sizeof(s));
	assert_string_equal(s, "1G");
	signature_bucket_text(5, s, sizeof(s));
	assert_string_equal(s, "32B");
}

static void
sym(const char *in, const char *want)
{
	char out[128];
	signature_symbol_text(in, strlen(in), out, sizeof(out));
	assert_string_equal(out, want);
}

static void
test_symbol_text(void **state)
{
	(void)state;
	sym("VendorAudio::allocRing(unsigned int, bool) const", "VendorAudio::allocRing");
	sym("AGXHeap::grow<unsigned int>(unsigned long)", "AGXHeap::grow<T>");
	sym("std::vector<A<int>, B>::push<C>(D&&)", "std::vector<T>::push<T>");
	sym("Foo::operator()(int)", "Foo::operator()");
	sym("Foo::operator<(Foo const&)", "Foo::operator<");
	sym("plain_c_function", "plain_c_function");
	char small[5];
	signature_symbol_text("abcdefgh", 8, small, sizeof(small));
	assert_string_equal(small, "abcd");
}

static void
test_canonical_and_id(void **state)
{
	struct signature a, b;
	(void)state;
	signature_init(&a);
	signature_init(&b);
	/* The same components in another order, one given twice: the same text. */
	signature_add(&a, SIGNATURE_CLASS, "+B", 0, 10);
	signature_add(&a, SIGNATURE_CLASS, "+A", 0, 30);
	signature_add(&a, SIGNATURE_CLASS, "+C", 0, 20);
	signature_add(&b, SIGNATURE_CLASS, "+C", 0, 15);
	signature_add(&b, SIGNATURE_CLASS, "+A", 0, 30);
	signature_add(&b, SIGNATURE_CLASS, "+C", 0, 5);
	signature_add(&b, SIGNATURE_CLASS, "+B", 0, 10);
	signature_finish(&a);
	signature_finish(&b);
	assert_string_equal(a.canonical, "iotsig/1 class:+A; class:+B; class:+C");
	assert_string_equal(b.canonical, a.canonical);
	/* hashlib.sha256(b"iotsig/1 class:+A; class:+B; class:+C").hexdigest()[:12] */
	assert_string_equal(a.id, "5cbbaf210698");
	assert_string_equal(a.label, "A +instances; B +instances; C +instances");
	assert_int_equal(a.growth_count, 60);
	assert_int_equal(b.growth_count, 60);
	signature_release(&a);
	signature_release(&b);

	char id[SIGNATURE_ID_SIZE];
	signature_id_of("iotsig/1 gpu:IOAccelerator (graphics)/N/128M", id);
	assert_string_equal(id, "666d7af9da48");
}

static void
test_caps_and_sections(void **state)
{
	struct signature s;
	(void)state;
	signature_init(&s);
	/* Four classes: the smallest (+D) is dropped; sections in rule order. */
	signature_add(&s, SIGNATURE_TRACK, "m!f", 2 << 20, 1);
	signature_add(&s, SIGNATURE_CLASS, "+D", 0, 9);
	signature_add(&s, SIGNATURE_CLASS, "+Z", 0, 100);
	signature_add(&s, SIGNATURE_CLASS, "+Y", 0, 50);
	signature_add(&s, SIGNATURE_CLASS, "+X", 0, 40);
	signature_add(&s, SIGNATURE_GPU, "IOSurface/N/1M", 9 << 20, 9);
	signature_finish(&s);
	assert_string_equal(s.canonical, "iotsig/1 gpu:IOSurface/N/1M; class:+X; class:+Y; "
					 "class:+Z; track:m!f");
	assert_int_equal(s.n, 5);
	signature_release(&s);

	/* A series' verdict comes first, whatever the order it was added in. */
	signature_init(&s);
	signature_add(&s, SIGNATURE_GPU, "IOSurface/N/8M", 64 << 20, 8);
	signature_add(&s, SIGNATURE_TREND, "LEAK", 0, 0);
	signature_finish(&s);
	assert_string_equal(s.canonical, "iotsig/1 trend:LEAK; gpu:IOSurface/N/8M");
	assert_string_equal(s.label, "series LEAK; IOSurface non-volatile +8 MiB regions");
	signature_release(&s);

	signature_init(&s);
	signature_finish(&s);
	assert_false(signature_has(&s));
	assert_null(s.canonical);
	signature_release(&s);
}

static void
rec(struct signature_record *r, const char *name, const char *id, const char *os,
    const char *when, uint64_t bytes)
{
	memset(r, 0, sizeof(*r));
	r->name = xstrdup(name);
	if (!id)
		return;
	r->grew = true;
	strcpy(r->id, id);
	r->rule = xstrdup(SIGNATURE_RULE);
	r->label = xstrdup(id);
	r->os_version = os ? xstrdup(os) : NULL;
	r->captured = when ? xstrdup(when) : NULL;
	r->growth_bytes = bytes;
}

static void
test_buckets(void **state)
{
	struct signature_record r[7];
	struct signature_buckets b;
	(void)state;
	rec(&r[0], "p0", "bbbbbbbbbbbb", "14.0", "2026-01-02 10:00:00 +0000", 30);
	rec(&r[1], "p1", "aaaaaaaaaaaa", "15.0", "2026-01-05 10:00:00 +0000", 5);
	rec(&r[2], "p2", NULL, NULL, NULL, 0);
	rec(&r[3], "p3", "bbbbbbbbbbbb", "14.0", "2026-01-01 12:00:00 +0200", 10);
	rec(&r[4], "p4", "aaaaaaaaaaaa", NULL, NULL, 7);
	rec(&r[5], "p5", "bbbbbbbbbbbb", "13.0", NULL, 20);
	rec(&r[6], "p6", NULL, NULL, NULL, 0);
	r[6].error = xstrdup("cannot read");
	signature_buckets_make(&b, r, 7);
	assert_int_equal(b.records, 7);
	assert_int_equal(b.grew, 5);
	assert_int_equal(b.no_growth, 1);
	assert_int_equal(b.failed, 1);
	assert_int_equal(b.n, 2);
	/* By count: bbbb (3) first. */
	assert_string_equal(b.b[0].first_record->id, "bbbbbbbbbbbb");
	assert_int_equal(b.b[0].count, 3);
	assert_int_equal(b.b[0].members[0], 0);
	assert_int_equal(b.b[0].members[1], 3);
	assert_int_equal(b.b[0].members[2], 5);
	assert_int_equal(b.b[0].median_bytes, 20);   /* 10 20 30 */
	assert_int_equal(b.b[0].nos, 2);
	assert_string_equal(b.b[0].os_versions[0], "13.0");
	assert_string_equal(b.b[0].os_versions[1], "14.0");
	/* 12:00 +0200 is 10:00 UTC on the 1st: before the 2nd. */
	assert_string_equal(b.b[0].first, "2026-01-01 12:00:00 +0200");
	assert_string_equal(b.b[0].last, "2026-01-02 10:00:00 +0000");
	assert_int_equal(b.b[1].count, 2);
	assert_int_equal(b.b[1].median_bytes, 5);    /* lower median of 5 7 */
	signature_buckets_release(&b);
	/* A tie is ordered by id. */
	signature_buckets_make(&b, r, 2);
	assert_string_equal(b.b[0].first_record->id, "aaaaaaaaaaaa");
	signature_buckets_release(&b);
	for (size_t i = 0; i < 7; i++)
		signature_record_release(&r[i]);
}

/*
 * Labels in words: each section's wording written out by hand from
 * docs/signatures.md (purge state N is "non-volatile", - "unpurgeable";
 * 128M is "128 MiB"), and the figures a one-component signature carries.
 */
static void
test_labels(void **state)
{
	static const struct { const char *canonical, *label; } cases[] = {
		{ "iotsig/1 gpu:IOAccelerator (graphics)/N/128M",
		  "IOAccelerator (graphics) non-volatile +128 MiB regions" },
		{ "iotsig/1 gpu:IOAccelerator/-/32M", "IOAccelerator unpurgeable +32 MiB regions" },
		{ "iotsig/1 gpu:IOSurface/N/512B", "IOSurface non-volatile +512 B regions" },
		{ "iotsig/1 gpu:IOSurface/N/2G", "IOSurface non-volatile +2 GiB regions" },
		{ "iotsig/1 class:+OSDictionary", "OSDictionary +instances" },
		{ "iotsig/1 track:map:com.x!f", "mapping com.x: f +bytes" },
		{ "iotsig/1 fp:IOSurface", "footprint IOSurface dirty +bytes" },
		{ "iotsig/1 trend:PLATEAU; class:+A; class:+B",
		  "series PLATEAU; A +instances; B +instances" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *label;
		assert_int_equal(signature_label_of(cases[i].canonical, &label), 0);
		assert_string_equal(label, cases[i].label);
		free(label);
	}
	struct signature_figures fig = { 1 << 20, 394 };
	char *label;
	assert_int_equal(signature_label_with("iotsig/1 class:+OSDictionary", &fig, &label), 0);
	assert_string_equal(label, "OSDictionary +394 instances");
	free(label);
	/* A series' verdict beside one component: the figures are still that component's. */
	assert_int_equal(signature_label_with("iotsig/1 trend:LEAK; track:m!f", &fig, &label), 0);
	assert_string_equal(label, "series LEAK; m: f +1 MiB");
	free(label);
	/* Two components share the figures: neither takes them. */
	assert_int_equal(signature_label_with("iotsig/1 class:+A; class:+B", &fig, &label), 0);
	assert_string_equal(label, "A +instances; B +instances");
	free(label);
	/* 400.88 MiB is rounded: shown without the formatter's "~". */
	char b[32];
	signature_bytes_text(420354048, b);
	assert_string_equal(b, "400.88 MiB");
	assert_int_equal(signature_label_of("gpu:IOSurface/N/1M", &label), -1);
}

/* The components of a text, in its order, keys pointing into it. */
static void
test_parts(void **state)
{
	const char *text = "iotsig/1 trend:LEAK; gpu:IOSurface/N/8M; class:+A; track:m!f(x; y)";
	struct signature_part *p;
	size_t n;
	(void)state;
	assert_int_equal(signature_parts_of(text, &p, &n), 0);
	assert_int_equal(n, 4);
	assert_int_equal(p[0].section, SIGNATURE_TREND);
	assert_int_equal(p[1].section, SIGNATURE_GPU);
	assert_int_equal(p[1].len, strlen("IOSurface/N/8M"));
	assert_memory_equal(p[1].key, "IOSurface/N/8M", p[1].len);
	assert_int_equal(p[3].section, SIGNATURE_TRACK);
	/* "; y)" is no new component: no section name follows the "; ". */
	assert_int_equal(p[3].len, strlen("m!f(x; y)"));
	free(p);
}

static void
rec_text(struct signature_record *r, const char *name, const char *canonical)
{
	memset(r, 0, sizeof(*r));
	r->name = xstrdup(name);
	r->grew = true;
	r->rule = xstrdup(SIGNATURE_RULE);
	r->canonical = xstrdup(canonical);
	signature_id_of(canonical, r->id);
	assert_int_equal(signature_label_of(canonical, &r->label), 0);
}

/*
 * The component view and --bucket's lookup over records built by hand:
 * one GPU leak in 3 pairs spread over 2 buckets (alone, and beside a
 * class) is one row of 3 pairs in 2 buckets; the class 1 pair, 1 bucket.
 */
static void
test_components_and_find(void **state)
{
	struct signature_record r[4];
	struct signature_buckets b;
	struct signature_components c;
	(void)state;
	rec_text(&r[0], "p0", "iotsig/1 gpu:IOSurface/N/16M");
	rec_text(&r[1], "p1", "iotsig/1 gpu:IOSurface/N/16M; class:+OSDictionary");
	rec_text(&r[2], "p2", "iotsig/1 gpu:IOSurface/N/16M");
	rec_text(&r[3], "p3", "iotsig/1 gpu:IOSurface/N/16M");
	free(r[3].rule);
	r[3].rule = xstrdup("iotsig/0");   /* another rule: bucketed apart, not read for components */
	signature_buckets_make(&b, r, 4);
	signature_components_make(&c, &b);
	assert_int_equal(c.n, 2);
	assert_int_equal(c.c[0].section, SIGNATURE_GPU);
	assert_string_equal(c.c[0].key, "IOSurface/N/16M");
	assert_string_equal(c.c[0].label, "IOSurface non-volatile +16 MiB regions");
	assert_int_equal(c.c[0].pairs, 3);
	assert_int_equal(c.c[0].nbuckets, 2);
	assert_int_equal(c.c[1].section, SIGNATURE_CLASS);
	assert_int_equal(c.c[1].pairs, 1);
	signature_components_release(&c);

	/* Ids: hashlib.sha256 of each text, the first 12 hex digits. */
	char a[SIGNATURE_ID_SIZE], d[SIGNATURE_ID_SIZE];
	signature_id_of("iotsig/1 gpu:IOSurface/N/16M", a);
	signature_id_of("iotsig/1 gpu:IOSurface/N/16M; class:+OSDictionary", d);
	size_t *found;
	assert_int_equal(signature_buckets_find(&b, a, &found), 2);   /* both rules' buckets */
	free(found);
	assert_int_equal(signature_buckets_find(&b, d, &found), 1);
	assert_string_equal(b.b[found[0]].first_record->id, d);
	free(found);
	assert_int_equal(signature_buckets_find(&b, "", &found), b.n);
	free(found);
	assert_int_equal(signature_buckets_find(&b, "zz", &found), 0);
	assert_null(found);
	signature_buckets_release(&b);
	for (size_t i = 0; i < 4; i++)
		signature_record_release(&r[i]);
}

/* One metric of a series with its verdict (and a rounding step when declared). */
static void
metric(struct trend_series *s, const char *name, enum trend_verdict v, double resolution,
       bool unchanged)
{
	trend_series_set(s, 0, name, TREND_BYTES, true, false, 1);
	struct trend_metric *m = &s->metrics[s->nmetrics - 1];
	m->resolution = resolution;
	m->unchanged = unchanged;
	m->r.verdict = v;
}

/*
 * The verdict that names a series: rise-flat-12's shape (the rounded
 * footprint LEAK, the GPU regions PLATEAU) is PLATEAU; a rounded figure
 * names the series only when no metric is exact; unchanged metrics never.
 */
static void
test_series_verdict(void **state)
{
	struct trend_series s;
	(void)state;
	trend_series_init(&s);
	trend_series_add_sample(&s, true);
	metric(&s, "vmmap:footprint", TREND_LEAK, 107374182.4, false);
	metric(&s, "vmmap:IOAccelerator (graphics):N.dirty", TREND_PLATEAU, 0, false);
	metric(&s, "vmmap:IOSurface:N.dirty", TREND_STABLE, 0, false);
	metric(&s, "vmmap:IOSurface:V.dirty", TREND_LEAK, 0, true);
	assert_int_equal(signature_series_verdict(&s), TREND_PLATEAU);
	trend_series_release(&s);

	trend_series_init(&s);
	trend_series_add_sample(&s, true);
	metric(&s, "footprint:IOSurface.dirty", TREND_LEAK, 1 << 20, false);
	metric(&s, "footprint:GPU.dirty", TREND_STABLE, 1 << 20, false);
	assert_int_equal(signature_series_verdict(&s), TREND_LEAK);
	trend_series_release(&s);

	trend_series_init(&s);
	trend_series_add_sample(&s, true);
	metric(&s, "vmmap:footprint", TREND_LEAK, 107374182.4, false);
	metric(&s, "vmmap:IOSurface:N.dirty", TREND_STABLE, 0, true);
	assert_int_equal(signature_series_verdict(&s), TREND_VERDICTS);
	trend_series_release(&s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size_bucket_edges),
		cmocka_unit_test(test_bucket_text),
		cmocka_unit_test(test_symbol_text),
		cmocka_unit_test(test_canonical_and_id),
		cmocka_unit_test(test_caps_and_sections),
		cmocka_unit_test(test_buckets),
		cmocka_unit_test(test_labels),
		cmocka_unit_test(test_parts),
		cmocka_unit_test(test_components_and_find),
		cmocka_unit_test(test_series_verdict),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
