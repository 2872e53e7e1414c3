#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/suppress.h"
#include "model/track.h"

static void
add_frame(struct track_record *r, uint64_t index, const char *module, uint64_t address,
	  const char *symbol, uint64_t offset)
{
	struct track_text m = track_record_add_text(r, module, strlen(module));
	struct track_text s = track_record_add_text(r, symbol, strlen(symbol));
	struct track_frame *f = track_record_add_frame(r);
	f->index = index;
	f->module = m;
	f->address = address;
	f->symbol = s;
	f->offset = offset;
	f->has_offset = offset != 0;
}

/* An OSData record from IOSurface, or an IOMalloc record from AGX. */
static void
make_record(struct track_record *r, int which, uint64_t bytes, uint64_t index, uint64_t seq)
{
	track_record_reset(r);
	r->type = TRACK_RECORD_ALLOC;
	r->bytes = r->size[0] = bytes;
	r->count = 2;
	r->index = index;
	r->seq = seq;
	if (which == 0) {
		add_frame(r, 0, "kernel.development", 0xfffffff0076f1a2cULL, "OSData::withCapacity(unsigned int)", 0x44);
		add_frame(r, 1, "com.apple.iokit.IOSurface", 0xfffffff008a0b3c4ULL, "IOSurface::init()", 0x1f0);
		add_frame(r, 2, "kernel.development", 0xfffffff007e2c0a0ULL, "OSData::gMetaClass", 0);
	} else {
		add_frame(r, 0, "kernel.development", 0xfffffff0077a0010ULL, "IOMalloc_external(unsigned long)", 0x24);
		add_frame(r, 1, "com.apple.AGXG13X", 0xfffffff009140000ULL, "AGX::alloc()", 0x5c);
		add_frame(r, 2, "com.apple.iokit.IOSurface", 0xfffffff008a0b3c4ULL, "IOSurface::init()", 0x1f0);
	}
}

static void
test_format_layouts(void **state)
{
	(void)state;
	struct track_record r;
	struct strbuf out = STRBUF_INIT;
	track_record_init(&r);
	make_record(&r, 0, 0x1000, 3, 0);
	r.count = 1;
	track_record_format(&r, TRACK_LAYOUT_108, &out);
	assert_string_equal(out.buf,
		"0x1000 bytes (0x1000 + 0x0), 1 call [3]\n"
		" 0 kernel.development                      0xfffffff0076f1a2c OSData::withCapacity(unsigned int) + 0x44\n"
		" 1 com.apple.iokit.IOSurface               0xfffffff008a0b3c4 IOSurface::init() + 0x1f0\n"
		" 2 kernel.development                      0xfffffff007e2c0a0 OSData::gMetaClass\n");
	strbuf_reset(&out);
	track_record_format(&r, TRACK_LAYOUT_97, &out);
	/*
	 * IOKitTools-97 (formats/ioclasscount.md 4.5): ", [i]", frames
	 * "%2d %-24s      0x%llx " then "%s + 0x%llx"; a frame read without an
	 * offset (frame 2: a symbol alone) gets none invented.
	 */
	assert_string_equal(out.buf,
		"0x1000 bytes (0x1000 + 0x0), 1 call, [3]\n"
		" 0 kernel.development            0xfffffff0076f1a2c OSData::withCapacity(unsigned int) + 0x44\n"
		" 1 com.apple.iokit.IOSurface      0xfffffff008a0b3c4 IOSurface::init() + 0x1f0\n"
		" 2 kernel.development            0xfffffff007e2c0a0 OSData::gMetaClass\n");
	strbuf_release(&out);
	track_record_release(&r);
}

static void
test_category_and_frames(void **state)
{
	(void)state;
	struct track_capture cap;
	struct track_record r;
	size_t n;
	track_capture_init(&cap);
	track_record_init(&r);
	make_record(&r, 0, 0x1000, 0, 0);
	const char *c = track_record_category(&r, cap.queue, &n);
	assert_int_equal(n, 6);
	assert_memory_equal(c, "OSData", 6);
	assert_true(track_frame_is_kernel(&r, &r.frames[0]));
	assert_false(track_frame_is_kernel(&r, &r.frames[1]));
	make_record(&r, 1, 0x1000, 0, 0);
	c = track_record_category(&r, cap.queue, &n);
	assert_memory_equal(c, "IOMalloc", n);
	/* A command that names one queue decides for records without a class frame. */
	track_capture_set_command(&cap, "ioclasscount --track IOWire", 27, TRACK_KIND_TRACK,
				  false, "IOWire", 6);
	c = track_record_category(&r, cap.queue, &n);
	assert_int_equal(n, 6);
	assert_memory_equal(c, "IOWire", n);
	track_record_release(&r);
	track_capture_release(&cap);
}

static void
feed(struct track_capture *cap)
{
	struct track_record r;
	struct diag err;
	track_record_init(&r);
	make_record(&r, 0, 0x1000, 0, 0);
	assert_int_equal(track_capture_add_record(cap, &r, "t", &err), 0);
	make_record(&r, 1, 0x3000, 1, 1);
	assert_int_equal(track_capture_add_record(cap, &r, "t", &err), 0);
	make_record(&r, 0, 0x3000, 2, 2);
	assert_int_equal(track_capture_add_record(cap, &r, "t", &err), 0);
	track_record_release(&r);
}

static void
test_by_module_and_symbol(void **state)
{
	(void)state;
	struct track_capture cap;
	const struct track_group **g;
	track_capture_init(&cap);
	cap.by = TRACK_BY_MODULE;
	feed(&cap);
	size_t n = track_grouping_sorted(&cap.grouping, &g);
	assert_int_equal(n, 2);
	assert_string_equal(g[0]->name, "com.apple.iokit.IOSurface");
	assert_int_equal(g[0]->bytes, 0x4000);
	assert_int_equal(g[0]->records, 2);
	assert_string_equal(g[1]->name, "com.apple.AGXG13X");
	free(g);
	track_capture_release(&cap);

	track_capture_init(&cap);
	cap.by = TRACK_BY_SYMBOL;
	feed(&cap);
	n = track_grouping_sorted(&cap.grouping, &g);
	assert_int_equal(n, 4);   /* gMetaClass frames are not functions */
	assert_string_equal(g[0]->symbol, "OSData::withCapacity(unsigned int)");
	assert_int_equal(g[0]->self_bytes, 0x4000);
	/* IOSurface::init is in all three records, innermost in none. */
	assert_string_equal(g[2]->symbol, "IOSurface::init()");
	assert_int_equal(g[2]->self_bytes, 0);
	assert_int_equal(g[2]->bytes, 0x7000);
	free(g);
	track_capture_release(&cap);
}

static void
test_folded(void **state)
{
	(void)state;
	struct track_capture cap;
	const struct track_group **g;
	track_capture_init(&cap);
	cap.by = TRACK_BY_FOLDED;
	feed(&cap);
	size_t n = track_grouping_sorted(&cap.grouping, &g);
	assert_int_equal(n, 2);
	struct strbuf text = STRBUF_INIT;
	track_grouping_folded_text(&cap.grouping, g[0], &text);
	assert_string_equal(text.buf, "IOSurface::init();OSData::withCapacity(unsigned int)");
	assert_int_equal(g[0]->bytes, 0x4000);
	strbuf_reset(&text);
	track_grouping_folded_text(&cap.grouping, g[1], &text);
	assert_string_equal(text.buf, "IOSurface::init();AGX::alloc();IOMalloc_external(unsigned long)");
	/* Frame names are interned once: four distinct names for six frames. */
	assert_int_equal(cap.grouping.nframe_names, 4);
	strbuf_release(&text);
	free(g);
	track_capture_release(&cap);
}

static void
test_filters_and_top(void **state)
{
	(void)state;
	struct track_capture cap;
	track_capture_init(&cap);
	cap.keep_records = true;
	track_filter_add(&cap.filter.sites, &cap.filter.nsites, "IOSurface::init");
	track_filter_add(&cap.filter.ignores, &cap.filter.nignores, "AGX");
	cap.filter.min_bytes = 0x2000;
	feed(&cap);
	assert_int_equal(cap.nrecords, 3);
	assert_int_equal(cap.shown_records, 1);
	assert_int_equal(cap.listing.keys[0].index, 2);
	track_capture_release(&cap);

	track_capture_init(&cap);
	cap.keep_records = true;
	cap.filter.exclude = true;
	track_filter_add(&cap.filter.names, &cap.filter.nnames, "OSData");
	feed(&cap);
	assert_int_equal(cap.shown_records, 1);
	assert_int_equal(cap.listing.keys[0].index, 1);
	track_capture_release(&cap);

	track_capture_init(&cap);
	cap.keep_records = true;
	cap.top = 1;
	feed(&cap);
	track_capture_sort_kept(&cap);
	assert_int_equal(track_listing_count(&cap.listing), 1);
	assert_int_equal(cap.listing.keys[0].index, 1);   /* 0x3000 twice: the lower index first */
	track_capture_release(&cap);
}

static void
test_suppressions(void **state)
{
	(void)state;
	struct suppress_list s;
	struct diag err;
	suppress_list_init(&s);
	assert_int_equal(suppress_list_add_line(&s, "# comment", 9, "f", 1, &err), 0);
	assert_int_equal(suppress_list_add_line(&s, "   ", 3, "f", 2, &err), 0);
	assert_int_equal(suppress_list_add_line(&s, "AGX::alloc", 10, "f", 3, &err), 0);
	const char *re = "re:^ 1 com\\.apple\\.iokit\\.IOSurface +0x";
	assert_int_equal(suppress_list_add_line(&s, re, strlen(re), "f", 4, &err), 0);
	assert_int_equal(s.len, 2);
	assert_int_equal(suppress_list_add_line(&s, "re:(", 4, "f", 5, &err), -1);
	assert_int_equal(err.code, DIAG_DATA);
	assert_int_equal(err.line, 5);

	struct track_capture cap;
	track_capture_init(&cap);
	cap.suppress = &s;
	cap.keep_records = true;
	feed(&cap);
	assert_int_equal(cap.suppressed_records, 3);
	assert_int_equal(s.items[0].records, 1);
	assert_int_equal(s.items[1].records, 2);   /* ^ matches at each line of the record */
	assert_int_equal(cap.shown_records, 0);
	track_capture_release(&cap);
	suppress_list_release(&s);
}

/* Two records of 0x7000000000000000 bytes: their sum passes 2^63 - 1. */
static int
feed_huge(struct track_capture *cap, struct diag *err)
{
	struct track_record r;
	int rc;
	track_record_init(&r);
	make_record(&r, 0, 0x7000000000000000ull, 0, 0);
	assert_int_equal(track_capture_add_record(cap, &r, "t", err), 0);
	make_record(&r, 0, 0x7000000000000000ull, 1, 1);
	rc = track_capture_add_record(cap, &r, "t", err);
	track_record_release(&r);
	return rc;
}

static void
test_suppressed_sum_overflow(void **state)
{
	(void)state;
	struct suppress_list s;
	struct track_capture cap;
	struct diag err;
	suppress_list_init(&s);
	assert_int_equal(suppress_list_add_line(&s, "OSData", 6, "f", 1, &err), 0);
	track_capture_init(&cap);
	cap.suppress = &s;
	assert_int_equal(feed_huge(&cap, &err), -1);
	assert_int_equal(err.code, DIAG_DATA);
	assert_int_equal(err.line, 0);
	assert_string_equal(err.msg, "the sum of the suppressed records passes 2^63 bytes; "
			     "the capture is corrupt");
	/* The sum that was reported stays exact and within the JSON range. */
	assert_true(cap.suppressed_bytes == 0x7000000000000000ull);
	assert_true(s.items[0].bytes == 0x7000000000000000ull);
	track_capture_release(&cap);
	suppress_list_release(&s);
}

static void
test_shown_and_group_sum_overflow(void **state)
{
	(void)state;
	struct track_capture cap;
	struct diag err;
	track_capture_init(&cap);
	assert_int_equal(feed_huge(&cap, &err), -1);
	assert_string_equal(err.msg, "the sum of the shown records passes 2^63 bytes; "
			     "the capture is corrupt");
	track_capture_release(&cap);

	/* --by module: the shown sum bounds each group's sum, so it stops first
	 * and no group holds more than BYTES_MAX. */
	track_capture_init(&cap);
	cap.by = TRACK_BY_MODULE;
	cap.filter.min_bytes = 0;
	struct track_group *g;
	assert_int_equal(feed_huge(&cap, &err), -1);
	assert_int_equal(cap.grouping.ngroups, 1);
	g = &cap.grouping.groups[0];
	assert_true(g->bytes <= BYTES_MAX);
	track_capture_release(&cap);

	/* The sum of every record only feeds the total check: capped and flagged. */
	track_capture_init(&cap);
	cap.filter.min_bytes = 0x7000000000000001ull;   /* shows none */
	assert_int_equal(feed_huge(&cap, &err), 0);
	assert_true(cap.sum_overflow);
	assert_true(cap.records_sum == BYTES_MAX);
	track_capture_release(&cap);
}

static void
test_total_check(void **state)
{
	(void)state;
	struct track_capture cap;
	struct diag_list w;
	track_capture_init(&cap);
	diag_list_init(&w, 10);
	feed(&cap);
	cap.has_total = true;
	cap.total = 0x7000;
	track_capture_check_total(&cap, "t", &w);
	assert_int_equal(w.len, 0);
	cap.total = 0x6000;
	track_capture_check_total(&cap, "t", &w);
	assert_int_equal(w.len, 1);
	cap.total = 0x9000;
	cap.site_filtered = true;   /* 122+ --site: the total counts hidden records */
	track_capture_check_total(&cap, "t", &w);
	assert_int_equal(w.len, 1);
	cap.site_filtered = false;
	track_capture_check_total(&cap, "t", &w);
	assert_int_equal(w.len, 2);
	diag_list_release(&w);
	track_capture_release(&cap);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_layouts),
		cmocka_unit_test(test_category_and_frames),
		cmocka_unit_test(test_by_module_and_symbol),
		cmocka_unit_test(test_folded),
		cmocka_unit_test(test_filters_and_top),
		cmocka_unit_test(test_suppressions),
		cmocka_unit_test(test_total_check),
		cmocka_unit_test(test_suppressed_sum_overflow),
		cmocka_unit_test(test_shown_and_group_sum_overflow),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
