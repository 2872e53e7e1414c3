#include "util/regex.h"

#include "util/xalloc.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdlib.h>

struct regex {
	pcre2_code *code;
	pcre2_match_data *md;
};

struct regex *
regex_compile(const char *pattern, struct diag *err)
{
	int errcode;
	PCRE2_SIZE erroff;
	pcre2_code *code = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, 0,
					 &errcode, &erroff, NULL);
	if (!code) {
		PCRE2_UCHAR msg[160];
		pcre2_get_error_message(errcode, msg, sizeof(msg));
		diag_set(err, DIAG_USAGE, NULL, 0, 0,
			 "bad regular expression '%s': %s at offset %zu", pattern,
			 (const char *)msg, (size_t)erroff);
		return NULL;
	}
	struct regex *re = xmalloc(sizeof(*re));
	re->code = code;
	re->md = pcre2_match_data_create_from_pattern(code, NULL);
	if (!re->md) {
		pcre2_code_free(code);
		free(re);
		diag_set(err, DIAG_SOFTWARE, NULL, 0, 0, "cannot allocate PCRE2 match data");
		return NULL;
	}
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
