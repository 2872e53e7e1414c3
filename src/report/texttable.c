#include "report/texttable.h"

#include "report/report_md_write.h"
#include "report/textfmt.h"
#include "util/escape.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void
text_table_init(struct text_table *t, size_t ncols, const char *const *headers,
		const char *align)
{
	memset(t, 0, sizeof(*t));
	strbuf_init(&t->text);
	strbuf_init(&t->scratch);
	t->ncols = ncols;
	t->align = align;
	for (size_t i = 0; i < ncols; i++)
		text_table_add(t, headers[i]);
}

void
text_table_release(struct text_table *t)
{
	strbuf_release(&t->text);
	strbuf_release(&t->scratch);
	free(t->cell);
	memset(t, 0, sizeof(*t));
}

/* A new cell, its text to be appended to t->text, then end_cell(). */
static void
start_cell(struct text_table *t)
{
	t->cell = xgrow(t->cell, &t->alloc, t->ncells + 1, sizeof(*t->cell));
	t->cell[t->ncells++] = t->text.len;
}

static void
end_cell(struct text_table *t)
{
	strbuf_addch(&t->text, '\0');
}

/* Cells are kept escaped: widths are those of the text shown. */
static void
add_escaped(struct text_table *t, const char *s, size_t n)
{
	start_cell(t);
	escape_add(&t->text, s, n);
	end_cell(t);
}

void
text_table_add(struct text_table *t, const char *cell)
{
	add_escaped(t, cell, strlen(cell));
}

void
text_table_addf(struct text_table *t, const char *fmt, ...)
{
	va_list ap;
	strbuf_reset(&t->scratch);
	va_start(ap, fmt);
	strbuf_vaddf(&t->scratch, fmt, ap);
	va_end(ap);
	add_escaped(t, t->scratch.buf, t->scratch.len);
}

void
text_table_add_u64(struct text_table *t, uint64_t v)
{
	start_cell(t);
	strbuf_add_u64(&t->text, v);   /* digits: nothing to escape */
	end_cell(t);
}

const char *
text_table_cell(const struct text_table *t, size_t i)
{
	return t->text.buf + t->cell[i];
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
		report_md_escape(text_table_cell(t, i), 0, &cell);
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

/*
 * A cell's width in characters: its length in bytes when it is ASCII,
 * looked at eight bytes at a time, else text_width()'s count. Measuring
 * byte by byte was a third of writing a large diff's tables.
 */
static size_t
cell_width(const char *cell, size_t len)
{
	const uint64_t tops = 0x8080808080808080u;
	size_t i = 0;
	for (; len - i >= 8; i += 8) {
		uint64_t w;
		memcpy(&w, cell + i, sizeof(w));
		if (w & tops)
			return text_width(cell);
	}
	for (; i < len; i++)
		if ((unsigned char)cell[i] & 0x80)
			return text_width(cell);
	return len;
}

/*
 * Text: the whole table laid out in one buffer and written at once. Cells
 * are escaped already (escaping them again changes nothing), and each
 * one's width is measured once. The buffer is sized once for the most the
 * table can take (each cell padded to its column's width and its two
 * blanks, a line end a row) and filled by hand: a diff of folders writes
 * ~600 cells a pair, and a size check per piece was half of this.
 */
void
text_table_write(FILE *out, const struct text_table *t, bool markdown)
{
	if (markdown) {
		write_markdown(out, t);
		return;
	}
	size_t *width = xcalloc(t->ncols, sizeof(*width));
	size_t *cw = xcalloc(t->ncells ? t->ncells : 1, sizeof(*cw));
	size_t most = 0;
	for (size_t i = 0, col = 0; i < t->ncells; i++) {
		cw[i] = cell_width(text_table_cell(t, i),
				   (i + 1 < t->ncells ? t->cell[i + 1] : t->text.len) - t->cell[i] - 1);
		if (cw[i] > width[col])
			width[col] = cw[i];
		col = col + 1 == t->ncols ? 0 : col + 1;
	}
	for (size_t i = 0, col = 0; i < t->ncells; i++) {
		/* Bytes: the cell's own, pad to the width in characters, blanks, LF. */
		most += (i + 1 < t->ncells ? t->cell[i + 1] : t->text.len) - t->cell[i] +
			width[col] + 3;
		col = col + 1 == t->ncols ? 0 : col + 1;
	}
	struct strbuf sb = STRBUF_INIT;
	strbuf_grow(&sb, most);
	char *o = sb.buf;
	for (size_t i = 0, col = 0; i < t->ncells; i++) {
		const char *cell = text_table_cell(t, i);
		size_t len = (i + 1 < t->ncells ? t->cell[i + 1] : t->text.len) - t->cell[i] - 1;
		size_t pad = width[col] - cw[i];
		bool last = col + 1 == t->ncols;
		if (col && !(last && !*cell)) {   /* no trailing blanks after an empty last cell */
			memcpy(o, "  ", 2);
			o += 2;
		}
		if (t->align[col] == 'r') {
			memset(o, ' ', pad);
			o += pad;
		}
		memcpy(o, cell, len);
		o += len;
		if (t->align[col] != 'r' && !last) {
			memset(o, ' ', pad);
			o += pad;
		}
		if (last)
			*o++ = '\n';
		col = last ? 0 : col + 1;
	}
	fwrite(sb.buf, 1, (size_t)(o - sb.buf), out);
	strbuf_release(&sb);
	free(cw);
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
	unsigned long long m = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
	char d[20];   /* 2^63 has 19 digits */
	size_t n = sizeof(d), k = 0;
	do {
		d[--n] = (char)('0' + m % 10);
		m /= 10;
	} while (m);
	if (v)
		out[k++] = v > 0 ? '+' : '-';
	memcpy(out + k, d + n, sizeof(d) - n);
	out[k + sizeof(d) - n] = '\0';
}
