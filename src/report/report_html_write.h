#ifndef IOTALLY_REPORT_REPORT_HTML_WRITE_H
#define IOTALLY_REPORT_REPORT_HTML_WRITE_H

/*
 * The report (model/report.h) as one self-contained HTML page: inline CSS
 * (light and dark by prefers-color-scheme, a print style), inline SVG
 * charts each beside the table that holds its figures, no script and no
 * external resource of any kind (a Content-Security-Policy meta forbids
 * them: default-src 'none'), and the report's data as JSON in
 * <script type="application/json" id="iotally-data"> for extraction.
 *
 * Every string from a capture is cleaned to valid UTF-8 and escaped for
 * where it goes: HTML text and attribute values (& < > " '), SVG text (the
 * same), and the JSON (< > & written as \u003c \u003e \u0026, so neither
 * "</script>" nor "<!--" can appear in it). Tables show at most
 * REPORT_HTML_ROWS rows; the JSON holds what the model holds (unless the
 * page is folded to fit REPORT_HTML_LIMIT).
 * The output is the same bytes for the same report.
 */

#include <stdio.h>

#include "model/report.h"
#include "util/strbuf.h"

#define REPORT_HTML_ROWS 200

/*
 * The page is at most REPORT_HTML_LIMIT bytes, whatever the input: when the
 * whole report does not fit, texts are cut and fewer rows, charts and
 * warnings shown (the embedded data cut the same way) until it does, and
 * the page says so under its headline.
 */
#define REPORT_HTML_LIMIT (2u * 1024 * 1024)
#define REPORT_HTML_LIMIT_SHOWN "2 MiB"

void report_html_render(const struct report *r, struct strbuf *out);
/* 0, or -1 when the output cannot be written. */
int report_html_write(FILE *out, const struct report *r);

/* Append `s` (any bytes) cleaned and escaped for HTML text or an attribute value. */
void report_html_escape(const char *s, size_t max_chars, struct strbuf *out);

#endif
