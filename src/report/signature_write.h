#ifndef IOTALLY_REPORT_SIGNATURE_WRITE_H
#define IOTALLY_REPORT_SIGNATURE_WRITE_H

/*
 * A leak signature (model/signature.h) as the reports print it: one line
 * of text or Markdown, a JSON object, and the columns of NDJSON rows.
 */

#include <jansson.h>
#include <stdbool.h>

#include "model/signature.h"
#include "report/ndjson.h"
#include "util/strbuf.h"

/*
 * "Signature: 3f2a9c01b7de  IOAccelerator (graphics) non-volatile +128 MiB regions
 * (iotsig/1)" and a blank line; nothing when nothing grew (or s is NULL).
 * Input bytes escaped (controls as \xNN; Markdown's own characters too).
 */
void signature_line_add(struct strbuf *sb, const struct signature *s, bool markdown);

/*
 * {"id", "rule", "label", "canonical", "growth_bytes", "growth_count",
 * "components": [{"section", "key", "label", "bytes", "count"}]}, or null
 * when nothing grew.
 */
json_t *signature_json(const struct signature *s);

/*
 * The signature columns of an NDJSON row, appended in this order:
 * "signature_id", "signature_label", "signature_rule", "signature" (the
 * canonical text; each null when nothing grew or s is NULL).
 */
void signature_ndjson_set(struct ndjson_row *row, const struct signature *s);

#endif
