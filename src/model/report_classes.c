#include "model/report_classes.h"

#include "util/size.h"
#include "util/strbuf.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* How many class changes the diverging chart shows. */
#define CLASS_CHART_ITEMS 30

struct report_section *
report_classes_section(struct report *r)
{
	return report_section(r, REPORT_SEC_CLASSES, "IOKit classes");
}

static void
add_provenance(struct report *r, const struct classes_snapshot *b,
	       const struct classes_snapshot *a)
{
	report_add_provenance_pair(r, "Capture", b ? classes_source_name(b->source) : NULL,
				   classes_source_name(a->source));
	if (a->query || (b && b->query))
		report_add_provenance(r, "Classes", "only the classes the capture names");
}

/* A warning of the report for each negative total of the snapshot. */
static void
warn_negative_allocs(struct report *r, const struct classes_snapshot *snap)
{
	for (int k = 0; k < ALLOC_KINDS; k++) {
		struct strbuf sb = STRBUF_INIT;
		if (classes_alloc_negative_message(snap, (enum alloc_kind)k, &sb))
			report_add_warning(r, "%s", sb.buf);
		strbuf_release(&sb);
	}
}

static void
add_alloc_single_titled(struct report_section *s, const struct classes_snapshot *snap,
			const char *title)
{
	static const char *const cols[] = { "allocation", "bytes" };
	struct report_table *t = NULL;
	for (int k = 0; k < ALLOC_KINDS; k++) {
		if (!snap->alloc_present[k])
			continue;
		if (!t)
			t = report_section_add_table(s, "alloc", title, 2, cols);
		report_table_row(t);
		report_table_text(t, alloc_kind_key((enum alloc_kind)k));
		report_table_figure(t, REPORT_CELL_BYTES, snap->alloc[k]);
	}
}

static void
add_alloc_single(struct report_section *s, const struct classes_snapshot *snap)
{
	add_alloc_single_titled(s, snap, "Allocation totals");
}

void
report_add_classes_totals_from(struct report *r, const struct classes_snapshot *snap,
			       const char *from)
{
	struct report_section *s = report_classes_section(r);
	struct strbuf title = STRBUF_INIT;
	strbuf_addf(&title, "Allocation totals (%s)", from);
	add_alloc_single_titled(s, snap, title.buf);
	strbuf_release(&title);
	warn_negative_allocs(r, snap);
}

void
report_add_classes(struct report *r, const struct classes_snapshot *snap,
		   const struct class_count **shown, size_t n)
{
	static const char *const cols[] = { "class", "instances" };
	add_provenance(r, NULL, snap);
	struct report_section *s = report_classes_section(r);
	uint64_t with = 0, unreadable = 0;
	int64_t instances = 0;
	for (size_t i = 0; i < snap->nclasses; i++) {
		const struct class_count *c = &snap->classes[i];
		if (c->state == CLASS_COUNT_UNREADABLE)
			unreadable++;
		if (!class_count_is_nonzero(c))
			continue;
		with++;
		if (!__builtin_add_overflow(instances, c->value, &instances))
			continue;
		instances = INT64_MAX;
	}
	report_section_add_paragraph(s, "%zu classes, %" PRIu64 " with instances, %" PRId64
				     " instances in all%s.", snap->nclasses, with, instances,
				     snap->truncated ? " (the capture is cut short: partial)" : "");
	if (unreadable)
		report_section_add_paragraph(s, "%" PRIu64 " counts could not be read.",
					     unreadable);
	report_add_verdict(r, "%" PRIu64 " IOKit classes with instances, %" PRId64
			   " instances", with, instances);
	if (n)
		report_add_verdict(r, "most: %s %" PRId64, shown[0]->name, shown[0]->value);
	struct report_table *t = report_section_add_table(s, "classes", "Classes", 2, cols);
	for (size_t i = 0; i < n; i++) {
		if (!report_table_row(t))
			continue;
		report_table_code(t, shown[i]->name);
		if (shown[i]->state == CLASS_COUNT_OK)
			report_table_figure(t, REPORT_CELL_COUNT, shown[i]->value);
		else
			report_table_text(t, shown[i]->state == CLASS_COUNT_ABSENT
					     ? "no such class" : "unreadable");
	}
	add_alloc_single(s, snap);
	warn_negative_allocs(r, snap);
}

static const char *
row_mark(const struct diff_classes_row *row)
{
	return !row->in_before ? "new" : !row->in_after ? "gone" : "";
}

/*
 * The allocation totals of `b` before and `a` after. A total one side does
 * not hold has an empty cell and no delta: it is not known, never 0.
 */
static void
add_alloc_diff_titled(struct report_section *s, const struct classes_snapshot *before,
		      const struct classes_snapshot *after, const char *title)
{
	static const char *const cols[] = { "allocation", "before", "after", "delta" };
	struct report_table *t = NULL;
	for (int k = 0; k < ALLOC_KINDS; k++) {
		bool hb = before->alloc_present[k], ha = after->alloc_present[k];
		int64_t b = hb ? before->alloc[k] : 0, a = ha ? after->alloc[k] : 0, dl;
		if (!hb && !ha)
			continue;
		if (!t)
			t = report_section_add_table(s, "alloc", title, 4, cols);
		report_table_row(t);
		report_table_text(t, alloc_kind_key((enum alloc_kind)k));
		if (hb)
			report_table_figure(t, REPORT_CELL_BYTES, b);
		else
			report_table_empty(t);
		if (ha)
			report_table_figure(t, REPORT_CELL_BYTES, a);
		else
			report_table_empty(t);
		if (hb != ha)
			report_table_empty(t);
		else if (__builtin_sub_overflow(a, b, &dl))
			report_table_text(t, "overflow");
		else
			report_table_figure(t, REPORT_CELL_DBYTES, dl);
		if (hb == ha && a == b)
			report_table_unchanged(t);
	}
}

/*
 * The diff's allocation totals, titled with the files they come from when
 * they were joined from other files than the counts (a bundle pair's
 * ioalloccount): "Allocation totals (FROM)" when both sides name the same
 * file, else "Allocation totals (FROM_BEFORE before, FROM_AFTER after)".
 */
static void
add_alloc_diff(struct report_section *s, const struct diff_classes *d)
{
	struct strbuf title = STRBUF_INIT;
	strbuf_addstr(&title, "Allocation totals");
	if (diff_classes_totals_sources_differ(d))
		strbuf_addf(&title, " (%s before, %s after)", d->totals_from[0],
			    d->totals_from[1]);
	else if (d->totals_from[0])
		strbuf_addf(&title, " (%s)", d->totals_from[0]);
	add_alloc_diff_titled(s, d->totals[0], d->totals[1], title.buf);
	strbuf_release(&title);
}

static void
add_class_row(struct report_table *t, const struct diff_classes_row *row)
{
	if (!report_table_row(t))
		return;
	report_table_code(t, row->name);
	if (row->in_before)
		report_table_figure(t, REPORT_CELL_COUNT, row->before);
	else
		report_table_empty(t);
	if (row->in_after)
		report_table_figure(t, REPORT_CELL_COUNT, row->after);
	else
		report_table_empty(t);
	if (row->delta_overflow)
		report_table_text(t, "overflow");
	else
		report_table_figure(t, REPORT_CELL_DCOUNT, row->delta);
	report_table_text(t, row_mark(row));
}

static void
add_class_verdict(struct report *r, const struct diff_classes *d, uint64_t changed)
{
	struct strbuf sb = STRBUF_INIT;
	size_t shown = 0;
	for (size_t i = 0; i < d->nrows && shown < 3; i++) {
		const struct diff_classes_row *row = &d->rows[i];
		if (!diff_classes_row_changed(row) || row->delta_overflow)
			continue;
		strbuf_addf(&sb, "%s%s %+" PRId64 "%s%s", shown++ ? ", " : "", row->name,
			    row->delta, *row_mark(row) ? " " : "", row_mark(row));
	}
	if (changed)
		report_add_verdict(r, "%" PRIu64 " IOKit class%s changed: %s", changed,
				   changed == 1 ? "" : "es", sb.buf);
	else
		report_add_verdict(r, "no IOKit class count changed");
	strbuf_release(&sb);
}

void
report_add_classes_diff(struct report *r, const struct diff_classes *d)
{
	static const char *const cols[] = { "class", "before", "after", "delta", "" };
	add_provenance(r, d->before, d->after);
	struct report_section *s = report_classes_section(r);
	struct report_table *t = report_section_add_table(s, "classes",
		d->direct ? "Direct instance counts" : "Instance counts", 5, cols);
	struct report_chart *c = report_section_add_chart(s, REPORT_CHART_DIVERGING,
		"Largest changes in instance counts", "classes", false);
	report_chart_series(c, "delta");
	uint64_t changed = 0;
	for (size_t i = 0; i < d->nrows; i++) {
		const struct diff_classes_row *row = &d->rows[i];
		if (!diff_classes_row_changed(row))
			continue;
		changed++;
		if (!row->delta_overflow)
			summary_note_class(&r->facts, row->name, row->delta);
		if (c->nitems < CLASS_CHART_ITEMS && !row->delta_overflow) {
			struct report_chart_item *it = report_chart_add(c, row->name);
			it->v[0] = row->delta;
		} else {
			c->omitted++;
		}
		add_class_row(t, row);
	}
	/* The classes whose count did not move, after the others: folded by the pages. */
	for (size_t i = 0; i < d->nrows; i++) {
		if (diff_classes_row_changed(&d->rows[i]))
			continue;
		add_class_row(t, &d->rows[i]);
		report_table_unchanged(t);
	}
	add_class_verdict(r, d, changed);
	/* A negative total of either side is among the pair's warnings already
	 * (app/kind_classes.c, with its file and line): not said again here. */
	add_alloc_diff(s, d);
}
