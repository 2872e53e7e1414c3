#include "model/suppress.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "util/view.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

void
suppress_list_init(struct suppress_list *s)
{
	memset(s, 0, sizeof(*s));
}

void
suppress_list_release(struct suppress_list *s)
{
	for (size_t i = 0; i < s->len; i++) {
		free(s->items[i].text);
		pcre2_code_free(s->items[i].code);
	}
	free(s->items);
	pcre2_match_data_free(s->match_data);
	suppress_list_init(s);
}

static int
compile_regex(struct suppress_pattern *pat, const char *path, uint64_t line,
	      struct diag *err)
{
	int code;
	PCRE2_SIZE at;
	/*
	 * Records are bytes, not always UTF-8: no PCRE2_UTF, so no invalid-UTF-8
	 * errors. A record is several lines: ^ and $ match at each of them.
	 */
	pat->code = pcre2_compile((PCRE2_SPTR)pat->text, pat->len, PCRE2_MULTILINE, &code, &at, NULL);
	if (pat->code)
		return 0;
	PCRE2_UCHAR msg[256];
	pcre2_get_error_message(code, msg, sizeof(msg));
	return diag_set(err, DIAG_DATA, path, line, (uint64_t)at + 4,
			"suppression pattern does not compile: %s", (const char *)msg);
}

int
suppress_list_add_line(struct suppress_list *s, const char *p, size_t n,
		       const char *path, uint64_t line, struct diag *err)
{
	n = view_rtrim(p, n);
	const char *start = view_ltrim(p, p + n);
	n -= (size_t)(start - p);
	if (n == 0 || start[0] == '#')
		return 0;
	struct suppress_pattern pat = { .line = line };
	if (view_starts(start, n, "re:")) {
		pat.regex = true;
		start += 3;
		n -= 3;
	}
	pat.text = xmemdup0(start, n);
	pat.len = n;
	if (pat.regex && compile_regex(&pat, path, line, err) < 0) {
		free(pat.text);
		return -1;
	}
	s->items = xgrow(s->items, &s->alloc, s->len + 1, sizeof(*s->items));
	s->items[s->len++] = pat;
	return 0;
}

static bool
regex_matches(struct suppress_list *s, const struct suppress_pattern *pat,
	      const char *text, size_t n)
{
	if (!s->match_data)
		s->match_data = pcre2_match_data_create(1, NULL);
	if (!s->match_data)
		return false;
	int rc = pcre2_match(pat->code, (PCRE2_SPTR)text, n, 0, 0, s->match_data, NULL);
	return rc >= 0;
}

struct suppress_pattern *
suppress_list_match(struct suppress_list *s, const char *text, size_t n)
{
	for (size_t i = 0; i < s->len; i++) {
		struct suppress_pattern *pat = &s->items[i];
		bool hit = pat->regex ? regex_matches(s, pat, text, n)
				      : view_find(text, n, pat->text) != NULL;
		if (hit)
			return pat;
	}
	return NULL;
}
