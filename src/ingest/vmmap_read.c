/*
 * The vmmap parser's driver: walks the lines of a saved dump, tells
 * headers, sections and summary tables apart, decides where one dump ends
 * and the next begins, and reports what it does not understand.
 */

#include "ingest/vmmap_read.h"
#include "ingest/vmmap_grammar.h"
#include "ingest/vmmap_table.h"

#include "ingest/detect.h"
#include "ingest/line_input.h"
#include "util/array.h"
#include "util/scan.h"
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
	struct vmmap_table_layout_memo layout_memo;
	char above[ABOVE_MAX];       /* the line before a possible table header */
	size_t above_len;

	uint64_t unparsed_total;
	uint64_t unparsed_reported;
	uint64_t last_line;
	bool last_was_region;        /* the previous line parsed as a region */
	bool prev_was_region;        /* while a line is handled: the line before it was */
	/* The last region line, when --surfaces may want its wrapped detail:
	 * an IOSurface line without one (its views copied; type as printed). */
	bool last_surfaceless;
	struct vmmap_region last_region;
	char last_type[64];
	size_t indent;               /* the current line's prefix (indent, quoting) */
	size_t region_indent;        /* that of the last region line */
	uint64_t wrapped_skipped;    /* indented lines after a region line, not read */
	uint64_t wrapped_first;      /* the first of them */
	bool last_was_unparsed;      /* the previous line was counted as not understood */
	enum input_kind kind;        /* what the start of the input looks like */
	enum vmmap_evidence evidence; /* the heaviest evidence of any line so far */
	uint64_t region_like;        /* lines meant as region lines that do not parse */
	uint64_t before_2_0;         /* of those, lines of the layout before format 2.0 */
	uint64_t regions;            /* region lines parsed */
	uint64_t table_line;         /* where the current summary table starts */
	uint64_t table_last_line;    /* its last line so far */
	bool headerless_noted;       /* the dump's header-less summary rows were reported */
	uint64_t failure_line;       /* vmmap's failure message, first seen */
	char failure[160];
	uint64_t tool_line;          /* another tool's "Analysis Tool:" line */
	char tool[64];
};

static void
close_dump(struct parser *ps)
{
	if (ps->dump && ps->last_line >= ps->dump->first_line)
		ps->dump->lines = ps->last_line - ps->dump->first_line + 1;
	/* Its summary table read: cut type names take their full ones. */
	if (!ps->dump || ps->dump->finished)
		return;
	vmmap_dump_finish(ps->cap, ps->dump);
	if (ps->cap->dump_closed)
		ps->cap->dump_closed(ps->cap->dump_closed_ctx, ps->cap, ps->dump);
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
	ps->headerless_noted = false;
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

#define HEADER_KEY(s) { s, sizeof(s) - 1 }
/* With their lengths: a dump's every header line is looked up here. */
static const struct {
	const char *key;
	size_t len;
} header_keys[] = {
	HEADER_KEY("Process"), HEADER_KEY("Path"), HEADER_KEY("Load Address"),
	HEADER_KEY("Identifier"), HEADER_KEY("Version"), HEADER_KEY("Build Info"),
	HEADER_KEY("Code Type"), HEADER_KEY("Platform"), HEADER_KEY("Parent Process"),
	HEADER_KEY("Responsible"), HEADER_KEY("Target Type"), HEADER_KEY("Date/Time"),
	HEADER_KEY("Launch Time"), HEADER_KEY("OS Version"), HEADER_KEY("Report Version"),
	HEADER_KEY("Analysis Tool"), HEADER_KEY("Analysis Tool Version"),
	HEADER_KEY("Physical footprint"), HEADER_KEY("Physical footprint (peak)"),
	HEADER_KEY("Idle exit"),
};
#undef HEADER_KEY

static const char *
header_key(const char *p, size_t n, size_t *klen)
{
	const char *colon = memchr(p, ':', n < 40 ? n : 40);
	if (!colon)
		return NULL;
	size_t k = (size_t)(colon - p);
	for (size_t i = 0; i < ARRAY_SIZE(header_keys); i++) {
		if (header_keys[i].len == k && memcmp(header_keys[i].key, p, k) == 0) {
			*klen = k;
			return header_keys[i].key;
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

/* "... for process 44254": the pid of a dump that has not said it yet. */
static void
pid_from_section(struct vmmap_dump *d, const char *p, size_t n)
{
	const char *f = view_find(p, n, "for process ");
	if (!f || d->has_pid)
		return;
	d->pid = parse_leading_u64(f + 12, p + n);
	d->has_pid = d->pid != 0;
}

static bool
handle_section(struct parser *ps, const struct line *ln, const char *p, size_t n)
{
	bool nonwritable = view_starts(p, n, "==== Non-writable regions for process");
	bool interleaved = view_starts(p, n, "==== regions for process");
	bool writable = view_starts(p, n, "==== Writable regions for process");
	if (!nonwritable && !interleaved && !writable) {
		if (view_starts(p, n, "==== Summary for process"))
			pid_from_section(current_dump(ps, ln->no), p, n);
		return true;  /* Legend, Summary: nothing to count */
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
	pid_from_section(d, p, n);
	if (writable)
		ps->dump_seen_writable = true;
	else
		ps->dump_seen_nonwritable = true;
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

/* A line not understood: an error with --strict, else counted and warned about. */
static int
unparsed(struct parser *ps, const struct line *ln, const char *what, const char *why)
{
	if (ps->opts->strict)
		return diag_set(ps->err, DIAG_DATA, ps->path, ln->no, 0,
				"%s not understood (%s)", what, why);
	note_unparsed(ps, ln, why);
	return 0;
}

/*
 * The summary table ends. vmmap closes it with a rule and the TOTAL rows;
 * a table that stops before them was cut (2.0's bracketed table has none).
 */
static void
end_table(struct parser *ps)
{
	bool cut = (ps->table == TABLE_HEAD || ps->table == TABLE_ROWS) && !ps->layout.bracketed;
	/* 2.0's bracketed table has no TOTAL rows: its end is its close. */
	if (!cut && ps->layout.bracketed && ps->table == TABLE_ROWS && ps->dump)
		ps->dump->summary_complete = true;
	if (cut) {
		diag_list_add(ps->warnings, DIAG_WARNING, ps->path, ps->table_last_line,
			      "the summary table that starts at line %" PRIu64 " stops "
			      "here, without vmmap's closing rule and TOTAL rows: it was cut, "
			      "and the rows after it are missing", ps->table_line);
		ps->cap->partial = true;
	}
	ps->table = TABLE_NONE;
}

static int
no_page_size(struct parser *ps, uint64_t line)
{
	return diag_set(ps->err, DIAG_DATA, ps->path, line, 0,
			"the sizes are page counts (vmmap -pages), and the dump does not say "
			"its page size (no 'VM page size:' line): the pages cannot be "
			"converted to bytes; capture without -pages");
}

static int
start_table(struct parser *ps, const struct line *ln, const char *p, size_t n)
{
	if (ps->dump && ps->dump->has_summary)
		start_dump(ps, ln->no);
	struct vmmap_dump *d = current_dump(ps, ln->no);
	vmmap_table_layout_memo_from(&ps->layout_memo, &ps->layout, ps->above, ps->above_len, p, n);
	if (ps->layout.pages) {
		if (!d->page_size)
			return no_page_size(ps, ln->no);
		ps->layout.page_size = d->page_size;
		d->page_counts = true;
	}
	ps->table = TABLE_HEAD;
	ps->table_line = ln->no;
	ps->table_last_line = ln->no;
	return 0;
}

static bool
is_zone_table_header(const char *p, size_t n)
{
	return view_starts(p, n, "MALLOC ZONE");
}

/* Lines that start something new, so a table before them has ended. */
static bool
starts_new_part(const char *p, size_t n)
{
	size_t klen;
	return header_key(p, n, &klen) || view_starts(p, n, "Virtual Memory Map of process ") ||
	       view_starts(p, n, "==== ");
}

/*
 * A line while a table is open. Returns 1 when the line belonged to the
 * table, 0 when the table ended before it (the caller reads the line as
 * any other), -1 on error.
 */
static int
table_line(struct parser *ps, const struct line *ln, const char *p, size_t n)
{
	const char *why = NULL;
	if (n == 0) {
		end_table(ps);
		return 1;
	}
	if (vmmap_table_is_header(p, n)) {
		end_table(ps);
		return start_table(ps, ln, p, n) < 0 ? -1 : 1;
	}
	if (is_zone_table_header(p, n)) {
		end_table(ps);
		ps->table = TABLE_ZONES;
		return 1;
	}
	if (starts_new_part(p, n)) {
		end_table(ps);
		return 0;
	}
	ps->table_last_line = ln->no;
	if (view_starts(p, n, "===")) {
		ps->table = ps->table == TABLE_HEAD ? TABLE_ROWS :
			    ps->table == TABLE_ROWS ? TABLE_TOTALS : ps->table;
		if (ps->table == TABLE_TOTALS && ps->dump)
			ps->dump->summary_complete = true;
		return 1;
	}
	if (ps->table == TABLE_ZONES)
		return 1;
	if (view_starts(p, n, "TOTAL")) {
		ps->table = TABLE_TOTALS;
		if (ps->dump)
			ps->dump->summary_complete = true;
		return 1;
	}
	if (ps->table == TABLE_TOTALS) {
		/* Whatever follows the TOTAL rows is no longer the table. */
		ps->table = TABLE_NONE;
		return 0;
	}
	if (ps->table == TABLE_HEAD)
		ps->table = TABLE_ROWS;   /* a pasted table may lack the ==== line */
	struct vmmap_summary_row row;
	if (vmmap_table_parse_row(p, n, &ps->layout, &row, &why) < 0)
		return unparsed(ps, ln, "summary row", why) < 0 ? -1 : 1;
	row.line = ln->no;
	vmmap_capture_add_summary_row(ps->cap, ps->dump, &row);
	return 1;
}

static void
remember_above(struct parser *ps, const char *p, size_t n)
{
	if (n > ABOVE_MAX)
		n = ABOVE_MAX;
	memcpy(ps->above, p, n);
	ps->above_len = n;
}

/* vmmap -pages prints page counts: convert them with the dump's page size. */
static int
convert_page_counts(struct parser *ps, const struct line *ln, struct vmmap_dump *d,
		    struct vmmap_region *r)
{
	const char *why;
	if (r->page_counts && !d->page_counts) {
		if (d->region_lines > 0)
			return diag_set(ps->err, DIAG_DATA, ps->path, ln->no, 0,
					"the sizes from this line on are page counts (vmmap "
					"-pages), but the %" PRIu64 " region line%s above were "
					"read as bytes: the layout is mixed, capture without -pages",
					d->region_lines, d->region_lines == 1 ? "" : "s");
		d->page_counts = true;
	}
	if (!d->page_counts)
		return 0;
	if (!d->page_size)
		return no_page_size(ps, ln->no);
	if (vmmap_region_pages_to_bytes(r, d->page_size, &why) < 0)
		return diag_set(ps->err, DIAG_DATA, ps->path, ln->no, 0, "%s", why);
	return 0;
}

/* An IOSurface line with no detail: a wrapped SurfaceID may follow. */
static void
remember_surfaceless(struct parser *ps, const struct vmmap_region *r)
{
	ps->last_surfaceless = r->detail_len == 0 && r->type_len < sizeof(ps->last_type) &&
			       view_starts(r->type, r->type_len, "IOSurface");
	if (!ps->last_surfaceless)
		return;
	ps->last_region = *r;
	memcpy(ps->last_type, r->type, r->type_len);
	ps->last_type[r->type_len] = '\0';
	ps->last_region.type = ps->last_type;
	ps->last_region.sizes = NULL;
	ps->last_region.sizes_len = 0;
}

/*
 * A line right after a region line that is indented: a region's detail
 * wrapped onto the next line (narrow terminals, mail). An indented
 * "SurfaceID:" line is that region's detail; any other is skipped and
 * counted (a warning at the end; an error with --strict). 1 when the line
 * was taken here, 0 when it is not such a line, -1 on error.
 */
static int
handle_wrapped(struct parser *ps, const struct line *ln, const char *p, size_t n)
{
	/* Indented further than the region line: a paste's own indent is not. */
	if (!ps->prev_was_region || ps->indent <= ps->region_indent)
		return 0;
	if (view_starts(p, n, "SurfaceID: ")) {
		if (ps->last_surfaceless && ps->dump) {
			struct vmmap_region r = ps->last_region;
			r.detail = p;
			r.detail_len = n;
			vmmap_region_read_surface(&r);
			vmmap_dump_add_wrapped_surface(ps->cap, ps->dump, &r);
		}
		ps->last_surfaceless = false;
		return 1;
	}
	if (ps->opts->strict)
		return diag_set(ps->err, DIAG_DATA, ps->path, ln->no, 0,
				"an indented line after a region line that is not its "
				"SurfaceID detail: a wrapped line iotally does not read");
	if (!ps->wrapped_skipped++)
		ps->wrapped_first = ln->no;
	return 1;
}

static int
handle_region(struct parser *ps, const struct line *ln, struct vmmap_region *r)
{
	struct vmmap_dump *d = current_dump(ps, ln->no);
	if (convert_page_counts(ps, ln, d, r) < 0)
		return -1;
	if (ps->cap->want_surfaces)
		vmmap_region_read_surface(r);
	r->line = ln->no;
	/* Zero-padded START tokens belong to the 10.13-and-earlier layouts. */
	d->legacy_layout |= r->zero_padded;
	if (ps->cap->want_surfaces)
		remember_surfaceless(ps, r);
	return vmmap_dump_add_region(ps->cap, d, r, ps->path, ps->err);
}

static bool
region_too_large(const struct vmmap_region *r)
{
	return r->vsize > BYTES_MAX || r->resident > BYTES_MAX ||
	       r->dirty > BYTES_MAX || r->swapped > BYTES_MAX;
}

static void
copy_quoted(char *dst, size_t dstsz, const char *p, size_t n)
{
	struct strbuf q = STRBUF_INIT;
	diag_quote(&q, p, n, 120);
	size_t m = q.len < dstsz - 1 ? q.len : dstsz - 1;
	memcpy(dst, q.buf, m);
	dst[m] = '\0';
	strbuf_release(&q);
}

static void
note_evidence(struct parser *ps, const struct line *ln, enum vmmap_evidence ev,
	      const char *p, size_t n)
{
	if (ev > ps->evidence)
		ps->evidence = ev;
	if (ev == VMMAP_EVIDENCE_DUMP) {
		current_dump(ps, ln->no);
	} else if (ev == VMMAP_EVIDENCE_FAILURE && !ps->failure_line) {
		ps->failure_line = ln->no;
		copy_quoted(ps->failure, sizeof(ps->failure), p, n);
	} else if (ev == VMMAP_EVIDENCE_OTHER_TOOL && !ps->tool_line) {
		size_t tl;
		const char *tool = vmmap_analysis_tool(p, n, &tl);
		ps->tool_line = ln->no;
		copy_quoted(ps->tool, sizeof(ps->tool), tool, tl);
	}
}

/* The line is a region line, or meant as one. Returns -1 on error. */
static int
handle_region_result(struct parser *ps, const struct line *ln, enum vmmap_line_result res,
		     struct vmmap_region *r, const char *why, const char *p, size_t n)
{
	if (res == VMMAP_LINE_REGION && !ln->has_nul && region_too_large(r)) {
		res = VMMAP_LINE_MALFORMED;
		why = "a size is larger than 2^63 bytes";
	} else if (res == VMMAP_LINE_REGION && !ln->has_nul) {
		ps->last_was_region = true;
		ps->region_indent = ps->indent;
		ps->evidence = VMMAP_EVIDENCE_DUMP;
		ps->regions++;
		return handle_region(ps, ln, r);
	}
	if (res != VMMAP_LINE_MALFORMED && !vmmap_line_looks_like_region(p, p + n))
		return 0;
	if (ln->has_nul)
		why = "the line holds a NUL byte";
	else if (ln->unterminated)
		why = "the input ends in the middle of this line";
	if (ln->overlong)
		why = "the line is longer than the line limit";
	ps->region_like++;
	ps->before_2_0 += why == vmmap_why_before_2_0;
	note_evidence(ps, ln, VMMAP_EVIDENCE_REGION_LIKE, p, n);
	return unparsed(ps, ln, "region line", why);
}

/*
 * "IOSurface  2.6G  2.6G  2.6G  0K  0K  2.6G  0K  662": a complete row of
 * vmmap -summary without its table header (a grep of the summary). The
 * eight-figure shape is unambiguous; the first one in a dump is reported.
 */
static int
handle_headerless_row(struct parser *ps, const struct line *ln, const char *p, size_t n)
{
	struct vmmap_summary_row row;
	const char *why;
	int rc = vmmap_table_parse_row(p, n, &vmmap_table_full_layout, &row, &why);
	if (rc == -2)
		return 0;
	if (rc < 0)
		return unparsed(ps, ln, "summary row", why) < 0 ? -1 : 1;
	struct vmmap_dump *d = current_dump(ps, ln->no);
	row.line = ln->no;
	vmmap_capture_add_summary_row(ps->cap, d, &row);
	if (!ps->headerless_noted) {
		ps->headerless_noted = true;
		diag_list_add(ps->warnings, DIAG_NOTE, ps->path, ln->no,
			      "summary rows without their table header, read with vmmap's "
			      "columns (VIRTUAL RESIDENT DIRTY SWAPPED VOLATILE NONVOL EMPTY, "
			      "REGION COUNT)");
	}
	return 1;
}

/*
 * "IOSurface   606.3M   606.3M   0K": a summary row cut down by hand, with
 * fewer figures than any vmmap table has and no header to name them.
 */
static bool
looks_like_trimmed_row(const char *p, size_t n)
{
	const char *end = p + n, *q = end;
	unsigned figures = 0;
	bool unit = false;
	for (;;) {
		while (q > p && view_is_space(q[-1]))
			q--;
		const char *e = q;
		while (q > p && !view_is_space(q[-1]))
			q--;
		uint64_t v;
		if (q == e || size_parse_vmmap(q, (size_t)(e - q), &v) == SIZE_SYNTAX) {
			q = e;
			break;
		}
		unit |= e[-1] == 'K' || e[-1] == 'M' || e[-1] == 'G' || e[-1] == 'T';
		figures++;
	}
	return figures >= 2 && unit && q > p &&
	       (((*p | 0x20) >= 'a' && (*p | 0x20) <= 'z') || *p == '_');
}

/*
 * "Output report format:  2.4  -- 64-bit process". Formats before 2.0
 * (Mac OS X 10.4 and older) print regions in a layout iotally does not
 * read: refuse them, rather than warn about every line.
 */
static int
set_report_format(struct parser *ps, const struct line *ln, const char *p, size_t n)
{
	struct vmmap_dump *d = current_dump(ps, ln->no);
	const char *v = view_ltrim(p + 21, p + n);
	const char *e = v;
	while (e < p + n && *e != ' ')
		e++;
	free(d->report_format);
	d->report_format = xmemdup0(v, (size_t)(e - v));
	uint64_t major;
	const char *dot = memchr(v, '.', (size_t)(e - v));
	if (parse_u64_dec(v, (size_t)((dot ? dot : e) - v), &major) == SIZE_OK && major < 2)
		return diag_set(ps->err, DIAG_DATA, ps->path, ln->no, 0,
				"vmmap report format %s (Mac OS X 10.4 and older) is not "
				"supported: its region lines have another layout; iotally reads "
				"report format 2.0 and later", d->report_format);
	return 0;
}

/* A line that is neither a region line nor part of an open table. */
static int
handle_other(struct parser *ps, const struct line *ln, const char *p, size_t n)
{
	int wrapped = handle_wrapped(ps, ln, p, n);
	if (wrapped != 0)
		return wrapped < 0 ? -1 : 0;
	/*
	 * Once a dump is open and the input is known to be vmmap's, the
	 * whole-line checks can change nothing (they say REGION_LIKE or DUMP,
	 * and a DUMP only opens a dump): each "other" line was read as a
	 * headerless row twice, here and below.
	 */
	bool known = ps->evidence == VMMAP_EVIDENCE_DUMP && ps->dump;
	note_evidence(ps, ln, known ? vmmap_line_evidence_start(p, n) :
				      vmmap_line_evidence_other(p, n), p, n);
	if (handle_header(ps, ln, p, n))
		return 0;
	if (view_starts(p, n, "Virtual Memory Map of process ")) {
		handle_vmm_line(ps, ln, p, n);
		return 0;
	}
	if (view_starts(p, n, "==== ") && handle_section(ps, ln, p, n))
		return 0;
	if (vmmap_table_is_header(p, n))
		return start_table(ps, ln, p, n);
	if (is_zone_table_header(p, n)) {
		ps->table = TABLE_ZONES;
		return 0;
	}
	if (view_starts(p, n, "Output report format:"))
		return set_report_format(ps, ln, p, n);
	if (view_starts(p, n, "VM page size:")) {
		struct vmmap_dump *d = current_dump(ps, ln->no);
		d->page_size = parse_leading_u64(view_ltrim(p + 13, p + n), p + n);
		return 0;
	}
	int rc = handle_headerless_row(ps, ln, p, n);
	if (rc != 0)
		return rc < 0 ? -1 : 0;
	if (looks_like_trimmed_row(p, n))
		return unparsed(ps, ln, "summary row",
				"a summary row without its table header, and with fewer "
				"figures than vmmap's rows have");
	remember_above(ps, p, n);
	return 0;
}

/*
 * The first ']' in [p, p + n), the part of the line a region parse reads:
 * the line reader found the line's first one (its mark) with the line's
 * end. Only a ']' in a skipped prefix ("> " quoting has none) makes the
 * search start again.
 */
static const char *
first_bracket(const struct line *ln, const char *p, size_t n)
{
	if (!ln->mark || ln->mark >= p + n)
		return NULL;
	return ln->mark >= p ? ln->mark : scan_byte(p, p + n, ']');
}

static int
handle_line(struct parser *ps, const struct line *ln)
{
	const char *raw = ln->p;
	size_t rawn = view_rtrim(raw, ln->len);
	/* Indents and "> " quoting of pastes, the crash-report "--->" marker. */
	const char *p = vmmap_line_skip_prefix(raw, raw + rawn);
	size_t n = (size_t)(raw + rawn - p), klen;
	struct vmmap_region r;
	const char *why = NULL;

	ps->last_line = ln->no;
	ps->indent = (size_t)(p - raw);
	ps->prev_was_region = ps->last_was_region;
	ps->last_was_region = false;
	ps->last_was_unparsed = false;
	if (ps->table != TABLE_NONE) {
		int rc = table_line(ps, ln, p, n);
		if (rc != 0)
			return rc < 0 ? -1 : 0;
	}
	/* Most lines are not JSON by their first byte: no call for them. */
	if (n == 0 || ((*p == '{' || *p == '"') && vmmap_line_is_json(p, n)))
		return 0;

	enum vmmap_line_result res =
		vmmap_parse_region_at(p, p + n, first_bracket(ln, p, n), &r, &why);
	if ((res == VMMAP_LINE_MALFORMED && !ln->has_nul && header_key(p, n, &klen)) ||
	    (res == VMMAP_LINE_OTHER && !ln->has_nul))
		return handle_other(ps, ln, p, n);
	/* Bracketed 2.0 summary headers look like broken region lines. */
	if (res == VMMAP_LINE_MALFORMED && vmmap_table_is_header(p, n))
		return handle_other(ps, ln, p, n);
	return handle_region_result(ps, ln, res, &r, why, p, n);
}

/*
 * The last line had no newline. A saved file may simply lack the final
 * newline, so only a line cut inside a region line says that the input was
 * truncated (a cut summary table is reported when the table ends).
 */
static void
note_cut_line(struct parser *ps, const struct line *ln)
{
	const char *p = ln->p, *end = ln->p + view_rtrim(ln->p, ln->len);
	if (!ps->dump || p == end || ps->last_was_region || ps->last_was_unparsed ||
	    ps->table != TABLE_NONE)
		return;
	if (!vmmap_line_looks_cut(vmmap_line_skip_prefix(p, end), end))
		return;
	struct strbuf q = STRBUF_INIT;
	diag_quote(&q, p, (size_t)(end - p), 80);
	diag_list_add(ps->warnings, DIAG_WARNING, ps->path, ln->no,
		      "the input ends in the middle of a region line: '%s'; the dump is "
		      "truncated", q.buf);
	strbuf_release(&q);
	ps->cap->partial = true;
}

/* Why an input with no vmmap dump in it is refused: what it is instead. */
static int
no_dump_error(struct parser *ps)
{
	switch (ps->evidence) {
	case VMMAP_EVIDENCE_FAILURE:
		return diag_set(ps->err, DIAG_DATA, ps->path, ps->failure_line, 0,
				"vmmap failed, the capture holds no dump: '%s'", ps->failure);
	case VMMAP_EVIDENCE_OTHER_TOOL:
		return diag_set(ps->err, DIAG_DATA, ps->path, ps->tool_line, 0,
				"not a vmmap dump: a report of '%s' (its Analysis Tool line); "
				"iotally does not read %s reports", ps->tool, ps->tool);
	case VMMAP_EVIDENCE_REGION_LIKE:
		return diag_set(ps->err, DIAG_DATA, ps->path, 0, 0,
				"no vmmap dump: %" PRIu64 " %s (see the warnings above)",
				ps->region_like, ps->region_like == 1 ?
				"line looks like a vmmap region line but does not parse" :
				"lines look like vmmap region lines, and none parses");
	case VMMAP_EVIDENCE_NONE:
	case VMMAP_EVIDENCE_DUMP:
	default:
		return diag_set(ps->err, DIAG_DATA, ps->path, 0, 0,
				"no vmmap dump found (no vmmap header, region section, region "
				"line or summary table); it looks like %s",
				input_kind_describe(ps->kind));
	}
}

int
vmmap_parse(struct line_reader *r, struct vmmap_capture *cap,
	    const struct vmmap_parse_opts *opts, struct diag_list *warnings,
	    struct diag *err)
{
	struct parser ps;
	struct line_input in;
	struct line ln;
	int rc;

	if (line_input_begin(&in, r, err) < 0)
		return -1;
	line_reader_set_mark(r, ']');
	memset(&ps, 0, sizeof(ps));
	ps.cap = cap;
	ps.opts = opts;
	ps.warnings = warnings;
	ps.err = err;
	ps.path = in.path;
	ps.kind = in.kind;

	while ((rc = line_input_next(&in, &ln, err)) > 0) {
		if (handle_line(&ps, &ln) < 0) {
			close_dump(&ps);
			return -1;
		}
		if (ln.unterminated)
			note_cut_line(&ps, &ln);
	}
	if (ps.table != TABLE_NONE)
		end_table(&ps);
	close_dump(&ps);
	cap->lines = ps.last_line;
	if (rc < 0)
		return -1;
	if (ps.before_2_0 && !ps.regions)
		return diag_set(err, DIAG_DATA, ps.path, 0, 0,
				"the region lines are in vmmap's layout before report format 2.0 "
				"(START without -END, Mac OS X 10.4 and older), which is not "
				"supported: %" PRIu64 " line%s (see the warnings above)",
				ps.before_2_0, ps.before_2_0 == 1 ? "" : "s");
	if (ps.evidence != VMMAP_EVIDENCE_DUMP)
		return no_dump_error(&ps);
	if (ps.failure_line)
		diag_list_add(warnings, DIAG_WARNING, ps.path, ps.failure_line,
			      "vmmap's failure message, one capture in this file failed: '%s'",
			      ps.failure);
	if (ps.wrapped_skipped)
		diag_list_add(warnings, DIAG_WARNING, ps.path, ps.wrapped_first,
			      "%" PRIu64 " indented line%s right after a region line %s not read "
			      "(a wrapped detail other than SurfaceID; the first is this one); "
			      "--strict makes this an error", ps.wrapped_skipped,
			      ps.wrapped_skipped == 1 ? "" : "s",
			      ps.wrapped_skipped == 1 ? "was" : "were");
	if (ps.unparsed_total)
		cap->partial = true;
	diag_list_add_unparsed(warnings, ps.path, ps.unparsed_total, ps.unparsed_reported);
	return 0;
}
