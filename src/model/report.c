#include "model/report.h"

#include "model/diff.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A kind's own section is named by the kind ("classes"). */
#define REPORT_SEC_KIND_NAME(id, name) [REPORT_SEC_##id] = #name,
static const char *const section_names[REPORT_SECTIONS] = {
	[REPORT_SEC_SESSION] = "session",
	[REPORT_SEC_GPU] = "gpu",
	[REPORT_SEC_SIZES] = "sizes",
	CAPTURE_KINDS(REPORT_SEC_KIND_NAME)
	[REPORT_SEC_GATES] = "gates",
	[REPORT_SEC_TIMELINES] = "timelines",
	[REPORT_SEC_SAMPLES] = "samples",
};
#undef REPORT_SEC_KIND_NAME

const char *
report_section_name(const struct report *r, enum report_section_id id)
{
	return id < REPORT_SECTIONS && r->sections[id].name ? r->sections[id].name : "?";
}

static char *
vformat(const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_vaddf(&sb, fmt, ap);
	return strbuf_detach(&sb, NULL);
}

void
report_init(struct report *r, const char *kind, bool pair)
{
	memset(r, 0, sizeof(*r));
	r->kind = xstrdup(kind);
	r->pair = pair;
	summary_facts_init(&r->facts, pair);
}

static void
table_free(struct report_table *t)
{
	free(t->id);
	free(t->title);
	free(t->note);
	for (size_t i = 0; i < t->ncols; i++)
		free(t->cols[i]);
	free(t->cols);
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i].text);
	free(t->cells);
	for (size_t i = 0; t->details && i < t->nrows; i++) {
		for (size_t j = 0; t->details[i] && t->details[i][j]; j++)
			free(t->details[i][j]);
		free(t->details[i]);
	}
	free(t->details);
	free(t->unchanged);
	free(t);
}

static void
chart_free(struct report_chart *c)
{
	free(c->title);
	free(c->table_id);
	for (size_t i = 0; i < c->nseries; i++)
		free(c->series[i]);
	for (size_t i = 0; i < c->nitems; i++)
		free(c->items[i].label);
	free(c->items);
	free(c->badge);
	free(c->note);
	free(c);
}

static void
section_release(struct report_section *s)
{
	free(s->title);
	for (size_t i = 0; i < s->nparagraphs; i++)
		free(s->paragraphs[i]);
	free(s->paragraphs);
	for (size_t i = 0; i < s->ntables; i++)
		table_free(s->tables[i]);
	free(s->tables);
	for (size_t i = 0; i < s->ncharts; i++)
		chart_free(s->charts[i]);
	free(s->charts);
}

void
report_release(struct report *r)
{
	free(r->kind);
	free(r->verdict);
	for (size_t i = 0; i < r->nprovenance; i++) {
		free(r->provenance[i].key);
		free(r->provenance[i].value);
	}
	free(r->provenance);
	for (size_t i = 0; i < r->nwarnings; i++)
		free(r->warnings[i]);
	free(r->warnings);
	for (int i = 0; i < REPORT_SECTIONS; i++)
		section_release(&r->sections[i]);
	summary_facts_release(&r->facts);
	memset(r, 0, sizeof(*r));
}

void
report_add_verdict(struct report *r, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	if (r->verdict) {
		strbuf_addstr(&sb, r->verdict);
		strbuf_addstr(&sb, "; ");
		free(r->verdict);
	}
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	r->verdict = strbuf_detach(&sb, NULL);
}

void
report_add_provenance(struct report *r, const char *key, const char *fmt, ...)
{
	va_list ap;
	r->provenance = xgrow(r->provenance, &r->provenance_alloc, r->nprovenance + 1,
			      sizeof(*r->provenance));
	struct report_kv *kv = &r->provenance[r->nprovenance++];
	kv->key = xstrdup(key);
	va_start(ap, fmt);
	kv->value = vformat(fmt, ap);
	va_end(ap);
}

void
report_add_provenance_pair(struct report *r, const char *key, const char *before,
			   const char *after)
{
	if (before && strcmp(before, after) != 0)
		report_add_provenance(r, key, "%s \u2192 %s", before, after);
	else
		report_add_provenance(r, key, "%s", after);
}

int
report_provenance_rank(const char *key)
{
	/* What a reader checks first: whose memory, when, on which system, from what. */
	static const char *const first[] = {
		"Process", "Target", "Captured", "Capture run", "OS version", "Host",
		"Input", "Inputs",
	};
	_Static_assert(sizeof(first) / sizeof(first[0]) == REPORT_PROVENANCE_FIRST,
		       "REPORT_PROVENANCE_FIRST counts the list");
	for (size_t i = 0; i < sizeof(first) / sizeof(first[0]); i++)
		if (strcmp(key, first[i]) == 0)
			return (int)i;
	return -1;
}

void
report_add_warning(struct report *r, const char *fmt, ...)
{
	va_list ap;
	r->warnings = xrealloc(r->warnings, (r->nwarnings + 1) * sizeof(*r->warnings));
	va_start(ap, fmt);
	r->warnings[r->nwarnings++] = vformat(fmt, ap);
	va_end(ap);
}

struct report_section *
report_section(struct report *r, enum report_section_id id, const char *title)
{
	return report_section_named(r, id, section_names[id], title);
}

struct report_section *
report_section_named(struct report *r, enum report_section_id id, const char *name,
		     const char *title)
{
	struct report_section *s = &r->sections[id];
	s->every_changed_row = r->every_changed_row;
	if (!s->title)
		s->title = xstrdup(title);
	if (!s->name)
		s->name = name;
	return s;
}

void
report_section_add_paragraph(struct report_section *s, const char *fmt, ...)
{
	va_list ap;
	s->paragraphs = xrealloc(s->paragraphs, (s->nparagraphs + 1) * sizeof(*s->paragraphs));
	va_start(ap, fmt);
	s->paragraphs[s->nparagraphs++] = vformat(fmt, ap);
	va_end(ap);
}

struct report_table *
report_section_add_table(struct report_section *s, const char *id, const char *title,
			 size_t ncols, const char *const *cols)
{
	struct report_table *t = xcalloc(1, sizeof(*t));
	t->every_changed_row = s->every_changed_row;
	t->id = xstrdup(id);
	t->title = xstrdup(title);
	t->ncols = ncols;
	t->cols = xcalloc(ncols, sizeof(*t->cols));
	for (size_t i = 0; i < ncols; i++)
		t->cols[i] = xstrdup(cols[i]);
	s->tables = xrealloc(s->tables, (s->ntables + 1) * sizeof(*s->tables));
	s->tables[s->ntables++] = t;
	return t;
}

bool
report_table_row(struct report_table *t)
{
	if (t->nrows >= REPORT_ROWS_MAX && !t->every_changed_row) {
		t->omitted++;
		t->last_dropped = true;
		return false;
	}
	t->last_dropped = false;
	size_t need = (t->nrows + 1) * t->ncols;
	t->cells = xgrow(t->cells, &t->cells_alloc, need, sizeof(*t->cells));
	for (size_t i = t->nrows * t->ncols; i < need; i++)
		t->cells[i] = (struct report_cell){ .kind = REPORT_CELL_EMPTY };
	if (t->details) {
		t->details = xrealloc(t->details, (t->nrows + 1) * sizeof(*t->details));
		t->details[t->nrows] = NULL;
	}
	if (t->unchanged) {
		t->unchanged = xrealloc(t->unchanged, (t->nrows + 1) * sizeof(*t->unchanged));
		t->unchanged[t->nrows] = false;
	}
	t->nrows++;
	t->fill = 0;
	return true;
}

/*
 * The next cell of the last row, or NULL when the last row was dropped
 * (the table is full) or every cell of it is set.
 */
static struct report_cell *
next_cell(struct report_table *t)
{
	if (t->last_dropped || t->nrows == 0 || t->fill >= t->ncols)
		return NULL;
	return &t->cells[(t->nrows - 1) * t->ncols + t->fill++];
}

void
report_table_text(struct report_table *t, const char *s)
{
	struct report_cell *c = next_cell(t);
	if (c)
		*c = (struct report_cell){ .kind = REPORT_CELL_TEXT, .text = xstrdup(s) };
}

void
report_table_code(struct report_table *t, const char *s)
{
	struct report_cell *c = next_cell(t);
	if (c)
		*c = (struct report_cell){ .kind = REPORT_CELL_CODE, .text = xstrdup(s) };
}

void
report_table_textf(struct report_table *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = vformat(fmt, ap);
	va_end(ap);
	struct report_cell *c = next_cell(t);
	if (c)
		*c = (struct report_cell){ .kind = REPORT_CELL_TEXT, .text = s };
	else
		free(s);
}

void
report_table_figure(struct report_table *t, enum report_cell_kind kind, int64_t v)
{
	struct report_cell *c = next_cell(t);
	if (c)
		*c = (struct report_cell){ .kind = kind, .value = v };
}

void
report_table_empty(struct report_table *t)
{
	struct report_cell *c = next_cell(t);
	if (c)
		*c = (struct report_cell){ .kind = REPORT_CELL_EMPTY };
}

/* The last row taken out again and counted as an unchanged row left out. */
static void
drop_last_row(struct report_table *t)
{
	size_t row = t->nrows - 1;
	for (size_t i = row * t->ncols; i < t->nrows * t->ncols; i++) {
		free(t->cells[i].text);
		t->cells[i] = (struct report_cell){ .kind = REPORT_CELL_EMPTY };
	}
	if (t->details && t->details[row]) {
		for (size_t j = 0; t->details[row][j]; j++)
			free(t->details[row][j]);
		free(t->details[row]);
		t->details[row] = NULL;
	}
	t->nrows--;
	t->last_dropped = true;
	t->omitted++;
	t->omitted_unchanged++;
}

void
report_table_unchanged(struct report_table *t)
{
	if (t->last_dropped) {
		t->omitted_unchanged++;
		return;
	}
	if (t->nrows == 0)
		return;
	/* Past the cap only changed rows stay (every_changed_row). */
	if (t->nrows > REPORT_ROWS_MAX) {
		drop_last_row(t);
		return;
	}
	if (!t->unchanged)
		t->unchanged = xcalloc(t->nrows, sizeof(*t->unchanged));
	if (!t->unchanged[t->nrows - 1])
		t->nunchanged++;
	t->unchanged[t->nrows - 1] = true;
}

bool
report_table_row_folded(const struct report_table *t, size_t row, bool all)
{
	return !all && t->unchanged && t->unchanged[row];
}

uint64_t
report_table_folded(const struct report_table *t, bool all)
{
	return all ? 0 : t->nunchanged + t->omitted_unchanged;
}

uint64_t
report_table_omitted_open(const struct report_table *t, bool all)
{
	return all ? t->omitted : t->omitted - t->omitted_unchanged;
}

void
report_table_detail(struct report_table *t, const char *const *lines, size_t n)
{
	if (t->last_dropped || t->nrows == 0)
		return;
	if (!t->details)
		t->details = xcalloc(t->nrows, sizeof(*t->details));
	char **d = xcalloc(n + 1, sizeof(*d));
	for (size_t i = 0; i < n; i++)
		d[i] = xstrdup(lines[i]);
	t->details[t->nrows - 1] = d;
}

const struct report_cell *
report_table_cell(const struct report_table *t, size_t row, size_t col)
{
	return &t->cells[row * t->ncols + col];
}

struct report_chart *
report_section_add_chart(struct report_section *s, enum report_chart_kind kind,
			 const char *title, const char *table_id, bool bytes)
{
	struct report_chart *c = xcalloc(1, sizeof(*c));
	c->kind = kind;
	c->title = xstrdup(title);
	c->table_id = xstrdup(table_id);
	c->bytes = bytes;
	s->charts = xrealloc(s->charts, (s->ncharts + 1) * sizeof(*s->charts));
	s->charts[s->ncharts++] = c;
	return c;
}

void
report_chart_series(struct report_chart *c, const char *name)
{
	if (c->nseries < REPORT_SERIES_MAX)
		c->series[c->nseries++] = xstrdup(name);
}

struct report_chart_item *
report_chart_add(struct report_chart *c, const char *label)
{
	if (c->nitems >= REPORT_CHART_ITEMS_MAX) {
		c->omitted++;
		return NULL;
	}
	c->items = xgrow(c->items, &c->items_alloc, c->nitems + 1, sizeof(*c->items));
	struct report_chart_item *it = &c->items[c->nitems++];
	memset(it, 0, sizeof(*it));
	it->label = xstrdup(label);
	return it;
}

unsigned
report_log2(uint64_t v)
{
	unsigned k = 0;
	while (v > 1) {
		v >>= 1;
		k++;
	}
	return k;
}

/* A gate's limit as diff prints it too (model/diff.h: typed, and its bytes
 * or size beside it), so that both commands say one limit one way. */
static void
gate_limit_cell(struct report_table *t, const struct diff_gate *g)
{
	struct strbuf sb = STRBUF_INIT;
	diff_gate_limit_text(g, &sb);
	report_table_text(t, sb.buf);
	strbuf_release(&sb);
}

/* One gate's row: its figures in its metric's unit (diff_gate.bytes), or
 * empty cells and why when a capture lacks the figure (never 0 against 0). */
static void
gate_row(struct report_table *t, const struct diff_gate *g)
{
	report_table_row(t);
	report_table_code(t, g->text);
	if (g->unevaluable) {
		for (int k = 0; k < 3; k++)
			report_table_empty(t);
	} else {
		report_table_figure(t, g->bytes ? REPORT_CELL_BYTES : REPORT_CELL_COUNT, g->before);
		report_table_figure(t, g->bytes ? REPORT_CELL_BYTES : REPORT_CELL_COUNT, g->after);
		report_table_figure(t, g->bytes ? REPORT_CELL_DBYTES : REPORT_CELL_DCOUNT, g->delta);
	}
	gate_limit_cell(t, g);
	report_table_text(t, diff_gate_result_word(g->tripped, g->unevaluable));
}

void
report_add_gates(struct report *r, const struct diff_gate *gates, size_t n)
{
	static const char *const cols[] = {
		"gate", "before", "after", "delta", "limit", "result",
	};
	if (n == 0)
		return;
	struct report_section *s = report_section(r, REPORT_SEC_GATES, "Gates");
	struct report_table *t = report_section_add_table(s, "gates", "Gates", 6, cols);
	/* The verdict rests on exact bytes: the page shows them, not only units. */
	t->exact_beside = true;
	size_t tripped = 0, unevaluable = 0;
	for (size_t i = 0; i < n; i++) {
		tripped += gates[i].tripped;
		unevaluable += gates[i].unevaluable;
		gate_row(t, &gates[i]);
	}
	char also[64] = "";
	if (unevaluable)
		snprintf(also, sizeof(also), ", %zu not evaluable", unevaluable);
	report_section_add_paragraph(s, "%zu of %zu gate%s tripped%s.", tripped, n,
				     n == 1 ? "" : "s", also);
	/* What a gate measured when its metric says (the class that grew most,
	 * totals taken from two different files), as diff's results say it;
	 * why a gate could not be evaluated. */
	for (size_t i = 0; i < n; i++)
		if (gates[i].unevaluable)
			report_section_add_paragraph(s, "%s: not evaluable: %s.", gates[i].text,
						     gates[i].reason);
		else if (gates[i].subject || gates[i].phrase) {
			/* A tripped gate says what grew as the summary and diff do. */
			struct strbuf sb = STRBUF_INIT;
			diff_gate_words(&gates[i], &sb);
			report_section_add_paragraph(s, "%s: %s.", gates[i].text, sb.buf);
			strbuf_release(&sb);
		}
	/* The gates' result goes first: it is what a CI reader looks for. */
	char *rest = r->verdict;
	r->verdict = NULL;
	if (tripped)
		report_add_verdict(r, "GATES FAILED: %zu of %zu%s", tripped, n, also);
	else
		report_add_verdict(r, "gates passed: %zu of %zu%s", n - unevaluable, n, also);
	if (rest)
		report_add_verdict(r, "%s", rest);
	free(rest);
}

void
report_chart_badge(struct report_chart *c, const char *badge, const char *note)
{
	free(c->badge);
	free(c->note);
	c->badge = badge ? xstrdup(badge) : NULL;
	c->note = note ? xstrdup(note) : NULL;
}
