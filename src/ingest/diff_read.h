#ifndef IOTALLY_INGEST_DIFF_READ_H
#define IOTALLY_INGEST_DIFF_READ_H

/*
 * Reading one side of a diff: a raw capture or iotally's JSON report of
 * the kind, into the model's side (model/diff_<kind>.h). Raw captures are
 * read leniently (lines not understood are counted, the capture marked
 * partial), as a diff compares whatever could be read and says so.
 *
 * Each function returns 0, or -1 with *err set; notes and warnings go to
 * `notes`.
 */

#include <stdbool.h>
#include <stddef.h>

#include "model/diff.h"
#include "model/diff_classes.h"
#include "model/diff_track.h"
#include "model/diff_vmmap.h"
#include "util/diag.h"
#include "util/linereader.h"

/* Every dump of the input, every region type, purgeable regions kept by address. */
int diff_vmmap_side_read(struct line_reader *r, bool json, struct diff_vmmap_side *s,
			 struct diag_list *notes, struct diag *err);

/* The records of side 0 (BEFORE) or 1 (AFTER) straight into p->diff. */
int diff_track_side_read(struct line_reader *r, bool json, struct diff_track_pair *p,
			 int side, struct diag_list *notes, struct diag *err);

/* The snapshots, and the class hierarchy a raw capture records when `want_hierarchy`. */
int diff_classes_side_read(struct line_reader *r, bool json, struct diff_classes_side *s,
			   bool want_hierarchy, struct diag_list *notes, struct diag *err);

/*
 * A gates file: one gate a line (the --fail-if grammar); blank lines and
 * lines whose first non-blank character is '#' are skipped. Gates are
 * appended to *gates (grown with xgrow). 0, or -1 with *err at the
 * offending line (DIAG_USAGE for a malformed gate, DIAG_DATA for a line
 * that is not text).
 */
int diff_gates_read(struct line_reader *r, struct diff_gate **gates, size_t *n,
		    size_t *alloc, struct diag *err);
/* The same of the file at `path` (DIAG_NOINPUT when it cannot be opened). */
int diff_gates_read_file(const char *path, struct diff_gate **gates, size_t *n, size_t *alloc,
			 struct diag *err);

#endif
