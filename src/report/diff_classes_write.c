#include "report/diff_classes_write.h"

#include "report/jsontext.h"
#include "report/report_md_write.h"
#include "report/texttable.h"
#include "util/escape.h"
#include "util/size.h"
#include "util/strbuf.h"

#include <inttypes.h>

/* A figure, or '-' where the snapshot does not have it. */
static void
add_figure(struct text_table *t, bool present, int64_t v)
{
	if (present)
		text_table_addf(t, "%" PRId64, v);
	else
		text_table_add(t, "-");
}

/* An allocation total in the text formatter (util/size.h), or '-'; an
 * over-released counter is negative and keeps its sign. */
static void
add_bytes(struct text_table *t, bool present, int64_t v)
{
	char b[32];
	if (!present) {
		text_table_add(t, "-");
		return;
	}
	size_format_text(v, 0, b);
	text_table_add(t, b);
}

static const char *
row_mark(const struct diff_classes_row *r)
{
	if (!r->in_before)
		return "new";
	if (!r->in_after)
		return "gone";
	return "";
}

static void
write_classes(FILE *out, const struct diff_classes *d, bool markdown)
{
	static const char *const headers[] = { "CLASS", "BEFORE", "AFTER", "DELTA", "" };
	struct text_table t;
	text_table_init(&t, 5, headers, "lrrrl");
	for (size_t i = 0; i < d->nrows; i++) {
		const struct diff_classes_row *r = &d->rows[i];
		char delta[32];
		if (!diff_classes_row_changed(r))
			continue;
		if (r->delta_overflow)
			snprintf(delta, sizeof(delta), "?");
		else
			text_signed(delta, (long long)r->delta);
		text_table_add(&t, r->name);
		add_figure(&t, r->in_before, r->before);
		add_figure(&t, r->in_after, r->after);
		text_table_add(&t, delta);
		text_table_add(&t, row_mark(r));
	}
	text_table_write_section(out, &t, markdown, d->direct
				 ? "Direct instance counts that changed"
				 : "Class instance counts that changed");
	text_table_release(&t);
}

/* A file name in a title: escaped as the format's text is. */
static void
add_name(struct strbuf *sb, const char *name, bool markdown)
{
	if (markdown)
		report_md_escape(name, 0, sb);
	else
		escape_addstr(sb, name);
}

/*
 * " from kernel/ioalloccount.txt", or " from kernel/ioreg-root.plist
 * before, kernel/ioalloccount.txt after": where the totals come from when
 * they were joined from another file than the counts (a bundle pair).
 */
static void
add_totals_from(struct strbuf *sb, const struct diff_classes *d, bool markdown)
{
	if (!d->totals_from[0])
		return;
	strbuf_addstr(sb, " from ");
	add_name(sb, d->totals_from[0], markdown);
	if (!diff_classes_totals_sources_differ(d))
		return;
	strbuf_addstr(sb, " before, ");
	add_name(sb, d->totals_from[1], markdown);
	strbuf_addstr(sb, " after");
}

static void
write_alloc(FILE *out, const struct diff_classes *d, bool markdown)
{
	static const char *const headers[] = { "ALLOCATION", "BEFORE", "AFTER", "DELTA" };
	struct text_table t;
	text_table_init(&t, 4, headers, "lrrr");
	for (int k = 0; k < ALLOC_KINDS; k++) {
		bool hb = d->totals[0]->alloc_present[k], ha = d->totals[1]->alloc_present[k];
		int64_t b = hb ? d->totals[0]->alloc[k] : 0, a = ha ? d->totals[1]->alloc[k] : 0, dl;
		char delta[32];
		if (!hb && !ha)
			continue;
		/* A total one side does not hold is unknown, not 0: no delta. */
		if (hb != ha)
			snprintf(delta, sizeof(delta), "-");
		else if (__builtin_sub_overflow(a, b, &dl))
			snprintf(delta, sizeof(delta), "?");
		else
			size_format_text(dl, SIZE_TEXT_SIGNED, delta);
		text_table_add(&t, alloc_kind_key((enum alloc_kind)k));
		add_bytes(&t, hb, b);
		add_bytes(&t, ha, a);
		text_table_add(&t, delta);
	}
	struct strbuf title = STRBUF_INIT;
	strbuf_addstr(&title, "Allocation totals");
	add_totals_from(&title, d, markdown);
	text_table_write_section(out, &t, markdown, title.buf);
	strbuf_release(&title);
	text_table_release(&t);
}

void
diff_classes_write_text(FILE *out, const struct diff_classes *d, bool markdown)
{
	if (!diff_classes_changed(d))
		fputs("No change in the class counts or allocation totals.\n\n", out);
	write_classes(out, d, markdown);
	write_alloc(out, d, markdown);
}

static json_t *
side(bool present, int64_t v)
{
	return present ? json_integer(v) : json_null();
}

static json_t *
delta_json(int64_t before, int64_t after)
{
	int64_t d;
	return __builtin_sub_overflow(after, before, &d) ? json_null() : json_integer(d);
}

json_t *
diff_classes_json(const struct diff_classes *d)
{
	json_t *o = json_object(), *rows = json_array(), *alloc = json_object();
	json_object_set_new_nocheck(o, "direct", json_boolean(d->direct));
	for (size_t i = 0; i < d->nrows; i++) {
		const struct diff_classes_row *r = &d->rows[i];
		json_t *c = json_object();
		const char *mark = row_mark(r);
		json_object_set_new_nocheck(c, "class", json_text(r->name));
		json_object_set_new_nocheck(c, "before", side(r->in_before, r->before));
		json_object_set_new_nocheck(c, "after", side(r->in_after, r->after));
		json_object_set_new_nocheck(c, "delta", r->delta_overflow ? json_null()
								    : json_integer(r->delta));
		json_object_set_new_nocheck(c, "change", json_string_nocheck(
			*mark ? mark : diff_classes_row_changed(r) ? "changed" : "same"));
		json_array_append_new(rows, c);
	}
	json_object_set_new_nocheck(o, "classes", rows);
	const struct classes_snapshot *tb = d->totals[0], *ta = d->totals[1];
	for (int k = 0; k < ALLOC_KINDS; k++) {
		bool hb = tb->alloc_present[k], ha = ta->alloc_present[k];
		if (!hb && !ha)
			continue;
		json_t *a = json_object();
		json_object_set_new_nocheck(a, "before", side(hb, tb->alloc[k]));
		json_object_set_new_nocheck(a, "after", side(ha, ta->alloc[k]));
		/* null: one side does not hold the total (unknown, not 0), or overflow. */
		json_object_set_new_nocheck(a, "delta", hb != ha ? json_null() :
					    delta_json(tb->alloc[k], ta->alloc[k]));
		json_object_set_new_nocheck(alloc, alloc_kind_name((enum alloc_kind)k), a);
	}
	json_object_set_new_nocheck(o, DIFF_CLASSES_ALLOCATION_KEY, alloc);
	return o;
}
