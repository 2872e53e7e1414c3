#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ingest/track_command.h"
#include "ingest/track_read.h"
#include "util/array.h"

static void
assert_view(const char *p, size_t n, const char *want)
{
	assert_int_equal(n, strlen(want));
	assert_memory_equal(p, want, n);
}

static int
frame(const char *line, struct track_frame_view *f, const char **why)
{
	return track_parse_frame_line(line, strlen(line), f, why);
}

static void
test_frame_plain(void **state)
{
	(void)state;
	struct track_frame_view f;
	const char *why = NULL;
	assert_int_equal(frame(" 0 kernel.development                      0xfffffff0076f1a2c "
			       "OSData::initWithCapacity(unsigned int) + 0x54", &f, &why), 0);
	assert_int_equal(f.index, 0);
	assert_view(f.module, f.module_len, "kernel.development");
	assert_true(f.address == 0xfffffff0076f1a2cULL);
	assert_view(f.symbol, f.symbol_len, "OSData::initWithCapacity(unsigned int)");
	assert_true(f.has_offset);
	assert_int_equal(f.offset, 0x54);
	assert_false(f.has_source);
}

static void
test_frame_module_overflow_and_source_with_parens(void **state)
{
	(void)state;
	struct track_frame_view f;
	const char *why = NULL;
	assert_int_equal(frame("12 com.example.driver.VeryLongVendorNameAudioFamily    0xfffffff009601234 "
			       "VendorAudio::allocRing(std::pair<unsigned int, unsigned int>, bool) + 0x40 "
			       "(/Users/dev/src/Vendor Audio (2024)/Ring.cpp:77)", &f, &why), 0);
	assert_int_equal(f.index, 12);
	assert_view(f.module, f.module_len, "com.example.driver.VeryLongVendorNameAudioFamily");
	assert_view(f.symbol, f.symbol_len,
		    "VendorAudio::allocRing(std::pair<unsigned int, unsigned int>, bool)");
	assert_int_equal(f.offset, 0x40);
	assert_true(f.has_source);
	assert_view(f.source, f.source_len, "/Users/dev/src/Vendor Audio (2024)/Ring.cpp:77");
}

static void
test_frame_operator_plus_and_no_offset(void **state)
{
	(void)state;
	struct track_frame_view f;
	const char *why = NULL;
	assert_int_equal(frame(" 1 com.apple.iokit.IOSurface               0xfffffff008a0c000 "
			       "IOSurfaceRoot::operator+(IOSurfaceRoot const&, int) const + 0x20", &f, &why), 0);
	assert_view(f.symbol, f.symbol_len, "IOSurfaceRoot::operator+(IOSurfaceRoot const&, int) const");
	assert_int_equal(f.offset, 0x20);

	/* gMetaClass: no offset; a source may follow a symbol without offset. */
	assert_int_equal(frame(" 3 kernel.development                      0xfffffff007e2c0a0 "
			       "OSData::gMetaClass", &f, &why), 0);
	assert_false(f.has_offset);
	assert_view(f.symbol, f.symbol_len, "OSData::gMetaClass");
	assert_int_equal(frame(" 3 k                                       0xfffffff007e2c0a0 "
			       "foo<void (*)(int)>() (x.cpp:3)", &f, &why), 0);
	assert_false(f.has_offset);
	assert_view(f.symbol, f.symbol_len, "foo<void (*)(int)>()");
	assert_view(f.source, f.source_len, "x.cpp:3");
}

/*
 * A symbol part of only digits and ')' has no ':' before the digits; the
 * source scan must stop at its first byte. It once indexed one byte before
 * it (an unsigned wrap that clang's UndefinedBehaviorSanitizer reports as a
 * pointer overflow; the result was the same, so only that build sees it).
 */
static void
test_frame_digits_and_paren_only(void **state)
{
	(void)state;
	static const char *const lines[] = {
		" 0 kernel.development                      0xfffffff00a6079a2 1234)",
		" 0 kernel.development                      0xfffffff00a6079a2 12345678)",
		" 0 kernel.development                      0xfffffff00a6079a2 :1234)",
	};
	for (size_t i = 0; i < ARRAY_SIZE(lines); i++) {
		size_t n = strlen(lines[i]);
		char *copy = test_malloc(n);
		memcpy(copy, lines[i], n);
		struct track_frame_view f;
		const char *why = NULL;
		assert_int_equal(track_parse_frame_line(copy, n, &f, &why), 0);
		assert_false(f.has_source);
		const char *sym = strrchr(lines[i], ' ') + 1;
		assert_view(f.symbol, f.symbol_len, sym);
		test_free(copy);
	}
}

static void
test_frame_old_layout_and_empty_symbol(void **state)
{
	(void)state;
	struct track_frame_view f;
	const char *why = NULL;
	/* IOKitTools-97: 24-wide module, six spaces, unpadded address, empty symbol. */
	assert_int_equal(frame(" 2 __kernel__                    0xffffff8000640000 ", &f, &why), 0);
	assert_view(f.module, f.module_len, "__kernel__");
	assert_true(f.address == 0xffffff8000640000ULL);
	assert_int_equal(f.symbol_len, 0);
	/* %#018llx of zero prints eighteen zeros and no 0x. */
	assert_int_equal(frame(" 4 (null)                                  000000000000000000 kernel",
			       &f, &why), 0);
	assert_true(f.zero_address);
	assert_int_equal(f.address, 0);
}

static void
test_frame_malformed(void **state)
{
	(void)state;
	struct track_frame_view f;
	const char *why = NULL;
	assert_int_equal(frame("garbage line", &f, &why), -1);
	assert_string_equal(why, "expected a frame number");
	assert_int_equal(frame(" 0 kernel.development   no address here", &f, &why), -1);
	assert_string_equal(why, "no '0x...' frame address");
	assert_int_equal(frame(" 0 k    0x1ffffffffffffffff sym + 0x1", &f, &why), -1);
	assert_string_equal(why, "a hexadecimal number does not fit in 64 bits");
	assert_int_equal(frame(" 0 k    0xfff sym + 0x1ffffffffffffffff", &f, &why), -1);
}

static void
test_alloc_headers(void **state)
{
	(void)state;
	struct track_header_view h;
	const char *why;
	const char *l = "0x3c000 bytes (0x2a000 + 0x12000), 1344 calls [0]";
	assert_int_equal(track_parse_record_header(l, strlen(l), &h, &why), 1);
	assert_false(h.map);
	assert_false(h.layout97);
	assert_int_equal(h.bytes, 0x3c000);
	assert_int_equal(h.size[0], 0x2a000);
	assert_int_equal(h.size[1], 0x12000);
	assert_int_equal(h.count, 1344);
	assert_int_equal(h.index, 0);
	l = "0x100 bytes (0x100 + 0x0), 1 call, [17]";
	assert_int_equal(track_parse_record_header(l, strlen(l), &h, &why), 1);
	assert_true(h.layout97);
	assert_int_equal(h.index, 17);
	l = "0x100 bytes (0x100 + 0x0), -5 calls [2]";
	assert_int_equal(track_parse_record_header(l, strlen(l), &h, &why), 1);
	assert_int_equal(h.count, -5);
	l = "0xffffffffffffffffff bytes (0x1 + 0x0), 1 call [0]";
	assert_int_equal(track_parse_record_header(l, strlen(l), &h, &why), -1);
	l = "0x100 bytes (0x100 + 0x0), 1 call";
	assert_int_equal(track_parse_record_header(l, strlen(l), &h, &why), -1);
	l = "0x100 is not a header";
	assert_int_equal(track_parse_record_header(l, strlen(l), &h, &why), 0);
}

static void
test_map_headers(void **state)
{
	(void)state;
	struct track_header_view h;
	const char *why;
	const char *l = "[0x300000000, 0x200000] Google Chrome Helper (GPU)(812) [1]";
	assert_int_equal(track_parse_record_header(l, strlen(l), &h, &why), 1);
	assert_true(h.map);
	assert_true(h.address == 0x300000000ULL);
	assert_int_equal(h.bytes, 0x200000);
	assert_view(h.process, h.process_len, "Google Chrome Helper (GPU)");
	assert_int_equal(h.pid, 812);
	assert_int_equal(h.index, 1);
	l = "[0x10000000, 0x4000] (97) [2]";
	assert_int_equal(track_parse_record_header(l, strlen(l), &h, &why), 1);
	assert_int_equal(h.process_len, 0);
	assert_int_equal(h.pid, 97);
	l = "[0x10000000, 0x4000] WindowServer [2]";
	assert_int_equal(track_parse_record_header(l, strlen(l), &h, &why), -1);
}

static int
parse_text(const char *text, struct track_capture *cap, struct diag_list *w)
{
	struct line_reader r;
	struct diag err;
	struct track_parse_opts opts = { .report_unparsed = 5 };
	line_reader_from_memory(&r, text, strlen(text), "mem", 0);
	int rc = track_parse(&r, cap, &opts, w, &err);
	line_reader_close(&r);
	return rc;
}

static void
test_whole_capture(void **state)
{
	(void)state;
	struct track_capture cap;
	struct diag_list w;
	track_capture_init(&cap);
	diag_list_init(&w, 20);
	cap.keep_records = true;
	const char *text =
		"kernel memory allocations ('ioclasscount --leaks')\n"
		"--------------------------------------------------\n"
		"\n"
		"0x2000 bytes (0x2000 + 0x0), 2 calls [0]\n"
		" 0 kernel.development                      0xfffffff0076f1a2c f() + 0x4\n"
		" 1 kernel.development                      0x0000000100000000 main + 0x8\n"
		"<exited process(77)>\n"
		"\n"
		"0x2000 bytes total\n"
		"No binary images\n";
	assert_int_equal(parse_text(text, &cap, &w), 0);
	assert_int_equal(cap.kind, TRACK_KIND_LEAKS);
	assert_int_equal(cap.layout, TRACK_LAYOUT_108);
	assert_int_equal(cap.nrecords, 1);
	assert_int_equal(track_listing_count(&cap.listing), 1);
	assert_true(cap.has_total);
	assert_true(cap.has_images_section);
	assert_int_equal(cap.nimages, 0);
	struct track_record rec;
	struct diag rerr;
	track_record_init(&rec);
	assert_int_equal(track_listing_read(&cap.listing, 0, &rec, &rerr), 0);
	const struct track_record *r = &rec;
	/* The figures of the text above: 0x2000 + 0x0 bytes, 2 calls, [0], 2 frames. */
	assert_int_equal(r->bytes, 0x2000);
	assert_int_equal(r->size[0], 0x2000);
	assert_int_equal(r->size[1], 0);
	assert_int_equal(r->count, 2);
	assert_int_equal(r->index, 0);
	assert_int_equal(r->nframes, 2);
	assert_int_equal(r->line, 4);
	assert_int_equal(cap.total, 0x2000);
	assert_true(r->has_trailer);
	assert_true(r->trailer_exited);
	assert_int_equal(r->trailer_pid, 77);
	assert_int_equal(r->trailer_at, 2);
	assert_true(track_frame_is_user(r, &r->frames[1]));
	assert_false(track_frame_is_user(r, &r->frames[0]));
	assert_int_equal(w.len, 0);
	assert_false(cap.partial);
	diag_list_release(&w);
	track_record_release(&rec);
	track_capture_release(&cap);
}

static void
command(struct track_capture *cap, const char *text)
{
	track_command_read(cap, text, strlen(text));
	assert_string_equal(cap->command, text);
}

/* The header's argv, read as ioclasscount reads its own. */
static void
test_command_line(void **state)
{
	(void)state;
	struct track_capture cap;
	track_capture_init(&cap);
	command(&cap, "ioclasscount --track IOWire");
	assert_int_equal(cap.kind, TRACK_KIND_TRACK);
	assert_false(cap.site_filtered);
	assert_string_equal(cap.queue, "IOWire");
	/* The last kind wins; --site hides records from the printed listing. */
	command(&cap, "ioclasscount --track --maps=-1 --leaks --site=x");
	assert_int_equal(cap.kind, TRACK_KIND_LEAKS);
	assert_true(cap.site_filtered);
	assert_null(cap.queue);
	command(&cap, "ioclasscount  --maps=-1  --ignore=y ");
	assert_int_equal(cap.kind, TRACK_KIND_MAPS);
	assert_true(cap.site_filtered);
	/* Two queues, or --exclude: no single queue. */
	command(&cap, "ioclasscount --track IOWire IOMalloc");
	assert_null(cap.queue);
	command(&cap, "ioclasscount --track --exclude IOWire");
	assert_null(cap.queue);
	command(&cap, "");
	assert_int_equal(cap.kind, TRACK_KIND_UNKNOWN);
	assert_null(cap.queue);
	/* Only the n bytes given are read. */
	track_command_read(&cap, "ioclasscount --leaks IOWireXYZ", 27);
	assert_string_equal(cap.queue, "IOWire");
	assert_int_equal(cap.kind, TRACK_KIND_LEAKS);
	track_capture_release(&cap);
}

static void
test_not_a_capture(void **state)
{
	(void)state;
	struct track_capture cap;
	struct diag_list w;
	track_capture_init(&cap);
	diag_list_init(&w, 20);
	struct line_reader r;
	struct diag err;
	struct track_parse_opts opts = { .report_unparsed = 5 };
	static const char text[] = "Process: Finder [1]\nhello\n";
	line_reader_from_memory(&r, text, sizeof(text) - 1, "mem", 0);
	assert_int_equal(track_parse(&r, &cap, &opts, &w, &err), -1);
	line_reader_close(&r);
	/* Refused as data that is no capture, not cut short and not half read. */
	assert_int_equal(err.code, DIAG_DATA);
	assert_non_null(strstr(err.msg, "no ioclasscount tracking capture found"));
	assert_int_equal(cap.nrecords, 0);
	track_capture_release(&cap);
	track_capture_init(&cap);
	/* An empty capture is what ioclasscount prints when nothing matched. */
	assert_int_equal(parse_text("", &cap, &w), 0);
	assert_int_equal(cap.nrecords, 0);
	diag_list_release(&w);
	track_capture_release(&cap);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frame_plain),
		cmocka_unit_test(test_command_line),
		cmocka_unit_test(test_frame_module_overflow_and_source_with_parens),
		cmocka_unit_test(test_frame_operator_plus_and_no_offset),
		cmocka_unit_test(test_frame_old_layout_and_empty_symbol),
		cmocka_unit_test(test_frame_digits_and_paren_only),
		cmocka_unit_test(test_frame_malformed),
		cmocka_unit_test(test_alloc_headers),
		cmocka_unit_test(test_map_headers),
		cmocka_unit_test(test_whole_capture),
		cmocka_unit_test(test_not_a_capture),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
