#ifndef IOTALLY_REPORT_REPORT_TABLES_WRITE_H
#define IOTALLY_REPORT_REPORT_TABLES_WRITE_H

/*
 * A report's tables (model/report.h) as aligned text or Markdown pipe
 * tables: what `iotally diff` prints of a pair, so that the rows a kind's
 * report builder chose (model/report_<kind>.c) are the rows of the diff
 * too, in the same order, and are laid out once (report/texttable.h).
 *
 * Each section's paragraphs (a pair's totals), then each of its tables,
 * in the report's order: "Title:" (text) or
 * "### Title" (Markdown), its column names in capitals, the rows that are
 * not folded (report_table_unchanged() rows are left out and counted in a
 * line under the table), the rows the model left out counted too, then the
 * table's note. A byte figure goes through the text outputs' one formatter
 * (util/size.h size_format_text(), "~" on every figure of a table whose
 * bytes were rounded by the tool that printed them); a count as digits, a
 * delta signed, an empty cell "-". Verdict, provenance, warnings and
 * charts are the report's own: the diff prints its heading, warnings and
 * gates itself (report/diff_report.h).
 */

#include <stdbool.h>
#include <stdio.h>

#include "model/report.h"

/* The report's tables, a table without rows left out. */
void report_tables_write(FILE *out, const struct report *r, bool markdown);

#endif
