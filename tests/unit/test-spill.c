/*
 * The spill store and the track listing built on it: blobs read back as
 * written from the file, from the write buffer and across the two; a
 * listing returns its records largest first, trimmed to `top`, with every
 * field, frame and string as added.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/track.h"
#include "model/track_listing.h"
#include "util/array.h"
#include "util/spill.h"

/* A blob whose bytes say where they are, so any misplaced byte shows. */
static void
fill(unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(seed * 31u + i * 7u);
}

static void
test_spill_round_trip(void **state)
{
	(void)state;
	struct spill s;
	struct diag err;
	spill_init(&s);
	assert_int_equal(spill_open(&s, &err), 0);
	/* Sizes chosen so that blobs land in the file, in the buffer and across. */
	static const size_t sizes[] = { 1, 1000, 700000, 500000, 3, 1 << 20, 12345, 0, 9 };
	enum { N = ARRAY_SIZE(sizes) };
	uint64_t off[N];
	for (size_t i = 0; i < N; i++) {
		unsigned char *b = malloc(sizes[i] + 1);
		fill(b, sizes[i], (unsigned)i);
		assert_int_equal(spill_append(&s, b, sizes[i], &off[i], &err), 0);
		free(b);
	}
	/* The large blobs went to the file as they were, not through the
	 * write buffer, which holds only the small ones (13,358 bytes). */
	assert_true(s.pending.alloc < SPILL_DIRECT_MIN);
	for (size_t k = N; k-- > 0;) {   /* backwards: any order works */
		unsigned char *want = malloc(sizes[k] + 1), *got = malloc(sizes[k] + 1);
		fill(want, sizes[k], (unsigned)k);
		assert_int_equal(spill_read(&s, off[k], got, sizes[k], &err), 0);
		if (sizes[k])
			assert_memory_equal(got, want, sizes[k]);
		free(want);
		free(got);
	}
	spill_release(&s);
}

static void
test_spill_unwritable_tmpdir(void **state)
{
	(void)state;
	struct spill s;
	struct diag err;
	const char *old = getenv("TMPDIR");
	char *saved = old ? strdup(old) : NULL;
	setenv("TMPDIR", "/nonexistent-iotally-dir", 1);
	spill_init(&s);
	assert_int_equal(spill_open(&s, &err), -1);
	assert_int_equal(err.code, DIAG_IOERR);
	assert_non_null(strstr(err.msg, "/nonexistent-iotally-dir"));
	assert_non_null(strstr(err.msg, "TMPDIR"));
	spill_release(&s);   /* releasing a store that never opened is fine */
	if (saved)
		setenv("TMPDIR", saved, 1);
	else
		unsetenv("TMPDIR");
	free(saved);
}

/* A record with `nframes` frames whose strings encode its number. */
static void
make_record(struct track_record *r, uint64_t bytes, uint64_t index, uint64_t seq,
	    size_t nframes)
{
	char buf[64];
	track_record_reset(r);
	r->bytes = bytes;
	r->size[0] = bytes;
	r->index = index;
	r->seq = seq;
	r->line = seq * 10 + 1;
	for (size_t i = 0; i < nframes; i++) {
		struct track_frame *f = track_record_add_frame(r);
		f->index = i;
		f->address = 0xfffffff000000000ULL + seq * 0x100 + i;
		snprintf(buf, sizeof(buf), "module%zu", i);
		f->module = track_record_add_text(r, buf, strlen(buf));
		snprintf(buf, sizeof(buf), "symbol_%llu_%zu", (unsigned long long)seq, i);
		f->symbol = track_record_add_text(r, buf, strlen(buf));
	}
}

static void
assert_record(const struct track_record *r, uint64_t bytes, uint64_t index, uint64_t seq,
	      size_t nframes)
{
	char buf[64];
	assert_int_equal(r->bytes, bytes);
	assert_int_equal(r->index, index);
	assert_int_equal(r->seq, seq);
	assert_int_equal(r->line, seq * 10 + 1);
	assert_int_equal(r->nframes, nframes);
	for (size_t i = 0; i < nframes; i++) {
		const struct track_frame *f = &r->frames[i];
		assert_int_equal(f->address, 0xfffffff000000000ULL + seq * 0x100 + i);
		snprintf(buf, sizeof(buf), "symbol_%llu_%zu", (unsigned long long)seq, i);
		assert_string_equal(track_str(r, f->symbol), buf);
		snprintf(buf, sizeof(buf), "module%zu", i);
		assert_string_equal(track_str(r, f->module), buf);
	}
}

static void
test_listing_sorted_and_complete(void **state)
{
	(void)state;
	struct track_listing l;
	struct track_record r, back;
	struct diag err;
	track_listing_init(&l);
	track_record_init(&r);
	track_record_init(&back);
	/* 5,000 records, bytes (seq * 7919) % 1000 so that ties occur; index = seq. */
	enum { N = 5000 };
	for (uint64_t seq = 0; seq < N; seq++) {
		make_record(&r, (seq * 7919) % 1000 * 0x1000, seq, seq, (size_t)(seq % 20));
		assert_int_equal(track_listing_add(&l, 0, &r, &err), 0);
	}
	track_listing_sort(&l, 0);
	assert_int_equal(track_listing_count(&l), N);
	for (size_t i = 0; i < N; i++) {
		assert_int_equal(track_listing_read(&l, i, &back, &err), 0);
		uint64_t seq = back.seq;
		assert_record(&back, (seq * 7919) % 1000 * 0x1000, seq, seq, (size_t)(seq % 20));
		if (i > 0) {   /* largest first, ties by index */
			const struct track_listing_key *a = &l.keys[i - 1], *b = &l.keys[i];
			assert_true(a->bytes > b->bytes || (a->bytes == b->bytes && a->index < b->index));
		}
	}
	track_record_release(&r);
	track_record_release(&back);
	track_listing_release(&l);
}

static void
test_listing_top(void **state)
{
	(void)state;
	struct track_listing l;
	struct track_record r, back;
	struct diag err;
	track_listing_init(&l);
	track_record_init(&r);
	track_record_init(&back);
	/* Ascending sizes: the largest three are the last three added. */
	for (uint64_t seq = 0; seq < 1000; seq++) {
		make_record(&r, seq + 1, seq, seq, 2);
		assert_int_equal(track_listing_add(&l, 3, &r, &err), 0);
		assert_true(track_listing_count(&l) <= 2 * 64 + 1);   /* keys stay bounded */
	}
	track_listing_sort(&l, 3);
	assert_int_equal(track_listing_count(&l), 3);
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(track_listing_read(&l, i, &back, &err), 0);
		assert_record(&back, 1000 - i, 999 - i, 999 - i, 2);
	}
	track_record_release(&r);
	track_record_release(&back);
	track_listing_release(&l);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spill_round_trip),
		cmocka_unit_test(test_spill_unwritable_tmpdir),
		cmocka_unit_test(test_listing_sorted_and_complete),
		cmocka_unit_test(test_listing_top),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
