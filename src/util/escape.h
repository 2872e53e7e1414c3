#ifndef IOTALLY_UTIL_ESCAPE_H
#define IOTALLY_UTIL_ESCAPE_H

/*
 * The one rule for input bytes that iotally writes as text: every text
 * report, listing, table, CSV cell, Markdown and HTML text, JUnit XML
 * name and message, and every message on standard error. Inputs are files strangers attach to bug
 * reports; a class name holding "ESC ] 52 ; c ; ... BEL" must not write
 * the reader's clipboard, a newline in a manifest field must not forge a
 * line that looks like iotally's own.
 *
 * Shown as they are: printable ASCII (0x20-0x7e) and every valid UTF-8
 * sequence of a code point from U+00A0 up. Shown as \xNN (two lowercase
 * hex digits a byte):
 *   - C0 controls 0x00-0x1f, TAB, CR and LF included (a writer's own line
 *     ends and column tabs are written by the writer, never taken from
 *     the input; no format iotally writes needs a TAB from the input);
 *   - DEL 0x7f;
 *   - the C1 controls U+0080-U+009F, each byte of their two-byte UTF-8
 *     form (U+009B is \xc2\x9b);
 *   - every byte that does not begin a valid UTF-8 sequence (a lone
 *     continuation byte, an overlong form, a surrogate, past U+10FFFF, a
 *     sequence cut short by the end of the text): that byte alone, then
 *     the scan goes on with the next byte.
 * A valid multibyte sequence is never split. The backslash is not
 * escaped, so that every name without control characters is written byte
 * for byte as the input has it (the ioclasscount-layout listing stays
 * identical to the tool's): the text "\x1b" in output may be the four
 * characters of a name. JSON output has the exact bytes.
 *
 * Text that needs no escaping is written unchanged with one scan of its
 * bytes (16 at a time where SSE2 is part of the target), no copy.
 */

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util/strbuf.h"

/* How many bytes at the start of p[0..n) the rule shows as they are. */
size_t escape_clean_len(const char *p, size_t n);

/* Whether p[0..n) is shown as it is. */
static inline bool
escape_is_clean(const char *p, size_t n)
{
	return escape_clean_len(p, n) == n;
}

/* Append p[0..n) to out, escaped. */
void escape_add(struct strbuf *out, const char *p, size_t n);
/* The same for a C string. */
void escape_addstr(struct strbuf *out, const char *s);

/*
 * Append at most `max` bytes of p[0..n) escaped, cut before a UTF-8
 * sequence that would pass `max` (never inside one), then "..." when
 * anything was left out.
 */
void escape_add_cut(struct strbuf *out, const char *p, size_t n, size_t max);

/* Write p[0..n) to a stream, escaped. */
void escape_write(FILE *out, const char *p, size_t n);
/* The same for a C string. */
void escape_puts(FILE *out, const char *s);
/* One formatted line, every byte of it escaped, and its newline (the listings' and messages' lines). */
void escape_vline(FILE *out, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/*
 * `s` as one word a shell reads back as `s`, never a control byte: as it
 * is when every byte is a letter, digit or one of _./-+:=,@%; else in
 * single quotes when it is clean (a quote as '\''); else in bash's $'...'
 * with the escapes above (\xNN, which $'...' reads back as the byte), a
 * backslash and a quote escaped. For the commands iotally prints for
 * pasting (`iotally report BEFORE AFTER`).
 */
void escape_add_shell_word(struct strbuf *out, const char *s);

/*
 * `s` itself when it is clean (NULL stays NULL), else its escaped copy,
 * held in *tmp (reset first): for printf's %s without a copy of clean
 * text. The result is valid until *tmp changes.
 */
const char *escape_str(struct strbuf *tmp, const char *s);

#endif
