/*
 * libFuzzer harness: the heap report reader, its model (the checked sums,
 * the order, the figures gates read, a pair) and every writer.
 */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-scratch.h"
#include "ingest/heap_read.h"
#include "model/heap.h"
#include "model/report.h"
#include "model/report_heap.h"
#include "report/heap_write.h"
#include "report/ndjson.h"
#include "report/report_tables_write.h"
#include "util/linereader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The rows' sums are what heap_row_add() kept, and within 2^63 - 1. */
static void
check_capture(const struct heap_capture *cap)
{
	uint64_t count = 0, bytes = 0;
	for (size_t i = 0; i < cap->nrows; i++) {
		FUZZ_CHECK(!__builtin_add_overflow(count, cap->rows[i].count, &count));
		FUZZ_CHECK(!__builtin_add_overflow(bytes, cap->rows[i].bytes, &bytes));
	}
	FUZZ_CHECK(count == cap->sum_count && bytes == cap->sum_bytes);
	FUZZ_CHECK(count <= INT64_MAX && bytes <= INT64_MAX);
	size_t *order = heap_rows_ordered(cap);
	for (size_t i = 1; i < cap->nrows; i++)
		FUZZ_CHECK(cap->rows[order[i - 1]].bytes >= cap->rows[order[i]].bytes);
	free(order);
	for (size_t i = 0; i < cap->nrows && i < 4; i++) {
		bool found;
		const char *name = cap->rows[i].name;
		uint64_t c = heap_class_figure(cap, name, strlen(name), HEAP_COUNT, &found);
		FUZZ_CHECK(found && c >= cap->rows[i].count && c <= cap->sum_count);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct line_reader r;
	struct heap_capture cap;
	struct diag_list warnings;
	struct diag err;

	line_reader_from_memory(&r, data, size, "fuzz", 512);
	heap_capture_init(&cap);
	diag_list_init(&warnings, 50);
	if (heap_read(&r, &cap, &warnings, &err) == 0) {
		check_capture(&cap);
		FILE *out = fopen("/dev/null", "w");
		struct heap_write_opts o = { .top = size % 5, .markdown = size % 3 == 0,
					     .match = size % 2 ? "C" : NULL };
		struct heap_diff d;
		struct report rep;
		heap_diff_compare(&d, &cap, &cap);
		FUZZ_CHECK(!heap_diff_changed(&d) && d.nrows == cap.nrows);
		report_init(&rep, "heap", true);
		report_add_heap_diff(&rep, &d);
		if (out)
			report_tables_write(out, &rep, o.markdown);
		report_release(&rep);
		report_init(&rep, "heap", false);
		report_add_heap(&rep, &cap);
		report_release(&rep);
		if (out) {
			heap_text_write(out, &cap, &o);
			heap_json_write(out, &cap, "fuzz", &o);
			heap_ndjson_write(out, &cap, &(struct ndjson_source){ .path = "fuzz" }, &o);
			json_decref(heap_diff_json(&d));
			fclose(out);
		}
		heap_diff_release(&d);
	}
	diag_list_release(&warnings);
	heap_capture_release(&cap);
	line_reader_close(&r);
	return 0;
}
