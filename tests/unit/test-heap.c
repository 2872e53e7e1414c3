/*
 * The heap kind's reader and model: a row split from its end (class names
 * with spaces and <...>, TYPE and BINARY present or not), -H sizes, rows of
 * one key summed, checked sums, the figures gates read and a pair.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ingest/detect.h"
#include "ingest/heap_read.h"
#include "model/heap.h"

#define HEADER "   COUNT      BYTES       AVG   CLASS_NAME    TYPE    BINARY\n" \
	       "   =====      =====       ===   ==========    ====    ======\n"

static int
read_text(const char *text, struct heap_capture *cap, struct diag_list *w, struct diag *err)
{
	struct line_reader r;
	line_reader_from_memory(&r, text, strlen(text), "t", 0);
	heap_capture_init(cap);
	diag_list_init(w, 20);
	diag_clear(err);
	int rc = heap_read(&r, cap, w, err);
	line_reader_close(&r);
	return rc;
}

static const struct heap_row *
row_named(const struct heap_capture *cap, const char *name)
{
	for (size_t i = 0; i < cap->nrows; i++)
		if (strcmp(cap->rows[i].name, name) == 0)
			return &cap->rows[i];
	return NULL;
}

static void
test_row_split(void **state)
{
	(void)state;
	struct heap_capture cap;
	struct diag_list w;
	struct diag err;
	assert_int_equal(read_text(HEADER
		"  10  1280  128.0  CFString  ObjC  CoreFoundation\n"
		"   2   512  256.0  CGImage Cache Entry  C\n"
		"   3   300  100.0  non-object\n"
		"   1    64   64.0  Swift._ContiguousArrayStorage<Foo.Bar Baz>  Swift  libswiftCore.dylib\n",
		&cap, &w, &err), 0);
	assert_int_equal(cap.nrows, 4);
	const struct heap_row *r = row_named(&cap, "CFString");
	assert_non_null(r);
	assert_string_equal(r->type, "ObjC");
	assert_string_equal(r->binary, "CoreFoundation");
	assert_int_equal(r->count, 10);
	assert_int_equal(r->bytes, 1280);
	r = row_named(&cap, "CGImage Cache Entry");
	assert_non_null(r);
	assert_string_equal(r->type, "C");
	assert_string_equal(r->binary, "");
	r = row_named(&cap, "non-object");
	assert_non_null(r);
	assert_string_equal(r->type, "");
	r = row_named(&cap, "Swift._ContiguousArrayStorage<Foo.Bar Baz>");
	assert_non_null(r);
	assert_string_equal(r->binary, "libswiftCore.dylib");
	/* No All zones line: the totals are the rows' sums. */
	assert_false(cap.has_all);
	assert_int_equal(heap_total_figure(&cap, HEAP_COUNT), 16);
	assert_int_equal(heap_total_figure(&cap, HEAP_BYTES), 2156);
	assert_false(cap.partial);
	assert_false(cap.rounded);
	heap_capture_release(&cap);
	diag_list_release(&w);
}

static void
test_human_and_zones(void **state)
{
	(void)state;
	struct heap_capture cap;
	struct diag_list w;
	struct diag err;
	assert_int_equal(read_text(
		"All zones: 5 nodes (1.5K bytes)\n"
		"Zone A_0x1: Overall size: 8KB; 3 nodes malloced for 1KB (10% of capacity)\n"
		HEADER "   3   1K  341  CFString  ObjC  CoreFoundation\n"
		"Zone B_0x2: Overall size: 8KB; 2 nodes malloced for 1KB (10% of capacity)\n"
		HEADER "   2  512  256  CFString  ObjC  CoreFoundation\n", &cap, &w, &err), 0);
	assert_true(cap.rounded);
	assert_int_equal(cap.ntables, 2);
	assert_int_equal(cap.nzones, 2);
	assert_int_equal(cap.zones[0].malloced, 1024);
	assert_int_equal(cap.all_bytes, 1536);
	/* One key in two zones' tables: one row. */
	assert_int_equal(cap.nrows, 1);
	assert_int_equal(cap.rows[0].count, 5);
	assert_int_equal(cap.rows[0].bytes, 1536);
	heap_capture_release(&cap);
	diag_list_release(&w);
}

static void
test_errors(void **state)
{
	(void)state;
	struct heap_capture cap;
	struct diag_list w;
	struct diag err;
	/* Each row fits, their sum does not: refused at the second row's line. */
	assert_int_equal(read_text(HEADER "1 9223372036854775807 1.0 a\n1 1 1.0 b\n", &cap, &w,
				   &err), -1);
	assert_int_equal(err.code, DIAG_DATA);
	assert_int_equal(err.line, 4);
	heap_capture_release(&cap);
	diag_list_release(&w);
	/* A line in a table that is no row: a warning with its line, the table partial. */
	assert_int_equal(read_text(HEADER "1 2\n2 256 128.0 CFString\n", &cap, &w, &err), 0);
	assert_true(cap.partial);
	assert_int_equal(cap.nrows, 1);
	assert_int_equal(w.len, 1);
	heap_capture_release(&cap);
	diag_list_release(&w);
	/* No table, no All zones line: no heap report. */
	assert_int_equal(read_text("Process: x [1]\nPath: /x\n", &cap, &w, &err), -1);
	assert_int_equal(err.code, DIAG_DATA);
	heap_capture_release(&cap);
	diag_list_release(&w);
}

static void
test_recognise(void **state)
{
	(void)state;
	const char *h = "Process: x [1]\nAnalysis Tool: /usr/bin/heap\n";
	const char *l = "Process: x [1]\nAnalysis Tool: /usr/bin/leaks\n";
	assert_true(heap_recognise(h, strlen(h)));
	assert_false(heap_recognise(l, strlen(l)));
	assert_int_equal(input_detect(h, strlen(h)), INPUT_HEAP);
	assert_int_equal(input_detect(l, strlen(l)), INPUT_TOOL_REPORT);
	assert_int_equal(input_detect(HEADER, strlen(HEADER)), INPUT_HEAP);
}

static void
test_metrics_and_pair(void **state)
{
	(void)state;
	struct heap_capture b, a;
	struct diag_list w;
	struct diag err;
	const char *cls;
	size_t clen;
	enum heap_figure fig;
	bool total, found;
	assert_int_equal(heap_metric_parse("CFString.count", &cls, &clen, &fig, &total), 0);
	assert_int_equal(clen, 8);
	assert_int_equal(fig, HEAP_COUNT);
	assert_false(total);
	assert_int_equal(heap_metric_parse("a.b.bytes", &cls, &clen, &fig, &total), 0);
	assert_int_equal(clen, 3);
	assert_int_equal(heap_metric_parse("bytes", &cls, &clen, &fig, &total), 0);
	assert_true(total);
	assert_int_equal(heap_metric_parse("CFString", &cls, &clen, &fig, &total), -1);
	assert_int_equal(heap_metric_parse("CFString.size", &cls, &clen, &fig, &total), -1);

	assert_int_equal(read_text(HEADER "2 256 128 S ObjC CF\n1 10 10 S C\n4 40 10 T\n", &b, &w,
				   &err), 0);
	diag_list_release(&w);
	assert_int_equal(read_text(HEADER "3 384 128 S ObjC CF\n1 10 10 S C\n5 50 10 U\n", &a, &w,
				   &err), 0);
	diag_list_release(&w);
	/* Every row of a class name, whatever its type and binary. */
	assert_int_equal(heap_class_figure(&b, "S", 1, HEAP_COUNT, &found), 3);
	assert_true(found);
	heap_class_figure(&a, "T", 1, HEAP_COUNT, &found);
	assert_false(found);
	struct heap_diff d;
	heap_diff_compare(&d, &b, &a);
	assert_int_equal(d.nrows, 4);
	assert_int_equal(d.nchanged, 3);
	assert_true(heap_diff_changed(&d));
	/* The largest change in bytes first: U +50, T -40, S/ObjC +128 ... */
	assert_string_equal(d.rows[0].name, "S");
	assert_int_equal(d.rows[0].after_bytes - d.rows[0].before_bytes, 128);
	assert_string_equal(d.rows[1].name, "U");
	assert_false(d.rows[1].in_before);
	assert_string_equal(d.rows[2].name, "T");
	assert_false(d.rows[2].in_after);
	heap_diff_release(&d);
	heap_capture_release(&b);
	heap_capture_release(&a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_row_split),
		cmocka_unit_test(test_human_and_zones),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_recognise),
		cmocka_unit_test(test_metrics_and_pair),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
