#ifndef IOTALLY_INGEST_VMMAP_READ_H
#define IOTALLY_INGEST_VMMAP_READ_H

/*
 * Parser for saved vmmap text (every layout from report format 2.0 to the
 * macOS 26 layout, -v / -noCoalesce / -interleaved / -summary dumps,
 * crash-report excerpts). Streams lines from a line_reader into a
 * vmmap_capture; fields are found by pattern, never by column.
 *
 * A file may hold several dumps one after another: a new dump starts
 * where a header, a region section or a summary table starts again.
 */

#include <stdbool.h>
#include <stddef.h>

#include "model/vmmap.h"
#include "util/diag.h"
#include "util/linereader.h"

struct vmmap_parse_opts {
	bool strict;              /* first line that does not parse is an error */
	size_t report_unparsed;   /* how many unparsed lines get a warning each */
};

/*
 * Parse the whole input. Returns 0, or -1 with *err set (read error,
 * --strict violation, a sum past 2^64, or input with no vmmap structure at
 * all). Warnings about single lines go to `warnings`.
 */
int vmmap_parse(struct line_reader *r, struct vmmap_capture *cap,
		const struct vmmap_parse_opts *opts, struct diag_list *warnings,
		struct diag *err);

enum vmmap_line_result {
	VMMAP_LINE_REGION = 0,     /* *out holds the region */
	VMMAP_LINE_OTHER = -1,     /* not a region line */
	VMMAP_LINE_MALFORMED = -2, /* looks like a region line, does not parse; *why says why */
};

/*
 * What one line says about its input being a vmmap capture, ordered by
 * weight: a verdict over many lines is the heaviest evidence among them.
 * The same classifier decides for content detection (`iotally FILE`) and
 * for the parser (`iotally vmmap`).
 */
enum vmmap_evidence {
	VMMAP_EVIDENCE_NONE,          /* nothing vmmap-specific */
	VMMAP_EVIDENCE_REGION_LIKE,   /* meant as a region line, does not parse */
	VMMAP_EVIDENCE_OTHER_TOOL,    /* "Analysis Tool:" of another tool (leaks, heap) */
	VMMAP_EVIDENCE_FAILURE,       /* vmmap's own failure message */
	VMMAP_EVIDENCE_DUMP,          /* a line only vmmap output has */
};

/* One line, without its newline. */
enum vmmap_evidence vmmap_line_evidence(const char *p, size_t n);
/* The same for a line that vmmap_parse_region_line() called VMMAP_LINE_OTHER. */
enum vmmap_evidence vmmap_line_evidence_other(const char *p, size_t n);
/*
 * Only what the line's start says (the fixed openings: "Analysis Tool:",
 * vmmap's failure message, ...), NONE for the rest: the evidence_other()
 * of a line less the whole-line checks (region-like, a row without a
 * header), which can only say REGION_LIKE or DUMP.
 */
enum vmmap_evidence vmmap_line_evidence_start(const char *p, size_t n);
/* The heaviest evidence over the lines of a buffer (the start of an input). */
enum vmmap_evidence vmmap_recognise(const char *p, size_t n);

/* "vmmap[40148]: vmmap cannot examine process ...": vmmap's failure message. */
bool vmmap_line_is_failure(const char *p, size_t n);
/* A `"key" : value` line of a crash report's JSON "Full Report". */
bool vmmap_line_is_json(const char *p, size_t n);
/* The tool named by an "Analysis Tool:" line (its basename), or NULL. */
const char *vmmap_analysis_tool(const char *p, size_t n, size_t *len);

/*
 * Parse one line (without its newline) as a region line. The detail is
 * kept as a view; vmmap_region_read_surface() reads an IOSurface detail
 * ("SurfaceID: 0x74  2080x2330 (BGRA) 18.5M ...") into r->surface.
 */
enum vmmap_line_result vmmap_parse_region_line(const char *p, size_t n,
					       struct vmmap_region *out,
					       const char **why);
void vmmap_region_read_surface(struct vmmap_region *r);

#endif
