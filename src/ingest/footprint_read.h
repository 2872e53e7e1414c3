#ifndef IOTALLY_INGEST_FOOTPRINT_READ_H
#define IOTALLY_INGEST_FOOTPRINT_READ_H

/*
 * Saved text output of Apple's `footprint` (docs/footprint.md): one block
 * per process ("NAME [PID]: 64-bit    Footprint: 922 MB (16384 bytes per
 * page)" between '=' rules), its category table ("Dirty Clean Reclaimable
 * Regions Category", with "(Swapped)" and "(Wired)" columns when asked
 * for, '---' rules and a TOTAL row), "Auxiliary data:" (phys_footprint,
 * phys_footprint_peak), "Summary Footprint:" after several processes, and
 * footprint's own lookup messages. Figures in bytes ("N B", exact),
 * formatted (KB, MB, GB, TB: base 1024, to the nearest unit) or pages
 * ("N pages" times the header's page size).
 *
 * Excerpts are read as far as they go: without rules or title (the rows
 * belong to an unnamed process), without the column header (three figures
 * and a count: Dirty Clean Reclaimable Regions; five and a count: with
 * (Swapped) and (Wired)), with rows elided by their author (" ..."): the
 * process is marked elided and what the rows would have said stays unknown.
 *
 * Streams the input (one line at a time); memory grows with the
 * categories and processes read, not with the lines. footprint's JSON
 * (footprint -j) is not read here: ingest/foreign.c names it.
 */

#include <stdbool.h>
#include <stddef.h>

#include "model/footprint.h"
#include "util/diag.h"
#include "util/linereader.h"

struct footprint_read_opts {
	bool strict;   /* a line not understood after the capture began is an error */
};

/*
 * 0 (warnings and notes in *warnings; cap->partial when a table's line was
 * not read), or -1 with *err: DIAG_DATA with file and line for a figure
 * past 2^63 - 1 bytes, a line not understood with `strict`, or an input
 * holding no footprint output.
 */
int footprint_read(struct line_reader *r, struct footprint_capture *cap,
		   const struct footprint_read_opts *opts, struct diag_list *warnings,
		   struct diag *err);

/*
 * Does the start of an input hold footprint output: a process title, a
 * category table header, "phys_footprint:" or "Summary Footprint:"?
 */
bool footprint_recognise(const char *p, size_t n);

enum footprint_figure_status {
	FOOTPRINT_FIGURE_OK = 0,
	FOOTPRINT_FIGURE_SYNTAX = -1,
	FOOTPRINT_FIGURE_OVERFLOW = -2,   /* past 2^63 - 1 bytes */
	FOOTPRINT_FIGURE_NO_PAGE = -3,    /* in pages, with no page size known */
};

/*
 * A figure as footprint prints it, the number and its unit ("411 MB",
 * "0 B", "26 pages"): the bytes and how exact they are.
 */
int footprint_parse_figure(const char *num, size_t nlen, const char *unit, size_t ulen,
			   uint64_t page_size, struct footprint_figure *out);

#endif
