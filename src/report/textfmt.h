#ifndef IOTALLY_REPORT_TEXTFMT_H
#define IOTALLY_REPORT_TEXTFMT_H

/*
 * Text-table helpers shared by the text writers. Padding counts UTF-8
 * characters, not bytes, so a column holding a non-ASCII name lines up the
 * way the reference tools' reports (which pad by character) do.
 */

#include "util/numfmt.h"

#include <stdint.h>
#include <stdio.h>

/* Characters in a UTF-8 string (bytes that do not continue a sequence). */
size_t text_width(const char *s);
/* s (escaped by util/escape.h's rule), then spaces up to `width` characters. */
void text_pad_right(FILE *out, const char *s, size_t width);
/* printf's "%*.*f" of v (width, decimals 0 to 3): util/numfmt.h's numfmt_fixed(). */
#define TEXT_FIXED_MAX NUMFMT_FIXED_MAX
size_t text_fixed(char out[TEXT_FIXED_MAX], double v, int width, int decimals);
/*
 * "%7.2f MB" of bytes / 2^20 (as a double), as the reference report prints
 * sizes, into out (NUL-terminated), and its length: integer arithmetic
 * below 2^53 bytes, text_fixed() above.
 */
size_t text_fixed_mb(char out[TEXT_FIXED_MAX], uint64_t bytes);
/* text_fixed_mb() written to out. */
void text_mb(FILE *out, uint64_t bytes);
/* The same without leading blanks. */
void text_mb_trim(FILE *out, uint64_t bytes);
/* `n` copies of `c`. */
void text_repeat(FILE *out, char c, size_t n);

#endif
