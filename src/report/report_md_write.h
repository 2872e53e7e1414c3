#ifndef IOTALLY_REPORT_REPORT_MD_WRITE_H
#define IOTALLY_REPORT_REPORT_MD_WRITE_H

/*
 * The report (model/report.h) as GitHub-flavoured Markdown for a bug
 * report or a pull-request comment: the verdict, provenance and every
 * section's tables as pipe tables (tables of more than REPORT_MD_OPEN_ROWS
 * rows folded in <details>), "N more rows" lines where rows are left out.
 *
 * Every string from a capture is escaped so that it stays text inside a
 * table cell: | \ ` * _ [ ] < > & ~ ! are backslash-escaped and a leading
 * # - + = or "1." cannot start a heading or a list.
 *
 * The document is at most REPORT_MD_LIMIT bytes (GitHub's comment limit is
 * 65,536 characters): rows per table and cell lengths shrink until it
 * fits, the same way for the same report.
 */

#include <stdio.h>

#include "model/report.h"
#include "util/strbuf.h"

#define REPORT_MD_LIMIT 60000
/* REPORT_MD_LIMIT as the help and the cut sentence print it (a unit test checks they agree). */
#define REPORT_MD_LIMIT_SHOWN "60,000"
#define REPORT_MD_OPEN_ROWS 15

void report_md_render(const struct report *r, struct strbuf *out);
/* 0, or -1 when the output cannot be written. */
int report_md_write(FILE *out, const struct report *r);

/* Append `s` escaped for Markdown inline text (and table cells). */
void report_md_escape(const char *s, size_t max_chars, struct strbuf *out);

#endif
