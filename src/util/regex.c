#include "util/regex.h"

#include "util/xalloc.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct regex {
	pcre2_code *code;
};

/*
 * Match data is written by every match, so it cannot live in the shared
 * compiled pattern: one suppression list serves every worker of -j N
 * (app/parallel.h). Each thread has its own, of one pair: regex_search()
 * asks whether there is a match, not where (PCRE2 returns 0, a match, when
 * the groups do not fit), so one size serves every pattern.
 */
static pthread_key_t md_key;
static pthread_once_t md_once = PTHREAD_ONCE_INIT;

static void
free_match_data(void *md)
{
	pcre2_match_data_free(md);
}

static void
make_md_key(void)
{
	if (pthread_key_create(&md_key, free_match_data) != 0)
		xdie("cannot create a thread key (PCRE2 match data)");
}

static pcre2_match_data *
thread_match_data(void)
{
	pthread_once(&md_once, make_md_key);
	pcre2_match_data *md = pthread_getspecific(md_key);
	if (md)
		return md;
	/* PCRE2 allocates with malloc: out of memory, like xmalloc. */
	if (!(md = pcre2_match_data_create(1, NULL)) || pthread_setspecific(md_key, md) != 0)
		xdie("out of memory (PCRE2 match data)");
	return md;
}

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
	return pcre2_match(re->code, (PCRE2_SPTR)s, n, 0, 0, thread_match_data(), NULL) >= 0;
}

void
regex_free(struct regex *re)
{
	if (!re)
		return;
	pcre2_code_free(re->code);
	free(re);
}
