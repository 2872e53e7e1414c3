#ifndef IOTALLY_INGEST_CLASSES_JSON_READ_H
#define IOTALLY_INGEST_CLASSES_JSON_READ_H

/*
 * Reads an `iotally classes --format json` report (schema
 * iotally.classes/1) back: its snapshot's class counts ("classes", or the
 * found names of a class-names "query"), allocation totals, and, when the
 * report was made with --direct, its direct counts as a second snapshot.
 * A report that holds only some classes (--match, --nonzero, --top) gets a
 * note: the diff covers those.
 */

#include "model/classes.h"
#include "util/diag.h"
#include "util/linereader.h"

/*
 * One snapshot goes to `cap`; the direct counts, if any, to `direct`.
 * 0, or -1 with *err set (DIAG_DATA for a document that is not a classes
 * report).
 */
int classes_json_read(struct line_reader *r, struct classes_capture *cap,
		      struct classes_capture *direct, struct diag_list *notes,
		      struct diag *err);

#endif
