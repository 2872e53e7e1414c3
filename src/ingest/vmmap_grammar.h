#ifndef IOTALLY_INGEST_VMMAP_GRAMMAR_H
#define IOTALLY_INGEST_VMMAP_GRAMMAR_H

/*
 * The pieces of vmmap's text grammar that the line-by-line driver in
 * vmmap_read.c puts together; private to the vmmap parser.
 *
 *   vmmap_line.c   one region line (vmmap_parse_region_line in vmmap_read.h),
 *                  found by its "] PRT/MAX SM=" anchor; vmmap's canonical
 *                  line is first tried at its fixed columns from that anchor
 *   vmmap_table.c  the region-type summary table: its columns and rows
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/vmmap.h"
#include "util/view.h"

#include <string.h>

/*
 * vmmap_parse_region_line() over a line whose end is trimmed and whose
 * prefix (vmmap_line_skip_prefix) is skipped already.
 */
enum vmmap_line_result vmmap_parse_region_view(const char *p, const char *end,
					       struct vmmap_region *r, const char **why);
/*
 * The same, given the first ']' in [p, end) (NULL: there is none), e.g.
 * as the line reader found it with the line's end (line_reader_set_mark).
 */
enum vmmap_line_result vmmap_parse_region_at(const char *p, const char *end,
					     const char *first_rb, struct vmmap_region *r,
					     const char **why);

/*
 * vmmap_parse_region_at()'s first step: vmmap's canonical line read at its
 * fixed columns. true with *r set as vmmap_parse_region_at() sets it (a
 * VMMAP_LINE_REGION); false for any other line (*r partly written).
 * Always false where the pass is not built (no SSE2 on x86-64, and the
 * VMMAP_LINE_SCALAR reference). Declared here for its equivalence test.
 */
bool vmmap_parse_region_canon(const char *p, const char *end, const char *first_rb,
			      struct vmmap_region *r);

/*
 * Skip an indent, "> " mail quotes and the crash-report "--->" marker.
 * Inline: it runs on every line, and nearly every line starts with none.
 */
static inline const char *
vmmap_line_skip_prefix(const char *p, const char *end)
{
	/* Blanks, '>' and '-' all sort below '?': a line that starts with a
	 * letter or '_' (a type name) has no prefix, in one compare. */
	if (p < end && (unsigned char)*p > '>')
		return p;
	for (;;) {
		p = view_ltrim(p, end);
		if (p < end && *p == '>') {
			p++;
			continue;
		}
		if (end - p >= 4 && memcmp(p, "--->", 4) == 0) {
			p += 4;
			continue;
		}
		return p;
	}
}
/* The reason given for a region line of the layout before report format 2.0. */
extern const char vmmap_why_before_2_0[];
/* For a line that failed the grammar: was it meant as a region line? */
bool vmmap_line_looks_like_region(const char *p, const char *end);
/* "TYPE   1130e0000-11": the start of a region line cut by the end of input. */
bool vmmap_line_looks_cut(const char *p, const char *end);

/*
 * The four right-aligned six-byte size slots of "[%6s %6s %6s %6s]" at p
 * (the 27 bytes after '['): false when a slot is no size; *fraction when
 * the first was rounded. Declared here for its equivalence test.
 */
bool vmmap_read_size_slots(const char *p, uint64_t v[4], bool *fraction);

/* The size columns of a summary table, in the order the rows print them. */
struct vmmap_table_layout {
	enum vmmap_column cols[VMMAP_COL_SIZES];
	unsigned ncols;
	bool has_count;
	bool bracketed;    /* format 2.0 "[ VIRTUAL]": no closing TOTAL rows */
	bool pages;        /* vmmap -pages: the header says PAGES, rows hold page counts */
	uint64_t page_size;/* with pages: bytes per page, to convert the rows */
};

/*
 * A page count as vmmap -pages prints it ("12", "0.25") times page_size, in
 * bytes. Returns 0, or -1 for a token that is no page count or a product
 * past 2^63.
 */
int vmmap_pages_to_bytes(const char *p, size_t n, uint64_t page_size, uint64_t *out);
/* A region line's sizes, read again as page counts (see vmmap_region.page_counts). */
int vmmap_region_pages_to_bytes(struct vmmap_region *r, uint64_t page_size, const char **why);

/* The columns of a modern summary table: seven sizes and the region count. */
extern const struct vmmap_table_layout vmmap_table_full_layout;

/* A "REGION TYPE ..." line that heads a summary table (not a region section). */
bool vmmap_table_is_header(const char *p, size_t n);
/* Columns from the header line and the line above it. */
void vmmap_table_layout_from(struct vmmap_table_layout *t, const char *above,
			     size_t above_n, const char *head, size_t head_n);
/*
 * One row: NAME, the layout's sizes, the count, an optional note. Returns 0
 * with row->name a view into the line (row->name_len bytes); -1 with *why set for a row of the layout's shape
 * with a figure that cannot be read; -2 with *why set for a line that does
 * not have the layout's shape.
 */
int vmmap_table_parse_row(const char *line, size_t len,
			  const struct vmmap_table_layout *t,
			  struct vmmap_summary_row *row, const char **why);
/*
 * The same without its fast path for the common row shape: every row
 * read, by the general tokenisation. vmmap_table_parse_row() answers as
 * this does for every line (the unit tests compare the two).
 */
int vmmap_table_parse_row_general(const char *line, size_t len,
				  const struct vmmap_table_layout *t,
				  struct vmmap_summary_row *row, const char **why);
/*
 * The general path without its two shortcuts (the one pass that turns
 * away lines without a run of figures, the read of a row's last tokens
 * from the right): the line split, each candidate end of the columns
 * tried. The reference the unit tests hold the others to.
 */
int vmmap_table_parse_row_reference(const char *line, size_t len,
				    const struct vmmap_table_layout *t,
				    struct vmmap_summary_row *row, const char **why);

#endif
