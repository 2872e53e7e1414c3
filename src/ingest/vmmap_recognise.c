/*
 * What makes text a vmmap capture: the lines only vmmap output has. One
 * classifier, used by content detection (`iotally FILE`) over the start of
 * an input and by the parser (`iotally vmmap`) over every line, so both
 * give the same verdict.
 */

#include "ingest/vmmap_read.h"

#include "ingest/detect.h"
#include "ingest/vmmap_grammar.h"

#include "util/view.h"

#include <stdlib.h>
#include <string.h>

/* "vmmap[40148]: vmmap cannot examine process 999999 ...", "vmmap: cannot examine ..." */
bool
vmmap_line_is_failure(const char *p, size_t n)
{
	return view_starts(p, n, "vmmap") &&
	       (view_find(p, n, "cannot examine process") || view_find(p, n, "[fatal]"));
}

/*
 * A line of the JSON "Full Report" that crash reports carry after their
 * text since macOS 12: `"key" : value` or `{"key":...`. Its strings may
 * quote region lines ("vmRegionInfo"), which the text already holds.
 */
bool
vmmap_line_is_json(const char *p, size_t n)
{
	const char *end = p + n;
	if (n >= 2 && p[0] == '{' && p[1] == '"')
		return true;
	if (n < 4 || p[0] != '"')
		return false;
	const char *q = memchr(p + 1, '"', n - 1);
	if (!q)
		return false;
	q = view_ltrim(q + 1, end);
	return q < end && *q == ':';
}

/* The basename of the "Analysis Tool:" value, e.g. "vmmap" or "leaks". */
const char *
vmmap_analysis_tool(const char *p, size_t n, size_t *len)
{
	static const char key[] = "Analysis Tool:";
	if (!view_starts(p, n, key))
		return NULL;
	const char *end = p + n, *v = view_ltrim(p + sizeof(key) - 1, end);
	const char *base = v;
	for (const char *c = v; c < end; c++)
		if (*c == '/')
			base = c + 1;
	const char *e = base;
	while (e < end && !view_is_space(*e))
		e++;
	*len = (size_t)(e - base);
	return *len ? base : NULL;
}

static bool
is_vmmap_tool(const char *name, size_t len)
{
	/* vmmap, vmmap32, vmmap64 */
	return len >= 5 && memcmp(name, "vmmap", 5) == 0;
}

static bool
is_section_line(const char *p, size_t n)
{
	return view_starts(p, n, "==== ") &&
	       (view_find(p, n, "regions for process") || view_find(p, n, "Summary for process") ||
		view_starts(p, n, "==== Legend"));
}

static bool
is_summary_header(const char *p, size_t n)
{
	return vmmap_table_is_header(p, n) &&
	       (view_find(p, n, "VIRTUAL") || view_find(p, n, "SIZE") || view_find(p, n, "PAGES"));
}

/* A complete 8-figure summary row, as `grep TYPE` of `vmmap -summary` leaves it. */
static bool
is_headerless_row(const char *p, size_t n)
{
	struct vmmap_summary_row row;
	const char *why;
	int rc = vmmap_table_parse_row(p, n, &vmmap_table_full_layout, &row, &why);
	if (rc == -1)
		return true;    /* the shape of a row, with a figure out of range */
	return rc == 0;
}

/*
 * The checks below that look for a fixed start, by the one byte each can
 * start with: a dump's header and legend lines ("Process:", "Path:", ...)
 * then skip all of them after one switch. A file of many small dumps
 * holds tens of thousands of such lines.
 */
#define UNDECIDED (-1)

static int
evidence_by_start(const char *p, size_t n)
{
	const char *tool;
	size_t tl;

	switch (p[0]) {
	case '{':
	case '"':
		return vmmap_line_is_json(p, n) ? VMMAP_EVIDENCE_NONE : UNDECIDED;
	case 'A':
		if ((tool = vmmap_analysis_tool(p, n, &tl)) != NULL)
			return is_vmmap_tool(tool, tl) ? VMMAP_EVIDENCE_DUMP :
							 VMMAP_EVIDENCE_OTHER_TOOL;
		break;
	case 'V':
		if (view_starts(p, n, "Virtual Memory Map of process ") ||
		    view_starts(p, n, "VM page size:"))
			return VMMAP_EVIDENCE_DUMP;
		break;
	case 'O':
		if (view_starts(p, n, "Output report format:"))
			return VMMAP_EVIDENCE_DUMP;
		break;
	case 'R':
		if (view_starts(p, n, "ReadOnly portion of Libraries:") || is_summary_header(p, n) ||
		    (view_starts(p, n, "REGION TYPE") && view_find(p, n, "START - END")))
			return VMMAP_EVIDENCE_DUMP;
		break;
	case 'W':
		if (view_starts(p, n, "Writable regions: Total="))
			return VMMAP_EVIDENCE_DUMP;
		break;
	case '=':
		if (is_section_line(p, n))
			return VMMAP_EVIDENCE_DUMP;
		break;
	case 'v':
		if (vmmap_line_is_failure(p, n))
			return VMMAP_EVIDENCE_FAILURE;
		break;
	default:
		break;
	}
	return UNDECIDED;   /* none of them: the checks that look at the whole line decide */
}

/*
 * The shortest full summary row: a name and 8 figures of one byte each,
 * a blank between each two.
 */
#define MIN_HEADERLESS_ROW (2 * 9 - 1)

enum vmmap_evidence
vmmap_line_evidence_start(const char *line, size_t len)
{
	const char *end = line + view_rtrim(line, len);
	const char *p = vmmap_line_skip_prefix(line, end);
	size_t n = (size_t)(end - p);
	int ev = n ? evidence_by_start(p, n) : UNDECIDED;
	return ev == UNDECIDED ? VMMAP_EVIDENCE_NONE : (enum vmmap_evidence)ev;
}

enum vmmap_evidence
vmmap_line_evidence_other(const char *line, size_t len)
{
	const char *end = line + view_rtrim(line, len);
	const char *p = vmmap_line_skip_prefix(line, end);
	size_t n = (size_t)(end - p);

	if (n == 0)
		return VMMAP_EVIDENCE_NONE;
	int ev = evidence_by_start(p, n);
	if (ev != UNDECIDED)
		return (enum vmmap_evidence)ev;
	/* A region-like line holds " SM=" or a '[' (vmmap_line_looks_like_region). */
	if ((memchr(p, '[', n) || memchr(p, '=', n)) && vmmap_line_looks_like_region(p, end))
		return VMMAP_EVIDENCE_REGION_LIKE;
	if (n >= MIN_HEADERLESS_ROW && is_headerless_row(p, n))
		return VMMAP_EVIDENCE_DUMP;
	return VMMAP_EVIDENCE_NONE;
}

enum vmmap_evidence
vmmap_line_evidence(const char *p, size_t n)
{
	struct vmmap_region r;
	const char *why;
	const char *end = p + view_rtrim(p, n);
	const char *s = vmmap_line_skip_prefix(p, end);
	if (vmmap_line_is_json(s, (size_t)(end - s)))
		return VMMAP_EVIDENCE_NONE;
	switch (vmmap_parse_region_line(p, n, &r, &why)) {
	case VMMAP_LINE_REGION:
		return VMMAP_EVIDENCE_DUMP;
	case VMMAP_LINE_MALFORMED:
		return VMMAP_EVIDENCE_REGION_LIKE;
	case VMMAP_LINE_OTHER:
	default:
		return vmmap_line_evidence_other(p, n);
	}
}

enum vmmap_evidence
vmmap_recognise(const char *p, size_t n)
{
	enum vmmap_evidence best = VMMAP_EVIDENCE_NONE;
	const char *end = p + n;
	while (p < end && best != VMMAP_EVIDENCE_DUMP) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		enum vmmap_evidence ev = vmmap_line_evidence(p, (size_t)(e - p));
		if (ev > best)
			best = ev;
		p = nl ? nl + 1 : end;
	}
	return best;
}

/*
 * The parser's own recogniser, so that `iotally FILE` and `iotally vmmap
 * FILE` agree on what a vmmap capture is (its failure message and lines
 * meant as region lines are vmmap's to explain); another tool's header
 * block is that tool's report.
 */
enum input_kind
vmmap_input_kind(const char *p, size_t n)
{
	switch (vmmap_recognise(p, n)) {
	case VMMAP_EVIDENCE_DUMP:
	case VMMAP_EVIDENCE_FAILURE:
	case VMMAP_EVIDENCE_REGION_LIKE:
		return INPUT_VMMAP;
	case VMMAP_EVIDENCE_OTHER_TOOL:
		return INPUT_TOOL_REPORT;
	case VMMAP_EVIDENCE_NONE:
	default:
		return INPUT_TEXT;
	}
}
