#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/vmmap.h"
#include "util/array.h"

static struct vmmap_region
region(const char *type, uint64_t vsize, uint64_t resident, enum vmmap_purge purge)
{
	struct vmmap_region r;
	memset(&r, 0, sizeof(r));
	r.type = type;
	r.type_len = strlen(type);
	r.has_range = true;
	r.start = 0x100000000ull;
	r.end = r.start + vsize;
	r.vsize = vsize;
	r.resident = resident;
	r.size_columns = 4;
	r.purge = purge;
	r.line = 1;
	return r;
}

static void
setup_capture(struct vmmap_capture *cap)
{
	vmmap_capture_init(cap);
	vmmap_filter_add(&cap->filter, "IOAccelerator", 13);
	vmmap_filter_add(&cap->filter, "IOSurface", 9);
}

static void
test_breakdown_and_histogram(void **state)
{
	(void)state;
	struct vmmap_capture cap;
	struct diag err;
	setup_capture(&cap);
	struct vmmap_dump *d = vmmap_capture_new_dump(&cap, 1);
	struct vmmap_region rs[] = {
		region("IOAccelerator (graphics)", 65536, 65536, VMMAP_PURGE_N),
		region("IOAccelerator (graphics)", 65536, 0, VMMAP_PURGE_V),
		region("IOAccelerator (graphics)", 131072, 0, VMMAP_PURGE_E),
		region("IOAccelerator", 16384, 0, VMMAP_PURGE_NONE),   /* left out: all zero */
		region("IOAccelerator", 16384, 16384, VMMAP_PURGE_NONE),
		region("MALLOC_SMALL", 8388608, 8388608, VMMAP_PURGE_NONE), /* not selected */
	};
	for (size_t i = 0; i < ARRAY_SIZE(rs); i++)
		assert_int_equal(vmmap_dump_add_region(&cap, d, &rs[i], "t", &err), 0);
	vmmap_dump_settle_hist(d);

	const struct vmmap_type_stats **types;
	size_t n = vmmap_dump_sorted_types(d, &types);
	assert_int_equal(n, 2);
	assert_string_equal(types[0]->name, "IOAccelerator");
	assert_string_equal(types[1]->name, "IOAccelerator (graphics)");
	assert_int_equal(types[0]->by_purge[VMMAP_PURGE_NONE].count, 1);
	assert_int_equal(types[0]->lines.count, 2);   /* the cross-check sees both */
	assert_int_equal(types[1]->by_purge[VMMAP_PURGE_E].vsize, 131072);

	const struct vmmap_hist_bucket **b;
	size_t nb = vmmap_type_sorted_hist(types[1], &b);
	assert_int_equal(nb, 2);
	assert_int_equal(b[0]->vsize, 65536);
	assert_int_equal(vmmap_hist_bucket_count(b[0]), 2);
	assert_int_equal(b[0]->purge[VMMAP_PURGE_N], 1);
	assert_int_equal(b[0]->purge[VMMAP_PURGE_V], 1);
	assert_int_equal(b[1]->vsize, 131072);
	free(b);
	free(types);

	struct vmmap_amounts all = vmmap_dump_total(d);
	assert_int_equal(all.count, 4);
	assert_int_equal(all.vsize, 65536 * 2 + 131072 + 16384);
	assert_int_equal(vmmap_dump_total_purge(d, VMMAP_PURGE_V).vsize, 65536);
	vmmap_capture_release(&cap);
}

static void
test_overflow_is_an_error(void **state)
{
	(void)state;
	struct vmmap_capture cap;
	struct diag err;
	setup_capture(&cap);
	struct vmmap_dump *d = vmmap_capture_new_dump(&cap, 1);
	struct vmmap_region r = region("IOSurface", BYTES_MAX / 2 + 1, 0, VMMAP_PURGE_N);
	assert_int_equal(vmmap_dump_add_region(&cap, d, &r, "t", &err), 0);
	assert_int_equal(vmmap_dump_add_region(&cap, d, &r, "t", &err), -1);
	assert_int_equal(err.code, DIAG_DATA);
	assert_non_null(strstr(err.msg, "2^63"));
	vmmap_capture_release(&cap);
}

/* Each type's sum fits; the dump's total of them would not. */
static void
test_dump_total_overflow_is_an_error(void **state)
{
	(void)state;
	struct vmmap_capture cap;
	struct diag err;
	setup_capture(&cap);
	struct vmmap_dump *d = vmmap_capture_new_dump(&cap, 1);
	struct vmmap_region a = region("IOSurface", 0x7000000000000000ull, 0, VMMAP_PURGE_N);
	struct vmmap_region b = region("IOAccelerator", 0x7000000000000000ull, 0, VMMAP_PURGE_N);
	b.line = 2;
	assert_int_equal(vmmap_dump_add_region(&cap, d, &a, "t", &err), 0);
	assert_int_equal(vmmap_dump_add_region(&cap, d, &b, "t", &err), -1);
	assert_int_equal(err.code, DIAG_DATA);
	assert_int_equal(err.line, 2);
	assert_string_equal(err.msg, "byte counts of the dump's regions add up past 2^63 bytes");
	/* Neither the type nor the total took the rejected region. */
	assert_true(vmmap_dump_total(d).vsize == 0x7000000000000000ull);

	/* The same through grouped amounts (JSON reports). */
	struct vmmap_amounts g = { 1, 0x7000000000000000ull, 0, 0, 0 };
	assert_int_equal(vmmap_dump_add_group(&cap, d, "IOAccelerator", 13, VMMAP_PURGE_V,
					      &g, "t", &err), -1);
	assert_string_equal(err.msg, "byte counts of the dump's regions add up past 2^63 bytes");
	vmmap_capture_release(&cap);
}

static const char type_message[] = "byte counts of 'IOSurface' regions add up past 2^63 bytes";
static const char dump_message[] = "byte counts of the dump's regions add up past 2^63 bytes";

/*
 * Sums may reach BYTES_MAX exactly, by any route, and never pass it: each
 * expected figure is the arithmetic of the regions added.
 */
static void
test_sums_reach_the_limit_exactly(void **state)
{
	(void)state;
	struct vmmap_capture cap;
	struct diag err;
	setup_capture(&cap);
	struct vmmap_dump *d = vmmap_capture_new_dump(&cap, 1);
	struct vmmap_region big = region("IOSurface", BYTES_MAX - 5, 0, VMMAP_PURGE_N);
	struct vmmap_region one = region("IOSurface", 1, 0, VMMAP_PURGE_N);
	assert_int_equal(vmmap_dump_add_region(&cap, d, &big, "t", &err), 0);
	for (int i = 0; i < 5; i++)
		assert_int_equal(vmmap_dump_add_region(&cap, d, &one, "t", &err), 0);
	one.line = 7;
	assert_int_equal(vmmap_dump_add_region(&cap, d, &one, "t", &err), -1);
	assert_int_equal(err.code, DIAG_DATA);
	assert_int_equal(err.line, 7);
	assert_string_equal(err.msg, type_message);
	vmmap_dump_settle_hist(d);

	const struct vmmap_type_stats *t = &d->types[0];
	assert_true(t->lines.vsize == BYTES_MAX);
	assert_int_equal(t->lines.count, 6);
	assert_true(t->by_purge[VMMAP_PURGE_N].vsize == BYTES_MAX);
	assert_true(d->counted.vsize == BYTES_MAX);
	const struct vmmap_hist_bucket **b;
	assert_int_equal(vmmap_type_sorted_hist(t, &b), 2);
	assert_int_equal(vmmap_hist_bucket_count(b[0]), 5);       /* the refused region is in no bucket */
	free(b);
	vmmap_capture_release(&cap);
}

/* Resident, dirty and swapped bytes are summed and refused alike. */
static void
test_every_amount_is_checked(void **state)
{
	(void)state;
	for (int field = 0; field < 3; field++) {
		struct vmmap_capture cap;
		struct diag err;
		setup_capture(&cap);
		struct vmmap_dump *d = vmmap_capture_new_dump(&cap, 1);
		struct vmmap_region r = region("IOSurface", 16384, 0, VMMAP_PURGE_NONE);
		uint64_t *amount = field == 0 ? &r.resident : field == 1 ? &r.dirty : &r.swapped;
		*amount = BYTES_MAX / 2 + 1;
		assert_int_equal(vmmap_dump_add_region(&cap, d, &r, "t", &err), 0);
		assert_int_equal(vmmap_dump_add_region(&cap, d, &r, "t", &err), -1);
		assert_string_equal(err.msg, type_message);
		assert_int_equal(d->types[0].lines.count, 1);
		assert_int_equal(d->counted.count, 1);
		vmmap_capture_release(&cap);
	}
}

/*
 * A single amount past BYTES_MAX (no parser makes one; the model must not
 * trust that) and a type that is not selected: refused all the same.
 */
static void
test_hostile_amounts_are_refused(void **state)
{
	(void)state;
	struct vmmap_capture cap;
	struct diag err;
	setup_capture(&cap);
	struct vmmap_dump *d = vmmap_capture_new_dump(&cap, 1);
	struct vmmap_region r = region("IOSurface", 16384, 0, VMMAP_PURGE_V);
	r.dirty = UINT64_MAX;
	assert_int_equal(vmmap_dump_add_region(&cap, d, &r, "t", &err), -1);
	assert_string_equal(err.msg, type_message);
	assert_int_equal(d->types[0].lines.count, 0);
	assert_int_equal(d->counted.count, 0);

	struct vmmap_region m = region("MALLOC_SMALL", BYTES_MAX / 2 + 1, 0, VMMAP_PURGE_NONE);
	assert_int_equal(vmmap_dump_add_region(&cap, d, &m, "t", &err), 0);
	assert_int_equal(vmmap_dump_add_region(&cap, d, &m, "t", &err), -1);
	assert_string_equal(err.msg, "byte counts of 'MALLOC_SMALL' regions add up past 2^63 bytes");
	assert_int_equal(d->counted.count, 0);
	vmmap_capture_release(&cap);
}

/*
 * The dump's total reaches BYTES_MAX over two types; one byte more is the
 * dump's error. The type's lines keep the refused region (they were summed
 * first), its breakdown does not.
 */
static void
test_dump_total_reaches_the_limit(void **state)
{
	(void)state;
	struct vmmap_capture cap;
	struct diag err;
	setup_capture(&cap);
	struct vmmap_dump *d = vmmap_capture_new_dump(&cap, 1);
	struct vmmap_region s = region("IOSurface", BYTES_MAX - 10, 0, VMMAP_PURGE_N);
	struct vmmap_region a = region("IOAccelerator", 10, 0, VMMAP_PURGE_E);
	struct vmmap_region one = region("IOAccelerator", 1, 0, VMMAP_PURGE_E);
	assert_int_equal(vmmap_dump_add_region(&cap, d, &s, "t", &err), 0);
	assert_int_equal(vmmap_dump_add_region(&cap, d, &a, "t", &err), 0);
	assert_true(vmmap_dump_total(d).vsize == BYTES_MAX);
	assert_int_equal(vmmap_dump_add_region(&cap, d, &one, "t", &err), -1);
	assert_string_equal(err.msg, dump_message);
	assert_true(vmmap_dump_total(d).vsize == BYTES_MAX);
	assert_int_equal(d->types[1].lines.count, 2);
	assert_int_equal(d->types[1].lines.vsize, 11);
	assert_int_equal(d->types[1].by_purge[VMMAP_PURGE_E].count, 1);
	vmmap_capture_release(&cap);
}

/* Grouped amounts (JSON reports) leave room only for what still fits. */
static void
test_region_after_group_near_the_limit(void **state)
{
	(void)state;
	struct vmmap_capture cap;
	struct diag err;
	setup_capture(&cap);
	struct vmmap_dump *d = vmmap_capture_new_dump(&cap, 1);
	struct vmmap_amounts g = { 1, BYTES_MAX - 3, 0, 0, 0 };
	assert_int_equal(vmmap_dump_add_group(&cap, d, "IOSurface", 9, VMMAP_PURGE_N, &g,
					      "t", &err), 0);
	struct vmmap_region r = region("IOSurface", 3, 0, VMMAP_PURGE_N);
	assert_int_equal(vmmap_dump_add_region(&cap, d, &r, "t", &err), 0);
	assert_true(d->types[0].by_purge[VMMAP_PURGE_N].vsize == BYTES_MAX);
	struct vmmap_region one = region("IOSurface", 1, 0, VMMAP_PURGE_N);
	assert_int_equal(vmmap_dump_add_region(&cap, d, &one, "t", &err), -1);
	assert_string_equal(err.msg, type_message);

	/* A count at the limit: one more region line is one too many. */
	struct vmmap_amounts c = { BYTES_MAX, 0, 0, 0, 0 };
	assert_int_equal(vmmap_dump_add_group(&cap, d, "IOAccelerator", 13, VMMAP_PURGE_V, &c,
					      "t", &err), -1);   /* the total has 2 already */
	vmmap_capture_release(&cap);
	setup_capture(&cap);
	d = vmmap_capture_new_dump(&cap, 1);
	assert_int_equal(vmmap_dump_add_group(&cap, d, "IOSurface", 9, VMMAP_PURGE_V, &c,
					      "t", &err), 0);
	struct vmmap_region z = region("IOSurface", 0, 0, VMMAP_PURGE_V);
	assert_int_equal(vmmap_dump_add_region(&cap, d, &z, "t", &err), -1);
	assert_string_equal(err.msg, type_message);
	vmmap_capture_release(&cap);
}

/*
 * A histogram bucket counts in 32 bits: a type's region lines in one dump
 * stop at VMMAP_HIST_COUNT_MAX, by the per-line path (whose headroom
 * spends 1 a line) as by the checked one; counts given as buckets (a JSON
 * document) stop at the same figure.
 */
static void
test_bucket_counts_stop_at_their_limit(void **state)
{
	(void)state;
	struct vmmap_capture cap;
	struct diag err;
	setup_capture(&cap);
	struct vmmap_dump *d = vmmap_capture_new_dump(&cap, 1);
	struct vmmap_amounts g = { VMMAP_HIST_COUNT_MAX - 2, 0, 0, 0, 0 };
	assert_int_equal(vmmap_dump_add_group(&cap, d, "IOSurface", 9, VMMAP_PURGE_N, &g,
					      "t", &err), 0);
	struct vmmap_region small = region("IOSurface", 0, 0, VMMAP_PURGE_N);
	struct vmmap_region big = region("IOSurface", 1u << 20, 0, VMMAP_PURGE_N);
	assert_int_equal(vmmap_dump_add_region(&cap, d, &small, "t", &err), 0);
	assert_int_equal(vmmap_dump_add_region(&cap, d, &big, "t", &err), 0);
	assert_true(d->types[0].lines.count == VMMAP_HIST_COUNT_MAX);
	for (int i = 0; i < 2; i++) {
		struct vmmap_region *r = i ? &big : &small;
		assert_int_equal(vmmap_dump_add_region(&cap, d, r, "t", &err), -1);
		assert_string_equal(err.msg,
				    "more than 4294967295 regions of type 'IOSurface' in one dump");
	}
	vmmap_capture_release(&cap);

	setup_capture(&cap);
	d = vmmap_capture_new_dump(&cap, 1);
	const uint64_t most[VMMAP_PURGE_STATES] = { VMMAP_HIST_COUNT_MAX - 1, 1, 0, 0 };
	const uint64_t one[VMMAP_PURGE_STATES] = { 0, 0, 1, 0 };
	assert_int_equal(vmmap_dump_add_bucket(&cap, d, "IOSurface", 9, 4096, most, "t", &err), 0);
	assert_int_equal(vmmap_dump_add_bucket(&cap, d, "IOSurface", 9, 8192, one, "t", &err), 0);
	assert_int_equal(vmmap_dump_add_bucket(&cap, d, "IOSurface", 9, 4096, one, "t", &err), -1);
	assert_string_equal(err.msg, "region counts of 'IOSurface' of one size add up past 4294967295");
	const struct vmmap_hist_bucket *b = vmmap_type_find_bucket(&d->types[0], 4096);
	assert_non_null(b);
	assert_true(vmmap_hist_bucket_count(b) == VMMAP_HIST_COUNT_MAX);
	assert_true(b->purge[0] == VMMAP_HIST_COUNT_MAX - 1 && b->purge[2] == 0);
	vmmap_capture_release(&cap);
}

/* The name of `len` bytes, all 'a' but a 'b' at pos (pos == len: all 'a'). */
static const char *
one_b_name(char *buf, size_t len, size_t pos)
{
	memset(buf, 'a', len);
	if (pos < len)
		buf[pos] = 'b';
	buf[len] = '\0';
	return buf;
}

static void
add_one_b_line(struct vmmap_capture *cap, struct vmmap_dump *d, size_t len, size_t pos)
{
	char name[302];
	struct diag err;
	struct vmmap_region r = region(one_b_name(name, len, pos), 16384 * (pos + 1), 16384,
				       VMMAP_PURGE_NONE);
	r.type_len = len;
	assert_int_equal(vmmap_dump_add_region(cap, d, &r, "t", &err), 0);
}

/*
 * Names of every length from 0 to 300 that differ in one byte, at every
 * position, are different types; so are lengths. The type cache
 * (vmmap_dump.type_cache) compares a name's first, last and middle words:
 * a 'b' in any of them, or between, must tell two names apart, and the
 * map behind it must answer every name the cache does not hold. 45,451
 * types share the cache's 2^9 slots (about 90 names a slot), so names
 * collide in both of their slots and push each other out: each length's
 * names come three times in a row (lines of a few types that alternate,
 * hits beside collisions), then every name once more in one round (each
 * line a miss). Truth: each type has 4 lines, vsize 4 x 16384 x (pos + 1).
 */
static void
test_similar_type_names_stay_apart(void **state)
{
	(void)state;
	enum { MAX_LEN = 300, ROUNDS = 3 };
	struct vmmap_capture cap;
	vmmap_capture_init(&cap);
	cap.filter.all = true;
	struct vmmap_dump *d = vmmap_capture_new_dump(&cap, 1);
	for (size_t len = 0; len <= MAX_LEN; len++)
		for (int round = 0; round < ROUNDS; round++)
			for (size_t pos = 0; pos <= len; pos++)
				add_one_b_line(&cap, d, len, pos);
	for (size_t pos = 0; pos <= MAX_LEN; pos++)
		for (size_t len = pos; len <= MAX_LEN; len++)
			add_one_b_line(&cap, d, len, pos);
	vmmap_dump_settle_hist(d);
	/* 301 all-'a' names and 0 + 1 + ... + 300 with one 'b'. */
	assert_int_equal(d->ntypes, (MAX_LEN + 1) + MAX_LEN * (MAX_LEN + 1) / 2);
	assert_true(d->ntypes > 64 * ARRAY_SIZE(d->type_cache));
	for (size_t i = 0; i < d->ntypes; i++) {
		const struct vmmap_type_stats *t = &d->types[i];
		assert_int_equal(t->lines.count, ROUNDS + 1);
		const char *b = memchr(t->name, 'b', t->name_len);
		size_t pos = b ? (size_t)(b - t->name) : t->name_len;
		assert_int_equal(t->lines.vsize, (ROUNDS + 1) * 16384 * (pos + 1));
		assert_int_equal(t->nhist, 1);
	}
	vmmap_capture_release(&cap);
}

/*
 * More types than the cache's 16-bit entries can name
 * (VMMAP_TYPE_CACHE_TYPES): the ones past it are looked up in the map on
 * every line, and every type still counts its own lines.
 */
static void
test_types_past_the_cache_count_apart(void **state)
{
	(void)state;
	enum { TYPES = VMMAP_TYPE_CACHE_TYPES + 1000 };
	struct vmmap_capture cap;
	struct diag err;
	vmmap_capture_init(&cap);
	cap.filter.all = true;
	struct vmmap_dump *d = vmmap_capture_new_dump(&cap, 1);
	for (int round = 0; round < 2; round++)
		for (size_t i = 0; i < TYPES; i++) {
			/* The last types first in the second round, then the first ones. */
			size_t k = round ? TYPES - 1 - i : i;
			char name[32];
			snprintf(name, sizeof(name), "type %zu", k);
			struct vmmap_region r = region(name, 16384 * (k % 7 + 1), 16384,
						       VMMAP_PURGE_NONE);
			assert_int_equal(vmmap_dump_add_region(&cap, d, &r, "t", &err), 0);
			/* A run of one type past the cache: it stays uncached. */
			if (k == TYPES - 1)
				assert_int_equal(vmmap_dump_add_region(&cap, d, &r, "t", &err), 0);
		}
	vmmap_dump_settle_hist(d);
	assert_int_equal(d->ntypes, TYPES);
	for (size_t i = 0; i < d->ntypes; i++) {
		const struct vmmap_type_stats *t = &d->types[i];
		char name[32];
		snprintf(name, sizeof(name), "type %zu", i);
		assert_string_equal(t->name, name);
		uint64_t lines = i == TYPES - 1 ? 4 : 2;
		assert_int_equal(t->lines.count, lines);
		assert_int_equal(t->lines.vsize, lines * 16384 * (i % 7 + 1));
	}
	vmmap_capture_release(&cap);
}

/*
 * A region line's type cut to vmmap's column, of a GPU type, after 0 to
 * 60 other types: on first sight it is put in the type map under its
 * printed name and, being new, under its full name too. Some of these
 * counts make the second put grow the map (at 12, 24 and 48 names), which
 * moves every slot; the printed name must still lead to the type. Truth:
 * both names map to the one type, which counts both of its lines and
 * carries the full name; no other type counts them.
 */
static void
test_cut_gpu_type_as_the_map_grows(void **state)
{
	(void)state;
	static const char cut[] = "owned unmapped (graphics";
	static const char full[] = "owned unmapped (graphics)";
	assert_int_equal(strlen(cut), VMMAP_TYPE_COLUMN);
	for (size_t others = 0; others <= 60; others++) {
		struct vmmap_capture cap;
		struct diag err;
		setup_capture(&cap);
		struct vmmap_dump *d = vmmap_capture_new_dump(&cap, 1);
		for (size_t i = 0; i < others; i++) {
			char name[32];
			snprintf(name, sizeof(name), "other %zu", i);
			struct vmmap_region r = region(name, 16384, 16384, VMMAP_PURGE_NONE);
			assert_int_equal(vmmap_dump_add_region(&cap, d, &r, "t", &err), 0);
		}
		struct vmmap_region g = region(cut, 1u << 20, 16384, VMMAP_PURGE_NONE);
		assert_int_equal(vmmap_dump_add_region(&cap, d, &g, "t", &err), 0);
		assert_int_equal(vmmap_dump_add_region(&cap, d, &g, "t", &err), 0);
		assert_int_equal(d->ntypes, others + 1);
		const size_t *by_cut = strmap_get(&d->type_index, cut, strlen(cut));
		const size_t *by_full = strmap_get(&d->type_index, full, strlen(full));
		assert_non_null(by_cut);
		assert_non_null(by_full);
		assert_int_equal(*by_cut, others);
		assert_int_equal(*by_full, others);
		const struct vmmap_type_stats *t = &d->types[others];
		assert_string_equal(t->name, full);
		assert_true(t->gpu);
		assert_int_equal(t->lines.count, 2);
		assert_int_equal(t->lines.vsize, 2u << 20);
		for (size_t i = 0; i < others; i++)
			assert_int_equal(d->types[i].lines.count, 1);
		vmmap_capture_release(&cap);
	}
}

/*
 * Many sizes in one type, interleaved, so that they meet in the bucket
 * hints: every bucket counts the lines of its size, by state.
 */
static void
test_many_sizes_count_in_their_buckets(void **state)
{
	(void)state;
	struct vmmap_capture cap;
	struct diag err;
	setup_capture(&cap);
	struct vmmap_dump *d = vmmap_capture_new_dump(&cap, 1);
	enum { SIZES = 300, ROUNDS = 4 };
	for (int round = 0; round < ROUNDS; round++)
		for (uint64_t i = 0; i < SIZES; i++) {
			/* Sizes in an order that is not their sorted one. */
			uint64_t k = (i * 7) % SIZES;
			enum vmmap_purge p = (enum vmmap_purge)((k + (uint64_t)round) % 3);
			struct vmmap_region r = region("IOSurface", 16384 * (k + 1), 0, p);
			assert_int_equal(vmmap_dump_add_region(&cap, d, &r, "t", &err), 0);
		}
	vmmap_dump_settle_hist(d);
	const struct vmmap_hist_bucket **b;
	size_t n = vmmap_type_sorted_hist(&d->types[0], &b);
	assert_int_equal(n, SIZES);
	for (uint64_t k = 0; k < SIZES; k++) {
		assert_int_equal(b[k]->vsize, 16384 * (k + 1));
		assert_int_equal(vmmap_hist_bucket_count(b[k]), ROUNDS);
		/* Rounds 0..3 give states k, k+1, k+2, k+3 (mod 3): one twice. */
		assert_int_equal(b[k]->purge[k % 3], 2);
		assert_int_equal(b[k]->purge[(k + 1) % 3], 1);
		assert_int_equal(b[k]->purge[(k + 2) % 3], 1);
	}
	free(b);
	vmmap_capture_release(&cap);
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/*
 * The histogram's index (open addressing, grown as sizes come) and its
 * radix sort, against a plain sort: thousands of sizes spread over the
 * bytes of a 64-bit vsize (0, page multiples, sizes past 2^32 and 2^56),
 * each added one to three times. Every size finds its bucket with its own
 * count, a size never added finds none, and the sorted buckets are the
 * sorted distinct sizes.
 */
static void
test_histogram_index_and_order(void **state)
{
	(void)state;
	struct vmmap_capture cap;
	struct diag err;
	setup_capture(&cap);
	struct vmmap_dump *d = vmmap_capture_new_dump(&cap, 1);
	enum { SIZES = 5000 };
	uint64_t *sizes = calloc(SIZES, sizeof(*sizes));
	uint64_t x = 42;
	for (size_t i = 0; i < SIZES; i++) {
		x = x * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
		/* Every third size a distinct page multiple, the rest any below
		 * 2^48 (the sums of the type stay below 2^63). */
		sizes[i] = i % 3 ? (x >> 16) : (uint64_t)i << 14;
	}
	sizes[0] = 0;
	sizes[1] = UINT64_C(1) << 56;
	sizes[2] = (UINT64_C(1) << 56) + 1;
	sizes[3] = UINT64_C(0xffffffff);
	for (int round = 0; round < 3; round++)
		for (size_t i = 0; i < SIZES; i++) {
			if (round > (int)(i % 3))
				continue;
			struct vmmap_region r = region("IOSurface", sizes[i], 0, VMMAP_PURGE_N);
			r.start = 0;
			r.end = sizes[i];
			assert_int_equal(vmmap_dump_add_region(&cap, d, &r, "t", &err), 0);
		}
	vmmap_dump_settle_hist(d);
	const struct vmmap_type_stats *t = &d->types[0];
	for (size_t i = 0; i < SIZES; i++) {
		const struct vmmap_hist_bucket *b = vmmap_type_find_bucket(t, sizes[i]);
		assert_non_null(b);
		assert_int_equal(b->vsize, sizes[i]);
		assert_int_equal(vmmap_hist_bucket_count(b), i % 3 + 1);
		assert_int_equal(b->purge[VMMAP_PURGE_N], i % 3 + 1);
	}
	assert_null(vmmap_type_find_bucket(t, 3));
	assert_null(vmmap_type_find_bucket(t, UINT64_C(1) << 62));

	qsort(sizes, SIZES, sizeof(*sizes), cmp_u64);
	const struct vmmap_hist_bucket **b;
	size_t n = vmmap_type_sorted_hist(t, &b);
	assert_int_equal(n, SIZES);
	for (size_t k = 0; k < SIZES; k++)
		assert_int_equal(b[k]->vsize, sizes[k]);
	free(b);
	free(sizes);
	vmmap_capture_release(&cap);
}

static struct vmmap_summary_row
row(const char *name, const char *virtual_text, uint64_t count)
{
	struct vmmap_summary_row s;
	memset(&s, 0, sizeof(s));
	s.name = name;
	s.name_len = strlen(name);
	s.line = 9;
	s.present = 1u << VMMAP_COL_VIRTUAL;
	strcpy(s.virtual_text, virtual_text);
	s.has_count = true;
	s.count = count;
	return s;
}

/*
 * A row's name is a view (not NUL-terminated) when it is added; the dump
 * keeps its own copy, in blocks, whatever the name's length.
 */
static void
test_summary_row_names(void **state)
{
	(void)state;
	struct vmmap_capture cap;
	setup_capture(&cap);
	struct vmmap_dump *d = vmmap_capture_new_dump(&cap, 1);
	static char line[6000];
	memset(line, 'x', sizeof(line));
	for (size_t i = 0; i < 1000; i++) {
		struct vmmap_summary_row r;
		memset(&r, 0, sizeof(r));
		r.name = line;
		r.name_len = i == 500 ? 5000 : 1 + i % 40;   /* one longer than a block */
		vmmap_dump_add_summary_row(d, &r);
	}
	memset(line, 'y', sizeof(line));   /* the input line is reused */
	assert_int_equal(d->nrows, 1000);
	for (size_t i = 0; i < 1000; i++) {
		const struct vmmap_summary_row *r = &d->rows[i];
		size_t want = i == 500 ? 5000 : 1 + i % 40;
		assert_int_equal(r->name_len, want);
		assert_int_equal(strlen(r->name), want);
		assert_int_equal(r->text_len, want);
		assert_int_equal(strspn(r->name, "x"), want);
	}
	/* A name with a NUL byte: kept whole, shown (text_len) up to the NUL. */
	struct vmmap_summary_row nul;
	memset(&nul, 0, sizeof(nul));
	nul.name = "NUL\0after";
	nul.name_len = 9;
	vmmap_dump_add_summary_row(d, &nul);
	assert_int_equal(d->rows[1000].name_len, 9);
	assert_memory_equal(d->rows[1000].name, "NUL\0after", 10);
	assert_int_equal(d->rows[1000].text_len, 3);
	vmmap_capture_release(&cap);
}

/*
 * A summary-row name of 1 to 4 pieces, drawn from *rng (xorshift): GPU
 * type names, their prefixes and NUL bytes; its length (at most 4 x 13).
 */
static size_t
random_row_name(uint64_t *rng, char *out)
{
	static const char *const parts[] = {
		"IOAccelerator", "IOSurface", "IOKit", " (graphics)", "Tag", "\0", "IOAccel", "x",
	};
	uint64_t x = *rng;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*rng = x;
	size_t len = 0;
	for (unsigned k = 0; k < 1 + x % 4; k++) {
		const char *p = parts[(x >> (8 + 3 * k)) % ARRAY_SIZE(parts)];
		size_t n = *p ? strlen(p) : 1;
		memcpy(out + len, p, n);
		len += n;
	}
	return len;
}

/*
 * Each row's selection, worked out once by vmmap_dump_finish(), against
 * the filter asked again: for the capture's filter and another one, rows
 * added before and after the finish, names holding a NUL (selected by
 * their text before it) and names that hold a selected type only after
 * their NUL.
 */
static void
test_row_selection_kept(void **state)
{
	(void)state;
	struct vmmap_capture cap;
	setup_capture(&cap);
	struct vmmap_filter other;
	vmmap_filter_init(&other);
	vmmap_filter_add(&other, "IOKit", 5);
	uint64_t rng = 88172645463325252u;
	struct vmmap_dump *d = vmmap_capture_new_dump(&cap, 1);
	for (size_t i = 0; i < 4000; i++) {
		if (i == 2000)
			vmmap_dump_finish(&cap, d);   /* later rows are added after it */
		char name[128];
		size_t len = random_row_name(&rng, name);
		struct vmmap_summary_row r;
		memset(&r, 0, sizeof(r));
		r.name = name;
		r.name_len = len;
		vmmap_dump_add_summary_row(d, &r);
	}
	size_t selected = 0, cut = 0;
	for (size_t i = 0; i < d->nrows; i++) {
		const struct vmmap_summary_row *r = &d->rows[i];
		bool want = vmmap_filter_selects(&cap.filter, r->name, r->text_len);
		assert_int_equal(vmmap_dump_row_selected(d, &cap.filter, i), want);
		assert_int_equal(vmmap_dump_row_selected(d, &other, i),
				 vmmap_filter_selects(&other, r->name, r->text_len));
		selected += want;
		cut += r->text_len < r->name_len &&
		       vmmap_filter_selects(&cap.filter, r->name, r->name_len) != want;
	}
	/* Both answers occur, and names whose NUL hides a selected type. */
	assert_true(selected > 500 && selected < d->nrows - 500);
	assert_true(cut > 10);
	vmmap_filter_release(&other);
	vmmap_capture_release(&cap);
}

/* Two dumps' left-out GPU rows, compared field by field. */
static void
assert_same_left_out(const struct vmmap_dump *a, const struct vmmap_dump *b,
		     const struct vmmap_filter *f)
{
	struct vmmap_left_out *la, *lb;
	size_t na = vmmap_dump_gpu_left_out(a, f, &la), nb = vmmap_dump_gpu_left_out(b, f, &lb);
	assert_int_equal(na, nb);
	for (size_t i = 0; i < na; i++) {
		assert_string_equal(la[i].name, lb[i].name);
		assert_int_equal(la[i].count, lb[i].count);
		assert_int_equal(la[i].vsize, lb[i].vsize);
		assert_int_equal(la[i].from_summary, lb[i].from_summary);
	}
	free(la);
	free(lb);
}

/*
 * Rows added through the capture (names and facts kept once per distinct
 * name) against rows added to a dump alone: the same names, and the same
 * answers from every reader of a row's selection and GPU test, for dumps
 * that repeat names, names past VMMAP_ROW_NAMES_MAX, names holding a NUL,
 * rows added after vmmap_dump_finish(), and another filter. The input line
 * is overwritten after each row, as the reader reuses it.
 */
static void
test_capture_rows_as_dump_rows(void **state)
{
	(void)state;
	struct vmmap_capture fast, plain;
	setup_capture(&fast);
	setup_capture(&plain);
	struct vmmap_filter other;
	vmmap_filter_init(&other);
	vmmap_filter_add(&other, "(graphics)", 10);
	uint64_t rng = 2463534242u;
	static char line[256];
	size_t kept = 0;
	for (int dump = 0; dump < 60; dump++) {
		struct vmmap_dump *df = vmmap_capture_new_dump(&fast, 1);
		struct vmmap_dump *dp = vmmap_capture_new_dump(&plain, 1);
		for (size_t i = 0; i < 300; i++) {
			if (i == 250) {
				vmmap_dump_finish(&fast, df);
				vmmap_dump_finish(&plain, dp);
			}
			size_t len = random_row_name(&rng, line);
			/* Names of a number, many distinct: past the capture's cap. */
			len += (size_t)snprintf(line + len, sizeof(line) - len, "%u",
						(unsigned)((rng >> 20) % (dump < 30 ? 50 : 6000)));
			struct vmmap_summary_row r;
			memset(&r, 0, sizeof(r));
			r.name = line;
			r.name_len = len;
			r.count = rng >> 40;
			r.has_count = true;
			r.value[VMMAP_COL_VIRTUAL] = rng >> 30;
			vmmap_capture_add_summary_row(&fast, df, &r);
			vmmap_dump_add_summary_row(dp, &r);
			memset(line, '#', len);
		}
		for (size_t i = 0; i < df->nrows; i++) {
			const struct vmmap_summary_row *a = &df->rows[i], *b = &dp->rows[i];
			assert_int_equal(a->name_len, b->name_len);
			assert_memory_equal(a->name, b->name, b->name_len + 1);
			assert_int_equal(a->text_len, b->text_len);
			kept += a->name != b->name && a->facts_known;
			assert_int_equal(vmmap_dump_row_selected(df, &fast.filter, i),
					 vmmap_dump_row_selected(dp, &plain.filter, i));
			assert_int_equal(vmmap_dump_row_selected(df, &other, i),
					 vmmap_dump_row_selected(dp, &other, i));
		}
		assert_same_left_out(df, dp, &fast.filter);
		assert_same_left_out(df, dp, &other);
	}
	assert_int_equal(fast.nrow_names, VMMAP_ROW_NAMES_MAX);
	assert_true(kept > 1000);
	vmmap_filter_release(&other);
	vmmap_capture_release(&fast);
	vmmap_capture_release(&plain);
}

/* Header fields, kept in the dump's text blocks with the row names. */
static void
test_header_fields(void **state)
{
	(void)state;
	struct vmmap_capture cap;
	setup_capture(&cap);
	struct vmmap_dump *d = vmmap_capture_new_dump(&cap, 1);
	static char key[16], value[6000];
	char want[40];
	for (size_t i = 0; i < 300; i++) {
		int kn = snprintf(key, sizeof(key), "Key%zu", i);
		/* Views into reused buffers; one value longer than a block. */
		size_t vn = i == 150 ? 5000 : (size_t)snprintf(value, sizeof(value), "value %zu", i);
		if (i == 150)
			memset(value, 'v', vn);
		vmmap_dump_set_field(d, key, (size_t)kn, value, vn);
	}
	memset(key, 'y', sizeof(key));
	memset(value, 'y', sizeof(value));
	assert_int_equal(d->nfields, 300);
	for (size_t i = 0; i < 300; i++) {
		snprintf(want, sizeof(want), "Key%zu", i);
		assert_string_equal(d->fields[i].key, want);
		if (i == 150) {
			assert_int_equal(strlen(d->fields[i].value), 5000);
			assert_int_equal(strspn(d->fields[i].value, "v"), 5000);
			continue;
		}
		snprintf(want, sizeof(want), "value %zu", i);
		assert_string_equal(d->fields[i].value, want);
	}
	assert_string_equal(vmmap_dump_field(d, "Key299"), "value 299");
	assert_null(vmmap_dump_field(d, "Key300"));
	vmmap_capture_release(&cap);
}

static void
test_crosscheck(void **state)
{
	(void)state;
	struct vmmap_capture cap;
	struct diag err;
	struct diag_list w;
	setup_capture(&cap);
	diag_list_init(&w, 10);
	struct vmmap_dump *d = vmmap_capture_new_dump(&cap, 1);
	d->has_region_section = true;
	struct vmmap_region r = region("IOSurface", 19398656, 0, VMMAP_PURGE_N);
	assert_int_equal(vmmap_dump_add_region(&cap, d, &r, "t", &err), 0);
	struct vmmap_summary_row ok = row("IOSurface", "18.5M", 1);
	vmmap_dump_add_summary_row(d, &ok);
	vmmap_dump_crosscheck(d, &cap.filter, "t", &w);
	assert_int_equal(w.len, 0);

	/* A second row that the lines do not back up: both checks speak. */
	struct vmmap_summary_row bad = row("IOAccelerator", "64K", 4);
	vmmap_dump_add_summary_row(d, &bad);
	vmmap_dump_crosscheck(d, &cap.filter, "t", &w);
	assert_int_equal(w.len, 2);
	assert_non_null(strstr(diag_list_msg(&w, 0), "VIRTUAL 64K"));
	assert_non_null(strstr(diag_list_msg(&w, 1), "counts 4 regions"));

	/* 10.12/10.13 print REGION COUNT one too high: not a disagreement. */
	diag_list_release(&w);
	diag_list_init(&w, 10);
	d->rows[0].count = 2;
	d->legacy_layout = true;
	d->nrows = 1;
	vmmap_dump_crosscheck(d, &cap.filter, "t", &w);
	assert_int_equal(w.len, 0);
	diag_list_release(&w);
	vmmap_capture_release(&cap);
}

static void
test_filter(void **state)
{
	(void)state;
	struct vmmap_filter f;
	vmmap_filter_init(&f);
	vmmap_filter_add(&f, "IOAccelerator", 13);
	assert_true(vmmap_filter_selects(&f, "IOAccelerator (graphics)", 24));
	assert_false(vmmap_filter_selects(&f, "IOSurface", 9));
	f.all = true;
	assert_true(vmmap_filter_selects(&f, "IOSurface", 9));
	vmmap_filter_release(&f);
}

/* vmmap's PURGE= letters, and '-' for none; every other byte is no state. */
/* The plain substring test: every start compared in full. */
static bool
plain_contains(const char *hay, size_t n, const char *needle, size_t m)
{
	for (size_t i = 0; i + m <= n; i++)
		if (memcmp(hay + i, needle, m) == 0)
			return true;
	return false;
}

/* The bytes of k in base 3 over "ab(", len of them. */
static void
spell(char *out, size_t len, unsigned k)
{
	for (size_t i = 0; i < len; i++, k /= 3)
		out[i] = "ab("[k % 3];
}

/*
 * A filter selects a name when one of its types is a substring of it:
 * every name of up to 9 bytes over "ab(" against every needle of up to 4
 * (the needle at the start, the end, overlapping itself, its first byte
 * at the last possible start and past it, or not there), against the
 * plain test. The name is a heap block of its own length, so a read
 * past it is seen by ASan. Also "(graphics)" of vmmap_type_is_gpu().
 */
static void
test_filter_matches_plain_substring(void **state)
{
	(void)state;
	for (size_t m = 0; m <= 4; m++) {
		unsigned needles = 1;
		for (size_t i = 0; i < m; i++)
			needles *= 3;
		for (unsigned kn = 0; kn < needles; kn++) {
			char needle[4];
			spell(needle, m, kn);
			struct vmmap_filter f;
			vmmap_filter_init(&f);
			vmmap_filter_add(&f, needle, m);
			for (size_t n = 0; n <= 9; n++) {
				unsigned names = 1;
				for (size_t i = 0; i < n; i++)
					names *= 3;
				char *name = malloc(n ? n : 1);
				assert_non_null(name);
				for (unsigned k = 0; k < names; k++) {
					spell(name, n, k);
					assert_int_equal(vmmap_filter_selects(&f, name, n),
							 plain_contains(name, n, needle, m));
				}
				free(name);
			}
			vmmap_filter_release(&f);
		}
	}
	static const char *const names[] = {
		"", "(graphics", "(graphics)", "VM_ALLOCATE (graphics)", "((graphics)",
		"(graphic)s)", "IOAccelerator (graphics)x", "graphics)",
	};
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		assert_int_equal(vmmap_type_is_gpu(names[i], strlen(names[i])),
				 plain_contains(names[i], strlen(names[i]), "(graphics)", 10));
}

static void
test_purge_from_char(void **state)
{
	(void)state;
	for (int c = 0; c < 256; c++) {
		int want = c == 'N' ? VMMAP_PURGE_N : c == 'V' ? VMMAP_PURGE_V :
			   c == 'E' ? VMMAP_PURGE_E : c == '-' ? VMMAP_PURGE_NONE : -1;
		assert_int_equal(vmmap_purge_from_char((char)c), want);
		if (want >= 0)
			assert_int_equal(vmmap_purge_char((enum vmmap_purge)want), c);
	}
}

/* The histogram of a type as counting each line at once makes it. */
struct ref_bucket {
	uint64_t vsize, count, purge[VMMAP_PURGE_STATES];
};

struct ref_hist {
	struct ref_bucket b[4096];
	size_t n;
	uint64_t total;   /* lines */
};

static void
ref_hist_add(struct ref_hist *h, uint64_t vsize, enum vmmap_purge p)
{
	size_t i = 0;
	while (i < h->n && h->b[i].vsize != vsize)
		i++;
	if (i == h->n) {
		assert_true(h->n < ARRAY_SIZE(h->b));
		memset(&h->b[h->n++], 0, sizeof(h->b[0]));
		h->b[i].vsize = vsize;
	}
	h->b[i].count++;
	h->b[i].purge[p]++;
	h->total++;
}

/* Buckets in creation order, so a count made out of order shows too. */
static void
assert_hist_equal(const struct vmmap_type_stats *t, const struct ref_hist *h)
{
	assert_int_equal(t->hist_pending, 0);
	assert_int_equal(t->nhist, h->n);
	for (size_t i = 0; i < h->n; i++) {
		assert_int_equal(t->hist[i].vsize, h->b[i].vsize);
		assert_int_equal(vmmap_hist_bucket_count(&t->hist[i]), h->b[i].count);
		for (int p = 0; p < VMMAP_PURGE_STATES; p++)
			assert_int_equal(t->hist[i].purge[p], h->b[i].purge[p]);
	}
}

/* Every type of d against the reference of its name (types come in first-seen order). */
static void
assert_hists_equal(const struct vmmap_dump *d, const char *const names[4],
		   const struct ref_hist ref[4])
{
	for (size_t k = 0; k < d->ntypes; k++) {
		size_t j = 0;
		while (j < 4 && strcmp(d->types[k].name, names[j]) != 0)
			j++;
		assert_true(j < 4);
		assert_hist_equal(&d->types[k], &ref[j]);
	}
}

/* A capture of the default selection, its first dump, and empty references. */
static struct vmmap_dump *
start_hist_case(struct vmmap_capture *cap, struct ref_hist *ref, size_t n)
{
	memset(ref, 0, n * sizeof(*ref));
	setup_capture(cap);
	return vmmap_capture_new_dump(cap, 1);
}

static uint64_t
next_random(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * Histogram counts are made at once, then, past VMMAP_HIST_DEFER_MIN
 * buckets, VMMAP_HIST_LAG lines after their region
 * (vmmap_dump.hist_pending): on 40,000 generated regions of mixed types,
 * repeated and new sizes (the slot tables grow while lines are pending),
 * a type that is not counted, regions that are not (all zero) and a size
 * too large for the sums, the
 * buckets equal those of counting each line at once, after a settle in
 * the middle, at the end, and through vmmap_dump_finish().
 */
static void
test_deferred_hist_counts_as_at_once(void **state)
{
	(void)state;
	static const char *const names[] = { "IOSurface", "IOAccelerator", "IOAccelerator (mm)",
					     "MALLOC_SMALL" };
	enum { TYPES = ARRAY_SIZE(names), REGIONS = 40000 };
	static struct ref_hist ref[TYPES];
	struct vmmap_capture cap;
	struct diag err;
	struct vmmap_dump *d = start_hist_case(&cap, ref, TYPES);
	uint64_t seed = 0x9e3779b97f4a7c15u;
	for (int i = 0; i < REGIONS; i++) {
		uint64_t x = next_random(&seed);
		size_t ty = (size_t)(x % TYPES);
		/* Sizes from a pool that widens: early lines repeat, later ones are new. */
		uint64_t pool = 8 + (uint64_t)i / 16;
		uint64_t vsize = 16384 * ((x >> 8) % pool + 1);
		enum vmmap_purge p = (enum vmmap_purge)((x >> 40) % VMMAP_PURGE_STATES);
		/* Half the unpurgeable ones all zero: not counted (vmmap_region_counts). */
		struct vmmap_region r = region(names[ty], vsize, (x >> 50) % 2 ? 16384 : 0, p);
		if (i % 997 == 0) {
			/* Refused by the sums: in no bucket. */
			r.vsize = UINT64_C(1) << 63;
			r.end = r.start + r.vsize;
			assert_int_equal(vmmap_dump_add_region(&cap, d, &r, "t", &err), -1);
			continue;
		}
		assert_int_equal(vmmap_dump_add_region(&cap, d, &r, "t", &err), 0);
		if (ty != 3 && vmmap_region_counts(&r))
			ref_hist_add(&ref[ty], vsize, p);
		if (i == REGIONS / 2 || i == REGIONS / 2 + 1) {
			vmmap_dump_settle_hist(d);
			assert_hists_equal(d, names, ref);
		}
	}
	vmmap_dump_finish(&cap, d);
	assert_int_equal(d->ntypes, TYPES);
	assert_hists_equal(d, names, ref);
	/* Types passed VMMAP_HIST_DEFER_MIN buckets: counted at once, then late. */
	assert_true(ref[0].n > 2 * VMMAP_HIST_DEFER_MIN);
	vmmap_capture_release(&cap);
}

/*
 * Types cut to vmmap's 24-byte column and not selected by their cut names
 * have their histogram counts logged until the dump's end
 * (vmmap_dump.hist_log). Four types, lines in random order, sizes from a
 * widening pool: a cut name whose full name (from its summary row)
 * selects it, whose buckets must equal those of counting each line at
 * once, in the same order; two whose full names do not, which end with
 * no bucket and no counted sums; a selected type, counted at once
 * throughout. `regions` below VMMAP_HIST_LOG_MAX * 4 / 3 keeps every
 * logged line until the end (the dropped types never make a bucket);
 * above it the full log is counted once, mid-dump. `settle`: a settle
 * in the middle (every logged line counted, the types counted at once
 * from then on).
 */
/* The type whose region lines print it as `printed`. */
static const struct vmmap_type_stats *
type_printed_as(const struct vmmap_dump *d, const char *printed)
{
	for (size_t i = 0; i < d->ntypes; i++)
		if (strcmp(d->types[i].printed, printed) == 0)
			return &d->types[i];
	fail_msg("no type printed as '%s'", printed);
	return NULL;
}

static void
check_logged_types(int regions, bool settle)
{
	static const char *const names[] = {
		"GPU pool of shared IOSurface buffers",        /* cut: selected */
		"MALLOC_MEDIUM (reserved)",                    /* 24 bytes whole */
		"JS VM Gigacage (reserved VM address space)",  /* cut: not selected */
		"IOSurface",
	};
	enum { TYPES = ARRAY_SIZE(names) };
	static struct ref_hist ref[TYPES];
	struct vmmap_capture cap;
	struct diag err;
	struct vmmap_dump *d = start_hist_case(&cap, ref, TYPES);
	char cut[TYPES][VMMAP_TYPE_COLUMN + 1];
	uint64_t seed = 0x2545f4914f6cdd1du;
	size_t logged = 0;
	for (int i = 0; i < regions; i++) {
		uint64_t x = next_random(&seed);
		size_t ty = (size_t)(x % TYPES);
		snprintf(cut[ty], sizeof(cut[ty]), "%s", names[ty]);
		uint64_t pool = 8 + (uint64_t)i / 64;
		uint64_t vsize = 16384 * ((x >> 8) % pool + 1);
		enum vmmap_purge p = (enum vmmap_purge)((x >> 40) % VMMAP_PURGE_STATES);
		struct vmmap_region r = region(cut[ty], vsize, 16384, p);
		assert_int_equal(vmmap_dump_add_region(&cap, d, &r, "t", &err), 0);
		ref_hist_add(&ref[ty], vsize, p);
		logged += ty != 3;
		if (settle && i == regions / 2) {
			vmmap_dump_settle_hist(d);
			assert_int_equal(d->hist_nlog, 0);
		}
	}
	bool flushed = settle || logged > VMMAP_HIST_LOG_MAX;
	assert_int_equal(d->ntypes, TYPES);
	for (size_t k = 0; k < 3; k++) {
		const struct vmmap_type_stats *t = type_printed_as(d, cut[k]);
		assert_true(t->selection_pending);
		/* Unflushed: no bucket yet, however many lines. */
		assert_int_equal(t->hist_logged, !flushed);
		if (!flushed)
			assert_int_equal(t->nhist, 0);
	}
	if (!flushed)
		assert_int_equal(d->hist_nlog, logged);
	for (size_t k = 0; k < 3; k++) {
		struct vmmap_summary_row row;
		memset(&row, 0, sizeof(row));
		row.name = names[k];
		row.name_len = strlen(names[k]);
		vmmap_dump_add_summary_row(d, &row);
	}
	vmmap_dump_finish(&cap, d);
	assert_int_equal(d->hist_nlog, 0);
	assert_null(d->hist_log);
	const struct vmmap_type_stats *sel = type_printed_as(d, cut[0]);
	assert_string_equal(sel->name, names[0]);
	assert_true(sel->selected);
	assert_hist_equal(sel, &ref[0]);
	assert_hist_equal(type_printed_as(d, cut[3]), &ref[3]);
	for (size_t k = 1; k < 3; k++) {
		const struct vmmap_type_stats *t = type_printed_as(d, cut[k]);
		assert_string_equal(t->name, names[k]);
		assert_false(t->counted);
		assert_int_equal(t->nhist, 0);
		assert_int_equal(t->lines.count, ref[k].total);
		for (int p = 0; p < VMMAP_PURGE_STATES; p++)
			assert_int_equal(t->by_purge[p].count, 0);
	}
	struct vmmap_amounts counted = d->counted;
	assert_int_equal(counted.count, ref[0].total + ref[3].total);
	vmmap_capture_release(&cap);
}

static void
test_logged_types_count_at_the_end(void **state)
{
	(void)state;
	check_logged_types(20000, false);
}

static void
test_logged_types_after_a_settle(void **state)
{
	(void)state;
	check_logged_types(20000, true);
}

static void
test_logged_types_past_a_full_log(void **state)
{
	(void)state;
	check_logged_types(VMMAP_HIST_LOG_MAX * 4 / 3 + 4000, false);
}

/*
 * Size k of a type met in three passes: k + 1 pages of `page` bytes, in
 * purge state k % 4, met in k % 3 + 1 of the passes (so buckets made
 * before a growth are counted again after it).
 */
static void
add_pass_size(struct vmmap_capture *cap, struct vmmap_dump *d, uint64_t k, uint64_t page)
{
	struct diag err;
	struct vmmap_region r = region("IOSurface", page * (k + 1), page,
				       (enum vmmap_purge)(k % VMMAP_PURGE_STATES));
	assert_int_equal(vmmap_dump_add_region(cap, d, &r, "t", &err), 0);
}

/* Size k's bucket after the three passes of add_pass_size(). */
static void
assert_pass_bucket(const struct vmmap_hist_bucket *b, uint64_t k, uint64_t page)
{
	assert_non_null(b);
	assert_int_equal(b->vsize, page * (k + 1));
	assert_int_equal(vmmap_hist_bucket_count(b), k % 3 + 1);
	for (uint64_t p = 0; p < VMMAP_PURGE_STATES; p++)
		assert_int_equal(b->purge[p], p == k % VMMAP_PURGE_STATES ? k % 3 + 1 : 0);
}

/*
 * Past VMMAP_HIST_DEFER_MIN buckets a type's bucket array grows eightfold
 * (model/vmmap.c, hist_want), not twofold: a type of 20,000 sizes, met
 * in three passes (size k in k % 3 + 1 of them, so buckets made before
 * each move are counted again after it), keeps every bucket and count,
 * in the order its sizes were first met; its room went 8, 16, ..., 256,
 * then 2,048, 16,384 and 131,072.
 */
static void
test_many_buckets_grow_eightfold(void **state)
{
	(void)state;
	enum { SIZES = 20000, PAGE = 16384 };
	static const size_t want[] = { 8, 16, 32, 64, 128, 256, 2048, 16384, 131072 };
	size_t rooms[ARRAY_SIZE(want) + 1], nrooms = 0;
	struct vmmap_capture cap;
	setup_capture(&cap);
	struct vmmap_dump *d = vmmap_capture_new_dump(&cap, 1);
	for (uint64_t pass = 0; pass < 3; pass++) {
		for (uint64_t k = 0; k < SIZES; k++) {
			if (k % 3 < pass)
				continue;
			add_pass_size(&cap, d, k, PAGE);
			size_t room = d->types[0].hist_alloc;
			if (nrooms == 0 || rooms[nrooms - 1] != room) {
				assert_true(nrooms < ARRAY_SIZE(rooms));
				rooms[nrooms++] = room;
			}
		}
	}
	vmmap_dump_finish(&cap, d);
	const struct vmmap_type_stats *t = &d->types[0];
	assert_int_equal(t->nhist, SIZES);
	for (uint64_t k = 0; k < SIZES; k++)
		assert_pass_bucket(&t->hist[k], k, PAGE);
	assert_int_equal(nrooms, ARRAY_SIZE(want));
	for (size_t i = 0; i < nrooms; i++)
		assert_int_equal(rooms[i], want[i]);
	vmmap_capture_release(&cap);
}

/*
 * A type's slots are 16 bits while the table cannot hold an index past
 * UINT16_MAX, then 32 (model/vmmap.c, hist_slots_grow). A type of 70,000
 * sizes, met in three passes (size k in k % 3 + 1 of them), crosses that
 * with buckets made before the change counted again after it: every size
 * finds its own bucket, with its counts, and a size never met finds none.
 */
static void
test_bucket_slots_widen_past_16_bits(void **state)
{
	(void)state;
	enum { SIZES = 70000, PAGE = 16384 };
	struct vmmap_capture cap;
	setup_capture(&cap);
	struct vmmap_dump *d = vmmap_capture_new_dump(&cap, 1);
	bool saw_narrow_full = false;
	for (uint64_t pass = 0; pass < 3; pass++) {
		for (uint64_t k = 0; k < SIZES; k++) {
			if (k % 3 < pass)
				continue;
			add_pass_size(&cap, d, k, PAGE);
			const struct vmmap_type_stats *t = &d->types[0];
			/* Either side of each growth near the change: the newest
			 * bucket is found at once (a table left too narrow loses
			 * it until the next growth places every bucket again). */
			if (pass == 0 && (k + 1) % 32768 <= 1) {
				vmmap_dump_settle_hist(d);
				assert_int_equal(t->nhist, k + 1);
				const struct vmmap_hist_bucket *b =
					vmmap_type_find_bucket(t, PAGE * (k + 1));
				assert_non_null(b);
				assert_int_equal(b - t->hist, k);
				/* 32,768 buckets: the most a table of 16-bit slots holds. */
				assert_true(t->hist_slots_wide == (k + 1 > 32768));
				saw_narrow_full |= k + 1 == 32768;
			}
		}
	}
	vmmap_dump_finish(&cap, d);
	const struct vmmap_type_stats *t = &d->types[0];
	assert_true(saw_narrow_full);
	assert_true(t->hist_slots_wide);
	assert_int_equal(t->hist_slots_cap, 262144);
	assert_int_equal(t->nhist, SIZES);
	for (uint64_t k = 0; k < SIZES; k++) {
		const struct vmmap_hist_bucket *b = vmmap_type_find_bucket(t, PAGE * (k + 1));
		assert_pass_bucket(b, k, PAGE);
		assert_int_equal(b - t->hist, k);
	}
	assert_null(vmmap_type_find_bucket(t, PAGE * (SIZES + 1)));
	assert_null(vmmap_type_find_bucket(t, PAGE / 2));
	vmmap_capture_release(&cap);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_breakdown_and_histogram),
		cmocka_unit_test(test_bucket_slots_widen_past_16_bits),
		cmocka_unit_test(test_overflow_is_an_error),
		cmocka_unit_test(test_dump_total_overflow_is_an_error),
		cmocka_unit_test(test_sums_reach_the_limit_exactly),
		cmocka_unit_test(test_every_amount_is_checked),
		cmocka_unit_test(test_hostile_amounts_are_refused),
		cmocka_unit_test(test_dump_total_reaches_the_limit),
		cmocka_unit_test(test_region_after_group_near_the_limit),
		cmocka_unit_test(test_bucket_counts_stop_at_their_limit),
		cmocka_unit_test(test_similar_type_names_stay_apart),
		cmocka_unit_test(test_types_past_the_cache_count_apart),
		cmocka_unit_test(test_cut_gpu_type_as_the_map_grows),
		cmocka_unit_test(test_logged_types_count_at_the_end),
		cmocka_unit_test(test_logged_types_after_a_settle),
		cmocka_unit_test(test_logged_types_past_a_full_log),
		cmocka_unit_test(test_many_sizes_count_in_their_buckets),
		cmocka_unit_test(test_summary_row_names),
		cmocka_unit_test(test_header_fields),
		cmocka_unit_test(test_histogram_index_and_order),
		cmocka_unit_test(test_deferred_hist_counts_as_at_once),
		cmocka_unit_test(test_many_buckets_grow_eightfold),
		cmocka_unit_test(test_crosscheck),
		cmocka_unit_test(test_filter),
		cmocka_unit_test(test_row_selection_kept),
		cmocka_unit_test(test_capture_rows_as_dump_rows),
		cmocka_unit_test(test_filter_matches_plain_substring),
		cmocka_unit_test(test_purge_from_char),
	};
	return cmocka_run_group_tests_name("vmmap-model", tests, NULL, NULL);
}
