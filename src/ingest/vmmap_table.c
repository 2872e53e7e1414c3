/*
 * vmmap's region-type summary table: which size columns it has (they vary
 * from format 2.0 to macOS 26) and its rows, tokenised from the right.
 */

#include "ingest/vmmap_grammar.h"
#include "ingest/vmmap_table.h"

#include "util/size.h"
#include "util/scan.h"
#include "util/view.h"

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
#define COLUMN_NAME(s) { s, sizeof(s) - 1 }
	/* With their lengths: a file of many small dumps has a header per dump. */
	static const struct {
		const char *name;
		size_t len;
	} names[VMMAP_COL_SIZES] = {
		COLUMN_NAME("VIRTUAL"), COLUMN_NAME("RESIDENT"), COLUMN_NAME("DIRTY"),
		COLUMN_NAME("SWAPPED"), COLUMN_NAME("VOLATILE"), COLUMN_NAME("NONVOL"),
		COLUMN_NAME("EMPTY"),
	};
#undef COLUMN_NAME
	for (int i = 0; i < VMMAP_COL_SIZES; i++)
		if (names[i].len == n && memcmp(names[i].name, p, n) == 0)
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

void
vmmap_table_layout_memo_from(struct vmmap_table_layout_memo *m, struct vmmap_table_layout *t,
			     const char *above, size_t above_n, const char *head, size_t head_n)
{
	if (m->valid && m->above_len == above_n && m->head_len == head_n &&
	    memcmp(m->head, head, head_n) == 0 && memcmp(m->above, above, above_n) == 0) {
		*t = m->layout;
		return;
	}
	vmmap_table_layout_from(t, above, above_n, head, head_n);
	m->valid = above_n <= sizeof(m->above) && head_n <= sizeof(m->head);
	if (!m->valid)
		return;
	memcpy(m->above, above, above_n);
	memcpy(m->head, head, head_n);
	m->above_len = above_n;
	m->head_len = head_n;
	m->layout = *t;
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

/*
 * The name: the text before the first column `cols`, less blanks and the
 * '[' that opens bracketed columns. A view into the line.
 */
static int
row_name(const char *line, const char *cols, struct vmmap_summary_row *row, const char **why)
{
	size_t name_len = view_rtrim(line, (size_t)(cols - line));
	const char *name = view_ltrim(line, line + name_len);
	while (name_len && line + name_len > name && line[name_len - 1] == '[')
		name_len = view_rtrim(line, name_len - 1);
	if (line + name_len <= name) {
		*why = "the summary row has no region type";
		return -1;
	}
	row->name = name;
	row->name_len = (size_t)(line + name_len - name);
	return 0;
}

/* VIRTUAL as printed, cut to the field (over what a repeated column left). */
static void
copy_virtual_text(struct vmmap_summary_row *row, const char *p, size_t n)
{
	memcpy(row->virtual_text, p, n < sizeof(row->virtual_text) - 1 ? n :
				      sizeof(row->virtual_text) - 1);
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
		if (c == VMMAP_COL_VIRTUAL)
			copy_virtual_text(row, k->p, k->n);
	}
	if (t->has_count) {
		if (parse_u64_dec(tok[last].p, tok[last].n, &row->count) != SIZE_OK ||
		    row->count > BYTES_MAX) {
			*why = "the region count is larger than 2^63";
			return -1;
		}
		row->has_count = true;
	}
	return row_name(line, tok[first].p, row, why);
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

/*
 * The fast path, for the shape of nearly every row: the layout's columns
 * end the line as plain figures ("48.8G", "0K", "2445"), blanks between
 * them, no brackets. Each figure is converted as it is found, right to
 * left, in one pass. It answers only where the general path below gives
 * the same row, and leaves every other line to it (a note after the
 * columns, brackets, -pages, figures of more than FAST_DIGITS digits or
 * past 2^63, a name whose last word is a figure with a unit, ...): it
 * never refuses a row itself.
 */
#define FAST_DIGITS 15      /* 10^15 < 2^53: the mantissa is exact in a double */
#define FAST_COUNT_DIGITS 18 /* 10^18 - 1 < BYTES_MAX */

/* Neither a blank nor a bracket: a byte of a token the two paths split alike. */
static inline bool
is_plain(char c)
{
	return !view_is_space(c) && c != '[' && c != ']';
}

/*
 * B K M G T as a figure's last byte: its shift plus one (0: no unit). A
 * table, not a switch: the units of a row's columns differ from one to the
 * next, and the switch's indirect jump missed often.
 */
static const unsigned char unit_shift1[256] = {
	['B'] = 1, ['K'] = 11, ['M'] = 21, ['G'] = 31, ['T'] = 41,
};

static const double pow10[FAST_DIGITS + 1] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
};

/*
 * The value of vmmap's %.1f figure [p, e) without its unit, one to three
 * digits, the point, one digit (n = 3 to 5 bytes, e[-2] the point), read
 * from the 8 bytes that end at e as one word (the caller checks that they
 * lie in the line): no loop whose length changes from one column to the
 * next, which mispredicted. False when a byte that must be a digit is not.
 */
static inline bool
fast_tenths(const char *e, size_t n, uint64_t *tenths)
{
	const uint64_t zeros = UINT64_C(0x3030303030303030);
	uint64_t w;
	memcpy(&w, e - 8, sizeof(w));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);   /* e[-1] in the top byte, as below */
#endif
	/* The token's bytes are the top n of the word (little-endian), the
	 * point byte 6: the others and the point become '0' first, so that
	 * the subtraction borrows across no byte of a valid figure. */
	uint64_t keep = (~UINT64_C(0) << (8 * (8 - n))) & ~(UINT64_C(0xff) << 48);
	w = ((w & keep) | (zeros & ~keep)) - zeros;
	/* A byte above 9, or one that was below '0' (it wrapped), sets its
	 * top bit here (a borrow or carry from it only sets more). */
	if (((w + UINT64_C(0x7676767676767676)) | w) & UINT64_C(0x8080808080808080))
		return false;
	*tenths = ((w >> 24) & 0xff) * 1000 + ((w >> 32) & 0xff) * 100 +
		  ((w >> 40) & 0xff) * 10 + (w >> 56);
	return true;
}

/*
 * [p, e) as size_parse_vmmap() reads it, for digits with at most one
 * point and an optional unit B K M G T; the same arithmetic, so the same
 * value. False for any other token or a value past BYTES_MAX. lo: the
 * line's first byte (nothing before it is read).
 */
static inline bool
fast_size(const char *lo, const char *p, const char *e, uint64_t *out)
{
	/* "0K": most figures of most tables (every unused column). */
	if (e - p == 2 && p[0] == '0' && p[1] == 'K') {
		*out = 0;
		return true;
	}
	unsigned unit = unit_shift1[(unsigned char)e[-1]];
	unsigned shift = unit - (unit != 0);
	e -= unit != 0;
	/*
	 * vmmap's %.1f with a unit ("48.8G", "414.4M"), nearly every other
	 * figure of a table: one to three digits, the point, one digit, read
	 * as one word when 8 bytes of the line end at it (all but a figure
	 * at the line's start). The value is the general loop's (the same
	 * mant, frac 1); a figure this does not fit goes on to it.
	 */
	uint64_t m;
	if (unit && e - p >= 3 && e - p <= 5 && e[-2] == '.' && e - lo >= 8 &&
	    fast_tenths(e, (size_t)(e - p), &m) && m < (UINT64_C(1) << (43 - shift))) {
		*out = (m << shift) / 10;
		return true;
	}
	/* At most FAST_DIGITS bytes: as many digits, or fewer and a point. */
	if (e - p > FAST_DIGITS)
		return false;
	uint64_t mant = 0;
	const char *point = NULL;
	for (const char *c = p; c < e; c++) {
		unsigned d = (unsigned char)*c - '0';
		if (d <= 9)
			mant = mant * 10 + d;
		else if (*c == '.' && !point)
			point = c;
		else
			return false;
	}
	unsigned frac = point ? (unsigned)(e - point - 1) : 0;
	size_t digits = (size_t)(e - p) - (point != NULL);
	if (digits == 0)
		return false;
	if (frac == 0) {
		/* mant * 2^shift is exact in a double too: the same integer. */
		if (mant > (BYTES_MAX >> shift))
			return false;
		*out = mant << shift;
		return true;
	}
	/*
	 * Below 2^43 bytes with one or two decimals ("48.8G", "1.25G"), the
	 * double's result is the integer part of the exact quotient: the
	 * quotient is exact when it is a whole number (a multiple of 2^-shift
	 * below 2^43), else at least 1/100 from one, and the double errs by
	 * at most half an ulp, 2^-11 there. A division by a constant is a
	 * multiplication, where the double's is a division.
	 */
	if (frac <= 2 && mant < (UINT64_C(1) << (43 - shift))) {
		uint64_t scaled = mant << shift;
		*out = frac == 1 ? scaled / 10 : scaled / 100;
		return true;
	}
	double bytes = (double)mant / pow10[frac] * (double)(UINT64_C(1) << shift);
	if (!(bytes < 9223372036854775808.0))   /* 2^63 */
		return false;
	*out = (uint64_t)bytes;
	return true;
}

/*
 * The scans below go right to left over a row's padding and short tokens:
 * sixteen bytes at a time where SSE2 is there (a row is some 100 bytes,
 * two thirds of them blanks), a byte at a time near the line's start.
 */
#if defined(__SSE2__)
/* Bit i set for each byte q[i - 16] that is a blank, or a bracket too. */
static inline unsigned
blanks16(const char *q, bool brackets)
{
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(q - 16));
	__m128i m = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')),
				 _mm_cmpeq_epi8(v, _mm_set1_epi8('\t')));
	if (brackets)
		m = _mm_or_si128(m, _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('[')),
						 _mm_cmpeq_epi8(v, _mm_set1_epi8(']'))));
	return (unsigned)_mm_movemask_epi8(m);
}
#endif

/* The blanks before q skipped: the end of the token before them. */
static inline const char *
skip_blanks_back(const char *line, const char *q)
{
#if defined(__SSE2__)
	while (q - line >= 16) {
		unsigned other = ~blanks16(q, false) & 0xffffu;
		if (other)
			return q - 16 + (31 - __builtin_clz(other)) + 1;
		q -= 16;
	}
#endif
	while (q > line && view_is_space(q[-1]))
		q--;
	return q;
}

/*
 * The plain token that ends at e: its start, or NULL when there is none or
 * a bracket touches it (the general path strips or splits on those).
 */
static inline const char *
plain_token_back(const char *line, const char *e)
{
	const char *q = e;
#if defined(__SSE2__)
	unsigned stop = 0;
	while (q - line >= 16 && !(stop = blanks16(q, true)))
		q -= 16;
	if (stop)
		q = q - 16 + (31 - __builtin_clz(stop)) + 1;
	else
#endif
		while (q > line && is_plain(q[-1]))
			q--;
	if (q == e || (q > line && !view_is_space(q[-1])))
		return NULL;
	return q;
}

/*
 * Where a row's tokens lie, from the right: token 0 is the line's last,
 * then the one before it, and so on, to token `need` (the count and the
 * size columns, then the name's last word); each [p, e) in the line.
 */
#define ROW_NEED_MAX (VMMAP_COL_SIZES + 1)

struct row_tokens {
	const char *p[ROW_NEED_MAX + 1], *e[ROW_NEED_MAX + 1];
};

/*
 * The last need + 1 tokens of a row, found by the scans above, one after
 * the other: true, or false when a bracket touches one of them or the line
 * has fewer (the general path splits on brackets). The plain form of
 * window_tokens() below, and its fallback.
 */
static bool
scan_tokens(const char *line, size_t len, size_t need, struct row_tokens *k)
{
	const char *q = line + len;
	for (size_t j = 0; j <= need; j++) {
		k->e[j] = skip_blanks_back(line, q);
		q = k->p[j] = plain_token_back(line, k->e[j]);
		if (!q)
			return false;
	}
	return true;
}

#if defined(__SSE2__) && !defined(VMMAP_TABLE_SCALAR)
#define ROW_WINDOW 128

/*
 * The same tokens from bit masks of the line's last 128 bytes. The scans
 * above find a row's tokens one after another, each search starting where
 * the last one ended: some 18 dependent steps of a load, a compare and a
 * bit search, and that chain was most of a row's time. Here the masks are
 * built from eight independent loads, with the bytes reversed so that bit
 * r is the byte r places before the line's end (bytes before the line
 * read as blanks); then the j-th token from the right ends at the j-th
 * lowest bit of the mask of token ends and starts at that of token
 * starts, taken by clearing the lowest bit: two short chains, a fixed
 * number of steps. The 128 bits are two words, lo (the last 64 bytes)
 * and hi.
 */

/* The 16 bytes of v in the opposite order (SSE2 has no byte shuffle). */
static inline __m128i
reverse16(__m128i v)
{
	v = _mm_shuffle_epi32(v, _MM_SHUFFLE(0, 1, 2, 3));
	v = _mm_shufflelo_epi16(v, _MM_SHUFFLE(2, 3, 0, 1));
	v = _mm_shufflehi_epi16(v, _MM_SHUFFLE(2, 3, 0, 1));
	return _mm_or_si128(_mm_slli_epi16(v, 8), _mm_srli_epi16(v, 8));
}

/*
 * Blanks (low 16 bits) and brackets (high 16) of the window's block k:
 * bit j is the byte 16k + j places before the line's end.
 */
static inline uint32_t
window_block(const char *line, size_t len, unsigned k)
{
	ptrdiff_t at = (ptrdiff_t)len - 16 * (ptrdiff_t)(k + 1);  /* the block's first byte */
	unsigned pad = 0;   /* how many of its bytes lie before the line */
	__m128i v;
	if (at <= -16)
		return 0xffffu;
	if (at >= 0) {
		v = _mm_loadu_si128((const __m128i *)(const void *)(line + at));
	} else if (len >= 16) {
		v = _mm_loadu_si128((const __m128i *)(const void *)line);
		pad = (unsigned)-at;
	} else {
		char tmp[16];
		memset(tmp, ' ', sizeof(tmp));
		memcpy(tmp + 16 - len, line, len);
		v = _mm_loadu_si128((const __m128i *)(const void *)tmp);
	}
	v = reverse16(v);
	unsigned b = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')),
							      _mm_cmpeq_epi8(v, _mm_set1_epi8('\t'))));
	unsigned r = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('[')),
							      _mm_cmpeq_epi8(v, _mm_set1_epi8(']'))));
	/* A block loaded from the line's start: its bytes sit pad places
	 * higher than wanted, and the pad bytes above are blanks. */
	b = (b >> pad) | ((0xffffu << (16 - pad)) & 0xffffu);
	return b | (r >> pad) << 16;
}

/* Blocks k to k + 3: blanks in *blank, brackets in *bracket. */
static inline void
window_word(const char *line, size_t len, unsigned k, uint64_t *blank, uint64_t *bracket)
{
	uint32_t q0 = window_block(line, len, k), q1 = window_block(line, len, k + 1);
	uint32_t q2 = window_block(line, len, k + 2), q3 = window_block(line, len, k + 3);
	*blank = (uint64_t)(q0 & 0xffffu) | (uint64_t)(q1 & 0xffffu) << 16 |
		 (uint64_t)(q2 & 0xffffu) << 32 | (uint64_t)(q3 & 0xffffu) << 48;
	*bracket = (uint64_t)(q0 >> 16) | (uint64_t)(q1 >> 16) << 16 |
		   (uint64_t)(q2 >> 16) << 32 | (uint64_t)(q3 >> 16) << 48;
}

/* The lowest bit of lo:hi, cleared; its place, or -1 when none is set. */
static inline int
take_lowest(uint64_t *lo, uint64_t *hi)
{
	if (*lo) {
		int r = __builtin_ctzll(*lo);
		*lo &= *lo - 1;
		return r;
	}
	if (*hi) {
		int r = 64 + __builtin_ctzll(*hi);
		*hi &= *hi - 1;
		return r;
	}
	return -1;
}

/*
 * scan_tokens() from the masks: 1 with the tokens found, 0 where
 * scan_tokens() answers false, -1 when they do not all lie in the window
 * (scan_tokens() decides).
 */
static int
window_tokens(const char *line, size_t len, size_t need, struct row_tokens *k)
{
	uint64_t blank_lo, blank_hi, bracket_lo, bracket_hi;
	window_word(line, len, 0, &blank_lo, &bracket_lo);
	window_word(line, len, 4, &blank_hi, &bracket_hi);
	uint64_t lo = ~blank_lo, hi = ~blank_hi;   /* the bytes of tokens */
	/* A token's last byte: the one after it (bit below) is a blank or
	 * the line's end; its first: the one before it is a blank (or it is
	 * the window's first byte). */
	uint64_t end_lo = lo & ~(lo << 1), end_hi = hi & ~((hi << 1) | (lo >> 63));
	uint64_t start_lo = lo & ~((lo >> 1) | (hi << 63)), start_hi = hi & ~(hi >> 1);
	int rs = 0;
	for (size_t j = 0; j <= need; j++) {
		int re = take_lowest(&end_lo, &end_hi);
		rs = take_lowest(&start_lo, &start_hi);
		if (re < 0)   /* fewer tokens in the window */
			return len > ROW_WINDOW ? -1 : 0;
		k->e[j] = line + len - re;
		k->p[j] = line + len - 1 - rs;
	}
	if (rs == ROW_WINDOW - 1 && len > ROW_WINDOW)
		return -1;   /* the name's last word may start before the window */
	/* A bracket in a token or between two (bits 0 to rs; the byte
	 * before the name's last word is a blank): scan_tokens() stops at it. */
	unsigned n = (unsigned)rs + 1;
	if (n <= 64)
		return (bracket_lo & (~UINT64_C(0) >> (64 - n))) == 0;
	return bracket_lo == 0 && (bracket_hi & (~UINT64_C(0) >> (128 - n))) == 0;
}
#endif

/* 0 with the row read, 1 to leave the line to the general path. */
static int
fast_row(const char *line, size_t len, const struct vmmap_table_layout *t,
	 struct vmmap_summary_row *row)
{
	struct row_tokens k;
	uint64_t v[VMMAP_COL_SIZES];
	uint64_t count = 0;
	size_t need = t->ncols + (t->has_count ? 1 : 0);

	if (t->pages || need > ROW_NEED_MAX)
		return 1;
#if defined(ROW_WINDOW)
	int found = window_tokens(line, len, need, &k);
	if (found == 0 || (found < 0 && !scan_tokens(line, len, need, &k)))
		return 1;
#else
	if (!scan_tokens(line, len, need, &k))
		return 1;
#endif
	if (t->has_count) {
		if (k.e[0] - k.p[0] > FAST_COUNT_DIGITS)
			return 1;
		for (const char *c = k.p[0]; c < k.e[0]; c++) {
			unsigned d = (unsigned char)*c - '0';
			if (d > 9)
				return 1;
			count = count * 10 + d;
		}
	}
	/* Size column i is token need - 1 - i. */
	for (size_t i = 0; i < t->ncols; i++)
		if (!fast_size(line, k.p[need - 1 - i], k.e[need - 1 - i], &v[i]))
			return 1;
	const char *cols = k.p[need - 1];
	/* The name's last word, as the general path checks it. */
	const char *w = k.p[need], *e = k.e[need];
	if (need + 1 + ((size_t)(w - line) + 1) / 2 > MAX_ROW_TOKENS)
		return 1;
	char last = e[-1];
	if ((unsigned char)(last - '0') <= 9 || last == '.' || last == 'B' || last == 'K' ||
	    last == 'M' || last == 'G' || last == 'T') {
		uint64_t ignored;
		if (size_parse_vmmap(w, (size_t)(e - w), &ignored) != SIZE_SYNTAX &&
		    !scan_all_digits(w, (size_t)(e - w)))
			return 1;
	}
	/*
	 * The name ends at e: row_name() would trim back to it (only blanks
	 * lie between it and the columns, and e[-1] is neither a blank nor a
	 * bracket), unless e[-1] is a '\r', which it trims too.
	 */
	if (e[-1] == '\r') {
		const char *why;
		if (row_name(line, cols, row, &why) < 0)
			return 1;
	} else {
		row->name = view_ltrim(line, e);
		row->name_len = (size_t)(e - row->name);
	}
	/* Each field set (no memset of the whole row: a tenth of this path). */
	row->line = 0;
	row->present = 0;
	memset(row->value, 0, sizeof(row->value));
	memset(row->virtual_text, 0, sizeof(row->virtual_text));
	for (size_t i = 0; i < t->ncols; i++) {
		enum vmmap_column c = t->cols[i];
		row->value[c] = v[i];
		row->present |= 1u << c;
		if (c == VMMAP_COL_VIRTUAL)
			copy_virtual_text(row, k.p[need - 1 - i],
					  (size_t)(k.e[need - 1 - i] - k.p[need - 1 - i]));
	}
	row->has_count = t->has_count;
	row->count = count;
	return 0;
}

/*
 * The notes vmmap prints after some rows' columns. No word of them is a
 * figure, so the general path, which tries the candidate ends of the
 * columns from the right, passes over them to the columns before them:
 * the row of the line without its note. (Its split stops at
 * MAX_ROW_TOKENS tokens; the note's come after the columns, which
 * fast_row() finds among the first ones.)
 */

static const struct {
	const char *text;
	size_t len;
} row_notes[] = {
#define ROW_NOTE(s) { s, sizeof(s) - 1 }
	ROW_NOTE("see MALLOC ZONE table below"),
	ROW_NOTE("reserved VM address space (unallocated)"),
#undef ROW_NOTE
};

/* The line's length without a note of row_notes (a blank before it, blanks
 * after it), or 0 when it ends with none. */
static size_t
without_note(const char *line, size_t len)
{
	size_t n = len;
	while (n && view_is_space(line[n - 1]))
		n--;
	/* Each note's last byte: most lines that are not rows end otherwise. */
	if (n == 0 || (line[n - 1] != 'w' && line[n - 1] != ')'))
		return 0;
	for (size_t i = 0; i < sizeof(row_notes) / sizeof(row_notes[0]); i++) {
		size_t m = row_notes[i].len;
		if (n > m && view_is_space(line[n - m - 1]) &&
		    memcmp(line + n - m, row_notes[i].text, m) == 0)
			return n - m;
	}
	return 0;
}

/*
 * A line the fast path left: a row with a note, or one for the general
 * path. Out of line, so that the common call stays small enough to be
 * inlined into the reader's loop (a call per row was 1 % of its run).
 */
static __attribute__((noinline)) int
parse_row_rest(const char *line, size_t len, const struct vmmap_table_layout *t,
	       struct vmmap_summary_row *row, const char **why)
{
	/* A fifth of a real capture's rows ("MALLOC ... see MALLOC ZONE table
	 * below"), each read token by token by the general path. */
	size_t cut = without_note(line, len);
	if (cut && fast_row(line, cut, t, row) == 0)
		return 0;
	return vmmap_table_parse_row_general(line, len, t, row, why);
}

int
vmmap_table_parse_row(const char *line, size_t len, const struct vmmap_table_layout *t,
		  struct vmmap_summary_row *row, const char **why)
{
	if (fast_row(line, len, t, row) == 0)
		return 0;
	return parse_row_rest(line, len, t, row, why);
}

/*
 * Can the line hold the row's `need` columns, split as below? It must hold
 * a name and `need` tokens in a row that could all be figures (the count
 * is one too): columns_at() accepts no others. Most lines that are not
 * rows (a dump's header, legends, comments: each "other" line is tried as
 * a row without a header too) fail this one pass and are spared the two
 * below, with the answer those give them.
 */
enum {
	BYTE_ENDS = 1,      /* a blank or ']': ends a token */
	BYTE_OPENS = 2,     /* '[': skipped before a token, part of one inside it */
	BYTE_FIGURE = 4,    /* a digit or a point */
	BYTE_UNIT = 8,      /* B K M G T: a figure's last byte */
};

/* The class of each byte for the pass below (a table: one load a byte). */
static const unsigned char byte_class[256] = {
	[' '] = BYTE_ENDS, ['\t'] = BYTE_ENDS, [']'] = BYTE_ENDS, ['['] = BYTE_OPENS,
	['0'] = BYTE_FIGURE, ['1'] = BYTE_FIGURE, ['2'] = BYTE_FIGURE, ['3'] = BYTE_FIGURE,
	['4'] = BYTE_FIGURE, ['5'] = BYTE_FIGURE, ['6'] = BYTE_FIGURE, ['7'] = BYTE_FIGURE,
	['8'] = BYTE_FIGURE, ['9'] = BYTE_FIGURE, ['.'] = BYTE_FIGURE,
	['B'] = BYTE_UNIT, ['K'] = BYTE_UNIT, ['M'] = BYTE_UNIT, ['G'] = BYTE_UNIT,
	['T'] = BYTE_UNIT,
};

static bool
may_have_columns(const char *p, const char *end, size_t need)
{
	size_t nt = 0, run = 0;
	/*
	 * One pass, a table lookup a byte (this reads every "other" line of
	 * a dump, some of them long): the tokens of the split below, and
	 * whether each could be a size: digits and points, the last byte
	 * perhaps a unit (every token size_parse_vmmap() does not refuse as
	 * SIZE_SYNTAX is, and some it refuses, "..", "1.2.3"). `figures`:
	 * every byte of the token so far a figure's; `before`: so were those
	 * before its last byte.
	 */
	bool in = false, figures = false, before = false;
	unsigned char last = 0;
	for (; p < end; p++) {
		unsigned char c = byte_class[(unsigned char)*p];
		if (!in) {
			if (c & (BYTE_ENDS | BYTE_OPENS))
				continue;
			in = true;
			before = true;
			figures = (c & BYTE_FIGURE) != 0;
			last = c;
			continue;
		}
		if (!(c & BYTE_ENDS)) {
			before = figures;
			figures = figures && (c & BYTE_FIGURE);
			last = c;
			continue;
		}
		in = false;
		nt++;
		run = figures || (before && (last & BYTE_UNIT)) ? run + 1 : 0;
		/* The name is a token before the run. */
		if (run >= need && nt > need)
			return true;
	}
	if (in) {
		nt++;
		run = figures || (before && (last & BYTE_UNIT)) ? run + 1 : 0;
	}
	return run >= need && nt > need;
}

#if defined(__SSE2__) && !defined(VMMAP_TABLE_SCALAR)
/*
 * The set bits of a 16-bit mask. __builtin_popcount() is a call into the
 * compiler's library where the target has no popcnt instruction (x86-64
 * without -mpopcnt): a few shifts and adds inline cost less.
 */
static inline unsigned
popcount16(unsigned x)
{
	x -= (x >> 1) & 0x5555u;
	x = (x & 0x3333u) + ((x >> 2) & 0x3333u);
	x = (x + (x >> 4)) & 0x0f0fu;
	return (x + (x >> 8)) & 0x1fu;
}
#endif

/*
 * Before the pass above, a count that spares it most lines of other kinds
 * (a path, a legend, a comment: a third of a real dump's bytes pass
 * through may_have_columns() as "other" lines tried as rows without a
 * header): a row of `need` columns holds at least `need` digits (every
 * size and the count holds one: size_parse_vmmap() refuses a figure
 * without) and `need` bytes that end a token (between the name and each
 * column, one at least). A line short of either is refused by the paths
 * below with the same answer. Sixteen bytes at a time where SSE2 is there.
 */
static bool
may_have_figures(const char *p, const char *end, size_t need)
{
	size_t digits = 0, ends = 0;
#if defined(__SSE2__) && !defined(VMMAP_TABLE_SCALAR)
	for (; end - p >= 16; p += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
		/* Bytes from 0x80 are negative: not above '0' - 1. */
		__m128i digit = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)),
					      _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1)));
		__m128i stop = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')),
							 _mm_cmpeq_epi8(v, _mm_set1_epi8('\t'))),
					    _mm_cmpeq_epi8(v, _mm_set1_epi8(']')));
		digits += popcount16((unsigned)_mm_movemask_epi8(digit));
		ends += popcount16((unsigned)_mm_movemask_epi8(stop));
		if (digits >= need && ends >= need)
			return true;
	}
#endif
	for (; p < end; p++) {
		digits += (unsigned char)(*p - '0') <= 9;
		ends += (byte_class[(unsigned char)*p] & BYTE_ENDS) != 0;
	}
	return digits >= need && ends >= need;
}

/* Does the line hold at least `want` tokens, split as below? */
static bool
has_tokens(const char *p, const char *end, size_t want)
{
	size_t nt = 0;
	while (nt < want) {
		while (p < end && (view_is_space(*p) || *p == '[' || *p == ']'))
			p++;
		if (p == end)
			return false;
		nt++;
		while (p < end && !view_is_space(*p) && *p != ']')
			p++;
	}
	return true;
}

/* The line split into its first MAX_ROW_TOKENS tokens, each candidate
 * end of the columns tried from the right. */
static int
parse_row_split(const char *line, size_t len, const struct vmmap_table_layout *t,
		struct token *tok, struct vmmap_summary_row *row, const char **why)
{
	size_t nt = 0;
	const char *p = line, *end = line + len;
	size_t need = t->ncols + (t->has_count ? 1 : 0);

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

int
vmmap_table_parse_row_general(const char *line, size_t len, const struct vmmap_table_layout *t,
			      struct vmmap_summary_row *row, const char **why)
{
	struct token tok[MAX_ROW_TOKENS];
	const char *end = line + len;
	size_t need = t->ncols + (t->has_count ? 1 : 0);

	if (!may_have_figures(line, end, need) || !may_have_columns(line, end, need)) {
		*why = "the summary row does not have the table's columns";
		return -2;
	}

	/* Nearly every row ends with its columns (no note after them): read
	 * the name and those columns from the right, as the split below
	 * would decide on its first candidate, without splitting the rest
	 * (half the parse of a dump of -summary captures). */
	if (need + 1 <= MAX_ROW_TOKENS && last_tokens(line, end, tok, need + 1) &&
	    columns_at(tok, 1, need, t))
		return read_columns(line, t, tok, 1, need, row, why);
	return parse_row_split(line, len, t, tok, row, why);
}

int
vmmap_table_parse_row_reference(const char *line, size_t len,
				const struct vmmap_table_layout *t,
				struct vmmap_summary_row *row, const char **why)
{
	struct token tok[MAX_ROW_TOKENS];
	size_t need = t->ncols + (t->has_count ? 1 : 0);
	if (!has_tokens(line, line + len, need + 1)) {
		*why = "the summary row does not have the table's columns";
		return -2;
	}
	return parse_row_split(line, len, t, tok, row, why);
}

bool
vmmap_table_is_header(const char *p, size_t n)
{
	return view_starts(p, n, "REGION TYPE") && !view_find(p, n, "START");
}
