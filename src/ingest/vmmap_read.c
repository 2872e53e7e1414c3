/*
 * The vmmap parser's driver: walks the lines of a saved dump, tells
 * headers, sections and summary tables apart, decides where one dump ends
 * and the next begins, and reports what it does not understand.
 */

#include "ingest/vmmap_read.h"
#include "ingest/vmmap_grammar.h"

#include "ingest/detect.h"
#include "util/array.h"
#include "util/size.h"
#include "util/strbuf.h"
#include "util/view.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum table_state {
	TABLE_NONE,
	TABLE_HEAD,     /* saw the "REGION TYPE" header, waiting for ==== */
	TABLE_ROWS,
	TABLE_TOTALS,
	TABLE_ZONES,    /* MALLOC ZONE table: not about region types */
};

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
	struct vmmap_table_layout layout;
	char above[ABOVE_MAX];       /* the line before a possible table header */
	size_t above_len;

	uint64_t unparsed_total;
	uint64_t unparsed_reported;
	uint64_t last_line;
	bool last_was_region;        /* the previous line parsed as a region */
	bool last_was_unparsed;      /* the previous line was counted as not understood */
	enum input_kind kind;        /* what the start of the input looks like */
	bool saw_failure_message;
	bool saw_table_header;       /* a summary table header, with or without rows */
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
	for (size_t i = 0; i < ARRAY_SIZE(header_keys); i++) {
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
	if (vmmap_table_parse_row(p, n, &ps->layout, &row, &why) < 0) {
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
	vmmap_table_layout_from(&ps->layout, ps->above, ps->above_len, p, n);
	ps->table = TABLE_HEAD;
	ps->saw_table_header = true;
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
	return r->vsize > BYTES_MAX || r->resident > BYTES_MAX ||
	       r->dirty > BYTES_MAX || r->swapped > BYTES_MAX;
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
		if (n && vmmap_table_is_header(p, n))
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
			if (res != VMMAP_LINE_MALFORMED && !vmmap_line_looks_like_region(p, p + n))
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
	if (vmmap_table_is_header(p, n)) {
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
	if (!in_table && !vmmap_line_looks_cut(vmmap_line_skip_prefix(p, end), end))
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

	if (input_detect_reader(r, &ps.kind, err) < 0)
		return -1;

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
	if (!capture_has_structure(cap) && !ps.saw_table_header)
		return no_structure_error(&ps);
	if (ps.unparsed_total)
		cap->partial = true;
	diag_list_add_unparsed(warnings, ps.path, ps.unparsed_total, ps.unparsed_reported);
	return 0;
}
