#ifndef IOTALLY_REPORT_VMMAP_TEXT_H
#define IOTALLY_REPORT_VMMAP_TEXT_H

/*
 * The vmmap text report: the layout of Chromium's vmmap_gpu_regions.py
 * (summary rows, per-region purgeability breakdown, totals, one histogram
 * per type), computed from exact byte counts, plus the optional IOSurface
 * table. Writes to `out`; never opens files, never prints diagnostics.
 */

#include <stdbool.h>
#include <stdio.h>

#include "model/vmmap.h"
#include "util/strbuf.h"

struct vmmap_text_opts {
	bool heading;     /* "=== Process: NAME [PID] ===" before the report */
	bool surfaces;    /* add the IOSurface dimensions/format table */
};

/* "NAME [PID]", with '?' for what the dump does not say. */
void vmmap_text_write_process(FILE *out, const struct vmmap_dump *d);
/* The same, appended to a buffer (for a message that names the process). */
void vmmap_text_add_process(struct strbuf *out, const struct vmmap_dump *d);

/*
 * One summary-table row as the text report prints it, appended to sb:
 * the name padded to 26 characters, the count, the seven columns in MiB.
 */
void vmmap_text_add_summary_row(struct strbuf *sb, const struct vmmap_summary_row *row);

/* Summary rows shown are those `f` selects. */
void vmmap_text_write_dump(FILE *out, const struct vmmap_dump *d,
			   const struct vmmap_text_opts *opts,
			   const struct vmmap_filter *f);

#endif
