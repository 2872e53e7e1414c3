/*
 * The heap report reader (ingest/heap_read.h): one pass over the lines,
 * the header's "Key: value" lines kept as printed, the zone and total
 * lines read for their figures, each table row split from its end.
 */

#include "ingest/heap_read.h"

#include "ingest/detect.h"
#include "ingest/line_input.h"
#include "util/bytes.h"
#include "util/scan.h"
#include "util/size.h"
#include "util/view.h"

#include <string.h>

/* The TYPE column's words: a row's word before BINARY (or its last) that is one of these. */
static const char *const heap_types[] = { "ObjC", "C++", "CFType", "C", "Swift" };

struct word {
	const char *p;
	size_t n;
};

/* Split a line into at most `max` words; how many (more are not counted). */
static size_t
split_words(const char *p, size_t n, struct word *w, size_t max)
{
	const char *end = p + n;
	size_t k = 0;
	while (k < max) {
		p = view_ltrim(p, end);
		if (p == end)
			break;
		const char *s = p;
		while (p < end && !view_is_space(*p))
			p++;
		w[k].p = s;
		w[k].n = (size_t)(p - s);
		k++;
	}
	return k;
}

static bool
word_is(const struct word *w, const char *s)
{
	return w->n == strlen(s) && memcmp(w->p, s, w->n) == 0;
}

static bool
is_type(const struct word *w)
{
	for (size_t i = 0; i < sizeof(heap_types) / sizeof(heap_types[0]); i++)
		if (word_is(w, heap_types[i]))
			return true;
	return false;
}

/* "COUNT BYTES AVG CLASS_NAME ...": the table header. */
static bool
is_table_header(const char *p, size_t n)
{
	struct word w[4];
	return split_words(p, n, w, 4) == 4 && word_is(&w[0], "COUNT") &&
	       word_is(&w[1], "BYTES") && word_is(&w[2], "AVG") && word_is(&w[3], "CLASS_NAME");
}

/* An underline of '=' (and spaces), or a rule of '-'. */
static bool
is_rule(const char *p, size_t n)
{
	const char *s = view_ltrim(p, p + n);
	if (s == p + n || (*s != '=' && *s != '-'))
		return false;
	char c = *s;
	for (; s < p + n; s++)
		if (*s != c && !view_is_space(*s))
			return false;
	return true;
}

/* A size heap printed: bytes ("123456"), or with -H a figure and a unit ("3.3M"). */
static int
read_size(const struct word *w, uint64_t *out, bool *rounded)
{
	if (!w->n)
		return -1;
	/* Bytes are read as integers: exact past 2^53, where a double is not. */
	if (scan_all_digits(w->p, w->n)) {
		*rounded = false;
		return parse_u64_dec(w->p, w->n, out) == 0 && bytes_fit(*out) ? 0 : -1;
	}
	*rounded = true;
	if (size_parse_vmmap(w->p, w->n, out) != SIZE_OK || !bytes_fit(*out))
		return -1;
	return 0;
}

static bool
is_count(const struct word *w, uint64_t *out)
{
	return parse_u64_dec(w->p, w->n, out) == 0 && bytes_fit(*out);
}

/* heap's AVG: a decimal figure, or with -H a size. */
static bool
is_avg(const struct word *w)
{
	uint64_t v;
	bool r;
	return read_size(w, &v, &r) == 0;
}

/* "Key: value" of the header block: a key of letters, spaces, '/', '(' and ')'. */
static bool
header_line(const char *p, size_t n, size_t *klen, const char **v, size_t *vlen)
{
	const char *colon = memchr(p, ':', n);
	if (!colon || colon == p || view_is_space(*p))
		return false;
	for (const char *s = p; s < colon; s++)
		if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == ' ' ||
		      *s == '/' || *s == '(' || *s == ')'))
			return false;
	*klen = (size_t)(colon - p);
	const char *s = view_ltrim(colon + 1, p + n);
	*v = s;
	*vlen = view_rtrim(s, (size_t)(p + n - s));
	return true;
}

struct reader {
	struct line_reader *r;
	struct heap_capture *cap;
	struct diag_list *warnings;
	struct diag *err;
	bool in_table;
	bool seen;          /* a line only a heap report holds */
	uint64_t skipped;   /* lines outside the tables not understood */
	uint64_t first_skipped;
};

static int
too_large(struct reader *x, const struct line *ln, const char *what)
{
	return diag_set(x->err, DIAG_DATA, x->r->path, ln->no, 0,
			"%s past 2^63 - 1: not a figure heap prints", what);
}

/* "All zones: N nodes (B bytes)". 1 read, 0 not this line, -1 with *err. */
static int
all_zones(struct reader *x, const struct line *ln, const char *p, size_t n)
{
	if (!view_starts(p, n, "All zones:"))
		return 0;
	struct word w[5];
	size_t k = split_words(p + 10, n - 10, w, 5);
	uint64_t nodes, bytes;
	bool rounded = false;
	if (k < 4 || !word_is(&w[1], "nodes") || w[2].n < 2 || w[2].p[0] != '(')
		return 0;
	struct word b = { w[2].p + 1, w[2].n - 1 };
	if (!is_count(&w[0], &nodes))
		return too_large(x, ln, "a node count");
	if (read_size(&b, &bytes, &rounded) < 0)
		return too_large(x, ln, "a byte figure");
	x->cap->has_all = true;
	x->cap->all_nodes = nodes;
	x->cap->all_bytes = bytes;
	x->cap->rounded |= rounded;
	return 1;
}

/* "Zone NAME: Overall size: ...; N nodes malloced for MKB ...". 1 read, 0 not this line. */
static int
zone_line(struct reader *x, const struct line *ln, const char *p, size_t n)
{
	if (!view_starts(p, n, "Zone "))
		return 0;
	const char *colon = view_find(p, n, ": ");
	const char *m = view_find(p, n, " nodes malloced");
	if (!colon || !m)
		return 0;
	const char *s = m;
	while (s > p && s[-1] >= '0' && s[-1] <= '9')
		s--;
	uint64_t nodes = 0, kb = 0;
	if (s == m || parse_u64_dec(s, (size_t)(m - s), &nodes) != 0 || !bytes_fit(nodes))
		return too_large(x, ln, "a zone's node count");
	bool has_kb = false;
	const char *f = view_find(m, (size_t)(p + n - m), " for ");
	if (f) {
		const char *d = f + 5, *e = d;
		while (e < p + n && *e >= '0' && *e <= '9')
			e++;
		if (e > d && e + 1 < p + n && e[0] == 'K' && e[1] == 'B') {
			if (parse_u64_dec(d, (size_t)(e - d), &kb) != 0 || kb > BYTES_MAX / 1024)
				return too_large(x, ln, "a zone's malloced size");
			has_kb = true;
		}
	}
	heap_zone_add(x->cap, p + 5, (size_t)(colon - p - 5), nodes, has_kb, kb * 1024);
	return 1;
}

#define ROW_WORDS_MAX 64

/* A table row. 1 read, 0 not a row, -1 with *err. */
static int
table_row(struct reader *x, const struct line *ln, const char *p, size_t n)
{
	struct word w[ROW_WORDS_MAX];
	size_t k = split_words(p, n, w, ROW_WORDS_MAX);
	uint64_t count, bytes;
	bool rounded;
	if (k < 4)
		return 0;
	/* Digits that do not fit are a figure too large, not a line of another shape. */
	for (int i = 0; i < 2; i++) {
		uint64_t v;
		if (scan_all_digits(w[i].p, w[i].n) &&
		    (parse_u64_dec(w[i].p, w[i].n, &v) != 0 || !bytes_fit(v)))
			return too_large(x, ln, i == 0 ? "a COUNT" : "a BYTES figure");
	}
	if (!is_count(&w[0], &count) || read_size(&w[1], &bytes, &rounded) < 0 || !is_avg(&w[2]))
		return 0;
	/* The rest of the line, from the fourth word: CLASS_NAME [TYPE [BINARY]]. */
	const char *rest = w[3].p, *end = p + view_rtrim(p, n);
	const char *type = "", *binary = "";
	size_t tlen = 0, blen = 0;
	const char *cend = end;
	size_t last = k - 1;
	if (k < ROW_WORDS_MAX && k >= 5 && is_type(&w[last])) {
		type = w[last].p;
		tlen = w[last].n;
		cend = w[last].p;
	} else if (k < ROW_WORDS_MAX && k >= 6 && is_type(&w[last - 1])) {
		type = w[last - 1].p;
		tlen = w[last - 1].n;
		binary = w[last].p;
		blen = w[last].n;
		cend = w[last - 1].p;
	}
	size_t clen = view_rtrim(rest, (size_t)(cend - rest));
	x->cap->rounded |= rounded;
	if (!heap_row_add(x->cap, rest, clen, type, tlen, binary, blen, count, bytes))
		return too_large(x, ln, "the table's sum");
	return 1;
}

static int
read_line(struct reader *x, const struct line *ln)
{
	const char *p = ln->p;
	size_t n = view_rtrim(ln->p, ln->len);
	const char *s = view_ltrim(p, p + n);
	size_t sn = (size_t)(p + n - s);
	int rc;
	if (sn == 0 || is_rule(s, sn))
		return 0;
	if (is_table_header(s, sn)) {
		x->in_table = x->seen = true;
		x->cap->ntables++;
		return 0;
	}
	if ((rc = all_zones(x, ln, s, sn)) != 0 || (rc = zone_line(x, ln, s, sn)) != 0) {
		x->in_table = false;
		x->seen |= rc > 0;
		return rc < 0 ? -1 : 0;
	}
	if (x->in_table) {
		if ((rc = table_row(x, ln, s, sn)) != 0)
			return rc < 0 ? -1 : 0;
		x->cap->partial = true;
		diag_list_add(x->warnings, DIAG_WARNING, x->r->path, ln->no,
			      "not a row of heap's class table (COUNT BYTES AVG CLASS_NAME): "
			      "left out, the table is partial");
		return 0;
	}
	size_t klen, vlen;
	const char *v;
	if (x->cap->ntables == 0 && header_line(s, sn, &klen, &v, &vlen)) {
		if (view_starts(s, sn, "Analysis Tool:") && vlen >= 4 &&
		    memcmp(v + vlen - 4, "heap", 4) == 0)
			x->seen = true;
		heap_header_add(x->cap, s, klen, v, vlen);
		return 0;
	}
	/* "Found 4107 ObjC classes", "Process 4242: 2 zones": what heap scanned,
	 * not a figure of the heap (the zones are read from their own lines). */
	if (view_starts(s, sn, "Found ") || (view_starts(s, sn, "Process ") &&
					      view_find(s, sn, " zones")))
		return 0;
	if (!x->skipped++)
		x->first_skipped = ln->no;
	return 0;
}

int
heap_read(struct line_reader *r, struct heap_capture *cap, struct diag_list *warnings,
	  struct diag *err)
{
	struct reader x = { .r = r, .cap = cap, .warnings = warnings, .err = err };
	struct line_input in;
	struct line ln;
	int rc;
	if (line_input_begin(&in, r, err) < 0)
		return -1;
	/* Leading '#' lines (a fixture's source) are not the report's. */
	while ((rc = line_input_next(&in, &ln, err)) > 0) {
		if (ln.has_nul || ln.overlong) {
			diag_list_add(warnings, DIAG_WARNING, r->path, ln.no, "%s: left out%s",
				      ln.has_nul ? "a NUL byte" : "a line too long",
				      x.in_table ? ", the table is partial" : "");
			cap->partial |= x.in_table;
			continue;
		}
		if (read_line(&x, &ln) < 0)
			return -1;
	}
	if (rc < 0)
		return -1;
	if (!x.seen)
		return diag_set(err, DIAG_DATA, r->path, 0, 0,
				"holds no heap report (no 'COUNT BYTES AVG CLASS_NAME' table, "
				"no 'All zones:' line)");
	if (x.skipped)
		diag_list_add(warnings, DIAG_NOTE, r->path, x.first_skipped,
			      "%llu line%s outside the tables not read (from this one)",
			      (unsigned long long)x.skipped, x.skipped == 1 ? "" : "s");
	if (cap->has_all && !cap->partial && cap->ntables == 1 && !cap->rounded &&
	    (cap->sum_count != cap->all_nodes || cap->sum_bytes != cap->all_bytes))
		diag_list_add(warnings, DIAG_NOTE, r->path, 0,
			      "the table's rows sum to %llu nodes (%llu bytes), 'All zones' "
			      "says %llu (%llu): gates on nodes and bytes read 'All zones'",
			      (unsigned long long)cap->sum_count,
			      (unsigned long long)cap->sum_bytes,
			      (unsigned long long)cap->all_nodes,
			      (unsigned long long)cap->all_bytes);
	return 0;
}

/* One line of the start of an input: does only a heap report hold it? */
static bool
recognise_line(const char *p, size_t n)
{
	const char *s = view_ltrim(p, p + n);
	size_t sn = view_rtrim(s, (size_t)(p + n - s));
	if (is_table_header(s, sn))
		return true;
	if (view_starts(s, sn, "All zones:") && view_find(s, sn, " nodes ("))
		return true;
	if (view_starts(s, sn, "Analysis Tool:"))
		return sn >= 4 && memcmp(s + sn - 4, "heap", 4) == 0 &&
		       (sn == 4 || s[sn - 5] == '/' || s[sn - 5] == ' ');
	return false;
}

bool
heap_recognise(const char *p, size_t n)
{
	const char *end = p + n;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		if (recognise_line(p, (size_t)(e - p)))
			return true;
		p = nl ? nl + 1 : end;
	}
	return false;
}

enum input_kind
heap_input_kind(const char *p, size_t n)
{
	return heap_recognise(p, n) ? INPUT_HEAP : INPUT_TEXT;
}
