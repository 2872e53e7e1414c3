#include "report/report_md_write.h"

#include "report/report_html_write.h"
#include "report/report_text.h"
#include "util/array.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* How much of the report a rendering shows; smaller levels until it fits. */
struct md_budget {
	size_t rows;        /* rows per table */
	size_t cell_chars;  /* characters per cell */
	size_t lines;       /* detail lines (backtrace frames) per row */
};

static const struct md_budget budgets[] = {
	{ 100, 200, 40 },
	{ 50, 160, 24 },
	{ 25, 100, 12 },
	{ 10, 80, 8 },
	{ 5, 60, 4 },
	{ 0, 40, 0 },
};

#define NBUDGETS (ARRAY_SIZE(budgets))

void
report_md_escape(const char *s, size_t max_chars, struct strbuf *out)
{
	struct strbuf clean = STRBUF_INIT;
	report_text_clean(s, max_chars, &clean);
	const char *p = clean.buf;
	/*
	 * A leading marker could start a heading, a list, a quote or a setext
	 * underline: "# ", "- ", "+ ", "* ", "1. ", "2) ", ">", "===", "---".
	 */
	size_t digits = strspn(p, "0123456789");
	bool ends = *p && (p[1] == '\0' || p[1] == ' ');
	if ((strchr("#-+", *p) && *p && ends) ||
	    ((*p == '=' || *p == '-') && p[strspn(p, *p == '=' ? "= " : "- ")] == '\0'))
		strbuf_addch(out, '\\');
	bool list_number = digits && digits <= 9 && (p[digits] == '.' || p[digits] == ')') &&
			   (p[digits + 1] == '\0' || p[digits + 1] == ' ');
	for (size_t i = 0; p[i]; i++) {
		char c = p[i];
		if (strchr("\\`*_[]<>|&~!", c) || (list_number && i == digits))
			strbuf_addch(out, '\\');
		strbuf_addch(out, c);
	}
	strbuf_release(&clean);
}

static void
cell_text(const struct report_cell *c, bool exact_beside, const struct md_budget *b,
	  struct strbuf *out)
{
	if (c->kind == REPORT_CELL_TEXT || c->kind == REPORT_CELL_CODE) {
		report_md_escape(c->text, b->cell_chars, out);
	} else if (c->kind == REPORT_CELL_EMPTY) {
		strbuf_addstr(out, "\xe2\x80\x93");
	} else if (exact_beside) {
		report_cell_figure_exact_beside(c, out);
	} else {
		report_cell_figure(c, out);
	}
}

static bool
column_is_figure(const struct report_table *t, size_t col)
{
	for (size_t r = 0; r < t->nrows; r++) {
		const struct report_cell *c = report_table_cell(t, r, col);
		if (c->kind != REPORT_CELL_EMPTY)
			return report_cell_is_figure(c);
	}
	return false;
}

static void
write_details(const struct report_table *t, size_t row, const struct md_budget *b,
	      struct strbuf *out)
{
	char **lines = t->details ? t->details[row] : NULL;
	if (!lines || b->lines == 0)
		return;
	size_t n = 0;
	while (lines[n])
		n++;
	/* A raw HTML line: Markdown escapes are not read there, HTML's are. */
	strbuf_addstr(out, "\n<details><summary>backtrace of ");
	/* The row's first name from the capture (its call site) says whose backtrace it is. */
	const char *what = NULL;
	for (size_t c = 0; c < t->ncols && !what; c++) {
		const struct report_cell *cell = report_table_cell(t, row, c);
		if (cell->kind == REPORT_CELL_CODE)
			what = cell->text;
	}
	report_html_escape(what ? what : "the site", 60, out);
	strbuf_addf(out, " (%zu frames)</summary>\n\n", n);
	for (size_t i = 0; i < n && i < b->lines; i++) {
		strbuf_addf(out, "%zu. ", i + 1);
		report_md_escape(lines[i], b->cell_chars, out);
		strbuf_addch(out, '\n');
	}
	if (n > b->lines)
		strbuf_addf(out, "\n*%zu more frames*\n", n - b->lines);
	strbuf_addstr(out, "\n</details>\n");
}

/* The rows a rendering shows: not folded, at most b->rows of them. */
static size_t
shown_rows(const struct report_table *t, bool all, const struct md_budget *b, size_t *rows)
{
	size_t n = 0;
	for (size_t r = 0; r < t->nrows && n < b->rows; r++)
		if (!report_table_row_folded(t, r, all))
			rows[n++] = r;
	return n;
}

static void
write_table(const struct report_table *t, bool all, const struct md_budget *b,
	    struct strbuf *out)
{
	if (t->nrows == 0)
		return;
	size_t *rows = xcalloc(t->nrows, sizeof(*rows));
	size_t shown = shown_rows(t, all, b, rows);
	size_t kept_folded = report_table_folded(t, all) ? t->nunchanged : 0;
	uint64_t folded = report_table_folded(t, all);
	uint64_t more = report_table_omitted_open(t, all) + (t->nrows - kept_folded - shown);
	bool fold = shown > REPORT_MD_OPEN_ROWS;
	if (fold) {
		strbuf_addstr(out, "<details><summary>");
		report_html_escape(t->title, 0, out);
		strbuf_addf(out, " (%zu rows)</summary>\n\n", shown + (size_t)more);
	} else {
		strbuf_addstr(out, "**");
		report_md_escape(t->title, 0, out);
		strbuf_addstr(out, "**\n\n");
	}
	if (shown) {
		strbuf_addch(out, '|');
		for (size_t c = 0; c < t->ncols; c++) {
			strbuf_addch(out, ' ');
			report_md_escape(t->cols[c], 0, out);
			strbuf_addstr(out, " |");
		}
		strbuf_addstr(out, "\n|");
		for (size_t c = 0; c < t->ncols; c++)
			strbuf_addstr(out, column_is_figure(t, c) ? "---:|" : "---|");
		strbuf_addch(out, '\n');
	}
	for (size_t i = 0; i < shown; i++) {
		strbuf_addch(out, '|');
		for (size_t c = 0; c < t->ncols; c++) {
			strbuf_addch(out, ' ');
			cell_text(report_table_cell(t, rows[i], c), t->exact_beside, b, out);
			strbuf_addstr(out, " |");
		}
		strbuf_addch(out, '\n');
	}
	/* Each line after a table starts after a blank line: never read as a row. */
	const char *gap = shown ? "\n" : "";
	if (more)
		strbuf_addf(out, "%s*%" PRIu64 " more row%s not shown: `--format html` shows up "
			    "to %d and its JSON up to %d.*\n", gap, more, more == 1 ? "" : "s",
			    REPORT_HTML_ROWS, REPORT_ROWS_MAX);
	if (more)
		gap = "\n";
	if (folded)
		strbuf_addf(out, "%s*%" PRIu64 " unchanged row%s left out: `--all` shows %s.*\n",
			    gap, folded,
			    folded == 1 ? "" : "s", folded == 1 ? "it" : "them");
	for (size_t i = 0; t->details && i < shown; i++)
		write_details(t, rows[i], b, out);
	if (t->note) {
		strbuf_addch(out, '\n');
		report_md_escape(t->note, 0, out);
		strbuf_addch(out, '\n');
	}
	if (fold)
		strbuf_addstr(out, "\n</details>\n");
	strbuf_addch(out, '\n');
	free(rows);
}

/* Is provenance row `i` one of the first few (or is every row shown)? */
static bool
provenance_first(const struct report *r, size_t i)
{
	return r->all || report_provenance_rank(r->provenance[i].key) >= 0;
}

static void
write_provenance_row(const struct report_kv *kv, const struct md_budget *b,
		     struct strbuf *out)
{
	strbuf_addstr(out, "| ");
	report_md_escape(kv->key, 0, out);
	strbuf_addstr(out, " | ");
	report_md_escape(kv->value, b->cell_chars, out);
	strbuf_addstr(out, " |\n");
}

/* The rows that matter first, in report_provenance_rank() order (all rows with --all). */
static void
write_provenance(const struct report *r, const struct md_budget *b, struct strbuf *out)
{
	size_t first = 0;
	for (size_t i = 0; i < r->nprovenance; i++)
		first += provenance_first(r, i);
	if (first == 0)
		return;
	strbuf_addstr(out, "| provenance | |\n|---|---|\n");
	for (int rank = 0; !r->all && rank < REPORT_PROVENANCE_FIRST; rank++)
		for (size_t i = 0; i < r->nprovenance; i++)
			if (report_provenance_rank(r->provenance[i].key) == rank)
				write_provenance_row(&r->provenance[i], b, out);
	for (size_t i = 0; r->all && i < r->nprovenance; i++)
		write_provenance_row(&r->provenance[i], b, out);
	strbuf_addch(out, '\n');
}

/* The other provenance rows, as one compact paragraph at the end of the page. */
static void
write_provenance_rest(const struct report *r, const struct md_budget *b, struct strbuf *out)
{
	size_t n = 0;
	for (size_t i = 0; i < r->nprovenance; i++) {
		if (provenance_first(r, i))
			continue;
		strbuf_addstr(out, n++ ? " \xc2\xb7 " : "Also recorded: ");
		report_md_escape(r->provenance[i].key, 0, out);
		strbuf_addstr(out, ": ");
		report_md_escape(r->provenance[i].value, b->cell_chars, out);
	}
	if (n)
		strbuf_addstr(out, "\n");
}

static void
render(const struct report *r, const struct md_budget *b, struct strbuf *out)
{
	strbuf_addstr(out, "## iotally report: ");
	if (r->facts.tracked_class) {
		strbuf_addstr(out, "tracking session\n\n");
	} else {
		report_md_escape(r->kind, 0, out);
		strbuf_addstr(out, r->pair ? " (before/after)\n\n" : "\n\n");
	}
	/* The summary block (model/summary.h) first: one line a figure, the label bold. */
	struct summary sum;
	summary_build(&r->facts, &sum);
	for (size_t i = 0; i < sum.n; i++) {
		const char *t = sum.lines[i].text, *colon = strchr(t, ':');
		strbuf_addstr(out, "- ");
		if (colon) {
			char *label = xmemdup0(t, (size_t)(colon - t) + 1);
			strbuf_addstr(out, "**");
			report_md_escape(label, 0, out);
			strbuf_addstr(out, "**");
			report_md_escape(colon + 1, 2 * b->cell_chars, out);
			free(label);
		} else {
			report_md_escape(t, 2 * b->cell_chars, out);
		}
		strbuf_addstr(out, "\n");
	}
	if (sum.n)
		strbuf_addstr(out, "\n");
	if (r->verdict) {
		/* Under a summary, every change in one line; alone, the headline. */
		strbuf_addstr(out, sum.n ? "" : "**");
		report_md_escape(r->verdict, 2 * b->cell_chars, out);
		strbuf_addstr(out, sum.n ? "\n\n" : "**\n\n");
	}
	summary_release(&sum);
	for (size_t i = 0; i < r->nwarnings && i < 20; i++) {
		strbuf_addstr(out, "> **Warning:** ");
		report_md_escape(r->warnings[i], b->cell_chars * 2, out);
		strbuf_addstr(out, "\n\n");
	}
	if (r->nwarnings > 20)
		strbuf_addf(out, "> %zu more warnings\n\n", r->nwarnings - 20);
	strbuf_addstr(out, "Sizes are in binary units (1 KiB = 1024 bytes); `~` marks a "
		      "rounded figure. `--format html` embeds every exact byte count.\n\n");
	for (int s = 0; s < REPORT_SECTIONS; s++) {
		const struct report_section *sec = &r->sections[s];
		if (!sec->title)
			continue;
		strbuf_addstr(out, "### ");
		report_md_escape(sec->title, 0, out);
		strbuf_addstr(out, "\n\n");
		for (size_t p = 0; p < sec->nparagraphs; p++) {
			report_md_escape(sec->paragraphs[p], b->cell_chars * 2, out);
			strbuf_addstr(out, "\n\n");
		}
		for (size_t t = 0; t < sec->ntables; t++)
			write_table(sec->tables[t], r->all, b, out);
	}
	/* Where the figures come from: below them. */
	write_provenance(r, b, out);
	write_provenance_rest(r, b, out);
}

void
report_md_render(const struct report *r, struct strbuf *out)
{
	size_t start = out->len;
	for (size_t i = 0; i < NBUDGETS; i++) {
		out->len = start;
		out->buf[start] = '\0';
		render(r, &budgets[i], out);
		if (out->len - start <= REPORT_MD_LIMIT)
			return;
	}
	/* Still too long (thousands of warnings or sections): cut at a line. */
	static const char cut[] = "\n*The report was cut here: it passed " REPORT_MD_LIMIT_SHOWN
				   " characters.*\n";
	size_t keep = REPORT_MD_LIMIT - sizeof(cut);
	while (keep > 0 && out->buf[start + keep - 1] != '\n')
		keep--;
	out->len = start + keep;
	out->buf[out->len] = '\0';
	strbuf_addstr(out, cut);
}

int
report_md_write(FILE *out, const struct report *r)
{
	struct strbuf sb = STRBUF_INIT;
	report_md_render(r, &sb);
	size_t n = fwrite(sb.buf, 1, sb.len, out);
	int rc = n == sb.len ? 0 : -1;
	strbuf_release(&sb);
	return rc;
}
