#ifndef IOTALLY_UTIL_REGEX_H
#define IOTALLY_UTIL_REGEX_H

/*
 * A compiled PCRE2 regular expression for selecting names (--match).
 * PCRE2 types stay inside regex.c. Matching is unanchored (a search), on
 * bytes; names that are not UTF-8 still match byte-wise.
 */

#include <stdbool.h>
#include <stddef.h>

#include "util/diag.h"

struct regex;

enum regex_flags {
	REGEX_MULTILINE = 1,   /* ^ and $ match at every line of the subject */
};

/*
 * Compile `len` bytes of pattern. NULL on a bad pattern, with PCRE2's
 * message in msg[msgsize] and the byte offset of the error in *erroff.
 */
struct regex *regex_compile_n(const char *pattern, size_t len, unsigned flags,
			      char *msg, size_t msgsize, size_t *erroff);
/* A NUL-terminated --match pattern; NULL with a DIAG_USAGE message in *err. */
struct regex *regex_compile(const char *pattern, struct diag *err);
/* true when the pattern matches somewhere in [s, s+n). */
bool regex_search(const struct regex *re, const char *s, size_t n);
void regex_free(struct regex *re);

#endif
