/*
 * vmmap's region-type summary table: which size columns it has (they vary
 * from format 2.0 to macOS 26) and its rows, tokenised from the right.
 */

#include "ingest/vmmap_grammar.h"

#include "util/size.h"
#include "util/scan.h"
#include "util/view.h"
#include "util/xalloc.h"

#include <string.h>

const struct vmmap_table_layout vmmap_table_full_layout = {
	.cols = { VMMAP_COL_VIRTUAL, VMMAP_COL_RESIDENT, VMMAP_COL_DIRTY, VMMAP_COL_SWAPPED,
		  VMMAP_COL_VOLATILE, VMMAP_COL_NONVOL, VMMAP_COL_EMPTY },
	.ncols = VMMAP_COL_SIZES,
	.has_count = true,
};

static int
column_for_word(const char *p, size_t n)
{
	static const char *const names[VMMAP_COL_SIZES] = {
		"VIRTUAL", "RESIDENT", "DIRTY", "SWAPPED", "VOLATILE", "NONVOL", "EMPTY",
	};
	for (int i = 0; i < VMMAP_COL_SIZES; i++)
		if (strlen(names[i]) == n && memcmp(names[i], p, n) == 0)
			return i;
	return -1;
}

/*
 * Column names come from the header line ("REGION TYPE  VIRTUAL" in old
 * dumps, bracketed "[ VIRTUAL]" in 2.0, or the one-line "REGION TYPE
 * VIRTUAL ... EMPTY REGION" of trimmed pastes) or from the line above it
 * ("VIRTUAL RESIDENT ... REGION"); a header of bare SIZE words (a pasted
 * excerpt without the line above) is read by its width. The region count
 * column is there when the header says COUNT, or names REGION again after
 * the size columns (the first line of vmmap's two-line "REGION COUNT").
 */
void
vmmap_table_layout_from(struct vmmap_table_layout *t, const char *above, size_t above_n,
		  const char *head, size_t head_n)
{
	const char *srcs[2] = { head, above };
	size_t lens[2] = { head_n, above_n };
	unsigned sizes = 0;

	memset(t, 0, sizeof(*t));
	t->has_count = view_find(head, head_n, "COUNT") != NULL;
	t->bracketed = memchr(head, '[', head_n) != NULL;
	t->pages = view_find(head, head_n, "PAGES") != NULL;
	for (int s = 0; s < 2 && t->ncols == 0; s++) {
		const char *p = srcs[s], *end = srcs[s] + lens[s];
		while (p < end) {
			while (p < end && (view_is_space(*p) || *p == '[' || *p == ']'))
				p++;
			const char *w = p;
			while (p < end && !view_is_space(*p) && *p != ']')
				p++;
			size_t wn = (size_t)(p - w);
			int c = column_for_word(w, wn);
			if (c >= 0 && t->ncols < VMMAP_COL_SIZES)
				t->cols[t->ncols++] = (enum vmmap_column)c;
			if (wn == 4 && memcmp(w, "SIZE", 4) == 0)
				sizes++;
			if (s == 0 && t->ncols && wn == 6 && memcmp(w, "REGION", 6) == 0)
				t->has_count = true;
		}
	}
	if (t->ncols == 0) {
		unsigned n = sizes ? sizes : 1;
		if (n != 1 && n != 2 && n != 7)
			n = n > 7 ? 7 : 1;
		for (unsigned i = 0; i < n; i++)
			t->cols[t->ncols++] = (enum vmmap_column)i;
	}
}

#define MAX_ROW_TOKENS 64

struct token {
	const char *p;
	size_t n;
	/* size_parse_vmmap() of the token, read once: SIZE_OK, SIZE_OVERFLOW
	 * or SIZE_SYNTAX; TOKEN_UNREAD before. */
	int size_rc;
	uint64_t size;
};

#define TOKEN_UNREAD (-100)

/* Is the token a size (a figure, perhaps too large)? Read at most once. */
static bool
token_is_size(struct token *k)
{
	if (k->size_rc == TOKEN_UNREAD)
		k->size_rc = size_parse_vmmap(k->p, k->n, &k->size);
	return k->size_rc != SIZE_SYNTAX;
}

/* The row's figures and name, once `first`..`last` are known to be its columns. */
static int
read_row(const char *line, const struct vmmap_table_layout *t, struct token *tok,
	 size_t first, size_t last, struct vmmap_summary_row *row, const char **why)
{
	memset(row, 0, sizeof(*row));
	for (size_t i = 0; i < t->ncols; i++) {
		const struct token *k = &tok[first + i];
		enum vmmap_column c = t->cols[i];
		if (t->pages) {
			if (vmmap_pages_to_bytes(k->p, k->n, t->page_size, &row->value[c]) < 0) {
				*why = "a page count in the summary row is not a number of "
				       "pages below 2^63 bytes";
				return -1;
			}
		} else if (k->size_rc != SIZE_OK || k->size > BYTES_MAX) {
			*why = "a size in the summary row is larger than 2^63 bytes";
			return -1;
		} else {
			row->value[c] = k->size;
		}
		row->present |= 1u << c;
		if (c == VMMAP_COL_VIRTUAL) {
			size_t m = k->n < sizeof(row->virtual_text) - 1 ?
					   k->n : sizeof(row->virtual_text) - 1;
			memcpy(row->virtual_text, k->p, m);
		}
	}
	if (t->has_count) {
		if (parse_u64_dec(tok[last].p, tok[last].n, &row->count) != SIZE_OK ||
		    row->count > BYTES_MAX) {
			*why = "the region count is larger than 2^63";
			return -1;
		}
		row->has_count = true;
	}
	size_t name_len = view_rtrim(line, (size_t)(tok[first].p - line));
	const char *name = view_ltrim(line, line + name_len);
	while (name_len && line + name_len > name && line[name_len - 1] == '[')
		name_len = view_rtrim(line, name_len - 1);
	if (line + name_len <= name) {
		*why = "the summary row has no region type";
		return -1;
	}
	row->name = xmemdup0(name, (size_t)(line + name_len - name));
	return 0;
}

/*
 * A summary row: NAME, the layout's size columns, the count, an optional
 * note. Tokenised from the right: the note holds no numbers, the name may
 * end in one ("Memory Tag 241"). Each token is read as a size at most once
 * (a dump of -summary captures is all rows: this was half its parse).
 */
static bool
is_row_blank(char c)
{
	return view_is_space(c) || c == ']';
}

/*
 * The last `want` tokens of the row, read from the right, in tok[0..want)
 * left to right: the same tokens as the left-to-right split below (a token
 * may hold '[' but not start with it). False when the row has fewer, or
 * may have more than MAX_ROW_TOKENS (the split below keeps the first ones).
 */
static bool
last_tokens(const char *line, const char *end, struct token *tok, size_t want)
{
	const char *q = end;
	for (size_t k = want; k > 0;) {
		/* Columns are padded with runs of blanks: eight at a time. */
		while (q - line >= 8 && memcmp(q - 8, "        ", 8) == 0)
			q -= 8;
		while (q > line && is_row_blank(q[-1]))
			q--;
		const char *e = q;
		while (q > line && !is_row_blank(q[-1]))
			q--;
		if (q == e)
			return false;
		const char *b = q;
		while (b < e && *b == '[')
			b++;
		if (b == e)
			continue;   /* all '[': no token */
		k--;
		tok[k].p = b;
		tok[k].n = (size_t)(e - b);
		tok[k].size_rc = TOKEN_UNREAD;
	}
	/* Each token before these takes at least two bytes, its own and a blank. */
	return want + ((size_t)(q - line) + 1) / 2 <= MAX_ROW_TOKENS;
}

/* Does the row end with the layout's columns, its last token the last value? */
static bool
columns_at(struct token *tok, size_t first, size_t last, const struct vmmap_table_layout *t)
{
	bool ok = !t->has_count || scan_all_digits(tok[last].p, tok[last].n);
	/* From the right: a note's words fail at once. */
	for (size_t i = first + t->ncols; ok && i-- > first;)
		ok = token_is_size(&tok[i]);
	return ok;
}

/*
 * The columns found at first..last: the token before them must not be a
 * figure with a unit or a fraction ("1.9G", "448K"): no type name ends in
 * one ("Memory Tag 241" ends in a plain number).
 */
static int
read_columns(const char *line, const struct vmmap_table_layout *t, struct token *tok,
	     size_t first, size_t last, struct vmmap_summary_row *row, const char **why)
{
	if (first > 0 && token_is_size(&tok[first - 1]) &&
	    !scan_all_digits(tok[first - 1].p, tok[first - 1].n)) {
		*why = "the row has more figures than the table header names";
		return -1;
	}
	return read_row(line, t, tok, first, last, row, why);
}

int
vmmap_table_parse_row(const char *line, size_t len, const struct vmmap_table_layout *t,
		  struct vmmap_summary_row *row, const char **why)
{
	struct token tok[MAX_ROW_TOKENS];
	size_t nt = 0;
	const char *p = line, *end = line + len;
	size_t need = t->ncols + (t->has_count ? 1 : 0);

	/* Nearly every row ends with its columns (no note after them): read
	 * the name and those columns from the right, as the general path
	 * below would decide on its first candidate, without splitting the
	 * rest (half the parse of a dump of -summary captures). */
	if (need + 1 <= MAX_ROW_TOKENS && last_tokens(line, end, tok, need + 1) &&
	    columns_at(tok, 1, need, t))
		return read_columns(line, t, tok, 1, need, row, why);

	while (p < end && nt < MAX_ROW_TOKENS) {
		while (p < end && (view_is_space(*p) || *p == '[' || *p == ']'))
			p++;
		if (p == end)
			break;
		tok[nt].p = p;
		tok[nt].size_rc = TOKEN_UNREAD;
		while (p < end && !view_is_space(*p) && *p != ']')
			p++;
		tok[nt].n = (size_t)(p - tok[nt].p);
		nt++;
	}
	for (size_t last = nt; last-- > need;) {
		/* `last` is the index of the final value token (count or size). */
		size_t first = last + 1 - need;
		if (columns_at(tok, first, last, t))
			return read_columns(line, t, tok, first, last, row, why);
	}
	*why = "the summary row does not have the table's columns";
	return -2;
}

bool
vmmap_table_is_header(const char *p, size_t n)
{
	return view_starts(p, n, "REGION TYPE") && !view_find(p, n, "START");
}
