#include "report/texttable.h"

#include "report/report_md_write.h"
#include "report/textfmt.h"
#include "util/escape.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void
text_table_init(struct text_table *t, size_t ncols, const char *const *headers,
		const char *align)
{
	memset(t, 0, sizeof(*t));
	t->ncols = ncols;
	t->align = align;
	for (size_t i = 0; i < ncols; i++)
		text_table_add(t, headers[i]);
}

void
text_table_release(struct text_table *t)
{
	for (size_t i = 0; i < t->ncells; i++)
		free(t->cells[i]);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}

/* Cells are kept escaped: widths are those of the text shown. */
static char *
escaped_copy(const char *s, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	escape_add(&sb, s, n);
	return strbuf_detach(&sb, NULL);
}

void
text_table_add(struct text_table *t, const char *cell)
{
	t->cells = xgrow(t->cells, &t->alloc, t->ncells + 1, sizeof(*t->cells));
	t->cells[t->ncells++] = escaped_copy(cell, strlen(cell));
}

void
text_table_addf(struct text_table *t, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	t->cells = xgrow(t->cells, &t->alloc, t->ncells + 1, sizeof(*t->cells));
	t->cells[t->ncells++] = escaped_copy(sb.buf, sb.len);
	strbuf_release(&sb);
}

size_t
text_table_rows(const struct text_table *t)
{
	return t->ncols ? t->ncells / t->ncols - 1 : 0;
}

static void
write_markdown(FILE *out, const struct text_table *t)
{
	struct strbuf cell = STRBUF_INIT;
	for (size_t i = 0; i < t->ncells; i++) {
		size_t col = i % t->ncols;
		fputs(col ? " | " : "| ", out);
		/* The report's Markdown escaping: the two Markdown writers agree. */
		strbuf_reset(&cell);
		report_md_escape(t->cells[i], 0, &cell);
		fwrite(cell.buf, 1, cell.len, out);
		if (col + 1 < t->ncols)
			continue;
		fputs(" |\n", out);
		if (i + 1 == t->ncols) {
			for (size_t c = 0; c < t->ncols; c++)
				fputs(t->align[c] == 'r' ? "|---:" : "|:---", out);
			fputs("|\n", out);
		}
	}
	strbuf_release(&cell);
}

void
text_table_write(FILE *out, const struct text_table *t, bool markdown)
{
	if (markdown) {
		write_markdown(out, t);
		return;
	}
	size_t *width = xcalloc(t->ncols, sizeof(*width));
	for (size_t i = 0; i < t->ncells; i++) {
		size_t w = text_width(t->cells[i]);
		if (w > width[i % t->ncols])
			width[i % t->ncols] = w;
	}
	for (size_t i = 0; i < t->ncells; i++) {
		size_t col = i % t->ncols;
		const char *cell = t->cells[i];
		bool last = col + 1 == t->ncols;
		if (col && !(last && !*cell))   /* no trailing blanks after an empty last cell */
			fputs("  ", out);
		if (t->align[col] == 'r')
			text_repeat(out, ' ', width[col] - text_width(cell));
		if (t->align[col] == 'r' || last)
			fputs(cell, out);
		else
			text_pad_right(out, cell, width[col]);
		if (last)
			fputc('\n', out);
	}
	free(width);
}

void
text_table_write_section(FILE *out, const struct text_table *t, bool markdown,
			 const char *title)
{
	if (!text_table_rows(t))
		return;
	fprintf(out, markdown ? "### %s\n\n" : "%s:\n", title);
	text_table_write(out, t, markdown);
	fputc('\n', out);
}

void
text_signed(char out[32], long long v)
{
	snprintf(out, 32, v > 0 ? "+%lld" : "%lld", v);
}
