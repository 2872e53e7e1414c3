/*
 * Which records of a track diff are the same call site, checked against a
 * plain reference: a record's identity is its type and, per frame, module,
 * symbol (or the address when it has none) and, with --match-offsets, the
 * offset. The reference builds that identity as text and compares texts,
 * so a lookup by hash or address that merged two sites or split one would
 * show as a different number of sites or of records per site. The inputs
 * are made to trip such a lookup: one address carries several symbols,
 * one symbol several addresses, module and symbol texts that join to the
 * same bytes, a symbol spelled like an unsymbolicated address, mappings
 * with the backtraces of allocations, and enough distinct frames and sites
 * that the tables grow many times.
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

#define NRECORDS 3000

/* Offsets only where there is a symbol, as ioclasscount prints them. */
static void
frame_at(struct track_record *r, const char *module, const char *symbol, uint64_t address,
	 uint64_t offset)
{
	add_frame_at(r, module, address, symbol, offset)->has_offset = *symbol != '\0';
}

/* Module and symbol pairs whose texts join alike ("ab"+"c", "a"+"bc"), and "" (none). */
static const char *const modules[] = { "ab", "a", "kernel.development", "com.example.k" };
static const char *const symbols[] = { "c", "bc", "", "0x1000", "f()", "" };

/* 1 to 4 frames from few texts and few addresses, so that many records coincide. */
static void
random_record(struct track_record *r, uint32_t *seed)
{
	char sym[16];
	track_record_reset(r);
	r->type = next_random(seed) % 4 ? TRACK_RECORD_ALLOC : TRACK_RECORD_MAP;
	r->bytes = r->size[0] = 1;
	r->count = 1;
	size_t depth = 1 + next_random(seed) % 4;
	for (size_t i = 0; i < depth; i++) {
		const char *m = modules[next_random(seed) % 4];
		const char *s = symbols[next_random(seed) % 6];
		if (next_random(seed) % 8 == 0) {   /* a long tail of distinct frames */
			snprintf(sym, sizeof(sym), "g%u()", next_random(seed) % 2000);
			s = sym;
		}
		uint64_t address = 0x1000 + 0x10 * (next_random(seed) % 3);
		frame_at(r, m, s, address, next_random(seed) % 2 ? 0x10 : 0x20);
	}
}

/* The reference identity of a record, as text with lengths so no two can run together. */
static void
reference_key(const struct track_record *r, bool offsets, struct strbuf *key)
{
	strbuf_reset(key);
	strbuf_addf(key, "%c", r->type == TRACK_RECORD_MAP ? 'M' : 'A');
	for (size_t i = 0; i < r->nframes; i++) {
		const struct track_frame *f = &r->frames[i];
		bool sym = f->symbol.len != 0;
		strbuf_addf(key, "|%zu:%s|%zu:%s|", f->module.len, track_str(r, f->module),
			    f->symbol.len, track_str(r, f->symbol));
		if (!sym)
			strbuf_addf(key, "@%llx", (unsigned long long)f->address);
		if (offsets && sym && f->has_offset)
			strbuf_addf(key, "+%llx", (unsigned long long)f->offset);
	}
}

static void
check_identity(bool offsets)
{
	struct diff_track d;
	struct track_record r;
	struct diag err;
	struct strbuf key = STRBUF_INIT;
	char **keys = calloc(NRECORDS, sizeof(*keys));
	uint64_t *counts = calloc(NRECORDS, sizeof(*counts));
	size_t nkeys = 0;
	uint32_t seed = 11;
	diff_track_init(&d, offsets);
	track_record_init(&r);
	for (int k = 0; k < NRECORDS; k++) {
		random_record(&r, &seed);
		reference_key(&r, offsets, &key);
		size_t j = 0;
		while (j < nkeys && strcmp(keys[j], key.buf) != 0)
			j++;
		if (j == nkeys)
			keys[nkeys++] = strdup(key.buf);
		counts[j]++;
		assert_int_equal(diff_track_add_record(&d, 0, &r, "t", &err), 0);
		/* Sites are numbered in order of first appearance, as the reference's keys. */
		assert_int_equal(d.nsites, nkeys);
		assert_int_equal(diff_track_site_side(&d, &d.sites[j], 0)->records, counts[j]);
	}
	assert_true(nkeys > 500);
	assert_true(d.nframes > 200);
	for (size_t j = 0; j < nkeys; j++)
		free(keys[j]);
	free(keys);
	free(counts);
	strbuf_release(&key);
	track_record_release(&r);
	diff_track_release(&d);
}

static void
test_sites_match_reference(void **state)
{
	(void)state;
	check_identity(false);
}

static void
test_sites_match_reference_with_offsets(void **state)
{
	(void)state;
	check_identity(true);
}

/* A new allocation record of one byte, no frames yet. */
static void
one_byte_record(struct track_record *r)
{
	track_record_init(r);
	r->type = TRACK_RECORD_ALLOC;
	r->bytes = r->size[0] = 1;
	r->count = 1;
}

/* One record of one frame, added to side 0. */
static void
add_one(struct diff_track *d, const char *module, const char *symbol, uint64_t address)
{
	struct track_record r;
	struct diag err;
	one_byte_record(&r);
	frame_at(&r, module, symbol, address, 0);
	assert_int_equal(diff_track_add_record(d, 0, &r, "t", &err), 0);
	track_record_release(&r);
}

static void
label_of(const struct diff_track *d, size_t site, struct strbuf *out)
{
	strbuf_reset(out);
	diff_track_site_label(d, &d->sites[site], out);
}

/*
 * One address, two symbols: two sites. A symbol spelled like the address
 * of an unsymbolicated frame: two sites whose labels read alike, so each
 * is told apart by its frame text.
 */
static void
test_same_address_other_symbol(void **state)
{
	(void)state;
	struct diff_track d;
	struct strbuf sb = STRBUF_INIT;
	diff_track_init(&d, false);
	add_one(&d, "com.example.k", "A::f()", 0x1000);
	add_one(&d, "com.example.k", "A::g()", 0x1000);
	add_one(&d, "com.example.k", "A::f()", 0x2000);   /* same symbol, moved: same site */
	add_one(&d, "com.example.k", "", 0x1000);
	add_one(&d, "com.example.k", "0x1000", 0x5000);
	add_one(&d, "com.example.k", "", 0x1000);
	assert_int_equal(d.nsites, 4);
	assert_int_equal(diff_track_site_side(&d, &d.sites[0], 0)->records, 2);
	assert_int_equal(diff_track_site_side(&d, &d.sites[2], 0)->records, 2);
	label_of(&d, 0, &sb);
	assert_string_equal(sb.buf, "com.example.k: A::f()");
	label_of(&d, 1, &sb);
	assert_string_equal(sb.buf, "com.example.k: A::g()");
	label_of(&d, 2, &sb);
	assert_string_equal(sb.buf, "com.example.k: 0x1000 via frame 0: 0x1000 (com.example.k)");
	label_of(&d, 3, &sb);
	assert_string_equal(sb.buf, "com.example.k: 0x1000 via frame 0: 0x1000 (com.example.k)");
	strbuf_release(&sb);
	diff_track_release(&d);
}

/* A two-frame record charged to its first frame. */
static void
add_two(struct diff_track *d, const char *outer)
{
	struct track_record r;
	struct diag err;
	one_byte_record(&r);
	frame_at(&r, "com.example.k", "K::alloc()", 0x1000, 0x10);
	frame_at(&r, "kernel.development", outer, 0x2000, 0x20);
	assert_int_equal(diff_track_add_record(d, 1, &r, "t", &err), 0);
	track_record_release(&r);
}

/* Labels kept by a sort are not used once a new site changes them. */
static void
test_kept_labels_follow_new_sites(void **state)
{
	(void)state;
	struct diff_track d;
	struct strbuf sb = STRBUF_INIT;
	const struct diff_track_site **s;
	diff_track_init(&d, false);
	add_two(&d, "f()");
	assert_int_equal(diff_track_sorted_sites(&d, &s), 1);
	free(s);
	label_of(&d, 0, &sb);
	assert_string_equal(sb.buf, "com.example.k: K::alloc()");
	add_two(&d, "g()");
	label_of(&d, 0, &sb);
	assert_string_equal(sb.buf, "com.example.k: K::alloc() via frame 1: f() (kernel.development)");
	assert_int_equal(diff_track_sorted_sites(&d, &s), 2);
	assert_ptr_equal(s[0], &d.sites[0]);   /* the labels sort f() before g() */
	free(s);
	label_of(&d, 1, &sb);
	assert_string_equal(sb.buf, "com.example.k: K::alloc() via frame 1: g() (kernel.development)");
	strbuf_release(&sb);
	diff_track_release(&d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sites_match_reference),
		cmocka_unit_test(test_sites_match_reference_with_offsets),
		cmocka_unit_test(test_same_address_other_symbol),
		cmocka_unit_test(test_kept_labels_follow_new_sites),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
