#ifndef IOTALLY_REPORT_SIGNATURES_WRITE_H
#define IOTALLY_REPORT_SIGNATURES_WRITE_H

/*
 * `iotally signatures`: the buckets (model/signature_bucket.h) as text, a
 * Markdown table to paste into a tracking bug, or JSON (SIGNATURES_SCHEMA);
 * and one NDJSON row per pair (SIGNATURES_NDJSON_SCHEMA), which the
 * command reads back.
 */

#include <stdbool.h>
#include <stdio.h>

#include "model/signature_bucket.h"

/* Examples listed per bucket. */
#define SIGNATURES_EXAMPLES 3

/* Text (markdown false) or Markdown: a summary line, then the buckets. */
void signatures_write_text(FILE *out, const struct signature_buckets *b,
			   const struct signature_record *recs, bool markdown);
/* The JSON document. 0, or -1 when it cannot be written. */
int signatures_write_json(FILE *out, const struct signature_buckets *b,
			  const struct signature_record *recs);
/* One row per record. 0, or -1 when it cannot be written. */
int signatures_write_ndjson(FILE *out, const struct signature_record *recs, size_t n);

#endif
