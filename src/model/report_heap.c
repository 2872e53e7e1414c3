/*
 * The heap kind's report builder (model/report_heap.h). Every figure is
 * kept exact; the writers choose how to show it.
 */

#include "model/report_heap.h"

#include "model/summary.h"

#include "util/size.h"
#include "util/xalloc.h"

#include <stdlib.h>

#define SECTION_TITLE "Malloc heap by class"

/* The header lines a reader looks for first, in heap's own words (not its "Physical
 * footprint", a figure in vmmap's units, which text shows only in binary ones). */
static const char *const provenance_keys[] = {
	"Process", "Identifier", "Version", "Code Type", "OS Version", "Date/Time",
	"Analysis Tool",
};

static void
add_provenance(struct report *r, const struct heap_capture *b, const struct heap_capture *a)
{
	for (size_t i = 0; i < sizeof(provenance_keys) / sizeof(provenance_keys[0]); i++) {
		const char *va = heap_header_value(a, provenance_keys[i]);
		if (va)
			report_add_provenance_pair(r, provenance_keys[i],
						   b ? heap_header_value(b, provenance_keys[i]) : NULL,
						   va);
	}
}

static void
note_rounded(struct report_table *t, bool rounded, bool partial)
{
	t->rounded = rounded;
	if (rounded && partial)
		t->note = xstrdup("sizes as heap -H printed them, rounded; lines of a table were "
				  "not read: the rows are partial");
	else if (rounded)
		t->note = xstrdup("sizes as heap -H printed them, rounded");
	else if (partial)
		t->note = xstrdup("lines of a table were not read: the rows are partial");
}

void
report_add_heap(struct report *r, const struct heap_capture *cap)
{
	static const char *const tcols[] = { "figure", "value" };
	static const char *const cols[] = { "class", "type", "binary", "count", "bytes" };
	add_provenance(r, NULL, cap);
	uint64_t nodes = heap_total_figure(cap, HEAP_COUNT), bytes = heap_total_figure(cap, HEAP_BYTES);
	char b[32];
	size_format_binary(bytes, b);
	report_add_verdict(r, "malloc heap: %s%s in %llu nodes, %zu classes", cap->rounded ? "~" : "",
			   b, (unsigned long long)nodes, cap->nrows);
	if (cap->partial)
		report_add_warning(r, "the heap report is partial: lines of its table were not read");
	struct report_section *s = report_section(r, REPORT_SEC_HEAP, SECTION_TITLE);
	struct report_table *t = report_section_add_table(s, "heap-totals", "All zones (heap)",
							  2, tcols);
	if (report_table_row(t)) {
		report_table_code(t, "nodes");
		report_table_figure(t, REPORT_CELL_COUNT, report_i64(nodes));
	}
	if (report_table_row(t)) {
		report_table_code(t, "bytes");
		report_table_figure(t, REPORT_CELL_BYTES, report_i64(bytes));
	}
	t = report_section_add_table(s, "heap-classes", "Classes by bytes (heap)", 5, cols);
	size_t *order = heap_rows_ordered(cap);
	for (size_t i = 0; i < cap->nrows; i++) {
		const struct heap_row *row = &cap->rows[order[i]];
		if (!report_table_row(t))
			continue;
		report_table_code(t, row->name);
		report_table_text(t, row->type);
		report_table_text(t, row->binary);
		report_table_figure(t, REPORT_CELL_COUNT, report_i64(row->count));
		report_table_figure(t, REPORT_CELL_BYTES, report_i64(row->bytes));
	}
	free(order);
	note_rounded(t, cap->rounded, cap->partial);
}

void
report_add_heap_diff(struct report *r, const struct heap_diff *d)
{
	static const char *const tcols[] = { "figure", "before", "after", "delta" };
	static const char *const cols[] = { "class", "type", "binary", "count", "Δ count",
					    "bytes", "Δ bytes" };
	add_provenance(r, d->before, d->after);
	uint64_t bb = heap_total_figure(d->before, HEAP_BYTES), ab = heap_total_figure(d->after, HEAP_BYTES);
	uint64_t bn = heap_total_figure(d->before, HEAP_COUNT), an = heap_total_figure(d->after, HEAP_COUNT);
	char delta[32];
	size_format_binary_delta(report_delta(bb, ab), delta);
	report_add_verdict(r, "malloc heap %s, %+lld nodes; %zu classes changed", delta,
			   (long long)report_delta(bn, an), d->nchanged);
	if (d->before->partial || d->after->partial)
		report_add_warning(r, "a heap report is partial: lines of its table were not read");
	summary_note_heap_growth(&r->facts, d);
	struct report_section *s = report_section(r, REPORT_SEC_HEAP, SECTION_TITLE);
	struct report_table *t = report_section_add_table(s, "heap-totals", "All zones (heap)",
							  4, tcols);
	/* heap -H's totals are as rounded as its rows. */
	t->rounded = d->before->rounded || d->after->rounded;
	if (report_table_row(t)) {
		report_table_code(t, "nodes");
		report_table_figure(t, REPORT_CELL_COUNT, report_i64(bn));
		report_table_figure(t, REPORT_CELL_COUNT, report_i64(an));
		report_table_figure(t, REPORT_CELL_DCOUNT, report_delta(bn, an));
	}
	if (report_table_row(t)) {
		report_table_code(t, "bytes");
		report_table_figure(t, REPORT_CELL_BYTES, report_i64(bb));
		report_table_figure(t, REPORT_CELL_BYTES, report_i64(ab));
		report_table_figure(t, REPORT_CELL_DBYTES, report_delta(bb, ab));
	}
	t = report_section_add_table(s, "heap-classes", "Classes by change in bytes (heap)", 7, cols);
	for (size_t i = 0; i < d->nrows; i++) {
		const struct heap_diff_row *row = &d->rows[i];
		bool row_kept = report_table_row(t);
		if (!heap_diff_row_changed(row))
			report_table_unchanged(t);
		if (!row_kept)
			continue;
		report_table_code(t, row->name);
		report_table_text(t, row->type);
		report_table_text(t, row->binary);
		report_table_figure(t, REPORT_CELL_COUNT, report_i64(row->after_count));
		report_table_figure(t, REPORT_CELL_DCOUNT, report_delta(row->before_count, row->after_count));
		report_table_figure(t, REPORT_CELL_BYTES, report_i64(row->after_bytes));
		report_table_figure(t, REPORT_CELL_DBYTES, report_delta(row->before_bytes, row->after_bytes));
	}
	note_rounded(t, d->before->rounded || d->after->rounded,
		     d->before->partial || d->after->partial);
}
