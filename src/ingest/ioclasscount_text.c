#include "ingest/ioclasscount_text.h"

#include "ingest/detect.h"
#include "ingest/line_input.h"

#include "util/size.h"
#include "util/strbuf.h"
#include "util/view.h"

#include <inttypes.h>
#include <string.h>

#define UNREADABLE_TEXT "?? (error reading/converting value)"
#define ABSENT_TEXT "<no such class>"

int
ioclasscount_parse_value(const char *p, size_t n, int64_t *value,
			 enum class_count_state *state, bool *overflow)
{
	uint64_t v;
	*overflow = false;
	*value = 0;
	if (n == strlen(UNREADABLE_TEXT) && memcmp(p, UNREADABLE_TEXT, n) == 0) {
		*state = CLASS_COUNT_UNREADABLE;
		return 0;
	}
	if (n == strlen(ABSENT_TEXT) && memcmp(p, ABSENT_TEXT, n) == 0) {
		*state = CLASS_COUNT_ABSENT;
		return 0;
	}
	*state = CLASS_COUNT_OK;
	bool neg = n && p[0] == '-';
	int rc = parse_u64_dec(p + neg, n - neg, &v);
	if (rc == SIZE_OVERFLOW || (rc == SIZE_OK && neg && v > (uint64_t)INT32_MAX + 1)) {
		*overflow = true;
		return -1;
	}
	if (rc != SIZE_OK)
		return -1;
	if (neg)
		*value = -(int64_t)v;
	else if (v > (uint64_t)INT32_MAX && v <= UINT32_MAX)
		*value = (int32_t)(uint32_t)v;   /* a 32-bit build's %lu of a negative count */
	else
		*value = (int64_t)v;             /* past 2^63: a 64-bit build's sign extension */
	return 0;
}

enum line_kind {
	LINE_OTHER,
	LINE_COUNT,
	LINE_QUERY,
	LINE_ALLOC,
	LINE_BAD,
};

struct entry {
	const char *name;
	size_t len;
	int64_t value;
	enum class_count_state state;
};

struct reader {
	struct classes_capture *cap;
	struct classes_snapshot *cur;    /* snapshot being filled, or NULL */
	bool cur_is_query;
	const char *path;
	struct diag_list *warnings;
	struct diag *err;
	uint64_t skipped;
	uint64_t first_skipped;
	uint64_t bad;
};

/* Where the value of "NAME = VALUE" starts, splitting at the last " = ". */
static const char *
last_equals(const char *p, size_t n)
{
	for (size_t i = n; i >= 3; i--)
		if (memcmp(p + i - 3, " = ", 3) == 0)
			return p + i - 3;
	return NULL;
}

/*
 * "   Instance allocation = 0x0022c718 = 2225 K" (the pre-2005 form has no 0x).
 * The K column is ignored: it is derived from the hex value.
 */
static bool
parse_alloc_line(const char *p, size_t n, int *kind, int64_t *value)
{
	const char *b = view_ltrim(p, p + n);
	const char *e = p + n;
	const char *eq = view_find(b, (size_t)(e - b), " = ");
	if (!eq)
		return false;
	int k = alloc_kind_from_key(b, (size_t)(eq - b));
	if (k < 0)
		return false;
	const char *h = eq + 3;
	const char *eq2 = view_find(h, (size_t)(e - h), " = ");
	if (!eq2 || e - eq2 < 5 || memcmp(e - 2, " K", 2) != 0)
		return false;
	if (eq2 - h > 2 && h[0] == '0' && h[1] == 'x')
		h += 2;
	uint64_t v;
	if (parse_u64_hex(h, (size_t)(eq2 - h), &v) != SIZE_OK)
		return false;
	*kind = k;
	*value = (int64_t)v;
	return true;
}

static bool
valid_name(const char *p, size_t n)
{
	return n > 0 && !view_is_space(p[0]) && !memchr(p, '\0', n);
}

static void
start_snapshot(struct reader *rd, uint64_t line, bool query)
{
	rd->cur = classes_capture_add(rd->cap, CLASSES_SRC_IOCLASSCOUNT, line);
	rd->cur->query = query;
	rd->cur->has_classes = true;
	rd->cur_is_query = query;
}

static void
add_entry(struct reader *rd, const struct entry *e, uint64_t line)
{
	classes_snapshot_add(rd->cur, e->name, e->len, e->value, e->state, line);
}

/*
 * "A = 1, B = <no such class>, C = 2" (maybe ", " at the end). With
 * `commit` false only checks the shape, so a line that is not one adds
 * nothing. 0, or -1 if not that shape.
 */
static int
parse_query_line(struct reader *rd, const char *p, size_t n, uint64_t line, bool commit)
{
	const char *s = p, *end = p + n;
	while (s < end) {
		const char *eq = view_find(s, (size_t)(end - s), " = ");
		if (!eq || !valid_name(s, (size_t)(eq - s)))
			return -1;
		const char *v = eq + 3;
		/* "?? (error reading/converting value)" holds no ", ", so the first one ends it. */
		const char *comma = view_find(v, (size_t)(end - v), ", ");
		const char *ve = comma ? comma : end;
		struct entry e = { .name = s, .len = (size_t)(eq - s) };
		bool overflow;
		if (ioclasscount_parse_value(v, (size_t)(ve - v), &e.value, &e.state, &overflow) < 0)
			return -1;
		if (commit)
			add_entry(rd, &e, line);
		s = comma ? comma + 2 : end;
	}
	return 0;
}

static enum line_kind
classify(const char *p, size_t n, struct entry *e, int *alloc_kind, bool *overflow)
{
	*overflow = false;
	if (parse_alloc_line(p, n, alloc_kind, &e->value))
		return LINE_ALLOC;
	const char *eq = last_equals(p, n);
	if (!eq)
		return LINE_OTHER;
	const char *v = eq + 3;
	if (view_find(p, n, ", ") && view_find(p, (size_t)(eq - p), " = "))
		return LINE_QUERY;
	if (n >= 2 && memcmp(p + n - 2, ", ", 2) == 0)
		return LINE_QUERY;
	e->name = p;
	e->len = (size_t)(eq - p);
	if (!valid_name(e->name, e->len))
		return LINE_OTHER;
	if (ioclasscount_parse_value(v, (size_t)(p + n - v), &e->value, &e->state, overflow) < 0)
		return *overflow ? LINE_BAD : LINE_OTHER;
	return LINE_COUNT;
}

static int
on_line(struct reader *rd, const struct line *ln)
{
	struct entry e;
	int kind;
	bool overflow;
	size_t n = ln->len;
	/* ioreg and ioclasscount never end a line in blanks; pasted text can. */
	while (n && ln->p[n - 1] == ' ' && !(n >= 2 && ln->p[n - 2] == ','))
		n--;
	if (n == 0 || ln->p[0] == '#') {
		rd->cur = NULL;
		return 0;
	}
	switch (classify(ln->p, n, &e, &kind, &overflow)) {
	case LINE_ALLOC:
		if (!rd->cur || rd->cur->alloc_present[kind]) {
			start_snapshot(rd, ln->no, false);
			rd->cur->has_classes = false;
		}
		rd->cur->alloc[kind] = e.value;
		rd->cur->alloc_present[kind] = true;
		return 0;
	case LINE_COUNT:
		/* Only a class-names query answers "<no such class>": a one-name query. */
		if (e.state == CLASS_COUNT_ABSENT)
			start_snapshot(rd, ln->no, true);
		else if (!rd->cur || rd->cur_is_query ||
			 classes_snapshot_find(rd->cur, e.name, e.len))
			start_snapshot(rd, ln->no, false);
		rd->cur->has_classes = true;
		add_entry(rd, &e, ln->no);
		if (ln->unterminated)
			diag_list_add(rd->warnings, DIAG_WARNING, rd->path, ln->no,
				      "the last line has no newline: its count may be cut short");
		return 0;
	case LINE_QUERY:
		if (parse_query_line(rd, ln->p, n, ln->no, false) == 0) {
			start_snapshot(rd, ln->no, true);
			parse_query_line(rd, ln->p, n, ln->no, true);
			return 0;
		}
		break;
	case LINE_BAD: {
		struct strbuf q = STRBUF_INIT;
		diag_quote(&q, ln->p, ln->len, 120);
		diag_set(rd->err, DIAG_DATA, rd->path, ln->no, 0,
			 "a count that does not fit in 64 bits: '%s'", q.buf);
		strbuf_release(&q);
		return -1;
	}
	case LINE_OTHER:
	default:
		break;
	}
	rd->cur = NULL;
	if (!rd->skipped++)
		rd->first_skipped = ln->no;
	return 0;
}

int
ioclasscount_text_read(struct line_reader *r, struct classes_capture *cap,
		       const struct classes_read_opts *opts,
		       struct diag_list *warnings, struct diag *err)
{
	struct reader rd = { .cap = cap, .path = r->path, .warnings = warnings, .err = err };
	struct line_input in;
	struct line ln;
	int rc;
	(void)opts;
	if (line_input_begin(&in, r, err) < 0)
		return -1;
	while ((rc = line_input_next(&in, &ln, err)) > 0) {
		if (ln.overlong || ln.has_nul) {
			diag_list_add(warnings, DIAG_WARNING, r->path, ln.no, "%s; skipped",
				      ln.overlong ? "an overlong line" : "a line holding a NUL byte");
			rd.cur = NULL;
			continue;
		}
		if (on_line(&rd, &ln) < 0)
			return -1;
	}
	if (rc < 0)
		return -1;
	if (rd.skipped && cap->nsnapshots)
		diag_list_add(warnings, DIAG_NOTE, r->path, rd.first_skipped,
			      "%" PRIu64 " line%s that are not ioclasscount output were skipped "
			      "(the first is this one)", rd.skipped, rd.skipped == 1 ? "" : "s");
	return 0;
}

/* "Name = 123" at the start of a line, the shape of ioclasscount's listing. */
static bool
has_count_lines(const char *p, size_t n)
{
	const char *end = p + n;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		const char *eq = view_find(p, (size_t)(e - p), " = ");
		if (eq && eq > p && !view_is_space(*p)) {
			const char *d = eq + 3;
			if (d < e && ((*d >= '0' && *d <= '9') || *d == '<'))
				return true;
		}
		p = nl ? nl + 1 : end;
	}
	return false;
}

/* ioalloccount lines are indented, unlike ioclasscount's. */
enum input_kind
ioclasscount_input_kind(const char *p, size_t n)
{
	if (has_count_lines(p, n) || view_find(p, n, " allocation = 0x"))
		return INPUT_IOCLASSCOUNT;
	return INPUT_TEXT;
}
