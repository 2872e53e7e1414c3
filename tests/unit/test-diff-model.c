#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/diff_classes.h"
#include "model/diff_track.h"
#include "model/diff_vmmap.h"
#include "model/pick.h"
#include "track-records.h"

/* ---- vmmap ---------------------------------------------------------------- */

static void
group(struct vmmap_capture *cap, struct vmmap_dump *d, const char *type, enum vmmap_purge p,
      uint64_t count, uint64_t vsize, uint64_t resident)
{
	struct vmmap_amounts a = { count, vsize, resident, 0, 0 };
	struct diag err;
	uint64_t purge[VMMAP_PURGE_STATES] = { 0 };
	assert_int_equal(vmmap_dump_add_group(cap, d, type, strlen(type), p, &a, NULL, &err), 0);
	purge[p] = count;
	assert_int_equal(vmmap_dump_add_bucket(cap, d, type, strlen(type), vsize / count, purge,
					       NULL, &err), 0);
}

struct vmmap_pair {
	struct vmmap_capture b, a;
	struct vmmap_dump *bd, *ad;
};

static void
vmmap_pair_init(struct vmmap_pair *p)
{
	vmmap_capture_init(&p->b);
	vmmap_capture_init(&p->a);
	p->b.filter.all = p->a.filter.all = true;
	p->bd = vmmap_capture_new_dump(&p->b, 1);
	p->ad = vmmap_capture_new_dump(&p->a, 1);
}

static void
vmmap_pair_release(struct vmmap_pair *p)
{
	vmmap_capture_release(&p->b);
	vmmap_capture_release(&p->a);
}

static void
test_vmmap_rows_buckets_metrics(void **state)
{
	(void)state;
	struct vmmap_pair p;
	struct diff_vmmap d;
	struct diag err;
	int64_t b, a;
	vmmap_pair_init(&p);
	group(&p.b, p.bd, "IOAccelerator (graphics)", VMMAP_PURGE_N, 1, 1 << 27, 0);
	group(&p.a, p.ad, "IOAccelerator (graphics)", VMMAP_PURGE_N, 4, 4u << 27, 1 << 27);
	group(&p.a, p.ad, "IOSurface", VMMAP_PURGE_V, 5, 5 << 20, 0);
	diff_vmmap_compute(&d, &p.b, p.bd, &p.a, p.ad);

	assert_int_equal(d.ntypes, 2);
	assert_string_equal(d.types[0], "IOAccelerator (graphics)");
	assert_int_equal(d.nrows, 2);
	assert_int_equal(d.rows[0].after.count - d.rows[0].before.count, 3);
	assert_int_equal(d.nbuckets, 2);
	assert_int_equal(d.buckets[0].vsize, 1 << 27);
	assert_int_equal(d.buckets[0].before, 1);
	assert_int_equal(d.buckets[0].after, 4);
	assert_true(diff_vmmap_changed(&d));

	assert_int_equal(diff_vmmap_metric(&d, "IOAccelerator (graphics):N.vsize", &b, &a, &err), 0);
	assert_int_equal(a - b, 3LL << 27);
	assert_int_equal(diff_vmmap_metric(&d, "IOAccelerator (graphics).resident", &b, &a, &err), 0);
	assert_int_equal(a, 1 << 27);
	assert_int_equal(diff_vmmap_metric(&d, "IOSurface:N.count", &b, &a, &err), 0);
	assert_int_equal(a, 0);
	assert_int_equal(diff_vmmap_metric(&d, "IOSurface.count", &b, &a, &err), 0);
	assert_int_equal(a, 5);
	/* Not a type name: a substring, a glob, or every GPU type, summed. */
	int64_t b2, a2;
	assert_int_equal(diff_vmmap_metric(&d, "IOAccelerator (graphics).count", &b2, &a2, &err),
			 0);
	assert_int_equal(diff_vmmap_metric(&d, "IOAccelerator.count", &b, &a, &err), 0);
	assert_int_equal(b, b2);
	assert_int_equal(a, a2);
	assert_int_equal(diff_vmmap_metric(&d, "*(graphics).count", &b, &a, &err), 0);
	assert_int_equal(a, a2);
	assert_int_equal(diff_vmmap_metric(&d, "IOSurface.count", &b, &a, &err), 0);
	int64_t surface_after = a;
	assert_int_equal(diff_vmmap_metric(&d, "gpu.count", &b, &a, &err), 0);
	assert_int_equal(a, a2 + surface_after);
	assert_int_equal(diff_vmmap_metric(&d, "IOAccel.count", &b, &a, &err), 0);
	assert_int_equal(a, a2);
	assert_int_equal(diff_vmmap_metric(&d, "NoSuch*.count", &b, &a, &err), -1);
	assert_int_equal(err.code, DIAG_DATA);
	assert_int_equal(diff_vmmap_metric(&d, "Malloc.count", &b, &a, &err), -1);
	assert_int_equal(err.code, DIAG_DATA);
	assert_int_equal(diff_vmmap_metric(&d, "IOSurface.bytes", &b, &a, &err), -1);
	assert_int_equal(err.code, DIAG_USAGE);
	assert_int_equal(diff_vmmap_metric(&d, "IOSurface:Q.count", &b, &a, &err), -1);
	assert_int_equal(err.code, DIAG_USAGE);
	assert_int_equal(diff_vmmap_metric(&d, "IOSurface", &b, &a, &err), -1);
	assert_int_equal(err.code, DIAG_USAGE);
	diff_vmmap_release(&d);
	vmmap_pair_release(&p);
}

static void
test_vmmap_movement(void **state)
{
	(void)state;
	struct vmmap_pair p;
	struct diff_vmmap d;
	vmmap_pair_init(&p);
	/* N 100 -> 40, V 0 -> 50, E 10 -> 30: N lost 60, V and E gained 70. */
	group(&p.b, p.bd, "T", VMMAP_PURGE_N, 1, 100, 0);
	group(&p.b, p.bd, "T", VMMAP_PURGE_E, 1, 10, 0);
	group(&p.a, p.ad, "T", VMMAP_PURGE_N, 1, 40, 0);
	group(&p.a, p.ad, "T", VMMAP_PURGE_V, 1, 50, 0);
	group(&p.a, p.ad, "T", VMMAP_PURGE_E, 1, 30, 0);
	diff_vmmap_compute(&d, &p.b, p.bd, &p.a, p.ad);
	assert_int_equal(d.npurgeable, 1);
	/* 50 of N went to V, the other 10 to E; the rest of E's gain is new. */
	assert_int_equal(d.purgeable[0].moved[0][1], 50);
	assert_int_equal(d.purgeable[0].moved[0][2], 10);
	assert_int_equal(d.purgeable[0].moved[1][2], 0);
	assert_int_equal(d.purgeable[0].moved[2][0], 0);
	diff_vmmap_release(&d);
	vmmap_pair_release(&p);
}

static void
region(struct vmmap_capture *cap, struct vmmap_dump *d, const char *type, uint64_t start,
       uint64_t vsize, enum vmmap_purge p)
{
	struct vmmap_region r = {
		.type = type, .type_len = strlen(type), .start = start, .end = start + vsize,
		.has_range = true, .vsize = vsize, .size_columns = 4, .purge = p, .line = 1,
	};
	struct diag err;
	assert_int_equal(vmmap_dump_add_region(cap, d, &r, NULL, &err), 0);
	vmmap_dump_settle_hist(d);
}

static void
test_vmmap_movement_by_address(void **state)
{
	(void)state;
	struct vmmap_pair p;
	struct diff_vmmap d;
	vmmap_pair_init(&p);
	p.b.want_purgeable = p.a.want_purgeable = true;
	/* Two regions swap states: the totals do not move, the regions do. */
	region(&p.b, p.bd, "G", 0x1000, 0x4000, VMMAP_PURGE_N);
	region(&p.b, p.bd, "G", 0x9000, 0x4000, VMMAP_PURGE_V);
	region(&p.b, p.bd, "G", 0x20000, 0x2000, VMMAP_PURGE_V);
	region(&p.a, p.ad, "G", 0x1000, 0x4000, VMMAP_PURGE_V);
	region(&p.a, p.ad, "G", 0x9000, 0x4000, VMMAP_PURGE_N);
	/* Resized and purged: only what both captures saw moved. */
	region(&p.a, p.ad, "G", 0x20000, 0x1000, VMMAP_PURGE_E);
	/* Each type moves on its own row. */
	region(&p.a, p.ad, "H", 0x30000, 0x1000, VMMAP_PURGE_E);
	region(&p.b, p.bd, "H", 0x30000, 0x1000, VMMAP_PURGE_N);
	/* Another type at an address G used: not a move. */
	region(&p.b, p.bd, "G", 0x40000, 0x1000, VMMAP_PURGE_N);
	region(&p.a, p.ad, "H", 0x40000, 0x1000, VMMAP_PURGE_V);
	diff_vmmap_compute(&d, &p.b, p.bd, &p.a, p.ad);
	assert_true(d.movement_by_address);
	assert_int_equal(d.npurgeable, 2);
	assert_string_equal(d.purgeable[0].type, "G");
	assert_int_equal(d.purgeable[0].moved[0][1], 0x4000);
	assert_int_equal(d.purgeable[0].moved[1][0], 0x4000);
	assert_int_equal(d.purgeable[0].moved[1][2], 0x1000);
	assert_int_equal(d.purgeable[1].moved[0][2], 0x1000);
	assert_int_equal(d.purgeable[0].moved[0][0] + d.purgeable[1].moved[0][1], 0);
	assert_true(diff_vmmap_changed(&d));
	diff_vmmap_release(&d);
	vmmap_pair_release(&p);
}

/* Regions listed out of address order (vmmap lists them in order, so the
 * sort is skipped then): the moves are found all the same. */
static void
test_vmmap_movement_by_address_unsorted(void **state)
{
	(void)state;
	struct vmmap_pair p;
	struct diff_vmmap d;
	vmmap_pair_init(&p);
	p.b.want_purgeable = p.a.want_purgeable = true;
	region(&p.b, p.bd, "G", 0x20000, 0x2000, VMMAP_PURGE_V);
	region(&p.b, p.bd, "G", 0x9000, 0x4000, VMMAP_PURGE_V);
	region(&p.b, p.bd, "G", 0x1000, 0x4000, VMMAP_PURGE_N);
	region(&p.a, p.ad, "G", 0x9000, 0x4000, VMMAP_PURGE_N);
	region(&p.a, p.ad, "G", 0x20000, 0x1000, VMMAP_PURGE_E);
	region(&p.a, p.ad, "G", 0x1000, 0x4000, VMMAP_PURGE_V);
	diff_vmmap_compute(&d, &p.b, p.bd, &p.a, p.ad);
	assert_true(d.movement_by_address);
	assert_int_equal(d.npurgeable, 1);
	assert_int_equal(d.purgeable[0].moved[0][1], 0x4000);
	assert_int_equal(d.purgeable[0].moved[1][0], 0x4000);
	assert_int_equal(d.purgeable[0].moved[1][2], 0x1000);
	diff_vmmap_release(&d);
	vmmap_pair_release(&p);
}

static void
test_vmmap_selection(void **state)
{
	(void)state;
	struct vmmap_pair p;
	struct diff_vmmap d;
	vmmap_pair_init(&p);
	/* AFTER came from a report of IOSurface only: MALLOC is not "gone". */
	p.a.filter.all = false;
	vmmap_filter_add(&p.a.filter, "IOSurface", 9);
	group(&p.b, p.bd, "MALLOC_SMALL", VMMAP_PURGE_NONE, 3, 3 << 20, 3 << 20);
	group(&p.b, p.bd, "IOSurface", VMMAP_PURGE_N, 1, 1 << 20, 1 << 20);
	group(&p.a, p.ad, "IOSurface", VMMAP_PURGE_N, 1, 1 << 20, 1 << 20);
	diff_vmmap_compute(&d, &p.b, p.bd, &p.a, p.ad);
	assert_int_equal(d.ntypes, 1);
	assert_string_equal(d.types[0], "IOSurface");
	for (size_t i = 0; i < d.nrows; i++)
		assert_string_not_equal(d.rows[i].type, "MALLOC_SMALL");
	assert_false(diff_vmmap_changed(&d));
	diff_vmmap_release(&d);
	vmmap_pair_release(&p);
}

/* ---- track ---------------------------------------------------------------- */

static void
record(struct track_capture *cap, uint64_t bytes, int64_t count, const char *kext,
       const char *symbol, uint64_t offset, uint64_t seq)
{
	struct track_record r;
	struct diag err;
	track_record_init(&r);
	r.type = TRACK_RECORD_ALLOC;
	r.bytes = r.size[0] = bytes;
	r.count = count;
	r.seq = seq;
	add_frame_at(&r, "kernel.development", 0xfffffff0077a0010ULL, "IOMalloc_external(unsigned long)", 0x24);
	add_frame_at(&r, kext, 0xfffffff009140000ULL + offset, symbol, offset);
	assert_int_equal(track_capture_add_record(cap, &r, NULL, &err), 0);
	track_record_release(&r);
}

static void
track_diff(struct diff_track *d, bool offsets, struct track_capture *b, struct track_capture *a)
{
	struct diag err;
	diff_track_init(d, offsets);
	assert_int_equal(diff_track_add_capture(d, 0, b, NULL, &err), 0);
	assert_int_equal(diff_track_add_capture(d, 1, a, NULL, &err), 0);
}

static void
test_track_sites(void **state)
{
	(void)state;
	struct track_capture b, a;
	struct diff_track d;
	const struct diff_track_site **s;
	struct diag err;
	int64_t x, y;
	track_capture_init(&b);
	track_capture_init(&a);
	b.keep_records = a.keep_records = true;
	record(&b, 0x3000, 1, "com.apple.AGXG13X", "AGX::grow()", 0x10, 0);
	record(&b, 0x1000, 2, "com.apple.AGXG13X", "AGX::gone()", 0x10, 1);
	record(&a, 0x5000, 2, "com.apple.AGXG13X", "AGX::grow()", 0x14, 0);  /* other offset */
	record(&a, 0x100000, 4, "com.example.New", "New::alloc()", 0x8, 1);
	track_diff(&d, false, &b, &a);

	assert_int_equal(diff_track_sorted_sites(&d, &s), 3);
	assert_int_equal(diff_track_site_change(&d, s[0]), DIFF_TRACK_NEW);
	struct strbuf sb = STRBUF_INIT;
	diff_track_site_label(&d, s[0], &sb);
	assert_string_equal(sb.buf, "com.example.New: New::alloc()");
	strbuf_reset(&sb);
	diff_track_site_folded(&d, s[0], &sb);
	assert_string_equal(sb.buf, "New::alloc();IOMalloc_external(unsigned long)");
	strbuf_reset(&sb);
	diff_track_frame_text(&d, diff_track_site_frame(s[0], 1), &sb);
	assert_string_equal(sb.buf, "New::alloc() (com.example.New)");
	strbuf_release(&sb);
	assert_string_equal(d.modules[s[0]->module].name, "com.example.New");
	assert_int_equal(diff_track_site_side(&d, s[0], 1)->count, 4);
	assert_int_equal(diff_track_site_change(&d, s[1]), DIFF_TRACK_GROWN);
	assert_int_equal(diff_track_site_side(&d, s[1], 1)->bytes - diff_track_site_side(&d, s[1], 0)->bytes, 0x2000);
	assert_int_equal(diff_track_site_change(&d, s[2]), DIFF_TRACK_GONE);
	free(s);

	assert_int_equal(diff_track_metric(&d, "total", &x, &y, &err), 0);
	assert_int_equal(y - x, 0x105000 - 0x4000);
	assert_int_equal(diff_track_metric(&d, "sites", &x, &y, &err), 0);
	assert_int_equal(x, 2);
	assert_int_equal(y, 2);
	assert_int_equal(diff_track_metric(&d, "com.example.New", &x, &y, &err), 0);
	assert_int_equal(y, 0x100000);
	assert_int_equal(diff_track_metric(&d, "com.example.Nope", &x, &y, &err), -1);
	assert_int_equal(err.code, DIAG_DATA);
	diff_track_release(&d);

	/* With offsets kept, the moved frame is another site, and texts show offsets. */
	track_diff(&d, true, &b, &a);
	assert_int_equal(d.nsites, 4);
	struct strbuf ft = STRBUF_INIT;
	diff_track_frame_text(&d, diff_track_site_frame(&d.sites[0], 1), &ft);
	assert_string_equal(ft.buf, "AGX::grow() + 0x10 (com.apple.AGXG13X)");
	strbuf_release(&ft);
	diff_track_release(&d);
	track_capture_release(&b);
	track_capture_release(&a);
}

/* Each record fits; a side's sums of them would not. */
/*
 * A side's figures are kept apart from the sites and made on its first
 * record: sites seen first on side 1 read zero on side 0 until side 0 adds
 * to them, and sites side 0 adds later read zero on side 1. Enough sites
 * that both arrays grow several times (and so move) while in use.
 */
static void
add_site_record(struct diff_track *d, int side, unsigned site, uint64_t bytes, int64_t count)
{
	struct track_record r;
	struct diag err;
	char sym[64];
	snprintf(sym, sizeof(sym), "Site%u::alloc()", site);
	track_record_init(&r);
	r.type = TRACK_RECORD_ALLOC;
	r.bytes = r.size[0] = bytes;
	r.count = count;
	add_frame_at(&r, "kernel.development", 0xfffffff0077a0010ULL,
		     "IOMalloc_external(unsigned long)", 0x24);
	add_frame_at(&r, "com.example.k", 0xfffffff009140000ULL, sym, 0x10);
	assert_int_equal(diff_track_add_record(d, side, &r, NULL, &err), 0);
	track_record_release(&r);
}

static void
test_track_figures_per_side(void **state)
{
	(void)state;
	enum { N1 = 300, N0 = 700 };   /* side 1: sites 0..299; side 0: 150..699 */
	struct diff_track d;
	diff_track_init(&d, false);
	for (unsigned i = 0; i < N1; i++)
		add_site_record(&d, 1, i, 16 * (i + 1), 1);
	for (unsigned i = 0; i < N1; i += 2)
		add_site_record(&d, 1, i, 16, 2);   /* even sites: two records */
	assert_null(d.fig[0]);
	assert_int_equal(diff_track_site_side(&d, &d.sites[7], 0)->records, 0);
	for (unsigned i = N1 / 2; i < N0; i++)
		add_site_record(&d, 0, i, 1000 + i, 3);
	assert_int_equal(d.nsites, N0);
	for (unsigned i = 0; i < N0; i++) {
		const struct diff_track_figures *b = diff_track_site_side(&d, &d.sites[i], 0);
		const struct diff_track_figures *a = diff_track_site_side(&d, &d.sites[i], 1);
		bool on1 = i < N1, even = i % 2 == 0, on0 = i >= N1 / 2;
		assert_int_equal(a->records, on1 ? (even ? 2 : 1) : 0);
		assert_int_equal(a->bytes, on1 ? 16 * (i + 1) + (even ? 16 : 0) : 0);
		assert_int_equal(a->count, on1 ? (even ? 3 : 1) : 0);
		assert_int_equal(b->records, on0 ? 1 : 0);
		assert_int_equal(b->bytes, on0 ? 1000 + i : 0);
		assert_int_equal(b->count, on0 ? 3 : 0);
		assert_int_equal(diff_track_site_change(&d, &d.sites[i]),
				 !on0 ? DIFF_TRACK_NEW : !on1 ? DIFF_TRACK_GONE
				 : a->bytes > b->bytes ? DIFF_TRACK_GROWN : DIFF_TRACK_SHRUNK);
	}
	assert_int_equal(d.nsites_side[0], N0 - N1 / 2);
	assert_int_equal(d.nsites_side[1], N1);
	diff_track_release(&d);
}

/*
 * A site keeps 16-bit frame ids while every id fits, 32-bit ones after the
 * 65,536th distinct frame: both kinds match their records again and read
 * back the frames they were given.
 */
static void
test_track_narrow_and_wide_sites(void **state)
{
	(void)state;
	enum { N = 70000 };   /* each site adds one frame to the shared IOMalloc one */
	struct diff_track d;
	struct strbuf sb = STRBUF_INIT;
	char want[64];
	diff_track_init(&d, false);
	for (unsigned i = 0; i < N; i++)
		add_site_record(&d, 1, i, 16, 1);
	static const unsigned again[] = { 0, 5, 65533, 65534, 65535, 69999 };
	for (size_t k = 0; k < sizeof(again) / sizeof(again[0]); k++)
		add_site_record(&d, 1, again[k], 16, 1);
	assert_int_equal(d.nsites, N);
	assert_int_equal(d.nframes, N + 1);
	assert_true(d.sites[0].narrow);
	assert_true(d.sites[65534].narrow);    /* its frame is id 65535 */
	assert_false(d.sites[65535].narrow);
	assert_false(d.sites[N - 1].narrow);
	for (unsigned i = 0; i < N; i += 997) {
		strbuf_reset(&sb);
		diff_track_frame_text(&d, diff_track_site_frame(&d.sites[i], 1), &sb);
		snprintf(want, sizeof(want), "Site%u::alloc() (com.example.k)", i);
		assert_string_equal(sb.buf, want);
	}
	for (size_t k = 0; k < sizeof(again) / sizeof(again[0]); k++)
		assert_int_equal(diff_track_site_side(&d, &d.sites[again[k]], 1)->records, 2);
	strbuf_release(&sb);
	diff_track_release(&d);
}

static void
test_track_sum_overflow(void **state)
{
	(void)state;
	struct diff_track d;
	struct track_record r;
	struct diag err;
	diff_track_init(&d, false);
	track_record_init(&r);
	r.type = TRACK_RECORD_ALLOC;
	r.bytes = r.size[0] = 0x7000000000000000ull;
	r.count = 1;
	r.line = 7;
	add_frame_at(&r, "com.apple.AGXG13X", 0xfffffff009140000ULL, "AGX::grow()", 0x10);
	assert_int_equal(diff_track_add_record(&d, 1, &r, "a", &err), 0);
	assert_int_equal(diff_track_add_record(&d, 0, &r, "b", &err), 0);   /* other side: fine */
	assert_int_equal(diff_track_add_record(&d, 1, &r, "a", &err), -1);
	assert_int_equal(err.code, DIAG_DATA);
	assert_int_equal(err.line, 7);
	assert_string_equal(err.msg, "byte counts of the capture add up past 2^63");
	assert_true(d.total[1] == 0x7000000000000000ull);
	track_record_release(&r);
	diff_track_release(&d);
}

/* ---- classes -------------------------------------------------------------- */

static void
test_classes_rows(void **state)
{
	(void)state;
	struct classes_capture cb, ca;
	struct diff_classes d;
	struct diag err;
	int64_t x, y;
	classes_capture_init(&cb);
	classes_capture_init(&ca);
	struct classes_snapshot *b = classes_capture_add(&cb, CLASSES_SRC_IOREG_TEXT, 1);
	struct classes_snapshot *a = classes_capture_add(&ca, CLASSES_SRC_IOREG_TEXT, 1);
	classes_snapshot_add(b, "OSDictionary", 12, 100, CLASS_COUNT_OK, 1);
	classes_snapshot_add(b, "IOSurface", 9, 7, CLASS_COUNT_OK, 1);
	classes_snapshot_add(b, "zGone", 5, 2, CLASS_COUNT_OK, 1);
	classes_snapshot_add(b, "Broken", 6, 0, CLASS_COUNT_UNREADABLE, 1);
	classes_snapshot_add(a, "OSDictionary", 12, 100, CLASS_COUNT_OK, 1);
	classes_snapshot_add(a, "IOSurface", 9, 12, CLASS_COUNT_OK, 1);
	classes_snapshot_add(a, "anew", 4, 2, CLASS_COUNT_OK, 1);
	b->alloc[ALLOC_INSTANCE] = 1000;
	b->alloc_present[ALLOC_INSTANCE] = true;
	a->alloc[ALLOC_INSTANCE] = 3000;
	a->alloc_present[ALLOC_INSTANCE] = true;
	diff_classes_compute(&d, b, a, false);

	assert_int_equal(d.nrows, 4);
	assert_string_equal(d.rows[0].name, "IOSurface");
	assert_int_equal(d.rows[0].delta, 5);
	/* |delta| 2 twice: ioclasscount's case-insensitive order. */
	assert_string_equal(d.rows[1].name, "anew");
	assert_false(d.rows[1].in_before);
	assert_string_equal(d.rows[2].name, "zGone");
	assert_false(d.rows[2].in_after);
	assert_string_equal(d.rows[3].name, "OSDictionary");
	assert_false(diff_classes_row_changed(&d.rows[3]));

	assert_int_equal(diff_classes_metric(&d, "classes", "IOSurface", &x, &y, &err), 0);
	assert_int_equal(y - x, 5);
	assert_int_equal(diff_classes_metric(&d, "classes", "Broken", &x, &y, &err), -1);
	assert_int_equal(err.code, DIAG_DATA);
	assert_int_equal(diff_classes_metric(&d, "alloc", "instance", &x, &y, &err), 0);
	assert_int_equal(y - x, 2000);
	assert_int_equal(diff_classes_metric(&d, "alloc", "pageable", &x, &y, &err), -1);
	assert_int_equal(err.code, DIAG_DATA);
	assert_int_equal(diff_classes_metric(&d, "alloc", "wired", &x, &y, &err), -1);
	assert_int_equal(err.code, DIAG_USAGE);
	diff_classes_release(&d);

	/* AFTER holding only some classes says nothing of the others. */
	a->query = true;
	diff_classes_compute(&d, b, a, false);
	assert_int_equal(d.nrows, 3);
	diff_classes_release(&d);
	classes_capture_release(&cb);
	classes_capture_release(&ca);
}

/* ---- choosing a capture of a file, sides of a pair ----------------------- */

static void
test_pick_nth(void **state)
{
	(void)state;
	struct diag err;
	size_t i = 99;
	assert_int_equal(capture_pick_nth(3, 0, "--dump", "dump", "f", &i, &err), 0);
	assert_int_equal(i, 0);
	assert_int_equal(capture_pick_nth(3, 3, "--dump", "dump", "f", &i, &err), 0);
	assert_int_equal(i, 2);
	assert_int_equal(capture_pick_nth(3, 4, "--dump", "dump", "f", &i, &err), -1);
	assert_int_equal(err.code, DIAG_USAGE);
	assert_string_equal(err.msg, "--dump 4 asked for, but the input holds 3 dumps");
	assert_int_equal(capture_pick_nth(1, 2, "--snapshot", "snapshot", "f", &i, &err), -1);
	assert_string_equal(err.msg, "--snapshot 2 asked for, but the input holds 1 snapshot");
	assert_int_equal(capture_pick_nth(0, 0, "--dump", "dump", "f", &i, &err), -1);
	assert_int_equal(err.code, DIAG_DATA);
	assert_string_equal(err.msg, "holds no dump");
	assert_int_equal(capture_pick_nth(SIZE_MAX, UINT64_MAX, "--dump", "dump", "f", &i,
					  &err), SIZE_MAX >= UINT64_MAX ? 0 : -1);
}

static void
test_vmmap_side_pick(void **state)
{
	(void)state;
	struct diff_vmmap_side s;
	struct diff_options opts = { 0 };
	struct diag_list notes;
	struct diag err;
	diag_list_init(&notes, 10);
	diff_vmmap_side_init(&s);
	assert_int_equal(diff_vmmap_side_pick(&s, "x", &opts, &notes, &err), -1);
	assert_int_equal(err.code, DIAG_DATA);
	struct vmmap_dump *d1 = vmmap_capture_new_dump(&s.cap, 1);
	struct vmmap_dump *d2 = vmmap_capture_new_dump(&s.cap, 50);
	assert_int_equal(diff_vmmap_side_pick(&s, "x", &opts, &notes, &err), 0);
	assert_ptr_equal(s.dump, d1);
	assert_int_equal(notes.len, 1);   /* two dumps: says which one is compared */
	opts.has_dump = true;
	opts.dump = 2;
	assert_int_equal(diff_vmmap_side_pick(&s, "x", &opts, &notes, &err), 0);
	assert_ptr_equal(s.dump, d2);
	opts.dump = 3;
	assert_int_equal(diff_vmmap_side_pick(&s, "x", &opts, &notes, &err), -1);
	assert_int_equal(err.code, DIAG_USAGE);
	diff_vmmap_side_release(&s);
	diag_list_release(&notes);
}

/*
 * A <- B <- C (B a subclass of A, C of B). A direct count is the count
 * minus the number of direct subclasses with instances (hierarchy.h).
 */
static void
chain_side(struct diff_classes_side *s, int64_t a, int64_t b, int64_t c, bool hier)
{
	diff_classes_side_init(s);
	struct classes_snapshot *snap = classes_capture_add(&s->cap, CLASSES_SRC_IOREG_TEXT, 1);
	classes_snapshot_add(snap, "A", 1, a, CLASS_COUNT_OK, 1);
	classes_snapshot_add(snap, "B", 1, b, CLASS_COUNT_OK, 1);
	classes_snapshot_add(snap, "C", 1, c, CLASS_COUNT_OK, 1);
	if (hier) {
		size_t ia = hierarchy_intern(&s->hier, "A", 1);
		size_t ib = hierarchy_intern(&s->hier, "B", 1);
		size_t ic = hierarchy_intern(&s->hier, "C", 1);
		assert_int_equal(hierarchy_set_super(&s->hier, ib, ia), 0);
		assert_int_equal(hierarchy_set_super(&s->hier, ic, ib), 0);
	}
}

static void
test_classes_pair_direct(void **state)
{
	(void)state;
	struct diff_classes_pair p;
	struct diff_options opts = { .direct = true };
	struct diag_list notes;
	struct diag err;
	int64_t x, y;
	diag_list_init(&notes, 10);

	/* Only AFTER records the hierarchy: it serves both sides. */
	diff_classes_pair_init(&p);
	diff_classes_side_release(&p.before);
	diff_classes_side_release(&p.after);
	chain_side(&p.before, 10, 4, 1, false);
	chain_side(&p.after, 13, 4, 1, true);
	assert_int_equal(diff_classes_pair_compare(&p, "b", "a", &opts, &notes, &err), 0);
	assert_int_equal(diff_classes_metric(&p.diff, "classes", "A", &x, &y, &err), 0);
	assert_int_equal(x, 9);    /* 10 - 1 (B has instances) */
	assert_int_equal(y, 12);   /* 13 - 1 */
	assert_int_equal(diff_classes_metric(&p.diff, "classes", "B", &x, &y, &err), 0);
	assert_int_equal(x, 3);
	assert_int_equal(y, 3);
	diff_classes_pair_release(&p);

	/* Neither side records one: a data error naming the input. */
	diff_classes_pair_init(&p);
	diff_classes_side_release(&p.before);
	diff_classes_side_release(&p.after);
	chain_side(&p.before, 10, 4, 1, false);
	chain_side(&p.after, 13, 4, 1, false);
	assert_int_equal(diff_classes_pair_compare(&p, "b", "a", &opts, &notes, &err), -1);
	assert_int_equal(err.code, DIAG_DATA);
	assert_string_equal(diag_path(&err), "b");
	diff_classes_pair_release(&p);
	diag_list_release(&notes);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vmmap_rows_buckets_metrics),
		cmocka_unit_test(test_vmmap_movement),
		cmocka_unit_test(test_vmmap_movement_by_address),
		cmocka_unit_test(test_vmmap_movement_by_address_unsorted),
		cmocka_unit_test(test_vmmap_selection),
		cmocka_unit_test(test_track_sites),
		cmocka_unit_test(test_track_sum_overflow),
		cmocka_unit_test(test_track_figures_per_side),
		cmocka_unit_test(test_track_narrow_and_wide_sites),
		cmocka_unit_test(test_classes_rows),
		cmocka_unit_test(test_pick_nth),
		cmocka_unit_test(test_vmmap_side_pick),
		cmocka_unit_test(test_classes_pair_direct),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
