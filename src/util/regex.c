#include "util/regex.h"

#include "util/xalloc.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct regex {
	pcre2_code *code;
	pcre2_match_data *md;
};

struct regex *
regex_compile_n(const char *pattern, size_t len, unsigned flags, char *msg,
		size_t msgsize, size_t *erroff)
{
	int errcode;
	PCRE2_SIZE at;
	/* Subjects are bytes, not always UTF-8: no PCRE2_UTF, so no UTF errors. */
	uint32_t options = (flags & REGEX_MULTILINE) ? PCRE2_MULTILINE : 0;
	pcre2_code *code = pcre2_compile((PCRE2_SPTR)pattern, len, options,
					 &errcode, &at, NULL);
	if (!code) {
		pcre2_get_error_message(errcode, (PCRE2_UCHAR *)msg, msgsize);
		*erroff = (size_t)at;
		return NULL;
	}
	struct regex *re = xmalloc(sizeof(*re));
	re->code = code;
	re->md = pcre2_match_data_create_from_pattern(code, NULL);
	if (!re->md)   /* PCRE2 allocates with malloc: out of memory, like xmalloc. */
		xdie("out of memory (PCRE2 match data)");
	return re;
}

struct regex *
regex_compile(const char *pattern, struct diag *err)
{
	char msg[160];
	size_t erroff;
	struct regex *re = regex_compile_n(pattern, strlen(pattern), 0, msg,
					   sizeof(msg), &erroff);
	if (!re)
		diag_set(err, DIAG_USAGE, NULL, 0, 0,
			 "bad regular expression '%s': %s at offset %zu", pattern,
			 msg, erroff);
	return re;
}

bool
regex_search(const struct regex *re, const char *s, size_t n)
{
	/* A pathological pattern hits PCRE2's match limit and counts as no match. */
	return pcre2_match(re->code, (PCRE2_SPTR)s, n, 0, 0, re->md, NULL) >= 0;
}

void
regex_free(struct regex *re)
{
	if (!re)
		return;
	pcre2_match_data_free(re->md);
	pcre2_code_free(re->code);
	free(re);
}
