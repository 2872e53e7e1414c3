#ifndef IOTALLY_INGEST_SIGNATURE_ROWS_READ_H
#define IOTALLY_INGEST_SIGNATURE_ROWS_READ_H

/*
 * Signature records read back from NDJSON rows written earlier, so that a
 * fleet job can bucket what many machines computed: the rows of `iotally
 * signatures --format ndjson` (SIGNATURES_NDJSON_SCHEMA, one per pair) and
 * the "pair" rows of `iotally diff --format ndjson` (DIFF_NDJSON_SCHEMA;
 * their other rows are skipped). Blank lines are skipped.
 *
 * Untrusted input: a line is at most SIGNATURE_ROW_MAX bytes; every row is
 * checked (a JSON object, duplicate keys refused, the schema, each key's
 * type), an id must be SIGNATURE_ID_DIGITS lowercase hex digits, and under
 * the current rule a row that grew must give its canonical text, the id
 * must be that text's, and the label is made from the text by the rule
 * (signature_label_of()), not taken from the row. The first bad row stops
 * the read: DIAG_DATA naming the file and line.
 */

#include <stddef.h>

#include "model/signature_bucket.h"
#include "util/diag.h"
#include "util/linereader.h"

#define SIGNATURE_ROW_MAX (64u * 1024)

/*
 * Append the rows' records to *recs (*n used of *alloc). 0, or -1 with
 * *err; the records read before the bad row stay appended.
 */
int signature_rows_read(struct line_reader *r, const char *path,
			struct signature_record **recs, size_t *n, size_t *alloc,
			struct diag *err);

#endif
