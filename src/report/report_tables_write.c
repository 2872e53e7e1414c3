/*
 * A report's tables as text or Markdown (report/report_tables_write.h).
 */

#include "report/report_tables_write.h"

#include "report/report_md_write.h"
#include "report/report_text.h"
#include "report/texttable.h"
#include "util/escape.h"
#include "util/size.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdlib.h>

/*
 * A column of figures is right-aligned: its first cell that is not empty
 * says which; a column of empty cells only is figures neither side knows.
 */
static char
column_align(const struct report_table *t, size_t col)
{
	if (col < 32 && (t->text_figures >> col) & 1)
		return 'r';
	for (size_t r = 0; r < t->nrows; r++) {
		const struct report_cell *c = report_table_cell(t, r, col);
		if (c->kind != REPORT_CELL_EMPTY)
			return report_cell_is_figure(c) ? 'r' : 'l';
	}
	return 'r';
}

/* A column's name as a text table's header: its ASCII letters in capitals. */
static char *
column_header(const char *name)
{
	char *h = xstrdup(name ? name : "");
	for (char *p = h; *p; p++)
		if (*p >= 'a' && *p <= 'z')
			*p = (char)(*p - 'a' + 'A');
	return h;
}

static void
add_cell(struct text_table *tt, const struct report_cell *c, unsigned byte_flags)
{
	char b[32];
	switch (c->kind) {
	case REPORT_CELL_TEXT:
	case REPORT_CELL_CODE:
		text_table_add(tt, c->text ? c->text : "");
		return;
	case REPORT_CELL_COUNT:
		text_table_addf(tt, "%" PRId64, c->value);
		return;
	case REPORT_CELL_DCOUNT:
		text_signed(b, (long long)c->value);
		break;
	case REPORT_CELL_BYTES:
		size_format_text(c->value, byte_flags, b);
		break;
	case REPORT_CELL_DBYTES:
		size_format_text(c->value, byte_flags | SIZE_TEXT_SIGNED, b);
		break;
	case REPORT_CELL_EMPTY:
	default:
		text_table_add(tt, "-");
		return;
	}
	text_table_add(tt, b);
}

/* A title or note of the model (it may hold a file's name): escaped as the format's text is. */
static void
write_escaped(FILE *out, const char *s, bool markdown)
{
	struct strbuf sb = STRBUF_INIT;
	if (markdown)
		report_md_escape(s, 0, &sb);
	else
		escape_addstr(&sb, s);
	fwrite(sb.buf, 1, sb.len, out);
	strbuf_release(&sb);
}

/* One table; one whose rows are all unchanged is still titled, with the line counting them. */
static void
write_table(FILE *out, const struct report_table *t, bool markdown)
{
	uint64_t folded = report_table_folded(t, false);
	uint64_t more = report_table_omitted_open(t, false);
	size_t shown = t->nrows - (t->unchanged ? t->nunchanged : 0);
	if (shown == 0 && more == 0 && folded == 0)
		return;
	char **headers = xcalloc(t->ncols, sizeof(*headers));
	char *align = xcalloc(t->ncols + 1, 1);
	for (size_t c = 0; c < t->ncols; c++) {
		headers[c] = column_header(t->cols[c]);
		align[c] = column_align(t, c);
	}
	struct text_table tt;
	text_table_init(&tt, t->ncols, (const char *const *)headers, align);
	unsigned byte_flags = t->rounded ? SIZE_TEXT_ROUNDED : 0;
	for (size_t r = 0; r < t->nrows; r++) {
		if (report_table_row_folded(t, r, false))
			continue;
		for (size_t c = 0; c < t->ncols; c++)
			add_cell(&tt, report_table_cell(t, r, c), byte_flags);
	}
	fputs(markdown ? "### " : "", out);
	write_escaped(out, t->title, markdown);
	fputs(markdown ? "\n\n" : ":\n", out);
	if (shown)
		text_table_write(out, &tt, markdown);
	text_table_release(&tt);
	for (size_t c = 0; c < t->ncols; c++)
		free(headers[c]);
	free(headers);
	free(align);
	/* Each line under a Markdown table follows a blank line: never read as a row. */
	const char *gap = markdown && shown ? "\n" : "";
	if (more)
		fprintf(out, "%s%" PRIu64 " more row%s not shown\n", gap, more, more == 1 ? "" : "s");
	if (more && markdown)
		gap = "\n";
	if (folded)
		fprintf(out, "%s%" PRIu64 " unchanged row%s not shown\n", gap, folded,
			folded == 1 ? "" : "s");
	if (t->note) {
		fputs(markdown ? "\n" : "", out);
		write_escaped(out, t->note, markdown);
		fputc('\n', out);
	}
	fputc('\n', out);
}

void
report_tables_write(FILE *out, const struct report *r, bool markdown)
{
	for (size_t s = 0; s < REPORT_SECTIONS; s++) {
		const struct report_section *sec = &r->sections[s];
		if (!sec->title)
			continue;
		for (size_t i = 0; i < sec->nparagraphs; i++) {
			write_escaped(out, sec->paragraphs[i], markdown);
			fputs("\n\n", out);
		}
		for (size_t i = 0; i < sec->ntables; i++)
			write_table(out, sec->tables[i], markdown);
	}
}
