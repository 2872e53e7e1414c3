#include "report/report_json_write.h"

#include "report/report_text.h"
#include "util/strbuf.h"

#include <string.h>

static const char *const chart_kinds[] = {
	[REPORT_CHART_STACKED] = "stacked",
	[REPORT_CHART_HISTOGRAM] = "histogram",
	[REPORT_CHART_DIVERGING] = "diverging",
	[REPORT_CHART_ICICLE] = "icicle",
	[REPORT_CHART_TIMELINE] = "timeline",
};

static const char *const cell_kinds[] = {
	[REPORT_CELL_TEXT] = "text",
	[REPORT_CELL_CODE] = "name",
	[REPORT_CELL_COUNT] = "count",
	[REPORT_CELL_BYTES] = "bytes",
	[REPORT_CELL_DCOUNT] = "count delta",
	[REPORT_CELL_DBYTES] = "bytes delta",
	[REPORT_CELL_EMPTY] = "empty",
};

/* Everything: what report_json() holds without a fold. */
static const struct report_fold whole = {
	.chars = 0, .rows = SIZE_MAX, .lines = SIZE_MAX, .items = SIZE_MAX, .warnings = SIZE_MAX,
};

static size_t
at_most(size_t n, size_t limit)
{
	return n < limit ? n : limit;
}

/* A string from the report (any bytes) as a valid JSON string, cut to the fold's length. */
static json_t *
str(const struct report_fold *f, const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	report_text_clean(s ? s : "", f->chars, &sb);
	json_t *j = json_stringn(sb.buf, sb.len);
	strbuf_release(&sb);
	return j;
}

static void
set(json_t *o, const char *key, json_t *v)
{
	json_object_set_new_nocheck(o, key, v);
}

static json_t *
cell_json(const struct report_fold *f, const struct report_cell *c)
{
	if (c->kind == REPORT_CELL_TEXT || c->kind == REPORT_CELL_CODE)
		return str(f, c->text);
	if (c->kind == REPORT_CELL_EMPTY)
		return json_null();
	return json_integer(c->value);
}

/* What each column holds: the kind of its first cell that is not empty. */
static json_t *
column_kinds(const struct report_table *t)
{
	json_t *a = json_array();
	for (size_t c = 0; c < t->ncols; c++) {
		enum report_cell_kind k = REPORT_CELL_EMPTY;
		for (size_t r = 0; r < t->nrows && k == REPORT_CELL_EMPTY; r++)
			k = report_table_cell(t, r, c)->kind;
		json_array_append_new(a, json_string(cell_kinds[k]));
	}
	return a;
}

/* A row's detail lines, the fold's first ones and how many it left out. */
static json_t *
details_json(const struct report_fold *f, char *const *lines)
{
	json_t *a = json_array();
	size_t i = 0;
	for (; lines[i] && i < f->lines; i++)
		json_array_append_new(a, str(f, lines[i]));
	size_t more = 0;
	while (lines[i + more])
		more++;
	if (more) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "\xe2\x80\xa6 %zu more line%s", more, more == 1 ? "" : "s");
		json_array_append_new(a, json_stringn(sb.buf, sb.len));
		strbuf_release(&sb);
	}
	return a;
}

/* The fold's first rows; those it leaves out are counted with the model's. */
static json_t *
table_json(const struct report_fold *f, const struct report_table *t)
{
	size_t keep = at_most(t->nrows, f->rows);
	json_t *o = json_object();
	set(o, "id", str(f, t->id));
	set(o, "title", str(f, t->title));
	json_t *cols = json_array();
	for (size_t c = 0; c < t->ncols; c++)
		json_array_append_new(cols, str(f, t->cols[c]));
	set(o, "columns", cols);
	set(o, "column_kinds", column_kinds(t));
	json_t *rows = json_array();
	for (size_t r = 0; r < keep; r++) {
		json_t *row = json_array();
		for (size_t c = 0; c < t->ncols; c++)
			json_array_append_new(row, cell_json(f, report_table_cell(t, r, c)));
		json_array_append_new(rows, row);
	}
	set(o, "rows", rows);
	if (t->details) {
		json_t *d = json_array();
		for (size_t r = 0; r < keep; r++)
			json_array_append_new(d, t->details[r] ? details_json(f, t->details[r])
							       : json_null());
		set(o, "details", d);
	}
	uint64_t unchanged_left = 0;
	if (t->nunchanged) {
		json_t *u = json_array();
		for (size_t r = 0; r < t->nrows; r++) {
			if (t->unchanged[r] && r < keep)
				json_array_append_new(u, json_integer((json_int_t)r));
			else if (t->unchanged[r])
				unchanged_left++;
		}
		if (json_array_size(u))
			set(o, "unchanged_rows", u);
		else
			json_decref(u);
	}
	set(o, "omitted_rows", json_integer((json_int_t)(t->omitted + (t->nrows - keep))));
	if (t->omitted_unchanged + unchanged_left)
		set(o, "omitted_unchanged_rows",
		    json_integer((json_int_t)(t->omitted_unchanged + unchanged_left)));
	if (t->note)
		set(o, "note", str(f, t->note));
	return o;
}

static json_t *
chart_json(const struct report_fold *f, const struct report_chart *c)
{
	size_t keep = at_most(c->nitems, f->items);
	json_t *o = json_object();
	set(o, "kind", json_string(chart_kinds[c->kind]));
	set(o, "title", str(f, c->title));
	set(o, "table", str(f, c->table_id));
	set(o, "unit", json_string(c->bytes ? "bytes" : "count"));
	json_t *series = json_array();
	for (size_t i = 0; i < c->nseries; i++)
		json_array_append_new(series, str(f, c->series[i]));
	set(o, "series", series);
	json_t *items = json_array();
	for (size_t i = 0; i < keep; i++) {
		const struct report_chart_item *it = &c->items[i];
		json_t *j = json_object();
		set(j, "label", str(f, it->label));
		if (c->kind == REPORT_CHART_ICICLE) {
			set(j, "depth", json_integer(it->depth));
			set(j, "start", json_integer(it->start));
		}
		if (it->absent)
			set(j, "absent", json_true());
		json_t *v = json_array();
		size_t nv = c->kind == REPORT_CHART_ICICLE ? 4 : c->nseries;
		for (size_t k = 0; k < nv && k < REPORT_SERIES_MAX; k++)
			json_array_append_new(v, json_integer(it->v[k]));
		set(j, "values", v);
		if (c->counts) {
			json_t *n = json_array();
			for (size_t k = 0; k < c->nseries && k < REPORT_SERIES_MAX; k++)
				json_array_append_new(n, json_integer(it->counts[k]));
			set(j, "counts", n);
		}
		json_array_append_new(items, j);
	}
	set(o, "items", items);
	if (c->kind == REPORT_CHART_ICICLE)
		set(o, "total", json_integer(c->total));
	if (c->badge)
		set(o, "badge", str(f, c->badge));
	if (c->note)
		set(o, "note", str(f, c->note));
	if (c->has_fit) {
		json_t *fit = json_object();
		set(fit, "from", json_integer((json_int_t)c->fit.from));
		set(fit, "to", json_integer((json_int_t)c->fit.to));
		set(fit, "first", json_integer(c->fit.first));
		set(fit, "last", json_integer(c->fit.last));
		set(o, "fit", fit);
	}
	set(o, "omitted_items", json_integer((json_int_t)(c->omitted + (c->nitems - keep))));
	return o;
}

static json_t *
strings(const struct report_fold *f, char *const *v, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, str(f, v[i]));
	return a;
}

/* The fold's first warnings, then one saying how many it left out. */
static json_t *
warnings_json(const struct report_fold *f, const struct report *r)
{
	size_t keep = at_most(r->nwarnings, f->warnings);
	json_t *a = strings(f, r->warnings, keep);
	if (keep < r->nwarnings) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "%zu more warning%s left out", r->nwarnings - keep,
			    r->nwarnings - keep == 1 ? "" : "s");
		json_array_append_new(a, json_stringn(sb.buf, sb.len));
		strbuf_release(&sb);
	}
	return a;
}

/*
 * The summary block's lines (model/summary.h): each its name, its text,
 * its figure in exact bytes (null when it has none) and, for a call site,
 * the site's backtrace.
 */
static json_t *
summary_json(const struct report_fold *f, const struct report *r)
{
	struct summary s;
	summary_build(&r->facts, &s);
	json_t *a = json_array();
	for (size_t i = 0; i < s.n; i++) {
		const struct summary_line *l = &s.lines[i];
		json_t *j = json_object();
		set(j, "line", json_string(summary_line_name(l->kind)));
		set(j, "text", str(f, l->text));
		set(j, "bytes", l->has_bytes ? json_integer(l->bytes) : json_null());
		set(j, "backtrace", strings(f, (char *const *)l->detail, l->ndetail));
		json_array_append_new(a, j);
	}
	summary_release(&s);
	return a;
}

json_t *
report_json(const struct report *r, const struct report_fold *f)
{
	if (!f)
		f = &whole;
	json_t *o = json_object();
	set(o, "schema", json_string(REPORT_JSON_SCHEMA));
	set(o, "kind", str(f, r->kind));
	set(o, "pair", json_boolean(r->pair));
	set(o, "verdict", str(f, r->verdict));
	set(o, "summary", summary_json(f, r));
	json_t *prov = json_array();
	for (size_t i = 0; i < r->nprovenance && !f->bare; i++) {
		json_t *kv = json_object();
		set(kv, "key", str(f, r->provenance[i].key));
		set(kv, "value", str(f, r->provenance[i].value));
		json_array_append_new(prov, kv);
	}
	set(o, "provenance", prov);
	set(o, "warnings", warnings_json(f, r));
	json_t *secs = json_array();
	for (int s = 0; s < REPORT_SECTIONS && !f->bare; s++) {
		const struct report_section *sec = &r->sections[s];
		if (!sec->title)
			continue;
		json_t *j = json_object();
		set(j, "id", json_string(report_section_name(r, (enum report_section_id)s)));
		set(j, "title", str(f, sec->title));
		set(j, "paragraphs", strings(f, sec->paragraphs, sec->nparagraphs));
		json_t *tables = json_array();
		for (size_t t = 0; t < sec->ntables; t++)
			json_array_append_new(tables, table_json(f, sec->tables[t]));
		set(j, "tables", tables);
		json_t *charts = json_array();
		for (size_t c = 0; c < sec->ncharts; c++)
			json_array_append_new(charts, chart_json(f, sec->charts[c]));
		set(j, "charts", charts);
		json_array_append_new(secs, j);
	}
	set(o, "sections", secs);
	return o;
}
