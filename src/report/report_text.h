#ifndef IOTALLY_REPORT_REPORT_TEXT_H
#define IOTALLY_REPORT_REPORT_TEXT_H

/*
 * What the Markdown and HTML report writers share: a capture's string made
 * safe to show (valid UTF-8, no control characters, a bounded length) and
 * a report cell's figure as text.
 */

#include <stddef.h>
#include <stdint.h>

#include "model/report.h"
#include "util/strbuf.h"

/*
 * Append `s` as valid UTF-8 without control characters, by util/escape.h's
 * rule (C0 controls, tabs and line breaks included, DEL, C1 controls and
 * invalid bytes as \xNN), the rule of every text output. At most
 * `max_chars` characters of that (0: no limit); a longer string ends in
 * "..." (U+2026).
 */
void report_text_clean(const char *s, size_t max_chars, struct strbuf *out);

/* A figure cell as text: "12", "16 KiB", "+3", "-1.5 MiB"; "" for text cells. */
void report_cell_figure(const struct report_cell *c, struct strbuf *out);

/* A figure cell's exact value as words for a tooltip: "16384 bytes", "3". */
void report_cell_exact(const struct report_cell *c, struct strbuf *out);

/*
 * A figure cell of a table whose byte figures show their exact count
 * (report_table.exact_beside): "+389 MiB (+407896064 bytes)", the words of
 * report_cell_exact() beside the units; a count, and a zero, as
 * report_cell_figure() writes them.
 */
void report_cell_figure_exact_beside(const struct report_cell *c, struct strbuf *out);

/* Is the cell a figure (right-aligned)? */
int report_cell_is_figure(const struct report_cell *c);

#endif
