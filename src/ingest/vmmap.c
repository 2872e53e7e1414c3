#include "ingest/vmmap.h"

#include "ingest/detect.h"
#include "util/size.h"
#include "util/strbuf.h"
#include "util/view.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Region lines                                                        */
/* ------------------------------------------------------------------ */

static bool
is_prot(const char *p)
{
	return (p[0] == 'r' || p[0] == '-') && (p[1] == 'w' || p[1] == '-') &&
	       (p[2] == 'x' || p[2] == '-');
}

/* Does "] rwx/rwx SM=" start at rb? (the anchor of every region line) */
static bool
is_prot_block(const char *rb, const char *end)
{
	if (end - rb < 13)
		return false;
	return rb[1] == ' ' && is_prot(rb + 2) && rb[5] == '/' && is_prot(rb + 6) &&
	       rb[9] == ' ' && memcmp(rb + 10, "SM=", 3) == 0;
}

/* Skip an indent, "> " mail quotes and the crash-report "--->" marker. */
static const char *
skip_line_prefix(const char *p, const char *end)
{
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

/* "START-END": hex (optionally 0x-prefixed) or the unmapped/kernel tokens. */
static int
parse_address(const char *p, size_t n, uint64_t *v, bool *symbolic)
{
	*symbolic = false;
	if ((n == 8 && memcmp(p, "unmapped", 8) == 0) ||
	    (n == 6 && memcmp(p, "kernel", 6) == 0)) {
		*symbolic = true;
		return 0;
	}
	if (n > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		p += 2;
		n -= 2;
	}
	return parse_u64_hex(p, n, v) == SIZE_OK ? 0 : -1;
}

static int
parse_range(const char *p, size_t n, struct vmmap_region *r, const char **why)
{
	const char *dash = memchr(p, '-', n);
	if (!dash) {
		*why = "no START-END address range before '['";
		return -1;
	}
	size_t ln = (size_t)(dash - p), rn = n - ln - 1;
	bool sym_start, sym_end;
	if (parse_address(p, ln, &r->start, &sym_start) < 0 ||
	    parse_address(dash + 1, rn, &r->end, &sym_end) < 0) {
		*why = "address range is not hexadecimal START-END";
		return -1;
	}
	if (sym_start != sym_end) {
		*why = "address range mixes a symbolic and a numeric address";
		return -1;
	}
	r->has_range = !sym_start;
	r->zero_padded = r->has_range && ln > 1 && p[0] == '0' && p[1] != 'x' && p[1] != 'X';
	if (r->has_range && r->end < r->start) {
		*why = "address range ends below its start";
		return -1;
	}
	return 0;
}

static bool
is_size_sep(char c)
{
	return c == ' ' || c == '/' || c == '\t';
}

/*
 * One size token at *pp, scanned and converted in a single pass (this runs
 * four times per region line). Whole numbers with no unit or a K unit are
 * converted exactly here; anything else goes through size_parse_vmmap().
 */
static int
scan_size_token(const char **pp, const char *end, uint64_t *v, bool *rounded)
{
	const char *t = *pp, *p = t;
	uint64_t whole = 0;
	while (p < end && (unsigned)(*p - '0') <= 9 && p - t < 15)
		whole = whole * 10 + (uint64_t)(*p++ - '0');
	bool simple = p > t && (p == end || *p == ' ' || *p == '/' ||
				(*p == 'K' && (p + 1 == end || p[1] == ' ' || p[1] == '/')));
	if (simple) {
		if (p < end && *p == 'K') {
			whole <<= 10;
			p++;
		}
		*v = whole;
		*rounded = false;
		*pp = p;
		return SIZE_OK;
	}
	while (p < end && !is_size_sep(*p))
		p++;
	*pp = p;
	*rounded = true;
	return size_parse_vmmap(t, (size_t)(p - t), v);
}

/*
 * vmmap prints the four sizes as "%6s %6s %6s %6s". When the bracket holds
 * exactly that shape, each field is a right-aligned six-byte slot: parse
 * the slots directly. Returns false (nothing consumed) for any other shape,
 * which the general tokenizer below handles.
 */
static bool
parse_size_slots(const char *p, const char *end, uint64_t *dst[4], bool *fraction)
{
	if (end - p != 27 || p[6] != ' ' || p[13] != ' ' || p[20] != ' ')
		return false;
	uint64_t v[4];
	for (int i = 0; i < 4; i++) {
		const char *f = p + 7 * i, *fe = f + 6;
		while (f < fe && *f == ' ')
			f++;
		if (f == fe)
			return false;
		uint64_t whole = 0;
		const char *d = f;
		while (d < fe && (unsigned)(*d - '0') <= 9)
			whole = whole * 10 + (uint64_t)(*d++ - '0');
		if (d == f)
			return false;
		if (d == fe) {
			v[i] = whole;
		} else if (d + 1 == fe && *d == 'K') {
			v[i] = whole << 10;
		} else {
			if (size_parse_vmmap(f, (size_t)(fe - f), &v[i]) != SIZE_OK)
				return false;
			if (i == 0)
				*fraction = true;
		}
	}
	for (int i = 0; i < 4; i++)
		*dst[i] = v[i];
	return true;
}

/* The "[ VSIZE RSDNT DIRTY SWAP]" block; fewer columns in old layouts. */
static int
parse_sizes(const char *p, const char *end, struct vmmap_region *r,
	    uint64_t *vsize_printed, bool *vsize_fraction, const char **why)
{
	uint64_t *dst[4] = { vsize_printed, &r->resident, &r->dirty, &r->swapped };
	uint64_t ignored;
	unsigned n = 0;
	*vsize_fraction = false;
	if (parse_size_slots(p, end, dst, vsize_fraction)) {
		r->size_columns = 4;
		return 0;
	}
	for (;;) {
		while (p < end && *p == ' ')
			p++;
		if (p == end)
			break;
		if (is_size_sep(*p)) {
			p++;
			continue;
		}
		bool rounded;
		int rc = scan_size_token(&p, end, n < 4 ? dst[n] : &ignored, &rounded);
		if (rc == SIZE_OVERFLOW) {
			*why = "a size does not fit in 64 bits";
			return -1;
		}
		if (rc != SIZE_OK) {
			*why = "a size inside [...] is not a number with a K/M/G/T unit";
			return -1;
		}
		if (n == 0)
			*vsize_fraction = rounded;
		n++;
	}
	if (n == 0) {
		*why = "no sizes inside [...]";
		return -1;
	}
	r->size_columns = n < 4 ? n : 4;
	return 0;
}

/* "SurfaceID: 0x74  2080x2330 (BGRA) 18.5M  'name', shared with ..." */
static void
parse_surface_detail(const char *p, const char *end, struct vmmap_region *r)
{
	static const char tag[] = "SurfaceID: 0x";
	size_t tl = sizeof(tag) - 1;
	struct vmmap_surface *s = &r->surface;
	if ((size_t)(end - p) < tl || memcmp(p, tag, tl) != 0)
		return;
	p += tl;
	const char *t = p;
	while (p < end && *p != ' ')
		p++;
	if (parse_u64_hex(t, (size_t)(p - t), &s->id) != SIZE_OK)
		return;
	p = view_ltrim(p, end);
	uint64_t w, h;
	t = p;
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	if (p == end || *p != 'x' || parse_u64_dec(t, (size_t)(p - t), &w) != SIZE_OK)
		return;
	t = ++p;
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	if (parse_u64_dec(t, (size_t)(p - t), &h) != SIZE_OK || w > UINT32_MAX || h > UINT32_MAX)
		return;
	p = view_ltrim(p, end);
	if (p == end || *p != '(')
		return;
	const char *close = memchr(p, ')', (size_t)(end - p));
	if (!close || close - p - 1 >= (ptrdiff_t)sizeof(s->format) || close == p + 1)
		return;
	memcpy(s->format, p + 1, (size_t)(close - p - 1));
	s->format[close - p - 1] = '\0';
	p = view_ltrim(close + 1, end);
	t = p;
	while (p < end && *p != ' ')
		p++;
	if (size_parse_vmmap(t, (size_t)(p - t), &s->bytes) != SIZE_OK)
		return;
	s->bytes_rounded = memchr(t, '.', (size_t)(p - t)) != NULL;
	s->width = (uint32_t)w;
	s->height = (uint32_t)h;
	r->has_surface = true;
}

/* Tokens an ATTRIBUTES column may put between SM=XXX and PURGE=. */
static bool
is_attribute_word(const char *p, size_t n)
{
	return (n == 3 && memcmp(p, "MTE", 3) == 0) ||
	       (n == 4 && memcmp(p, "TPRO", 4) == 0) ||
	       (n == 3 && memcmp(p, "JIT", 3) == 0);
}

/* After "SM=XXX": optional attributes, optional " PURGE=X", the detail. */
static void
parse_tail(const char *p, const char *end, struct vmmap_region *r)
{
	r->purge = VMMAP_PURGE_NONE;
	for (;;) {
		p = view_ltrim(p, end);
		const char *t = p;
		while (p < end && *p != ' ')
			p++;
		if (t < p && is_attribute_word(t, (size_t)(p - t)))
			continue;
		p = t;
		break;
	}
	if (end - p >= 7 && memcmp(p, "PURGE=", 6) == 0 &&
	    (p + 7 == end || p[7] == ' ')) {
		switch (p[6]) {
		case 'N':
			r->purge = VMMAP_PURGE_N;
			break;
		case 'V':
			r->purge = VMMAP_PURGE_V;
			break;
		case 'E':
			r->purge = VMMAP_PURGE_E;
			break;
		default:
			r->purge_unknown = true;
			break;
		}
		p = view_ltrim(p + 7, end);
	}
	parse_surface_detail(p, end, r);
}

/* Heuristic for lines that failed the grammar: is this meant as a region? */
static bool
looks_like_region(const char *p, const char *end)
{
	size_t n = (size_t)(end - p);
	if (view_find(p, n, " SM="))
		return true;
	const char *lb = memchr(p, '[', n);
	if (!lb)
		return false;
	/* A START-END token right before the '[' */
	const char *q = lb;
	while (q > p && view_is_space(q[-1]))
		q--;
	const char *tok_end = q;
	while (q > p && !view_is_space(q[-1]))
		q--;
	const char *dash = memchr(q, '-', (size_t)(tok_end - q));
	if (!dash || dash == q || dash + 1 == tok_end)
		return false;
	for (const char *c = q; c < tok_end; c++)
		if (c != dash && !((*c >= '0' && *c <= '9') || ((*c | 0x20) >= 'a' && (*c | 0x20) <= 'z')))
			return false;
	return true;
}

/* Lowercase hex digit values by byte; X marks a byte that is not one. */
#define X 0xff
static const unsigned char lower_hex_value[256] = {
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, 10, 11, 12, 13, 14, 15, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
};
#undef X

/*
 * Lowercase hex digits ending at *qp, read right to left (every region
 * line has two addresses, so this is the hottest loop of the tool).
 * Returns the digit count, 0 if none, or 17 for too many.
 */
static unsigned
hex_backward(const char *p, const char **qp, uint64_t *v)
{
	const char *q = *qp;
	unsigned n = 0;
	uint64_t acc = 0;
	while (q > p) {
		unsigned d = lower_hex_value[(unsigned char)q[-1]];
		if (d == 0xff)
			break;
		if (n == 16)
			return 17;
		acc |= (uint64_t)d << (4 * n);
		n++;
		q--;
	}
	*qp = q;
	*v = acc;
	return n;
}

/*
 * The common "start-end" of plain lowercase hex, parsed while finding where
 * it starts. Anything else (0x prefixes, uppercase, unmapped/kernel, too
 * many digits) returns false with *qp unchanged, for the general path.
 */
static bool
scan_hex_range_backward(const char *p, const char **qp, struct vmmap_region *r)
{
	const char *q = *qp;
	uint64_t start, end;
	unsigned ne = hex_backward(p, &q, &end);
	if (ne == 0 || ne > 16 || q == p || q[-1] != '-')
		return false;
	q--;
	unsigned ns = hex_backward(p, &q, &start);
	if (ns == 0 || ns > 16 || (q > p && q[-1] != ' ' && q[-1] != '\t'))
		return false;
	if (end < start)
		return false;   /* the general path reports it */
	r->start = start;
	r->end = end;
	r->has_range = true;
	r->zero_padded = ns > 1 && q[0] == '0';
	*qp = q;
	return true;
}

enum vmmap_line_result
vmmap_parse_region_line(const char *line, size_t n, struct vmmap_region *r,
			const char **why)
{
	const char *end = line + view_rtrim(line, n);
	const char *p = skip_line_prefix(line, end);
	const char *rb = p, *lb, *q;

	memset(r, 0, sizeof(*r));
	*why = NULL;
	for (;;) {
		rb = memchr(rb, ']', (size_t)(end - rb));
		if (!rb)
			goto not_region;
		if (is_prot_block(rb, end))
			break;
		rb++;
	}
	/* The last '[' before the anchor opens the sizes (type names hold none). */
	lb = memchr(p, '[', (size_t)(rb - p));
	if (!lb) {
		*why = "no '[' before the sizes";
		return VMMAP_LINE_MALFORMED;
	}
	for (const char *more; (more = memchr(lb + 1, '[', (size_t)(rb - lb - 1)));)
		lb = more;

	/* Type and range: the last token before '[' is START-END. */
	q = lb;
	while (q > p && q[-1] == ' ')
		q--;
	const char *range_end = q;
	if (scan_hex_range_backward(p, &q, r)) {
		range_end = NULL;   /* parsed */
	} else {
		while (q > p && !view_is_space(q[-1]))
			q--;
	}
	const char *range = q;
	while (q > p && view_is_space(q[-1]))
		q--;
	if (q == p || range == range_end) {
		*why = "no region type before the address range";
		return VMMAP_LINE_MALFORMED;
	}
	r->type = p;
	r->type_len = (size_t)(q - p);
	if (range_end && parse_range(range, (size_t)(range_end - range), r, why) < 0)
		return VMMAP_LINE_MALFORMED;

	uint64_t printed;
	bool fraction;
	if (parse_sizes(lb + 1, rb, r, &printed, &fraction, why) < 0)
		return VMMAP_LINE_MALFORMED;
	if (r->has_range) {
		r->vsize = r->end - r->start;
	} else {
		r->vsize = printed;
		r->vsize_rounded = fraction;
	}
	/* rb+13 is past "] rwx/rwx SM="; the share mode is three bytes, or fewer
	 * when an unknown mode's blanks were trimmed at the end of the line. */
	const char *sm = rb + 13;
	const char *tail = end - sm > 3 ? sm + 3 : end;
	parse_tail(tail, end, r);
	return VMMAP_LINE_REGION;

not_region:
	if (looks_like_region(p, end)) {
		*why = "no '] PRT/MAX SM=' block";
		return VMMAP_LINE_MALFORMED;
	}
	return VMMAP_LINE_OTHER;
}

/* ------------------------------------------------------------------ */
/* Summary tables                                                      */
/* ------------------------------------------------------------------ */

enum table_state {
	TABLE_NONE,
	TABLE_HEAD,     /* saw the "REGION TYPE" header, waiting for ==== */
	TABLE_ROWS,
	TABLE_TOTALS,
	TABLE_ZONES,    /* MALLOC ZONE table: not about region types */
};

struct table_layout {
	enum vmmap_column cols[VMMAP_COL_SIZES];
	unsigned ncols;
	bool has_count;
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
 * dumps, bracketed "[ VIRTUAL]" in 2.0) or from the line above it
 * ("VIRTUAL RESIDENT ... REGION"); a header of bare SIZE words (a pasted
 * excerpt without the line above) is read by its width.
 */
static void
table_layout_from(struct table_layout *t, const char *above, size_t above_n,
		  const char *head, size_t head_n)
{
	const char *srcs[2] = { head, above };
	size_t lens[2] = { head_n, above_n };
	unsigned sizes = 0;

	memset(t, 0, sizeof(*t));
	t->has_count = view_find(head, head_n, "COUNT") != NULL;
	for (int s = 0; s < 2 && t->ncols == 0; s++) {
		const char *p = srcs[s], *end = srcs[s] + lens[s];
		while (p < end) {
			while (p < end && (view_is_space(*p) || *p == '[' || *p == ']'))
				p++;
			const char *w = p;
			while (p < end && !view_is_space(*p) && *p != ']')
				p++;
			int c = column_for_word(w, (size_t)(p - w));
			if (c >= 0 && t->ncols < VMMAP_COL_SIZES)
				t->cols[t->ncols++] = (enum vmmap_column)c;
			if (p - w == 4 && memcmp(w, "SIZE", 4) == 0)
				sizes++;
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

static bool
is_count_token(const char *p, size_t n)
{
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (p[i] < '0' || p[i] > '9')
			return false;
	return true;
}

static bool
is_size_token(const char *p, size_t n)
{
	uint64_t v;
	return size_parse_vmmap(p, n, &v) != SIZE_SYNTAX;
}

#define MAX_ROW_TOKENS 64

struct token {
	const char *p;
	size_t n;
};

/*
 * A summary row: NAME, the layout's size columns, the count, an optional
 * note. Tokenised from the right: the note holds no numbers, the name may
 * end in one ("Memory Tag 241").
 */
static int
parse_summary_row(const char *line, size_t len, const struct table_layout *t,
		  struct vmmap_summary_row *row, const char **why)
{
	struct token tok[MAX_ROW_TOKENS];
	size_t nt = 0;
	const char *p = line, *end = line + len;

	while (p < end && nt < MAX_ROW_TOKENS) {
		while (p < end && (view_is_space(*p) || *p == '[' || *p == ']'))
			p++;
		if (p == end)
			break;
		tok[nt].p = p;
		while (p < end && !view_is_space(*p) && *p != ']')
			p++;
		tok[nt].n = (size_t)(p - tok[nt].p);
		nt++;
	}
	size_t need = t->ncols + (t->has_count ? 1 : 0);
	for (size_t last = nt; last-- > need;) {
		/* `last` is the index of the final value token (count or size). */
		size_t first = last + 1 - need;
		bool ok = !t->has_count || is_count_token(tok[last].p, tok[last].n);
		for (size_t i = first; ok && i < first + t->ncols; i++)
			ok = is_size_token(tok[i].p, tok[i].n);
		if (!ok)
			continue;
		memset(row, 0, sizeof(*row));
		for (size_t i = 0; i < t->ncols; i++) {
			const struct token *k = &tok[first + i];
			enum vmmap_column c = t->cols[i];
			if (size_parse_vmmap(k->p, k->n, &row->value[c]) != SIZE_OK ||
			    row->value[c] > VMMAP_BYTES_MAX) {
				*why = "a size in the summary row is larger than 2^63 bytes";
				return -1;
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
			    row->count > VMMAP_BYTES_MAX) {
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
	*why = "the summary row does not have the table's columns";
	return -1;
}

/* ------------------------------------------------------------------ */
/* The line-by-line driver                                             */
/* ------------------------------------------------------------------ */

#define ABOVE_MAX 512

struct parser {
	struct vmmap_capture *cap;
	const struct vmmap_parse_opts *opts;
	struct diag_list *warnings;
	struct diag *err;
	const char *path;

	struct vmmap_dump *dump;     /* current dump, NULL before the first */
	bool dump_has_process;
	bool dump_has_vmm_line;
	bool dump_seen_nonwritable;
	bool dump_seen_writable;

	enum table_state table;
	struct table_layout layout;
	char above[ABOVE_MAX];       /* the line before a possible table header */
	size_t above_len;

	uint64_t unparsed_total;
	uint64_t unparsed_reported;
	uint64_t last_line;
	bool last_was_region;        /* the previous line parsed as a region */
	bool last_was_unparsed;      /* the previous line was counted as not understood */
	enum input_kind kind;        /* what the start of the input looks like */
	bool saw_failure_message;
	char failure[160];
};

static void
close_dump(struct parser *ps)
{
	if (ps->dump && ps->last_line >= ps->dump->first_line)
		ps->dump->lines = ps->last_line - ps->dump->first_line + 1;
}

static struct vmmap_dump *
start_dump(struct parser *ps, uint64_t line)
{
	close_dump(ps);
	ps->dump = vmmap_capture_new_dump(ps->cap, line);
	ps->dump_has_process = false;
	ps->dump_has_vmm_line = false;
	ps->dump_seen_nonwritable = false;
	ps->dump_seen_writable = false;
	ps->table = TABLE_NONE;
	return ps->dump;
}

static struct vmmap_dump *
current_dump(struct parser *ps, uint64_t line)
{
	return ps->dump ? ps->dump : start_dump(ps, line);
}

static bool
dump_has_body(const struct parser *ps)
{
	const struct vmmap_dump *d = ps->dump;
	return d && (d->region_lines || d->has_summary || d->has_region_section ||
		     ps->table != TABLE_NONE);
}

static const char *const header_keys[] = {
	"Process", "Path", "Load Address", "Identifier", "Version", "Build Info",
	"Code Type", "Platform", "Parent Process", "Target Type", "Date/Time",
	"Launch Time", "OS Version", "Report Version", "Analysis Tool",
	"Analysis Tool Version", "Physical footprint", "Physical footprint (peak)",
	"Idle exit",
};

static const char *
header_key(const char *p, size_t n, size_t *klen)
{
	const char *colon = memchr(p, ':', n < 40 ? n : 40);
	if (!colon)
		return NULL;
	size_t k = (size_t)(colon - p);
	for (size_t i = 0; i < sizeof(header_keys) / sizeof(header_keys[0]); i++) {
		if (strlen(header_keys[i]) == k && memcmp(header_keys[i], p, k) == 0) {
			*klen = k;
			return header_keys[i];
		}
	}
	return NULL;
}

/* "name [pid]": the pid is in the last brackets; the name may hold brackets too. */
static void
set_process(struct vmmap_dump *d, const char *v, size_t n)
{
	const char *end = v + n;
	const char *rb = end;
	while (rb > v && rb[-1] != ']')
		rb--;
	if (rb > v) {
		const char *lb = rb - 1;
		while (lb > v && lb[-1] != '[')
			lb--;
		uint64_t pid;
		if (lb > v && parse_u64_dec(lb, (size_t)(rb - 1 - lb), &pid) == SIZE_OK) {
			d->pid = pid;
			d->has_pid = true;
			n = view_rtrim(v, (size_t)(lb - 1 - v));
		}
	}
	free(d->process);
	d->process = xmemdup0(v, n);
}

static bool
handle_header(struct parser *ps, const struct line *ln, const char *p, size_t n)
{
	size_t klen;
	const char *key = header_key(p, n, &klen);
	if (!key)
		return false;
	if (strcmp(key, "Process") == 0 && (ps->dump_has_process || dump_has_body(ps)))
		start_dump(ps, ln->no);
	struct vmmap_dump *d = current_dump(ps, ln->no);
	const char *v = view_ltrim(p + klen + 1, p + n);
	size_t vn = (size_t)(p + n - v);
	vmmap_dump_set_field(d, p, klen, v, vn);
	if (strcmp(key, "Process") == 0) {
		ps->dump_has_process = true;
		set_process(d, v, vn);
	}
	return true;
}

static uint64_t
parse_leading_u64(const char *p, const char *end)
{
	uint64_t v = 0;
	const char *t = p;
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	if (parse_u64_dec(t, (size_t)(p - t), &v) != SIZE_OK)
		return 0;
	return v;
}

/* "Virtual Memory Map of process 66814 (shared_library_demo)" */
static void
handle_vmm_line(struct parser *ps, const struct line *ln, const char *p, size_t n)
{
	static const char tag[] = "Virtual Memory Map of process ";
	if (ps->dump_has_vmm_line || dump_has_body(ps))
		start_dump(ps, ln->no);
	struct vmmap_dump *d = current_dump(ps, ln->no);
	ps->dump_has_vmm_line = true;
	const char *v = p + sizeof(tag) - 1, *end = p + n;
	if (!d->has_pid) {
		d->pid = parse_leading_u64(v, end);
		d->has_pid = d->pid != 0;
	}
	const char *lp = memchr(v, '(', (size_t)(end - v));
	if (!d->process && lp && end[-1] == ')')
		d->process = xmemdup0(lp + 1, (size_t)(end - lp - 2));
}

static bool
handle_section(struct parser *ps, const struct line *ln, const char *p, size_t n)
{
	bool nonwritable = view_starts(p, n, "==== Non-writable regions for process");
	bool interleaved = view_starts(p, n, "==== regions for process");
	bool writable = view_starts(p, n, "==== Writable regions for process");
	if (!nonwritable && !interleaved && !writable) {
		if (view_starts(p, n, "==== ")) {
			ps->table = TABLE_NONE;
			return true;  /* Legend, Summary: nothing to count */
		}
		return false;
	}
	struct vmmap_dump *d = ps->dump;
	bool again = d && (d->has_summary ||
			   ((nonwritable || interleaved) &&
			    (ps->dump_seen_nonwritable || ps->dump_seen_writable)) ||
			   (writable && ps->dump_seen_writable));
	if (again)
		d = start_dump(ps, ln->no);
	d = current_dump(ps, ln->no);
	d->has_region_section = true;
	if (writable)
		ps->dump_seen_writable = true;
	else
		ps->dump_seen_nonwritable = true;
	ps->table = TABLE_NONE;
	return true;
}

static bool
is_table_header(const char *p, size_t n)
{
	return view_starts(p, n, "REGION TYPE") && !view_find(p, n, "START");
}

static void
note_unparsed(struct parser *ps, const struct line *ln, const char *why)
{
	struct vmmap_dump *d = current_dump(ps, ln->no);
	d->unparsed_lines++;
	ps->unparsed_total++;
	ps->last_was_unparsed = true;
	if (ps->unparsed_reported >= ps->opts->report_unparsed)
		return;
	ps->unparsed_reported++;
	struct strbuf q = STRBUF_INIT;
	diag_quote(&q, ln->p, ln->len, 80);
	diag_list_add(ps->warnings, DIAG_WARNING, ps->path, ln->no,
		      "line not understood (%s): '%s'", why, q.buf);
	strbuf_release(&q);
}

static int
handle_table_line(struct parser *ps, const struct line *ln, const char *p, size_t n)
{
	const char *why = NULL;
	if (n == 0) {
		ps->table = TABLE_NONE;
		return 0;
	}
	const char *t = view_ltrim(p, p + n);
	if (view_starts(t, (size_t)(p + n - t), "===")) {
		ps->table = ps->table == TABLE_HEAD ? TABLE_ROWS :
			    ps->table == TABLE_ROWS ? TABLE_TOTALS : ps->table;
		return 0;
	}
	if (ps->table == TABLE_ZONES || ps->table == TABLE_TOTALS)
		return 0;
	if (view_starts(p, n, "TOTAL")) {
		ps->table = TABLE_TOTALS;
		return 0;
	}
	if (ps->table == TABLE_HEAD)
		ps->table = TABLE_ROWS;   /* a pasted table may lack the ==== line */
	struct vmmap_summary_row row;
	if (parse_summary_row(p, n, &ps->layout, &row, &why) < 0) {
		if (ps->opts->strict)
			return diag_set(ps->err, DIAG_DATA, ps->path, ln->no, 0,
					"summary row not understood (%s)", why);
		note_unparsed(ps, ln, why);
		return 0;
	}
	row.line = ln->no;
	vmmap_dump_add_summary_row(ps->dump, &row);
	return 0;
}

static void
start_table(struct parser *ps, const struct line *ln, const char *p, size_t n)
{
	if (ps->dump && ps->dump->has_summary)
		start_dump(ps, ln->no);
	current_dump(ps, ln->no);
	table_layout_from(&ps->layout, ps->above, ps->above_len, p, n);
	ps->table = TABLE_HEAD;
}

static void
remember_above(struct parser *ps, const char *p, size_t n)
{
	if (n > ABOVE_MAX)
		n = ABOVE_MAX;
	memcpy(ps->above, p, n);
	ps->above_len = n;
}

static int
handle_region(struct parser *ps, const struct line *ln, struct vmmap_region *r)
{
	struct vmmap_dump *d = current_dump(ps, ln->no);
	r->line = ln->no;
	/* Zero-padded START tokens belong to the 10.13-and-earlier layouts. */
	d->legacy_layout |= r->zero_padded;
	return vmmap_dump_add_region(ps->cap, d, r, ps->path, ps->err);
}

static bool
region_too_large(const struct vmmap_region *r)
{
	return r->vsize > VMMAP_BYTES_MAX || r->resident > VMMAP_BYTES_MAX ||
	       r->dirty > VMMAP_BYTES_MAX || r->swapped > VMMAP_BYTES_MAX;
}

static bool
is_failure_message(const char *p, size_t n)
{
	return view_starts(p, n, "vmmap") &&
	       (view_find(p, n, "cannot examine process") || view_find(p, n, "[fatal]"));
}

static int
handle_line(struct parser *ps, const struct line *ln)
{
	const char *p = ln->p;
	size_t n = view_rtrim(p, ln->len);
	struct vmmap_region r;
	const char *why = NULL;

	ps->last_line = ln->no;
	ps->last_was_region = false;
	ps->last_was_unparsed = false;
	if (ps->table != TABLE_NONE) {
		if (n && is_table_header(p, n))
			start_table(ps, ln, p, n);
		else if (n && view_starts(p, n, "MALLOC ZONE"))
			ps->table = TABLE_ZONES;
		else
			return handle_table_line(ps, ln, p, n);
		return 0;
	}
	if (n == 0)
		return 0;

	enum vmmap_line_result res = vmmap_parse_region_line(p, n, &r, &why);
	if (res != VMMAP_LINE_OTHER || ln->has_nul) {
		if (res == VMMAP_LINE_REGION && !ln->has_nul && region_too_large(&r)) {
			res = VMMAP_LINE_MALFORMED;
			why = "a size is larger than 2^63 bytes";
		} else if (res == VMMAP_LINE_REGION && !ln->has_nul) {
			ps->last_was_region = true;
			return handle_region(ps, ln, &r);
		}
		if (res == VMMAP_LINE_MALFORMED || ln->has_nul) {
			if (res != VMMAP_LINE_MALFORMED && !looks_like_region(p, p + n))
				return 0;
			if (ln->has_nul)
				why = "the line holds a NUL byte";
			else if (ln->unterminated)
				why = "the input ends in the middle of this line";
			if (ln->overlong)
				why = "the line is longer than the line limit";
			if (ps->opts->strict)
				return diag_set(ps->err, DIAG_DATA, ps->path, ln->no, 0,
						"region line not understood (%s)", why);
			note_unparsed(ps, ln, why);
			return 0;
		}
		/* Bracketed 2.0 summary headers fall through to the checks below. */
	}

	if (handle_header(ps, ln, p, n))
		return 0;
	if (view_starts(p, n, "Virtual Memory Map of process ")) {
		handle_vmm_line(ps, ln, p, n);
		return 0;
	}
	if (view_starts(p, n, "==== ") && handle_section(ps, ln, p, n))
		return 0;
	if (is_table_header(p, n)) {
		start_table(ps, ln, p, n);
		return 0;
	}
	if (view_starts(p, n, "Output report format:")) {
		struct vmmap_dump *d = current_dump(ps, ln->no);
		const char *v = view_ltrim(p + 21, p + n);
		const char *e = v;
		while (e < p + n && *e != ' ')
			e++;
		free(d->report_format);
		d->report_format = xmemdup0(v, (size_t)(e - v));
		return 0;
	}
	if (view_starts(p, n, "VM page size:")) {
		struct vmmap_dump *d = current_dump(ps, ln->no);
		d->page_size = parse_leading_u64(view_ltrim(p + 13, p + n), p + n);
		return 0;
	}
	if (is_failure_message(p, n) && !ps->saw_failure_message) {
		ps->saw_failure_message = true;
		struct strbuf q = STRBUF_INIT;
		diag_quote(&q, p, n, 120);
		size_t m = q.len < sizeof(ps->failure) - 1 ? q.len : sizeof(ps->failure) - 1;
		memcpy(ps->failure, q.buf, m);
		ps->failure[m] = '\0';
		strbuf_release(&q);
	}
	remember_above(ps, p, n);
	return 0;
}

static bool
dump_has_structure(const struct vmmap_dump *d)
{
	return d->nfields || d->region_lines || d->has_summary || d->has_region_section ||
	       d->process || d->has_pid || d->report_format || d->page_size;
}

static bool
capture_has_structure(const struct vmmap_capture *cap)
{
	for (size_t i = 0; i < cap->ndumps; i++)
		if (dump_has_structure(cap->dumps[i]))
			return true;
	return false;
}

/* "TYPE   1130e0000-11": the start of a region line, cut by the end of input. */
static bool
looks_like_cut_region(const char *p, const char *end)
{
	if (memchr(p, '[', (size_t)(end - p)) && !memchr(p, ']', (size_t)(end - p)))
		return true;
	const char *q = end;
	while (q > p && (lower_hex_value[(unsigned char)q[-1]] != 0xff || q[-1] == '-'))
		q--;
	return q < end && q > p && view_is_space(q[-1]) && view_ltrim(p, q) < q;
}

/*
 * The last line had no newline. A saved file may simply lack the final
 * newline, so only a line cut inside a region line or a table says that
 * the input was truncated.
 */
static void
note_cut_line(struct parser *ps, const struct line *ln)
{
	const char *p = ln->p, *end = ln->p + view_rtrim(ln->p, ln->len);
	if (!ps->dump || p == end || ps->last_was_region || ps->last_was_unparsed)
		return;
	bool in_table = ps->table == TABLE_ROWS || ps->table == TABLE_HEAD;
	if (!in_table && !looks_like_cut_region(skip_line_prefix(p, end), end))
		return;
	struct strbuf q = STRBUF_INIT;
	diag_quote(&q, p, (size_t)(end - p), 80);
	diag_list_add(ps->warnings, DIAG_WARNING, ps->path, ln->no,
		      "the input ends in the middle of %s: '%s'; the dump is truncated",
		      in_table ? "the summary table" : "a region line", q.buf);
	strbuf_release(&q);
	ps->cap->partial = true;
}

/* What the input looks like, for an input that holds no dump. */
static const char *
looks_like(const struct parser *ps)
{
	if (ps->kind == INPUT_VMMAP)
		return "text that quotes vmmap's layout without holding a dump";
	return input_kind_describe(ps->kind);
}

static int
no_structure_error(struct parser *ps)
{
	if (ps->saw_failure_message)
		return diag_set(ps->err, DIAG_DATA, ps->path, 0, 0,
				"no vmmap dump: the file holds vmmap's failure message '%s'",
				ps->failure);
	if (ps->unparsed_total)
		return diag_set(ps->err, DIAG_DATA, ps->path, 0, 0,
				"no vmmap dump found, only %" PRIu64 " line%s that look%s like a "
				"region line but do%s not parse; it looks like %s",
				ps->unparsed_total, ps->unparsed_total == 1 ? "" : "s",
				ps->unparsed_total == 1 ? "s" : "",
				ps->unparsed_total == 1 ? "es" : "",
				looks_like(ps));
	return diag_set(ps->err, DIAG_DATA, ps->path, 0, 0,
			"no vmmap dump found (no header, region section, region line or "
			"summary table); it looks like %s",
			looks_like(ps));
}

int
vmmap_parse(struct line_reader *r, struct vmmap_capture *cap,
	    const struct vmmap_parse_opts *opts, struct diag_list *warnings,
	    struct diag *err)
{
	struct parser ps;
	struct line ln;
	int rc;

	memset(&ps, 0, sizeof(ps));
	ps.cap = cap;
	ps.opts = opts;
	ps.warnings = warnings;
	ps.err = err;
	ps.path = r->path;

	const char *head;
	size_t head_len;
	if (line_reader_peek(r, INPUT_DETECT_BYTES, &head, &head_len, err) < 0)
		return -1;
	ps.kind = input_detect(head, head_len);

	while ((rc = line_reader_next(r, &ln, err)) > 0) {
		if (handle_line(&ps, &ln) < 0) {
			close_dump(&ps);
			return -1;
		}
		if (ln.unterminated)
			note_cut_line(&ps, &ln);
	}
	close_dump(&ps);
	cap->lines = ps.last_line;
	if (rc < 0)
		return -1;
	if (!capture_has_structure(cap))
		return no_structure_error(&ps);
	if (ps.unparsed_total)
		cap->partial = true;
	if (ps.unparsed_total > ps.unparsed_reported)
		diag_list_add(warnings, DIAG_WARNING, ps.path, 0,
			      "%" PRIu64 " lines were not understood (the first %" PRIu64
			      " are shown above)", ps.unparsed_total, ps.unparsed_reported);
	else if (ps.unparsed_total)
		diag_list_add(warnings, DIAG_WARNING, ps.path, 0,
			      "%" PRIu64 " line%s not understood; the results leave %s out",
			      ps.unparsed_total, ps.unparsed_total == 1 ? " was" : "s were",
			      ps.unparsed_total == 1 ? "it" : "them");
	return 0;
}
