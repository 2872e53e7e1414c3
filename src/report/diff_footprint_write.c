#include "report/diff_footprint_write.h"

#include "report/jsontext.h"
#include "report/texttable.h"
#include "util/array.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

bool
diff_footprint_row_changed(const struct diff_footprint_row *r)
{
	if (r->before.known != r->after.known)
		return true;
	return r->has_delta && r->delta != 0;
}

static bool
row_is_count(const struct diff_footprint_row *r)
{
	return r->category && r->field == FOOTPRINT_REGIONS;
}

static void
add_row(struct text_table *t, const char *name, const struct diff_footprint_row *r)
{
	char b[64], a[64], dl[64];
	footprint_figure_text(&r->before, row_is_count(r), b);
	footprint_figure_text(&r->after, row_is_count(r), a);
	if (r->has_delta)
		footprint_delta_text(r->delta, r->slack, row_is_count(r), dl);
	else
		snprintf(dl, sizeof(dl), "?");
	text_table_add(t, name);
	text_table_add(t, b);
	text_table_add(t, a);
	text_table_add(t, dl);
}

static void
write_wide(FILE *out, const struct diff_footprint *d, bool markdown)
{
	static const char *const headers[] = { "FIGURE", "BEFORE", "AFTER", "DELTA" };
	struct text_table t;
	text_table_init(&t, 4, headers, "lrrr");
	for (size_t i = 0; i < d->nrows; i++) {
		const struct diff_footprint_row *r = &d->rows[i];
		/* Figures neither capture has say nothing. */
		if (!r->category && (r->before.known || r->after.known))
			add_row(&t, r->metric, r);
	}
	text_table_write_section(out, &t, markdown, "Process (footprint:<figure>)");
	text_table_release(&t);
}

static void
write_categories(FILE *out, const struct diff_footprint *d, bool markdown)
{
	static const char *const headers[] = { "CATEGORY.FIELD", "BEFORE", "AFTER", "DELTA" };
	struct text_table t;
	text_table_init(&t, 4, headers, "lrrr");
	for (size_t i = 0; i < d->nrows; i++) {
		const struct diff_footprint_row *r = &d->rows[i];
		if (!r->category || !diff_footprint_row_changed(r))
			continue;
		char name[512];
		snprintf(name, sizeof(name), "%s.%s", r->category, footprint_fields[r->field].name);
		add_row(&t, name, r);
	}
	text_table_write_section(out, &t, markdown, "Categories that changed");
	text_table_release(&t);
}

bool
diff_footprint_changed(const struct diff_footprint *d)
{
	for (size_t i = 0; i < d->nrows; i++)
		if (diff_footprint_row_changed(&d->rows[i]))
			return true;
	/* Opposite changes of two processes leave the sums as they were. */
	for (size_t i = 0; i < d->nprocs; i++)
		if (diff_footprint_changed(&d->procs[i].diff))
			return true;
	return false;
}

static void
add_proc_row(struct text_table *t, const char *label, const char *change,
	     const struct diff_footprint *d, const char *name, const struct diff_footprint_row *r)
{
	char b[64], a[64], dl[64];
	diff_footprint_cells(d, r, false, b, a, dl);
	text_table_add(t, label);
	text_table_add(t, change);
	text_table_add(t, name);
	text_table_add(t, b);
	text_table_add(t, a);
	text_table_add(t, dl);
}

/* One process's figures (or the sum's), the label and change on its first row only. */
static void
add_proc_figures(struct text_table *t, const char *label, const char *change,
		 const struct diff_footprint *d)
{
	bool first = true;
	for (size_t k = 0; k < ARRAY_SIZE(diff_footprint_proc_figures); k++) {
		const char *fig = diff_footprint_proc_figures[k];
		const struct diff_footprint_row *r = diff_footprint_figure_row(d, fig);
		if (!r || (!r->before.known && !r->after.known))
			continue;
		add_proc_row(t, first ? label : "", first ? change : "", d, fig, r);
		first = false;
	}
	if (first)   /* nothing printed of it (an excerpt without figures): still listed */
		add_proc_row(t, label, change, d, "-", &(struct diff_footprint_row){ 0 });
}

static void
write_processes(FILE *out, const struct diff_footprint *d, bool markdown)
{
	static const char *const headers[] = { "PROCESS", "CHANGE", "FIGURE", "BEFORE",
					       "AFTER", "DELTA" };
	struct text_table t;
	text_table_init(&t, 6, headers, "lllrrr");
	for (size_t i = 0; i < d->nprocs; i++) {
		const struct diff_footprint_proc *p = &d->procs[i];
		char *label = diff_footprint_proc_label(p);
		add_proc_figures(&t, label, diff_footprint_match_name(p->match), &p->diff);
		free(label);
	}
	add_proc_figures(&t, "TOTAL (sum)", "", d);
	text_table_write_section(out, &t, markdown,
				 "Processes (footprint:process:NAME:<figure>; TOTAL: the sums)");
	text_table_release(&t);
}

/* A matched process's categories that changed: GPU categories first, then the rest. */
static void
add_proc_categories(struct text_table *t, const char *label, const struct diff_footprint *d)
{
	for (int gpu = 1; gpu >= 0; gpu--)
		for (size_t i = 0; i < d->nrows; i++) {
			const struct diff_footprint_row *r = &d->rows[i];
			if (!r->category || !diff_footprint_row_changed(r) ||
			    footprint_category_is_gpu(r->category, strlen(r->category)) != gpu)
				continue;
			char name[512];
			snprintf(name, sizeof(name), "%s.%s", r->category,
				 footprint_fields[r->field].name);
			text_table_add(t, label);
			add_row(t, name, r);
		}
}

static void
write_process_categories(FILE *out, const struct diff_footprint *d, bool markdown)
{
	static const char *const cols[] = { "PROCESS", "CATEGORY.FIELD", "BEFORE", "AFTER",
					    "DELTA" };
	struct text_table t;
	text_table_init(&t, 5, cols, "llrrr");
	for (size_t i = 0; i < d->nprocs; i++) {
		const struct diff_footprint_proc *p = &d->procs[i];
		if (!p->before || !p->after)
			continue;
		char *label = diff_footprint_proc_label(p);
		add_proc_categories(&t, label, &p->diff);
		free(label);
	}
	text_table_write_section(out, &t, markdown,
				 "Categories that changed, per process (GPU categories first)");
	text_table_release(&t);
}

void
diff_footprint_write_text(FILE *out, const struct diff_footprint *d, bool markdown)
{
	if (!diff_footprint_changed(d))
		fputs("No change in the footprint figures.\n\n", out);
	write_wide(out, d, markdown);
	write_categories(out, d, markdown);
	if (d->nprocs) {
		write_processes(out, d, markdown);
		write_process_categories(out, d, markdown);
	}
}

static json_t *
side_json(const struct footprint_figure *f)
{
	return f->known ? json_integer((json_int_t)f->value) : json_null();
}

/*
 * The bound of a row's figures: the delta's when both are known, else the
 * one known figure's own (a figure footprint printed rounded never reads as
 * exact, e.g. a process only one capture holds).
 */
static uint64_t
row_slack(const struct diff_footprint_row *r)
{
	if (r->has_delta)
		return r->slack;
	return r->before.known ? r->before.slack : r->after.known ? r->after.slack : 0;
}

/* {before, after, delta, slack, at_least}: the diff NDJSON's triple, and its bound. */
static json_t *
triple_json(const struct diff_footprint_row *r)
{
	json_t *o = json_object();
	json_object_set_new_nocheck(o, "before", side_json(&r->before));
	json_object_set_new_nocheck(o, "after", side_json(&r->after));
	json_object_set_new_nocheck(o, "delta", r->has_delta ? json_integer(r->delta)
							     : json_null());
	json_object_set_new_nocheck(o, "slack", json_integer((json_int_t)row_slack(r)));
	json_object_set_new_nocheck(o, "at_least",
				    json_boolean(r->before.at_least || r->after.at_least));
	return o;
}

static json_t *
label_json(const struct footprint_process *p)
{
	char *l = footprint_process_label(p);
	json_t *j = json_text(l);
	free(l);
	return j;
}

/* figures and categories of one comparison into `o` (the pair's sums, or one process). */
static void
figures_json(json_t *o, const struct diff_footprint *d)
{
	json_t *figs = json_object(), *cats = json_array(), *cat = NULL;
	const char *last = NULL;
	for (size_t i = 0; i < d->nrows; i++) {
		const struct diff_footprint_row *r = &d->rows[i];
		if (!r->category) {
			json_object_set_new(figs, r->metric, triple_json(r));
			continue;
		}
		/* Rows of one category are adjacent (model/diff_footprint.c). */
		if (!last || last != r->category) {
			cat = json_object();
			json_object_set_new_nocheck(cat, "category", json_text(r->category));
			json_array_append_new(cats, cat);
			last = r->category;
		}
		json_object_set_new_nocheck(cat, footprint_fields[r->field].name, triple_json(r));
	}
	json_object_set_new_nocheck(o, "figures", figs);
	json_object_set_new_nocheck(o, "categories", cats);
}

static json_t *
pid_json(const struct footprint_process *p)
{
	return p && p->has_pid ? json_integer((json_int_t)p->pid) : json_null();
}

static json_t *
process_json(const struct diff_footprint_proc *p)
{
	json_t *o = json_object();
	const struct footprint_process *named = p->before ? p->before : p->after;
	char *label = diff_footprint_proc_label(p);
	json_object_set_new_nocheck(o, "process", json_text(label));
	free(label);
	json_object_set_new_nocheck(o, "name", named->name ? json_text(named->name)
							   : json_null());
	json_object_set_new_nocheck(o, "pid_before", pid_json(p->before));
	json_object_set_new_nocheck(o, "pid_after", pid_json(p->after));
	json_object_set_new_nocheck(o, "change",
				    json_string(diff_footprint_match_name(p->match)));
	figures_json(o, &p->diff);
	return o;
}

json_t *
diff_footprint_json(const struct diff_footprint *d)
{
	json_t *o = json_object(), *proc = json_object();
	json_object_set_new_nocheck(proc, "before", label_json(d->before));
	json_object_set_new_nocheck(proc, "after", label_json(d->after));
	json_object_set_new_nocheck(o, "footprint_process", proc);
	figures_json(o, d);
	/* Only for captures of several processes: a pair of one each is as it was. */
	if (d->nprocs) {
		json_t *procs = json_array();
		for (size_t i = 0; i < d->nprocs; i++)
			json_array_append_new(procs, process_json(&d->procs[i]));
		json_object_set_new_nocheck(o, "processes", procs);
	}
	return o;
}
