/*
 * A series gate read by its command's form, and compared (model/series_gate.h).
 */

#include "model/series_gate.h"

#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

static size_t
trim_end(const char *s, size_t n)
{
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return n;
}

static bool
ends_with(const char *s, size_t n, const char *suffix, size_t *cut)
{
	size_t k = strlen(suffix);
	if (n < k || memcmp(s + n - k, suffix, k) != 0)
		return false;
	*cut = n - k;
	return true;
}

/* The length of `text` without its rate suffix (trimmed); the rate into *per. */
static size_t
strip_per(const struct series_gate_form *f, const char *text, int *per)
{
	size_t n = trim_end(text, strlen(text)), cut;
	*per = f->per_default;
	for (size_t i = 0; i < f->npers; i++)
		if (ends_with(text, n, f->pers[i].suffix, &cut)) {
			*per = f->pers[i].per;
			return trim_end(text, cut);
		}
	return n;
}

int
series_gate_parse(const struct series_gate_form *f, const char *text, struct diff_gate *g,
		  char **name, int *per, struct diag *err)
{
	memset(g, 0, sizeof(*g));
	*name = NULL;
	size_t p = strlen(f->prefix);
	if (strncmp(text, f->prefix, p) != 0 || (p && strlen(text) == p)) {
		g->text = xstrdup(text);
		return diag_set(err, DIAG_USAGE, NULL, 0, 0, "gate '%s': expected %s", text,
				f->expected);
	}
	size_t n = strip_per(f, text, per);
	char *body = xmemdup0(text + p, n > p ? n - p : 0);
	int rc = diff_gate_parse(body, g, err);
	free(body);
	/* Messages and reports quote the expression as given, rate included. */
	free(g->text);
	g->text = xstrdup(text);
	if (rc < 0)
		return -1;
	if (f->word) {
		size_t m = trim_end(g->metric, strlen(g->metric)), cut;
		if (!ends_with(g->metric, m, f->word, &cut))
			return diag_set(err, DIAG_USAGE, NULL, 0, 0, "gate '%s': expected %s",
					text, f->expected);
		g->metric[trim_end(g->metric, cut)] = '\0';
		if (g->metric[0] == '\0')
			return diag_set(err, DIAG_USAGE, NULL, 0, 0,
					"gate '%s': no metric before '%s'", text, f->word + 1);
	}
	if (f->no_percent && g->percent)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0, "gate '%s': %s", text, f->no_percent);
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s:%s", g->kind, g->metric);
	*name = strbuf_detach(&sb, NULL);
	return 0;
}

bool
series_gate_trips(const struct diff_gate *g, double figure, double limit)
{
	return g->op == DIFF_OP_GE ? figure >= limit : figure > limit;
}
