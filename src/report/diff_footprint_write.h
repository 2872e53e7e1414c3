#ifndef IOTALLY_REPORT_DIFF_FOOTPRINT_WRITE_H
#define IOTALLY_REPORT_DIFF_FOOTPRINT_WRITE_H

/*
 * The footprint part of the diff JSON (model/diff_footprint.h); its text
 * and Markdown tables are the pair report's (model/report_footprint.h): the
 * process-wide figures (footprint, phys_footprint and its peak,
 * footprint:gpu.dirty), then per category the columns either capture
 * prints, each before, after and delta. A figure footprint printed
 * formatted is shown rounded ("~922 MiB") and a delta of rounded figures
 * is marked "~" (the JSON gives its bound, `slack`); a figure a capture
 * lacks is "?", never 0. For captures of several processes, then each
 * process (matched as model/diff_footprint.h says, its change: same,
 * relaunched, added, removed) with its figures, gpu.dirty first, the sums
 * as the TOTAL rows, and each matched process's categories that changed,
 * GPU categories first; a side without the process is "-".
 */

#include <jansson.h>
#include <stdbool.h>

#include "model/diff_footprint.h"

/* Did any figure change (a delta other than 0, or known on one side only)? */
bool diff_footprint_row_changed(const struct diff_footprint_row *r);
/* Did any row change, of the pair or of one of its processes? */
bool diff_footprint_changed(const struct diff_footprint *d);

/* The body of the diff JSON: footprint_process, figures, categories, and processes
 * for captures of several (docs/json/diff.md). */
json_t *diff_footprint_json(const struct diff_footprint *d);

#endif
