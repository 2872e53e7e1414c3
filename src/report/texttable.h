#ifndef IOTALLY_REPORT_TEXTTABLE_H
#define IOTALLY_REPORT_TEXTTABLE_H

/*
 * A table built cell by cell and written either as aligned text columns
 * or as a Markdown table (for pasting into a bug). Cells are copied,
 * escaped by util/escape.h's rule (a name from the input cannot put a
 * control byte or a line break in the output); the table owns them.
 * Markdown cells are escaped as the report's are (report_md_escape(): | \ `
 * * _ < > [ ] & ~ ! and a leading list or heading marker) so a type or C++
 * symbol name can neither break the table nor turn into emphasis, code or
 * HTML.
 */

#include "util/strbuf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct text_table {
	size_t ncols;
	const char *align;     /* one 'l' or 'r' per column */
	/* The cells' escaped text, each ended by a NUL, in one buffer: a
	 * diff of folders adds ~600 cells a pair, one allocation each before. */
	struct strbuf text;
	size_t *cell;          /* each cell's offset in text, row-major, the header row first */
	size_t ncells, alloc;
	struct strbuf scratch; /* text_table_addf()'s formatting, reused */
};

/* `headers` has `ncols` entries; `align` is a string of 'l'/'r' of that length. */
void text_table_init(struct text_table *t, size_t ncols, const char *const *headers,
		     const char *align);
void text_table_release(struct text_table *t);
void text_table_add(struct text_table *t, const char *cell);
void text_table_addf(struct text_table *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The cell "%" PRIu64 gives, without printf. */
void text_table_add_u64(struct text_table *t, uint64_t v);
/* Cell i (row-major, the header row first), as escaped. */
const char *text_table_cell(const struct text_table *t, size_t i);
/* Rows after the header. */
size_t text_table_rows(const struct text_table *t);
/* Text: two spaces between columns; Markdown: a pipe table. */
void text_table_write(FILE *out, const struct text_table *t, bool markdown);

/*
 * A titled section, only when the table has rows: "TITLE:" (text) or
 * "### TITLE" (Markdown), the table, then a blank line.
 */
void text_table_write_section(FILE *out, const struct text_table *t, bool markdown,
			      const char *title);

/* "+5", "-3", "0". */
void text_signed(char out[32], long long v);

#endif
