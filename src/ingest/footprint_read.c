/*
 * The footprint text parser (ingest/footprint_read.h): tells a line apart
 * by its shape (title, table header, rule, row, auxiliary figure, lookup
 * message) and pushes what it reads into model/footprint.h.
 */

#include "ingest/footprint_read.h"

#include "ingest/detect.h"
#include "ingest/line_input.h"
#include "util/bytes.h"
#include "util/scan.h"
#include "util/size.h"
#include "util/strbuf.h"
#include "util/view.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* Lines not understood that get a warning of their own. */
#define UNPARSED_SHOWN 5

static const struct {
	const char *name;
	unsigned shift;   /* log2 of the unit's bytes */
} units[] = {
	{ "B", 0 }, { "KB", 10 }, { "MB", 20 }, { "GB", 30 }, { "TB", 40 },
};

static bool
is_unit(const char *tok, size_t len)
{
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strlen(units[i].name) == len && memcmp(units[i].name, tok, len) == 0)
			return true;
	return false;
}

int
footprint_parse_figure(const char *num, size_t nlen, const char *unit, size_t ulen,
		       uint64_t page_size, struct footprint_figure *out)
{
	uint64_t n, v;
	int rc = parse_u64_dec(num, nlen, &n);
	if (rc == SIZE_OVERFLOW)
		return FOOTPRINT_FIGURE_OVERFLOW;
	if (rc != SIZE_OK)
		return FOOTPRINT_FIGURE_SYNTAX;
	if ((ulen == 5 && memcmp(unit, "pages", 5) == 0) ||
	    (ulen == 4 && memcmp(unit, "page", 4) == 0)) {
		if (!page_size)
			return FOOTPRINT_FIGURE_NO_PAGE;
		if (__builtin_mul_overflow(n, page_size, &v) || !bytes_fit(v))
			return FOOTPRINT_FIGURE_OVERFLOW;
		/* Whether footprint rounds or truncates to pages is not known: a page either way. */
		*out = (struct footprint_figure){ .value = v, .slack = page_size, .known = true };
		return FOOTPRINT_FIGURE_OK;
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strlen(units[i].name) != ulen || memcmp(units[i].name, unit, ulen) != 0)
			continue;
		uint64_t mult = (uint64_t)1 << units[i].shift;
		if (__builtin_mul_overflow(n, mult, &v) || !bytes_fit(v))
			return FOOTPRINT_FIGURE_OVERFLOW;
		*out = mult == 1 ? footprint_figure_exact(v) : footprint_figure_rounded(v, mult);
		return FOOTPRINT_FIGURE_OK;
	}
	return FOOTPRINT_FIGURE_SYNTAX;
}

/* A run of non-blank bytes from *s, skipping blanks before it; false at the end. */
static bool
next_token(const char **s, const char *end, const char **tok, size_t *len)
{
	const char *p = *s;
	while (p < end && view_is_space(*p))
		p++;
	if (p == end)
		return false;
	const char *q = p;
	while (q < end && !view_is_space(*q))
		q++;
	*tok = p;
	*len = (size_t)(q - p);
	*s = q;
	return true;
}

static bool
is_rule_of(const char *p, size_t n, char c, size_t min)
{
	if (n < min)
		return false;
	for (size_t i = 0; i < n; i++)
		if (p[i] != c)
			return false;
	return true;
}

struct parser {
	struct footprint_capture *cap;
	const struct footprint_read_opts *opts;
	struct diag_list *warnings;
	struct diag *err;
	const char *path;
	struct footprint_process *cur;
	/* The columns of the current table, in order, Regions last. */
	enum footprint_field cols[FOOTPRINT_FIELDS];
	size_t ncols;
	bool begun;               /* a line of footprint output was read */
	bool inferred;            /* the layout comes from a row's figures, not a header */
	uint64_t preamble, preamble_first;
	uint64_t unparsed, unparsed_first;
	bool elided_noted;
	bool ambiguous_noted;
	bool in_aux;              /* after "Auxiliary data:", before the next title or table */
	uint64_t failure_line;    /* footprint's first own message ("footprint: ...") */
	char failure[200];
};

static int
figure_error(struct parser *ps, uint64_t line, int rc, const char *p, size_t n)
{
	struct strbuf q = STRBUF_INIT;
	diag_quote(&q, p, n, 80);
	if (rc == FOOTPRINT_FIGURE_OVERFLOW)
		diag_set(ps->err, DIAG_DATA, ps->path, line, 0,
			 "a figure past 2^63 - 1 bytes: '%s'", q.buf);
	else
		diag_set(ps->err, DIAG_DATA, ps->path, line, 0,
			 "a figure in pages before any page size was printed: '%s'", q.buf);
	strbuf_release(&q);
	return -1;
}

/* A figure from "N UNIT" tokens at *s. 1 read, 0 not a figure, -1 error in *err. */
static int
take_figure(struct parser *ps, const char **s, const char *end, uint64_t line,
	    struct footprint_figure *out)
{
	const char *p = *s, *num, *unit;
	size_t nlen, ulen;
	if (!next_token(&p, end, &num, &nlen) || !scan_all_digits(num, nlen) ||
	    !next_token(&p, end, &unit, &ulen))
		return 0;
	int rc = footprint_parse_figure(num, nlen, unit, ulen,
					ps->cur ? ps->cur->page_size : 0, out);
	if (rc == FOOTPRINT_FIGURE_SYNTAX)
		return 0;
	if (rc < 0)
		return figure_error(ps, line, rc, num, (size_t)(unit + ulen - num));
	*s = p;
	return 1;
}

static struct footprint_process *
new_process(struct parser *ps, uint64_t line)
{
	ps->cur = footprint_capture_add_process(ps->cap, line);
	ps->ncols = 0;
	return ps->cur;
}

static struct footprint_process *
current(struct parser *ps, uint64_t line)
{
	return ps->cur ? ps->cur : new_process(ps, line);
}

/* The process figures go to: the current one, or the one a shared table is under. */
static struct footprint_process *
current_owner(struct parser *ps, uint64_t line)
{
	struct footprint_process *p = current(ps, line);
	return p->owner ? p->owner : p;
}

/*
 * "Shared with NAME [PID]:": the table that follows is memory the current
 * process shares with that one (several-process output), not its own.
 */
static bool
on_shared(struct parser *ps, const char *t, size_t n, uint64_t line)
{
	static const char head[] = "Shared with ";
	size_t hl = sizeof(head) - 1;
	if (!view_starts(t, n, head) || n < hl + 3 || t[n - 1] != ':' || t[n - 2] != ']')
		return false;
	struct footprint_process *owner = current_owner(ps, line);
	ps->cur = footprint_process_add_shared(owner, t + hl, n - hl - 1, line);
	ps->ncols = 0;
	return true;
}

/*
 * "NAME [PID]: 64-bit    Footprint: 922 MB (16384 bytes per page)"; the
 * name may be missing ("[PID]: ...") and may hold blanks and brackets.
 * 1 read, 0 not a title, -1 error.
 */
static int
on_title(struct parser *ps, const char *p, size_t n, uint64_t line)
{
	const char *end = p + n, *fp = view_find(p, n, " Footprint: ");
	if (!fp)
		return 0;
	const char *close = NULL;
	for (const char *q = p; q + 1 < fp; q++)
		if (q[0] == ']' && q[1] == ':')
			close = q;
	if (!close)
		return 0;
	const char *open = NULL;
	for (const char *q = p; q < close; q++)
		if (*q == '[')
			open = q;
	if (!open || !scan_all_digits(open + 1, (size_t)(close - open - 1)))
		return 0;
	uint64_t pid, bits = 0;
	if (parse_u64_dec(open + 1, (size_t)(close - open - 1), &pid) != SIZE_OK)
		return 0;
	const char *s = close + 2, *tok;
	size_t len;
	if (next_token(&s, fp, &tok, &len) && len > 4 && memcmp(tok + len - 4, "-bit", 4) == 0)
		parse_u64_dec(tok, len - 4, &bits);
	struct footprint_figure fig;
	const char *f = fp + strlen(" Footprint: ");
	uint64_t page = 0;
	const char *paren = view_find(f, (size_t)(end - f), "(");
	if (paren) {
		const char *ps_ = paren + 1, *num;
		size_t nlen;
		if (next_token(&ps_, end, &num, &nlen))
			parse_u64_dec(num, nlen, &page);
	}
	struct footprint_process *proc = new_process(ps, line);
	ps->in_aux = false;
	size_t nlen = (size_t)(view_rtrim(p, (size_t)(open - p)));
	if (nlen)
		proc->name = xmemdup0(p, nlen);
	proc->pid = pid;
	proc->has_pid = true;
	proc->bits = bits <= 128 ? (unsigned)bits : 0;
	proc->page_size = page;
	int rc = take_figure(ps, &f, end, line, &fig);
	if (rc < 0)
		return -1;
	if (rc > 0)
		proc->footprint = fig;
	return 1;
}

/*
 * "  Dirty  (Swapped)      Clean  Reclaimable    (Wired)    Regions    Category":
 * every heading a column of footprint's, Regions before Category, Category last.
 */
static bool
on_table_header(struct parser *ps, const char *p, size_t n, uint64_t line)
{
	const char *s = p, *end = p + n, *tok;
	size_t len, ncols = 0;
	enum footprint_field cols[FOOTPRINT_FIELDS];
	unsigned seen = 0;
	bool category = false;
	while (next_token(&s, end, &tok, &len)) {
		if (category)
			return false;
		if (len == 8 && memcmp(tok, "Category", 8) == 0) {
			category = true;
			continue;
		}
		int f = footprint_field_for_column(tok, len);
		if (f < 0 || (seen & (1u << f)) || ncols == FOOTPRINT_FIELDS)
			return false;
		seen |= 1u << f;
		cols[ncols++] = (enum footprint_field)f;
	}
	if (!category || !ncols || cols[ncols - 1] != FOOTPRINT_REGIONS)
		return false;
	/* A second table without a title: another process's excerpt. */
	if (!ps->cur || ps->cur->has_table)
		new_process(ps, line);
	memcpy(ps->cols, cols, sizeof(cols));
	ps->ncols = ncols;
	ps->inferred = false;
	ps->in_aux = false;
	ps->cur->has_table = true;
	ps->cur->columns = seen;
	return true;
}

struct row {
	struct footprint_figure f[FOOTPRINT_FIELDS];
	const char *name;
	size_t len;
};

/*
 * Regions and the category name after the figures. 1 read, 0 not a row,
 * -1 error: a count past 2^63 - 1, which no process has and which the
 * sums and the JSON writers cannot hold.
 */
static int
take_regions_and_name(struct parser *ps, const char **s, const char *end, uint64_t line,
		      struct row *row)
{
	const char *tok, *count;
	size_t len, clen;
	uint64_t regions;
	if (!next_token(s, end, &count, &clen) || !scan_all_digits(count, clen))
		return 0;
	int rc = parse_u64_dec(count, clen, &regions);
	if (rc != SIZE_OK && rc != SIZE_OVERFLOW)
		return 0;
	row->name = view_ltrim(*s, end);
	row->len = (size_t)(end - row->name);
	/* A unit after the count: the count was a figure, the row has another layout. */
	const char *q = row->name;
	if (next_token(&q, end, &tok, &len) && is_unit(tok, len))
		return 0;
	if (row->len == 0 || (len == 5 && memcmp(tok, "pages", 5) == 0))
		return 0;
	if (rc == SIZE_OVERFLOW || !bytes_fit(regions)) {
		struct strbuf qc = STRBUF_INIT;
		diag_quote(&qc, count, clen, 80);
		diag_set(ps->err, DIAG_DATA, ps->path, line, 0,
			 "a region count past 2^63 - 1: '%s'", qc.buf);
		strbuf_release(&qc);
		return -1;
	}
	row->f[FOOTPRINT_REGIONS] = footprint_figure_exact(regions);
	return 1;
}

/* A row in the table's column layout. 1 read, 0 not a row, -1 error. */
static int
parse_row(struct parser *ps, const char *p, size_t n, uint64_t line, struct row *row)
{
	const char *s = p, *end = p + n;
	for (size_t i = 0; i + 1 < ps->ncols; i++) {
		int rc = take_figure(ps, &s, end, line, &row->f[ps->cols[i]]);
		if (rc <= 0)
			return rc;
	}
	return take_regions_and_name(ps, &s, end, line, row);
}

/*
 * A row with no column header before it (a grep of the rows): three
 * figures are Dirty Clean Reclaimable, five are Dirty (Swapped) Clean
 * Reclaimable (Wired), as footprint orders them; four cannot be told
 * apart ((Swapped) or (Wired)). 1 read (layout set), 0 not a row, -1 error.
 */
static int
parse_headerless_row(struct parser *ps, const char *p, size_t n, uint64_t line,
		     struct row *row, bool *ambiguous)
{
	static const enum footprint_field three[] = {
		FOOTPRINT_DIRTY, FOOTPRINT_CLEAN, FOOTPRINT_RECLAIMABLE, FOOTPRINT_REGIONS,
	};
	static const enum footprint_field five[] = {
		FOOTPRINT_DIRTY, FOOTPRINT_SWAPPED, FOOTPRINT_CLEAN, FOOTPRINT_RECLAIMABLE,
		FOOTPRINT_WIRED, FOOTPRINT_REGIONS,
	};
	struct footprint_figure figs[6];
	const char *s = p, *end = p + n;
	size_t nfig = 0;
	int rc;
	*ambiguous = false;
	while (nfig < 6 && (rc = take_figure(ps, &s, end, line, &figs[nfig])) > 0)
		nfig++;
	if (nfig < 6 && rc < 0)
		return -1;
	if ((rc = take_regions_and_name(ps, &s, end, line, row)) <= 0)
		return rc;
	if (nfig != 3 && nfig != 5) {
		*ambiguous = nfig == 4;
		return 0;
	}
	const enum footprint_field *cols = nfig == 3 ? three : five;
	ps->ncols = nfig + 1;
	ps->inferred = true;
	memcpy(ps->cols, cols, ps->ncols * sizeof(*cols));
	for (size_t i = 0; i < nfig; i++)
		row->f[cols[i]] = figs[i];
	return 1;
}

static void
add_row(struct parser *ps, const struct row *row, uint64_t line)
{
	struct footprint_process *p = ps->cur;
	struct footprint_category *c;
	if (row->len == 5 && memcmp(row->name, "TOTAL", 5) == 0) {
		if (p->has_total) {
			diag_list_add(ps->warnings, DIAG_WARNING, ps->path, line,
				      "a second TOTAL row for the same process; not read");
			ps->cap->partial = true;
			return;
		}
		p->has_total = true;
		c = &p->total;
		c->name = xstrdup("TOTAL");
		c->line = line;
	} else if ((c = footprint_process_add(p, row->name, row->len, line)) == NULL) {
		struct strbuf q = STRBUF_INIT;
		diag_quote(&q, row->name, row->len, 80);
		diag_list_add(ps->warnings, DIAG_WARNING, ps->path, line,
			      "category '%s' is listed twice for the same process; the second "
			      "row is not read", q.buf);
		strbuf_release(&q);
		ps->cap->partial = true;
		return;
	}
	for (int f = 0; f < FOOTPRINT_FIELDS; f++)
		if (p->columns & (1u << f))
			c->f[f] = row->f[f];
}

/* 1 read, 0 not a row, -1 error. */
static int
on_row(struct parser *ps, const char *p, size_t n, uint64_t line)
{
	struct row row;
	int rc;
	memset(&row, 0, sizeof(row));
	if (ps->cur && ps->cur->has_table && ps->ncols && !ps->cur->has_total) {
		rc = parse_row(ps, p, n, line, &row);
		if (rc > 0)
			add_row(ps, &row, line);
		/* A row of another shape in a table whose layout was guessed: say why. */
		if (rc != 0 || !ps->inferred)
			return rc;
		memset(&row, 0, sizeof(row));
		enum footprint_field cols[FOOTPRINT_FIELDS];
		size_t ncols = ps->ncols;
		memcpy(cols, ps->cols, sizeof(cols));
		bool ambiguous;
		rc = parse_headerless_row(ps, p, n, line, &row, &ambiguous);
		memcpy(ps->cols, cols, sizeof(cols));
		ps->ncols = ncols;
		if (ambiguous)
			diag_list_add(ps->warnings, DIAG_WARNING, ps->path, line,
				      "a row of four figures: whether its extra column is "
				      "(Swapped) or (Wired) cannot be told; not read");
		if (rc > 0)
			diag_list_add(ps->warnings, DIAG_WARNING, ps->path, line,
				      "a row with other columns than the rows before it; not read");
		ps->cap->partial = true;
		ps->cur->rows_lost = true;
		return rc < 0 ? -1 : 1;
	}
	bool ambiguous;
	rc = parse_headerless_row(ps, p, n, line, &row, &ambiguous);
	if (ambiguous && !ps->ambiguous_noted) {
		ps->ambiguous_noted = true;
		diag_list_add(ps->warnings, DIAG_WARNING, ps->path, line,
			      "a row of four figures and no column header: whether its extra "
			      "column is (Swapped) or (Wired) cannot be told; not read");
	}
	if (rc <= 0)
		return rc;
	/* Rows after a TOTAL row, or a first table without a header. */
	if (!ps->cur || ps->cur->has_table) {
		enum footprint_field cols[FOOTPRINT_FIELDS];
		size_t ncols = ps->ncols;
		memcpy(cols, ps->cols, sizeof(cols));
		new_process(ps, line);
		memcpy(ps->cols, cols, sizeof(cols));
		ps->ncols = ncols;
	}
	ps->cur->has_table = true;
	ps->cur->grepped = true;
	for (size_t i = 0; i < ps->ncols; i++)
		ps->cur->columns |= 1u << ps->cols[i];
	add_row(ps, &row, line);
	return 1;
}

/* "phys_footprint: 922 MB", "Summary Footprint: 7619304 B". 1 read, 0 not, -1 error. */
static int
on_figure_line(struct parser *ps, const char *t, size_t n, uint64_t line)
{
	static const char *const keys[] = {
		"phys_footprint:", "phys_footprint_peak:", "Summary Footprint:",
	};
	for (size_t k = 0; k < 3; k++) {
		if (!view_starts(t, n, keys[k]))
			continue;
		const char *s = t + strlen(keys[k]), *end = t + n, *rest;
		struct footprint_figure fig;
		size_t len;
		int rc = take_figure(ps, &s, end, line, &fig);
		if (rc <= 0 || next_token(&s, end, &rest, &len))
			return rc < 0 ? -1 : 0;
		if (k == 2) {
			ps->cap->summary_footprint = fig;
			return 1;
		}
		struct footprint_process *p = current_owner(ps, line);
		struct footprint_figure *to = k == 0 ? &p->phys_footprint : &p->phys_footprint_peak;
		/* Seen already: the auxiliary data of another, untitled process. */
		if (to->known) {
			p = new_process(ps, line);
			to = k == 0 ? &p->phys_footprint : &p->phys_footprint_peak;
		}
		*to = fig;
		return 1;
	}
	return 0;
}

/* footprint's own messages: "Found process ...", "footprint: Unable to find pid ...". */
static bool
on_lookup_message(struct parser *ps, const char *t, size_t n, uint64_t line)
{
	bool found = view_starts(t, n, "Found process ");
	if (!found && !view_starts(t, n, "footprint: "))
		return false;
	struct strbuf q = STRBUF_INIT;
	diag_quote(&q, t, n, 160);
	if (found) {
		ps->cap->lookups_found++;
		diag_list_add(ps->warnings, DIAG_NOTE, ps->path, line, "footprint said: %s", q.buf);
	} else {
		ps->cap->lookups_failed += view_find(t, n, "Unable to find") != NULL;
		if (!ps->failure_line) {
			ps->failure_line = line;
			snprintf(ps->failure, sizeof(ps->failure), "'%s'", q.buf);
		}
		diag_list_add(ps->warnings, DIAG_WARNING, ps->path, line, "footprint said: %s",
			      q.buf);
	}
	strbuf_release(&q);
	return true;
}

static int
on_unparsed(struct parser *ps, const struct line *ln)
{
	if (!ps->begun) {
		if (!ps->preamble++)
			ps->preamble_first = ln->no;
		return 0;
	}
	if (ps->opts && ps->opts->strict) {
		struct strbuf q = STRBUF_INIT;
		diag_quote(&q, ln->p, ln->len, 120);
		diag_set(ps->err, DIAG_DATA, ps->path, ln->no, 0,
			 "a line that is not footprint output (--strict): '%s'", q.buf);
		strbuf_release(&q);
		return -1;
	}
	/* Inside a table a row may be lost: the figures are partial. */
	if (ps->cur && ps->cur->has_table && !ps->cur->has_total) {
		ps->cap->partial = true;
		ps->cur->rows_lost = true;
	}
	if (ps->unparsed == 0)
		ps->unparsed_first = ln->no;
	if (ps->unparsed++ < UNPARSED_SHOWN) {
		struct strbuf q = STRBUF_INIT;
		diag_quote(&q, ln->p, ln->len, 120);
		diag_list_add(ps->warnings, DIAG_WARNING, ps->path, ln->no,
			      "not footprint output, skipped: '%s'", q.buf);
		strbuf_release(&q);
	}
	return 0;
}

static void
on_elided(struct parser *ps, uint64_t line)
{
	current(ps, line)->elided = true;
	if (ps->elided_noted)
		return;
	ps->elided_noted = true;
	diag_list_add(ps->warnings, DIAG_WARNING, ps->path, line,
		      "rows were left out by whoever saved this (' ...'): their categories "
		      "are unknown, and sums of listed rows are lower bounds");
}

/* "key: value" of footprint's Auxiliary data: a word of [A-Za-z0-9_.-], a colon, a value. */
static bool
is_aux_pair(const char *t, size_t n)
{
	size_t k = 0;
	while (k < n && ((t[k] >= 'a' && t[k] <= 'z') || (t[k] >= 'A' && t[k] <= 'Z') ||
			 (t[k] >= '0' && t[k] <= '9') || t[k] == '_' || t[k] == '.' || t[k] == '-'))
		k++;
	if (k == 0 || k >= n || t[k] != ':')
		return false;
	const char *v = view_ltrim(t + k + 1, t + n);
	return v < t + n;
}

static int
on_line(struct parser *ps, const struct line *ln)
{
	size_t n = view_rtrim(ln->p, ln->len);
	const char *t = view_ltrim(ln->p, ln->p + n), *end = ln->p + n;
	size_t tn = (size_t)(end - t);
	int rc;
	if (tn == 0 || is_rule_of(t, tn, '-', 3))
		return 0;
	if (is_rule_of(t, tn, '=', 3)) {
		ps->in_aux = false;
		return 0;
	}
	/* " ...", "... (small categories omitted, <7 MB dirty each) ...": an author's cut. */
	if (tn >= 3 && memcmp(t, "...", 3) == 0) {
		on_elided(ps, ln->no);
		ps->begun = true;
		return 0;
	}
	if (tn == 15 && memcmp(t, "Auxiliary data:", 15) == 0) {
		current(ps, ln->no);
		ps->begun = true;
		ps->in_aux = true;
		return 0;
	}
	if (on_lookup_message(ps, t, tn, ln->no) || on_shared(ps, t, tn, ln->no) ||
	    (rc = on_title(ps, ln->p, n, ln->no)) > 0 ||
	    (rc == 0 && (rc = on_figure_line(ps, t, tn, ln->no)) > 0) ||
	    (rc == 0 && on_table_header(ps, t, tn, ln->no) && (rc = 1)) ||
	    (rc == 0 && (rc = on_row(ps, t, tn, ln->no)) > 0)) {
		ps->begun = true;
		return 0;
	}
	if (rc < 0)
		return -1;
	/* Auxiliary data holds more keys than iotally reads (neural_peak:, dirty:). */
	if (ps->in_aux && is_aux_pair(t, tn))
		return 0;
	/* A "- - -" rule of a table with a blank-separated layout. */
	bool rule = true;
	for (const char *q = t; q < end && rule; q++)
		rule = *q == '-' || view_is_space(*q);
	return rule ? 0 : on_unparsed(ps, ln);
}

static void
add_closing_notes(struct parser *ps)
{
	if (ps->preamble)
		diag_list_add(ps->warnings, DIAG_NOTE, ps->path, ps->preamble_first,
			      "%" PRIu64 " line%s before the footprint output %s skipped (the "
			      "first is this one)", ps->preamble, ps->preamble == 1 ? "" : "s",
			      ps->preamble == 1 ? "was" : "were");
	if (ps->unparsed > UNPARSED_SHOWN)
		diag_list_add(ps->warnings, DIAG_WARNING, ps->path, ps->unparsed_first,
			      "%" PRIu64 " lines were not footprint output (the first %d are "
			      "shown above)", ps->unparsed, UNPARSED_SHOWN);
	for (size_t i = 0; i < ps->cap->nprocs; i++) {
		const struct footprint_process *p = ps->cap->procs[i];
		if (p->has_table && !p->has_total && !p->elided) {
			diag_list_add(ps->warnings, DIAG_WARNING, ps->path, p->first_line,
				      "a category table without its TOTAL row: it may have been "
				      "cut short");
			ps->cap->partial = true;
		}
	}
}

/*
 * A table with its TOTAL whose listed rows do not add up to it (a table
 * pasted with some rows): say how much of TOTAL is in rows not listed, as
 * their categories are unknown (model/footprint.h, footprint_process_unlisted).
 */
static void
warn_short_of_total(struct parser *ps, const struct footprint_process *p)
{
	static const enum footprint_field checked[] = { FOOTPRINT_DIRTY, FOOTPRINT_REGIONS };
	if (!p->has_table || !p->has_total || p->elided)
		return;
	for (size_t i = 0; i < sizeof(checked) / sizeof(checked[0]); i++) {
		enum footprint_field f = checked[i];
		struct footprint_figure rows, gap;
		if (footprint_process_adds_up(p, f, &rows) || !rows.known ||
		    !p->total.f[f].known)
			continue;
		bool count = f == FOOTPRINT_REGIONS, over = rows.value > p->total.f[f].value;
		gap = p->total.f[f];
		gap.value = over ? rows.value - gap.value : gap.value - rows.value;
		gap.slack += rows.slack;
		char r[64], t[64], g[64];
		footprint_figure_text(&rows, count, r);
		footprint_figure_text(&p->total.f[f], count, t);
		footprint_figure_text(&gap, count, g);
		if (over)
			diag_list_add(ps->warnings, DIAG_WARNING, ps->path, p->total.line,
				      "the listed rows' %s (%s) pass TOTAL's (%s) by %s: the table "
				      "is not read as complete, and categories it does not list are "
				      "unknown", footprint_fields[f].name, r, t, g);
		else
			diag_list_add(ps->warnings, DIAG_WARNING, ps->path, p->total.line,
				      "the listed rows hold %s of TOTAL's %s %s: %s of TOTAL is in "
				      "rows not listed, so categories the table does not list are "
				      "unknown", r, t, footprint_fields[f].name, g);
		return;
	}
}

int
footprint_read(struct line_reader *r, struct footprint_capture *cap,
	       const struct footprint_read_opts *opts, struct diag_list *warnings,
	       struct diag *err)
{
	struct parser ps = {
		.cap = cap, .opts = opts, .warnings = warnings, .err = err, .path = r->path,
	};
	struct line_input in;
	struct line ln;
	int rc;
	if (line_input_begin(&in, r, err) < 0)
		return -1;
	while ((rc = line_input_next(&in, &ln, err)) > 0) {
		if (ln.overlong || ln.has_nul) {
			if (on_unparsed(&ps, &ln) < 0)
				return -1;
			continue;
		}
		if (on_line(&ps, &ln) < 0)
			return -1;
	}
	if (rc < 0)
		return -1;
	if (!cap->nprocs && !cap->summary_footprint.known && ps.failure_line)
		return diag_set(err, DIAG_DATA, r->path, ps.failure_line, 0,
				"footprint failed, the capture holds no output: %s", ps.failure);
	if (!cap->nprocs && !cap->summary_footprint.known)
		return diag_set(err, DIAG_DATA, r->path, 0, 0,
				"no footprint output found (no process title, category table "
				"or phys_footprint line)");
	add_closing_notes(&ps);
	if (footprint_capture_finish(cap, r->path, err) < 0)
		return -1;
	for (size_t i = 0; i < cap->nprocs; i++)
		warn_short_of_total(&ps, cap->procs[i]);
	return 0;
}

/*
 * A category row as the reader takes one without a header: three or five
 * "N UNIT" figures, a count, a name ("46 MB 0 B 9840 KB 22 MALLOC_SMALL").
 */
static bool
looks_like_row(const char *t, size_t n)
{
	const char *s = t, *end = t + n, *tok;
	size_t len, figures = 0;
	for (;;) {
		if (!next_token(&s, end, &tok, &len) || !scan_all_digits(tok, len))
			return false;
		const char *save = s;
		if (!next_token(&s, end, &tok, &len))
			return false;
		if (!is_unit(tok, len)) {
			s = save;
			break;
		}
		figures++;
	}
	return (figures == 3 || figures == 5) && next_token(&s, end, &tok, &len);
}

/* One line of the start of an input: is it a line only footprint prints? */
static bool
recognise_line(const char *p, size_t n)
{
	const char *t = view_ltrim(p, p + n);
	size_t tn = (size_t)(p + n - t);
	if (view_starts(t, tn, "phys_footprint:") || view_starts(t, tn, "phys_footprint_peak:") ||
	    view_starts(t, tn, "Summary Footprint:") || view_starts(t, tn, "footprint: ") ||
	    looks_like_row(t, tn))
		return true;
	const char *fp = view_find(p, n, " Footprint: ");
	if (fp && view_find(p, (size_t)(fp - p), "]: ") && view_find(p, n, "-bit"))
		return true;
	/* The table header: Dirty ... Reclaimable ... Regions ... Category. */
	const char *d = view_find(t, tn, "Dirty");
	return d == t && view_find(t, tn, " Reclaimable ") && view_find(t, tn, " Regions ") &&
	       view_find(t, tn, " Category");
}

bool
footprint_recognise(const char *p, size_t n)
{
	const char *end = p + n;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = (size_t)((nl ? nl : end) - p);
		if (recognise_line(p, len))
			return true;
		p = nl ? nl + 1 : end;
	}
	return false;
}

enum input_kind
footprint_input_kind(const char *p, size_t n)
{
	return footprint_recognise(p, n) ? INPUT_FOOTPRINT : INPUT_TEXT;
}
