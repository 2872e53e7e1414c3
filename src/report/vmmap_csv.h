#ifndef IOTALLY_REPORT_VMMAP_CSV_H
#define IOTALLY_REPORT_VMMAP_CSV_H

/*
 * The purgeability breakdown as RFC 4180 CSV: a header record, one record
 * per (dump, type, purge state), CRLF line ends, fields quoted when they
 * hold a comma or a quote. Byte counts are exact integers, never changed.
 *
 * A text cell (a process or region type name from the input) is written by
 * util/escape.h's rule, so it holds no line break or other control byte,
 * and one that starts with = + - @ TAB or CR gets a leading ' (OWASP's
 * advice against CSV formula injection): a spreadsheet shows the text
 * "=HYPERLINK(...)" instead of evaluating it. Readers that want the name
 * exactly use --format json.
 */

#include <stdio.h>

#include "model/vmmap.h"

void vmmap_csv_write(FILE *out, const struct vmmap_capture *cap);
/* The same in parts, for a writer that writes each dump as it closes:
 * the header record, then the records of dump number `index` (1-based). */
void vmmap_csv_write_header(FILE *out);
void vmmap_csv_write_dump(FILE *out, const struct vmmap_dump *d, size_t index);

/*
 * A CSV cell from input text: escaped (util/escape.h), quoted when it must
 * be, and a leading = + - @ TAB CR neutralised with a ' so spreadsheets do
 * not evaluate it. Numeric cells are written as they are. `tmp` is scratch.
 */
struct strbuf;
void csv_text_field(FILE *out, const char *s, struct strbuf *tmp);

#endif
