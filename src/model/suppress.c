#include "model/suppress.h"

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
		regex_free(s->items[i].re);
	}
	free(s->items);
	suppress_list_init(s);
}

static int
compile_regex(struct suppress_pattern *pat, const char *path, uint64_t line,
	      struct diag *err)
{
	char msg[256];
	size_t at;
	/* A record is several lines: ^ and $ match at each of them. */
	pat->re = regex_compile_n(pat->text, pat->len, REGEX_MULTILINE, msg,
				  sizeof(msg), &at);
	if (pat->re)
		return 0;
	return diag_set(err, DIAG_DATA, path, line, (uint64_t)at + 4,
			"suppression pattern does not compile: %s", msg);
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

struct suppress_pattern *
suppress_list_match(struct suppress_list *s, const char *text, size_t n)
{
	for (size_t i = 0; i < s->len; i++) {
		struct suppress_pattern *pat = &s->items[i];
		bool hit = pat->regex ? regex_search(pat->re, text, n)
				      : view_find(text, n, pat->text) != NULL;
		if (hit)
			return pat;
	}
	return NULL;
}
