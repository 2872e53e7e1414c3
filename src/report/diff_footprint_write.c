#include "report/diff_footprint_write.h"

#include "report/jsontext.h"
#include "report/texttable.h"

#include <inttypes.h>
#include <stdlib.h>

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

void
diff_footprint_write_text(FILE *out, const struct diff_footprint *d, bool markdown)
{
	bool changed = false;
	for (size_t i = 0; i < d->nrows && !changed; i++)
		changed = diff_footprint_row_changed(&d->rows[i]);
	if (!changed)
		fputs("No change in the footprint figures.\n\n", out);
	write_wide(out, d, markdown);
	write_categories(out, d, markdown);
}

static json_t *
side_json(const struct footprint_figure *f)
{
	return f->known ? json_integer((json_int_t)f->value) : json_null();
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
	json_object_set_new_nocheck(o, "slack", json_integer((json_int_t)r->slack));
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

json_t *
diff_footprint_json(const struct diff_footprint *d)
{
	json_t *o = json_object(), *proc = json_object(), *figs = json_object(),
	       *cats = json_array(), *cat = NULL;
	const char *last = NULL;
	json_object_set_new_nocheck(proc, "before", label_json(d->before));
	json_object_set_new_nocheck(proc, "after", label_json(d->after));
	json_object_set_new_nocheck(o, "footprint_process", proc);
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
	return o;
}
