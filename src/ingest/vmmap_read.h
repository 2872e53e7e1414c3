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

/* Parse one line (without its newline) as a region line. */
enum vmmap_line_result vmmap_parse_region_line(const char *p, size_t n,
					       struct vmmap_region *out,
					       const char **why);

#endif
