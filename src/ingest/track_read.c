#include "ingest/track_read.h"

#include "ingest/detect.h"
#include "ingest/line_input.h"
#include "ingest/track_command.h"
#include "util/size.h"
#include "util/view.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- small scanners over views ---------------------------------------- */

static bool
is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Length of the run of hex digits at p (up to end). */
static size_t
hex_run(const char *p, const char *end)
{
	const char *q = p;
	while (q < end && is_hex(*q))
		q++;
	return (size_t)(q - p);
}

/*
 * "0x" and hex digits at *pp; advances *pp. 0, or -1 with *why
 * (not a hex number, or more than 64 bits).
 */
static int
eat_hex(const char **pp, const char *end, uint64_t *v, const char **why)
{
	const char *p = *pp;
	if (end - p < 3 || p[0] != '0' || p[1] != 'x' || !is_hex(p[2])) {
		*why = "expected a 0x hexadecimal number";
		return -1;
	}
	size_t n = hex_run(p + 2, end);
	if (parse_u64_hex(p + 2, n, v) != SIZE_OK) {
		*why = "a hexadecimal number does not fit in 64 bits";
		return -1;
	}
	*pp = p + 2 + n;
	return 0;
}

/* Optional '-' and decimal digits, as %d prints. */
static int
eat_int(const char **pp, const char *end, int64_t *v, const char **why)
{
	const char *p = *pp;
	bool neg = p < end && *p == '-';
	if (neg)
		p++;
	const char *d = p;
	while (p < end && is_digit(*p))
		p++;
	uint64_t u;
	if (p == d || parse_u64_dec(d, (size_t)(p - d), &u) != SIZE_OK || u > (uint64_t)INT64_MAX) {
		*why = "expected a decimal number that fits in 64 bits";
		return -1;
	}
	*v = neg ? -(int64_t)u : (int64_t)u;
	*pp = p;
	return 0;
}

static bool
eat(const char **pp, const char *end, const char *lit)
{
	size_t n = strlen(lit);
	if ((size_t)(end - *pp) < n || memcmp(*pp, lit, n) != 0)
		return false;
	*pp += n;
	return true;
}

/* ---- record headers --------------------------------------------------- */

static int
parse_alloc_header(const char *p, const char *end, struct track_header_view *h,
		   const char **why)
{
	int64_t index;
	if (eat_hex(&p, end, &h->bytes, why) < 0 || !eat(&p, end, " bytes (") ||
	    eat_hex(&p, end, &h->size[0], why) < 0 || !eat(&p, end, " + ") ||
	    eat_hex(&p, end, &h->size[1], why) < 0 || !eat(&p, end, "), ") ||
	    eat_int(&p, end, &h->count, why) < 0) {
		if (!*why)
			*why = "expected '0x.. bytes (0x.. + 0x..), N calls [i]'";
		return -1;
	}
	if (!eat(&p, end, " calls") && !eat(&p, end, " call")) {
		*why = "expected 'call' or 'calls' after the count";
		return -1;
	}
	h->layout97 = eat(&p, end, ",");
	if (!eat(&p, end, " [") || eat_int(&p, end, &index, why) < 0 || index < 0 ||
	    !eat(&p, end, "]") || p != end) {
		*why = "expected ' [i]' at the end of the record header";
		return -1;
	}
	h->index = (uint64_t)index;
	return 0;
}

/* "name(pid)" at the end of [p, end): pid from the right, the name is the rest. */
static int
split_process(const char *p, const char *end, const char **name, size_t *len,
	      int64_t *pid, const char **why)
{
	if (end <= p || end[-1] != ')') {
		*why = "expected 'process(pid)'";
		return -1;
	}
	const char *open = end - 1;
	while (open > p && open[-1] != '(')
		open--;
	if (open == p) {
		*why = "expected 'process(pid)'";
		return -1;
	}
	const char *q = open;
	if (eat_int(&q, end - 1, pid, why) < 0 || q != end - 1) {
		*why = "expected a process id in '(pid)'";
		return -1;
	}
	*name = p;
	*len = (size_t)(open - 1 - p);
	return 0;
}

static int
parse_map_header(const char *p, const char *end, struct track_header_view *h,
		 const char **why)
{
	if (!eat(&p, end, "[") || eat_hex(&p, end, &h->address, why) < 0 ||
	    !eat(&p, end, ", ") || eat_hex(&p, end, &h->bytes, why) < 0 ||
	    !eat(&p, end, "] ")) {
		if (!*why)
			*why = "expected '[0xADDR, 0xLEN] process(pid) [i]'";
		return -1;
	}
	/* " [i]" at the end, then "name(pid)" before it; both from the right. */
	const char *open = end;
	while (open > p && open[-1] != '[')
		open--;
	int64_t index;
	const char *q = open;
	if (end[-1] != ']' || open - p < 2 || open[-2] != ' ' ||
	    eat_int(&q, end - 1, &index, why) < 0 || q != end - 1 || index < 0) {
		*why = "expected ' [i]' at the end of the mapping header";
		return -1;
	}
	h->index = (uint64_t)index;
	return split_process(p, open - 2, &h->process, &h->process_len, &h->pid, why);
}

int
track_parse_record_header(const char *p, size_t n, struct track_header_view *h,
			  const char **why)
{
	const char *end = p + n;
	memset(h, 0, sizeof(*h));
	*why = NULL;
	if (view_starts(p, n, "[0x")) {
		h->map = true;
		return parse_map_header(p, end, h, why) < 0 ? -1 : 1;
	}
	if (!view_starts(p, n, "0x") || !view_find(p, n, " bytes ("))
		return 0;
	return parse_alloc_header(p, end, h, why) < 0 ? -1 : 1;
}

/* ---- frame lines ------------------------------------------------------ */

/* Balanced () and <> outside nothing else: a symbol, not a cut path. */
static bool
balanced(const char *p, size_t n)
{
	long paren = 0, angle = 0;
	for (size_t i = 0; i < n; i++) {
		paren += p[i] == '(' ? 1 : p[i] == ')' ? -1 : 0;
		angle += p[i] == '<' ? 1 : p[i] == '>' ? -1 : 0;
		if (paren < 0)
			return false;
	}
	return paren == 0 && angle >= 0;
}

/* Does [p, n) end in " + 0x<hex>"? Sets *at to the " + 0x". */
static bool
ends_in_offset(const char *p, size_t n, size_t *at)
{
	size_t h = 0;
	while (h < n && is_hex(p[n - 1 - h]))
		h++;
	if (h == 0 || n - h < 5 || memcmp(p + n - h - 5, " + 0x", 5) != 0)
		return false;
	*at = n - h - 5;
	return true;
}

/*
 * " (path:line)" at the end of the symbol part. Paths may hold spaces and
 * parentheses, so candidates are tried from the right and the first whose
 * remaining symbol part ends in an offset or is balanced wins.
 */
static bool
split_source(const char *p, size_t n, size_t *sym_len, size_t *src_off, size_t *src_len)
{
	if (n < 5 || p[n - 1] != ')')
		return false;
	/* Count the digits before ')' but stop at p[0], so that the ':' looked
	 * for next is always inside the string (a symbol part of only digits and
	 * ')' has none). */
	size_t digits = 0;
	while (digits + 2 < n && is_digit(p[n - 2 - digits]))
		digits++;
	if (digits == 0 || p[n - 2 - digits] != ':')
		return false;
	for (size_t i = n - 2 - digits; i-- > 0;) {
		if (p[i] != ' ' || p[i + 1] != '(')
			continue;
		size_t off;
		if (i + 2 >= n - 2 - digits)
			continue;   /* empty path */
		if (ends_in_offset(p, i, &off) || balanced(p, i)) {
			*sym_len = i;
			*src_off = i + 2;
			*src_len = n - 1 - (i + 2);
			return true;
		}
	}
	return false;
}

/*
 * The address column: the first " 0x<hex>" followed by a space or the end
 * (or eighteen zeros, %#018llx of 0). Found from its 'x', which is rare in
 * the padded module column before it.
 */
static const char *
find_address(const char *p, const char *end, bool *zero)
{
	const char *q = p;
	while (q + 1 < end && (q = memchr(q + 1, 'x', (size_t)(end - q - 1))) != NULL) {
		if (q - p >= 2 && q[-1] == '0' && q[-2] == ' ' && q + 1 < end && is_hex(q[1])) {
			const char *e = q + 1 + hex_run(q + 1, end);
			if (e == end || *e == ' ') {
				*zero = false;
				return q - 1;
			}
		}
	}
	for (q = p; (q = memchr(q, ' ', (size_t)(end - q))) != NULL && end - q >= 19; q++) {
		size_t z = 0;
		while (z < 18 && q[1 + z] == '0')
			z++;
		if (z == 18 && (q + 19 == end || q[19] == ' ')) {
			*zero = true;
			return q + 1;
		}
	}
	return NULL;
}

static int
parse_symbol_part(const char *p, size_t n, struct track_frame_view *f, const char **why)
{
	size_t sym_len = n, src_off, src_len, at;
	if (split_source(p, n, &sym_len, &src_off, &src_len)) {
		f->has_source = true;
		f->source = p + src_off;
		f->source_len = src_len;
	}
	if (ends_in_offset(p, sym_len, &at)) {
		const char *h = p + at + 3;
		if (eat_hex(&h, p + sym_len, &f->offset, why) < 0)
			return -1;
		f->has_offset = true;
		sym_len = at;
	}
	f->symbol = p;
	f->symbol_len = sym_len;
	return 0;
}

int
track_parse_frame_line(const char *p, size_t n, struct track_frame_view *f,
		       const char **why)
{
	const char *end = p + n, *q = p;
	memset(f, 0, sizeof(*f));
	while (q < end && *q == ' ')
		q++;
	const char *d = q;
	while (q < end && is_digit(*q))
		q++;
	if (q == d || q >= end || *q != ' ' ||
	    parse_u64_dec(d, (size_t)(q - d), &f->index) != SIZE_OK) {
		*why = "expected a frame number";
		return -1;
	}
	const char *addr = find_address(q, end, &f->zero_address);
	if (!addr) {
		*why = "no '0x...' frame address";
		return -1;
	}
	const char *m = q + 1 <= addr ? q + 1 : addr;
	f->module = m;
	f->module_len = m < addr ? view_rtrim(m, (size_t)(addr - m)) : 0;
	const char *a = addr;
	if (f->zero_address)
		a += 18;
	else if (eat_hex(&a, end, &f->address, why) < 0)
		return -1;
	if (a < end)
		a++;   /* the space after the address */
	return parse_symbol_part(a, (size_t)(end - a), f, why);
}

/* ---- the line loop ---------------------------------------------------- */

#define MAX_GAPS_SHOWN 5

struct index_gap {
	bool had_prev;
	uint64_t prev, index, line;
};

struct parser {
	struct track_capture *cap;
	const struct track_parse_opts *opts;
	struct diag_list *warnings;
	struct diag *err;
	const char *path;
	enum input_kind kind;

	struct track_record rec;
	bool in_record;
	bool skipping_record;     /* its header did not parse: drop its lines */
	bool in_images;
	bool expect_dashes;
	bool saw_header;
	bool saw_structure;
	bool stopped;             /* a second capture started */
	bool have_prev_index;
	uint64_t prev_index;
	uint64_t seq;

	uint64_t unparsed_total, unparsed_reported;
	uint64_t preamble_lines;
	uint64_t gaps;
	struct index_gap gap[MAX_GAPS_SHOWN];
	uint64_t disorder, disorder_reported;
};

static int
unparsed(struct parser *ps, const struct line *ln, const char *why, bool quiet)
{
	if (ps->opts->strict)
		return diag_set(ps->err, DIAG_DATA, ps->path, ln->no, 0,
				"line not understood (%s)", why);
	ps->unparsed_total++;
	ps->cap->partial = true;
	if (quiet || ps->unparsed_reported >= ps->opts->report_unparsed)
		return 0;
	ps->unparsed_reported++;
	struct strbuf q = STRBUF_INIT;
	diag_quote(&q, ln->p, ln->len, 60);
	diag_list_add(ps->warnings, DIAG_WARNING, ps->path, ln->no,
		      "line not understood (%s): '%s'", why, q.buf);
	strbuf_release(&q);
	return 0;
}

static int
finish_record(struct parser *ps)
{
	ps->skipping_record = false;
	if (!ps->in_record)
		return 0;
	ps->in_record = false;
	ps->rec.seq = ps->seq++;
	return track_capture_add_record(ps->cap, &ps->rec, ps->path, ps->err);
}

/*
 * Index gaps are reported at the end: a capture filtered at capture time
 * (--site in the header's command) or by iotally (a "bytes total in the
 * capture" line after the records) has them by design.
 */
static void
check_index(struct parser *ps, uint64_t index, uint64_t line)
{
	bool expected = ps->have_prev_index ? index == ps->prev_index + 1 : index == 0;
	struct index_gap g = { ps->have_prev_index, ps->prev_index, index, line };
	ps->have_prev_index = true;
	ps->prev_index = index;
	if (expected)
		return;
	if (ps->gaps < MAX_GAPS_SHOWN)
		ps->gap[ps->gaps] = g;
	ps->gaps++;
}

static void
report_gaps(struct parser *ps)
{
	if (ps->cap->site_filtered || ps->cap->has_capture_total)
		return;
	for (uint64_t i = 0; i < ps->gaps && i < MAX_GAPS_SHOWN; i++) {
		const struct index_gap *g = &ps->gap[i];
		if (g->had_prev)
			diag_list_add(ps->warnings, DIAG_WARNING, ps->path, g->line,
				      "record [%" PRIu64 "] follows [%" PRIu64 "]: records are "
				      "missing or out of order", g->index, g->prev);
		else
			diag_list_add(ps->warnings, DIAG_WARNING, ps->path, g->line,
				      "the first record is [%" PRIu64 "], not [0]: records are missing",
				      g->index);
	}
	if (ps->gaps > MAX_GAPS_SHOWN)
		diag_list_add(ps->warnings, DIAG_WARNING, ps->path, 0,
			      "%" PRIu64 " more gaps in the record indices", ps->gaps - MAX_GAPS_SHOWN);
}

static int
start_record(struct parser *ps, const struct line *ln, const struct track_header_view *h)
{
	if (finish_record(ps) < 0)
		return -1;
	struct track_capture *cap = ps->cap;
	if (ps->seq == 0)
		cap->layout = h->layout97 ? TRACK_LAYOUT_97 :
			      ps->saw_header ? TRACK_LAYOUT_108 : TRACK_LAYOUT_105;
	struct track_record *r = &ps->rec;
	track_record_reset(r);
	r->type = h->map ? TRACK_RECORD_MAP : TRACK_RECORD_ALLOC;
	r->bytes = h->bytes;
	r->size[0] = h->size[0];
	r->size[1] = h->size[1];
	r->count = h->count;
	r->map_address = h->address;
	r->index = h->index;
	r->line = ln->no;
	if (h->map) {
		r->map_process = track_record_add_text(r, h->process, h->process_len);
		r->map_pid = h->pid;
	}
	ps->in_record = true;
	ps->saw_structure = true;
	check_index(ps, h->index, ln->no);
	return 0;
}

static bool
header_too_large(const struct track_header_view *h, const char **why)
{
	if (h->bytes > BYTES_MAX || h->size[0] > BYTES_MAX ||
	    h->size[1] > BYTES_MAX) {
		*why = "a size is larger than 2^63 bytes";
		return true;
	}
	if (!h->map && h->size[0] + h->size[1] != h->bytes) {
		*why = "the total is not the sum of the two sizes";
		return true;
	}
	return false;
}

static void
add_frame(struct parser *ps, const struct line *ln, const struct track_frame_view *v)
{
	struct track_record *r = &ps->rec;
	uint64_t expected = r->nframes ? r->frames[r->nframes - 1].index + 1 : 0;
	if (v->index != expected) {
		ps->disorder++;
		if (ps->disorder_reported < 5) {
			ps->disorder_reported++;
			diag_list_add(ps->warnings, DIAG_WARNING, ps->path, ln->no,
				      "frame %" PRIu64 " where frame %" PRIu64 " was expected "
				      "(record [%" PRIu64 "]): frames are missing or out of order",
				      v->index, expected, r->index);
		}
	}
	struct track_text module = track_record_add_text(r, v->module, v->module_len);
	struct track_text symbol = track_record_add_text(r, v->symbol, v->symbol_len);
	struct track_text source = track_record_add_text(r, v->source, v->source_len);
	struct track_frame *f = track_record_add_frame(r);
	f->index = v->index;
	f->address = v->address;
	f->offset = v->offset;
	f->has_offset = v->has_offset;
	f->has_source = v->has_source;
	f->zero_address = v->zero_address;
	f->module = module;
	f->symbol = symbol;
	f->source = source;
}

static bool
parse_trailer(struct parser *ps, const char *p, size_t n)
{
	struct track_record *r = &ps->rec;
	const char *name, *why;
	size_t len;
	int64_t pid;
	if (n < 4 || p[0] != '<' || p[n - 1] != '>' || r->has_trailer ||
	    split_process(p + 1, p + n - 1, &name, &len, &pid, &why) < 0)
		return false;
	r->has_trailer = true;
	r->trailer_exited = len == 14 && memcmp(name, "exited process", 14) == 0;
	r->trailer_process = track_record_add_text(r, name, len);
	r->trailer_pid = pid;
	r->trailer_at = r->nframes;
	return true;
}

static int
handle_record_line(struct parser *ps, const struct line *ln, const char *p, size_t n)
{
	struct track_frame_view v;
	const char *why = NULL;
	if (p[0] == '<' && parse_trailer(ps, p, n))
		return 0;
	if (ln->overlong)
		return unparsed(ps, ln, "the line is longer than the line limit", false);
	if (track_parse_frame_line(p, n, &v, &why) < 0)
		return unparsed(ps, ln, why, false);
	add_frame(ps, ln, &v);
	return 0;
}

/* "0x.. bytes total", or iotally's own "0x.. bytes total in the capture". */
static int
handle_total(struct parser *ps, const struct line *ln, const char *p, size_t n)
{
	static const char plain[] = " bytes total", ours[] = " bytes total in the capture";
	bool capture = n > sizeof(ours) - 1 &&
		       memcmp(p + n - (sizeof(ours) - 1), ours, sizeof(ours) - 1) == 0;
	size_t tail = capture ? sizeof(ours) - 1 : sizeof(plain) - 1;
	const char *q = p, *why = NULL;
	uint64_t v;
	if (eat_hex(&q, p + n - tail, &v, &why) < 0 || q != p + n - tail)
		return unparsed(ps, ln, why ? why : "expected '0x.. bytes total'", false);
	if (v > BYTES_MAX)
		return unparsed(ps, ln, "the total is larger than 2^63 bytes", false);
	if (finish_record(ps) < 0)
		return -1;
	ps->saw_structure = true;
	if (capture) {
		ps->cap->has_capture_total = true;
		ps->cap->capture_total = v;
	} else {
		ps->cap->has_total = true;
		ps->cap->total = v;
	}
	return 0;
}

static bool
is_total_line(const char *p, size_t n)
{
	return view_starts(p, n, "0x") &&
	       (view_find(p, n, " bytes total") == p + n - 12 ||
		view_find(p, n, " bytes total in the capture") == p + n - 27);
}

/* "0xSTART - 0xEND name <UUID> path"; name may be empty. */
static int
handle_image(struct parser *ps, const struct line *ln, const char *p, size_t n)
{
	const char *end = p + n, *q = p, *why = NULL;
	struct track_image img = { .line = ln->no };
	if (eat_hex(&q, end, &img.start, &why) < 0 || !eat(&q, end, " - ") ||
	    eat_hex(&q, end, &img.end, &why) < 0 || !eat(&q, end, " "))
		return unparsed(ps, ln, "expected '0xSTART - 0xEND name <UUID> path'", false);
	for (const char *lt = q; lt < end; lt++) {
		if (*lt != '<' || (lt > q && lt[-1] != ' '))
			continue;
		const char *u = lt + 1, *gt = u;
		while (gt < end && (is_hex(*gt) || *gt == '-'))
			gt++;
		if (gt >= end || *gt != '>' || (gt + 1 < end && gt[1] != ' '))
			continue;
		img.name = xmemdup0(q, lt > q ? (size_t)(lt - 1 - q) : 0);
		img.uuid = xmemdup0(u, (size_t)(gt - u));
		img.path = gt + 1 < end ? xmemdup0(gt + 2, (size_t)(end - gt - 2)) : xstrdup("");
		track_capture_add_image(ps->cap, &img);
		return 0;
	}
	return unparsed(ps, ln, "expected '<UUID>' in a Binary Images line", false);
}

static bool
is_header_line(const char *p, size_t n)
{
	return view_starts(p, n, "kernel memory allocations ('") && n >= 30 &&
	       p[n - 2] == '\'' && p[n - 1] == ')';
}

static int
handle_header_line(struct parser *ps, const struct line *ln, const char *p, size_t n)
{
	if (ps->saw_structure) {
		/* A second capture in the same file: records of two runs do not add up. */
		diag_list_add(ps->warnings, DIAG_WARNING, ps->path, ln->no,
			      "a second capture starts here; only the first one is read");
		ps->stopped = true;
		ps->cap->partial = true;
		return finish_record(ps);
	}
	track_command_read(ps->cap, p + 28, n - 30);
	ps->saw_header = true;
	ps->saw_structure = true;
	ps->expect_dashes = true;
	ps->cap->layout = TRACK_LAYOUT_108;
	return 0;
}

static bool
all_dashes(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != '-')
			return false;
	return n > 0;
}

/* "Binary Images:" (the images section starts) or "No binary images". */
static int
start_images(struct parser *ps, const char *p, size_t n)
{
	if (finish_record(ps) < 0)
		return -1;
	ps->in_images = view_starts(p, n, "Binary Images:");
	ps->cap->has_images_section = true;
	ps->saw_structure = true;
	return 0;
}

/*
 * A line that is no section, total or image: a record header, a line of
 * the current record, or a line before the capture (the preamble).
 */
static int
handle_record_part(struct parser *ps, const struct line *ln, const char *p, size_t n)
{
	struct track_header_view h;
	const char *why = NULL;
	int hr = track_parse_record_header(p, n, &h, &why);
	if (hr > 0 && header_too_large(&h, &why))
		hr = -1;
	if (hr > 0)
		return start_record(ps, ln, &h);
	if (hr < 0) {
		if (finish_record(ps) < 0)
			return -1;
		ps->skipping_record = true;
		ps->saw_structure = true;
		return unparsed(ps, ln, why, false);
	}
	if (ps->in_record)
		return handle_record_line(ps, ln, p, n);
	if (ps->skipping_record)
		return unparsed(ps, ln, "part of a record whose header was not understood", true);
	if (!ps->saw_structure) {
		ps->preamble_lines++;
		return 0;
	}
	return unparsed(ps, ln, "not part of a tracking capture", false);
}

static int
handle_line(struct parser *ps, const struct line *ln)
{
	const char *p = ln->p;
	size_t n = view_rtrim(p, ln->len);

	if (n == 0) {
		ps->expect_dashes = false;
		return finish_record(ps);
	}
	if (ps->expect_dashes) {
		ps->expect_dashes = false;
		if (all_dashes(p, n))
			return 0;
	}
	if (ln->unterminated && ps->saw_structure)
		return unparsed(ps, ln, "the input ends in the middle of this line", false);
	if (ln->has_nul)
		return ps->saw_structure ? unparsed(ps, ln, "the line holds a NUL byte", false)
					 : (ps->preamble_lines++, 0);
	if (is_header_line(p, n))
		return handle_header_line(ps, ln, p, n);
	if (is_total_line(p, n))
		return handle_total(ps, ln, p, n);
	if (view_starts(p, n, "Binary Images:") || view_starts(p, n, "No binary images"))
		return start_images(ps, p, n);
	if (ps->in_images && view_starts(p, n, "0x"))
		return handle_image(ps, ln, p, n);
	return handle_record_part(ps, ln, p, n);
}

static int
no_structure_error(struct parser *ps)
{
	return diag_set(ps->err, DIAG_DATA, ps->path, 0, 0,
			"no ioclasscount tracking capture found (no record, header or "
			"'bytes total' line); it looks like %s", input_kind_describe(ps->kind));
}

static void
final_warnings(struct parser *ps)
{
	struct track_capture *cap = ps->cap;
	report_gaps(ps);
	if (ps->disorder > ps->disorder_reported)
		diag_list_add(ps->warnings, DIAG_WARNING, ps->path, 0,
			      "%" PRIu64 " more frames out of order", ps->disorder - ps->disorder_reported);
	diag_list_add_unparsed(ps->warnings, ps->path, ps->unparsed_total,
			       ps->unparsed_reported);
	if (cap->nrecords && !cap->has_total && cap->layout != TRACK_LAYOUT_97 && !ps->stopped) {
		diag_list_add(ps->warnings, DIAG_WARNING, ps->path, 0,
			      "no '0x.. bytes total' line: the capture is cut short");
		cap->partial = true;
	}
	if (ps->preamble_lines)
		diag_list_add(ps->warnings, DIAG_NOTE, ps->path, 0,
			      "%" PRIu64 " line%s before the capture %s skipped", ps->preamble_lines,
			      ps->preamble_lines == 1 ? "" : "s", ps->preamble_lines == 1 ? "was" : "were");
}

int
track_parse(struct line_reader *r, struct track_capture *cap,
	    const struct track_parse_opts *opts, struct diag_list *warnings,
	    struct diag *err)
{
	struct parser ps;
	struct line_input in;
	struct line ln;
	int rc = 0;
	bool blank = true;

	if (line_input_begin(&in, r, err) < 0)
		return -1;
	memset(&ps, 0, sizeof(ps));
	ps.cap = cap;
	ps.opts = opts;
	ps.warnings = warnings;
	ps.err = err;
	ps.path = in.path;
	ps.kind = in.kind;
	cap->layout = TRACK_LAYOUT_105;
	track_record_init(&ps.rec);

	while (!ps.stopped && (rc = line_input_next(&in, &ln, err)) > 0) {
		if (view_rtrim(ln.p, ln.len))
			blank = false;
		if (handle_line(&ps, &ln) < 0)
			goto fail;
	}
	if (ps.stopped)
		rc = 0;
	if (rc < 0 || finish_record(&ps) < 0)
		goto fail;
	track_record_release(&ps.rec);
	if (!ps.saw_structure && !blank)
		return no_structure_error(&ps);
	final_warnings(&ps);
	return 0;
fail:
	track_record_release(&ps.rec);
	return -1;
}

/* Tracking records print "N call [i]" or "N calls [i]", never "call(s)". */
enum input_kind
track_input_kind(const char *p, size_t n)
{
	if (view_find(p, n, "kernel memory allocations") || view_find(p, n, " bytes (0x") ||
	    view_find(p, n, " bytes total"))
		return INPUT_TRACK;
	return INPUT_TEXT;
}
