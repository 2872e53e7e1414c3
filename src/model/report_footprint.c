#include "model/report_footprint.h"

#include "util/array.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const wide_names[] = {
	"footprint", "phys_footprint", "phys_footprint_peak", GPU_FAMILY ".dirty",
};

#define NWIDE (sizeof(wide_names) / sizeof(wide_names[0]))

/* A pair table's before, after and delta columns, from column `first` on (report_table.text_figures). */
#define FIGURE_COLUMNS(first) (7u << (first))

static void
add_label(struct report *r, const struct footprint_process *b,
	  const struct footprint_process *a)
{
	char *lb = b ? footprint_process_label(b) : NULL, *la = footprint_process_label(a);
	report_add_provenance_pair(r, "Process", lb, la);
	free(lb);
	free(la);
}

/* ---- one process ---------------------------------------------------------- */

static void
add_figures_single(struct report *r, const struct footprint_process *p)
{
	static const char *const cols[] = { "figure", "value" };
	struct report_section *s = report_section(r, REPORT_SEC_GPU, "GPU memory");
	struct report_table *t = report_section_add_table(s, "footprint-figures",
							  "Process figures (footprint)", 2, cols);
	for (size_t i = 0; i < NWIDE; i++) {
		struct footprint_figure f;
		char buf[64];
		footprint_metric(p, wide_names[i], &f, NULL);
		if (!f.known || !report_table_row(t))
			continue;
		footprint_figure_text(&f, false, buf);
		report_table_code(t, wide_names[i]);
		report_table_text(t, buf);
	}
}

static void
add_categories_single(struct report *r, const struct footprint_process *p)
{
	const char *cols[FOOTPRINT_FIELDS + 1];
	int fields[FOOTPRINT_FIELDS];
	size_t n = 0;
	cols[0] = "category";
	for (int f = 0; f < FOOTPRINT_FIELDS; f++)
		if (p->columns & (1u << f)) {
			fields[n] = f;
			cols[++n] = footprint_fields[f].name;
		}
	struct report_section *s = report_section(r, REPORT_SEC_GPU, "GPU memory");
	struct report_table *t = report_section_add_table(s, "footprint-categories",
							  "GPU categories (footprint)", n + 1, cols);
	for (size_t i = 0; i < p->ncats; i++) {
		const struct footprint_category *c = &p->cats[i];
		if (!footprint_category_is_gpu(c->name, strlen(c->name)) || !report_table_row(t))
			continue;
		report_table_code(t, c->name);
		for (size_t k = 0; k < n; k++) {
			char buf[64];
			footprint_figure_text(&c->f[fields[k]], fields[k] == FOOTPRINT_REGIONS, buf);
			report_table_text(t, buf);
		}
	}
	if (p->elided)
		t->note = xstrdup("rows were elided by the capture's author: sums are lower "
				 "bounds (>=)");
	else if (!footprint_process_unlisted(p, FOOTPRINT_DIRTY).known)
		t->note = xstrdup("the table does not list every category: sums are lower "
				 "bounds (>=)");
}

/* ">= 0 B" says nothing: a table that lists no GPU category and not every category. */
static bool
gpu_says_nothing(const struct footprint_figure *f)
{
	return f->known && f->at_least && f->value == 0;
}

/* gpu.dirty as a headline says it: the figure, or that the capture has none. */
static void
gpu_headline_text(const struct footprint_figure *f, char out[64])
{
	if (gpu_says_nothing(f))
		snprintf(out, 64, "unknown (no GPU category listed, nor every category)");
	else
		footprint_figure_text(f, false, out);
}

void
report_add_footprint(struct report *r, const struct footprint_process *p)
{
	char buf[64];
	add_label(r, NULL, p);
	summary_note_footprint(&r->facts, 1, p);
	gpu_headline_text(&p->gpu_dirty, buf);
	report_add_verdict(r, "GPU memory (footprint, dirty) %s", buf);
	add_figures_single(r, p);
	if (p->has_table)
		add_categories_single(r, p);
}

/* ---- a pair ------------------------------------------------------------------ */

/* A row's BEFORE, AFTER and delta cells ("?" when the delta is unknown). */
static void
diff_row_cells(const struct diff_footprint_row *row, bool count, char b[64], char a[64],
	       char dl[64])
{
	footprint_figure_text(&row->before, count, b);
	footprint_figure_text(&row->after, count, a);
	if (row->has_delta)
		footprint_delta_text(row->delta, row->slack, count, dl);
	else
		snprintf(dl, 64, "?");
}

static void
add_diff_row(struct report_table *t, const char *name, const struct diff_footprint_row *row,
	     bool count)
{
	char b[64], a[64], dl[64];
	if (!report_table_row(t))
		return;
	diff_row_cells(row, count, b, a, dl);
	report_table_code(t, name);
	report_table_text(t, b);
	report_table_text(t, a);
	report_table_text(t, dl);
}

static bool
row_changed(const struct diff_footprint_row *r)
{
	return r->before.known != r->after.known || (r->has_delta && r->delta != 0);
}

static void
add_proc_category_row(struct report_table *t, const char *label, const char *name,
		      const struct diff_footprint_row *row)
{
	char b[64], a[64], dl[64];
	bool count = row->field == FOOTPRINT_REGIONS;
	if (!report_table_row(t))
		return;
	diff_row_cells(row, count, b, a, dl);
	report_table_text(t, label);
	report_table_code(t, name);
	report_table_text(t, b);
	report_table_text(t, a);
	report_table_text(t, dl);
}

/*
 * One process's figures (or the sums'); a side without the process is "-".
 * A process with no figure at all (an excerpt without them) is still listed,
 * its figure "-".
 */
static void
add_proc_rows(struct report_table *t, const char *label, const char *change,
	      const struct diff_footprint *d)
{
	bool listed = false;
	for (size_t k = 0; k < ARRAY_SIZE(diff_footprint_proc_figures); k++) {
		const char *fig = diff_footprint_proc_figures[k];
		const struct diff_footprint_row *row = diff_footprint_figure_row(d, fig);
		if (!row || (!row->before.known && !row->after.known))
			continue;
		listed = true;
		bool shown = report_table_row(t);
		/* A figure that stayed says nothing new (folded, as unchanged rows elsewhere). */
		if (strcmp(change, "same") == 0 && !row_changed(row))
			report_table_unchanged(t);
		if (!shown)
			continue;
		char b[64], a[64], dl[64];
		diff_footprint_cells(d, row, false, b, a, dl);
		report_table_text(t, label);
		report_table_text(t, change);
		report_table_code(t, fig);
		report_table_text(t, b);
		report_table_text(t, a);
		report_table_text(t, dl);
	}
	if (listed || !report_table_row(t))
		return;
	report_table_text(t, label);
	report_table_text(t, change);
	for (int k = 0; k < 4; k++)
		report_table_empty(t);
}

/* Captures of several processes: each process matched, its figures, then the sums. */
static void
add_processes(struct report_section *s, const struct diff_footprint *d)
{
	static const char *const cols[] = { "process", "change", "figure", "before", "after",
					    "delta" };
	struct report_table *t = report_section_add_table(
		s, "footprint-processes",
		"Processes (footprint; matched by name and pid, TOTAL: the sums)", 6, cols);
	t->text_figures = FIGURE_COLUMNS(3);
	for (size_t i = 0; i < d->nprocs; i++) {
		char *label = diff_footprint_proc_label(&d->procs[i]);
		add_proc_rows(t, label, diff_footprint_match_name(d->procs[i].match),
			      &d->procs[i].diff);
		free(label);
	}
	add_proc_rows(t, "TOTAL (sum)", "", d);
}

/* Each matched process's categories that changed: GPU categories first. */
static void
add_process_categories(struct report_section *s, const struct diff_footprint *d)
{
	static const char *const cols[] = { "process", "category.field", "before", "after",
					    "delta" };
	struct report_table *t = report_section_add_table(
		s, "footprint-process-categories",
		"Categories that changed, per process (footprint; GPU categories first)", 5, cols);
	t->text_figures = FIGURE_COLUMNS(2);
	for (size_t i = 0; i < d->nprocs; i++) {
		const struct diff_footprint_proc *p = &d->procs[i];
		if (!p->before || !p->after)
			continue;
		char *label = diff_footprint_proc_label(p);
		for (int gpu = 1; gpu >= 0; gpu--)
			for (size_t k = 0; k < p->diff.nrows; k++) {
				const struct diff_footprint_row *row = &p->diff.rows[k];
				if (!row->category || !row_changed(row) ||
				    footprint_category_is_gpu(row->category,
							      strlen(row->category)) != gpu)
					continue;
				struct strbuf sb = STRBUF_INIT;
				strbuf_addf(&sb, "%s.%s", row->category,
					    footprint_fields[row->field].name);
				add_proc_category_row(t, label, sb.buf, row);
				strbuf_release(&sb);
			}
		free(label);
	}
}

/* Processes named in the verdict when the sums hide what moved; the rest counted. */
#define VERDICT_PROCESSES 3

/* "; per process: render [100] ~-64 MiB, helper [101 -> 205] ~+64 MiB": gpu.dirty changes. */
static void
verdict_processes(struct strbuf *sb, const struct diff_footprint *d)
{
	size_t n = 0;
	for (size_t i = 0; i < d->nprocs; i++) {
		const struct diff_footprint_row *row =
			diff_footprint_figure_row(&d->procs[i].diff, GPU_FAMILY ".dirty");
		if (!row || !row->has_delta || row->delta == 0)
			continue;
		if (n++ >= VERDICT_PROCESSES)
			continue;
		char dl[64];
		char *label = diff_footprint_proc_label(&d->procs[i]);
		footprint_delta_text(row->delta, row->slack, false, dl);
		strbuf_addf(sb, "%s%s %s", n == 1 ? "; per process: " : ", ", label, dl);
		free(label);
	}
	if (n > VERDICT_PROCESSES)
		strbuf_addf(sb, " and %zu more", n - VERDICT_PROCESSES);
}

void
report_add_footprint_diff(struct report *r, const struct diff_footprint *d)
{
	static const char *const cols[] = { "figure", "before", "after", "delta" };
	static const char *const ccols[] = { "category.field", "before", "after", "delta" };
	char b[64], a[64], dl[64];
	add_label(r, d->before, d->after);
	summary_note_footprint(&r->facts, 0, d->before);
	summary_note_footprint(&r->facts, 1, d->after);
	summary_note_footprint_growth(&r->facts, d);
	gpu_headline_text(&d->before->gpu_dirty, b);
	gpu_headline_text(&d->after->gpu_dirty, a);
	const struct diff_footprint_row *gpu = NULL;
	for (size_t i = 0; i < d->nrows; i++)
		if (!d->rows[i].category && strcmp(d->rows[i].metric, GPU_FAMILY ".dirty") == 0)
			gpu = &d->rows[i];
	if (gpu && gpu->has_delta && !gpu_says_nothing(&d->before->gpu_dirty) &&
	    !gpu_says_nothing(&d->after->gpu_dirty))
		footprint_delta_text(gpu->delta, gpu->slack, false, dl);
	else
		snprintf(dl, sizeof(dl), "?");
	struct strbuf per = STRBUF_INIT;
	verdict_processes(&per, d);
	report_add_verdict(r, "GPU memory (footprint, dirty) %s -> %s (%s)%s", b, a, dl,
			   per.len ? per.buf : "");
	strbuf_release(&per);

	struct report_section *s = report_section(r, REPORT_SEC_GPU, "GPU memory");
	struct report_table *t = report_section_add_table(s, "footprint-figures",
							  "Process figures (footprint)", 4, cols);
	struct report_table *c = report_section_add_table(s, "footprint-categories",
							  "Categories that changed (footprint)",
							  4, ccols);
	t->text_figures = c->text_figures = FIGURE_COLUMNS(1);
	for (size_t i = 0; i < d->nrows; i++) {
		const struct diff_footprint_row *row = &d->rows[i];
		if (!row->category) {
			if (row->before.known || row->after.known)
				add_diff_row(t, row->metric, row, false);
			continue;
		}
		if (!row_changed(row))
			continue;
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "%s.%s", row->category, footprint_fields[row->field].name);
		add_diff_row(c, sb.buf, row, row->field == FOOTPRINT_REGIONS);
		strbuf_release(&sb);
	}
	if (d->nprocs) {
		add_processes(s, d);
		add_process_categories(s, d);
	}
}
