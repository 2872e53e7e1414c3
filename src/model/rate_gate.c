/*
 * Gates on the rate per iteration (model/rate_gate.h): the lower bound of
 * the interval against the limit.
 */

#include "model/rate_gate.h"

#include "util/strbuf.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RATE_PREFIX "rate:"
#define PER_ITERATION "/iteration"

static size_t
trim_end(const char *s, size_t n)
{
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return n;
}

/* The expression without "rate:" and a "/iteration" suffix: what diff's parser reads. */
static char *
gate_body(const char *text)
{
	size_t n = trim_end(text, strlen(text)), k = strlen(PER_ITERATION);
	if (n >= k && memcmp(text + n - k, PER_ITERATION, k) == 0)
		n = trim_end(text, n - k);
	size_t p = strlen(RATE_PREFIX);
	return xmemdup0(text + p, n - p);
}

int
rate_gate_parse(const char *text, struct rate_gate *t, struct diag *err)
{
	memset(t, 0, sizeof(*t));
	size_t p = strlen(RATE_PREFIX);
	if (strncmp(text, RATE_PREFIX, p) != 0 || strlen(text) == p) {
		t->g.text = xstrdup(text);
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"gate '%s': expected 'rate:METRIC OP VALUE' (e.g. "
				"'rate:footprint:gpu.dirty > 1MiB')", text);
	}
	char *body = gate_body(text);
	int rc = diff_gate_parse(body, &t->g, err);
	free(body);
	/* Messages and reports quote the expression as given. */
	free(t->g.text);
	t->g.text = xstrdup(text);
	if (rc < 0)
		return -1;
	if (t->g.percent)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"gate '%s': a rate is bytes or a count per iteration, not a "
				"percentage", text);
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s:%s", t->g.kind, t->g.metric);
	t->name = strbuf_detach(&sb, NULL);
	return 0;
}

void
rate_gate_release(struct rate_gate *t)
{
	diff_gate_release(&t->g);
	free(t->name);
	memset(t, 0, sizeof(*t));
}

int
rate_gate_check(struct rate_gate *t, const struct rate_row *row, enum trend_unit unit,
		struct diag *err)
{
	if (!row->has_rate || isnan(row->lo))
		return diag_set(err, DIAG_DATA, NULL, 0, 0,
				"gate '%s': too few iterations for a rate", t->g.text);
	double limit = (double)t->g.value;
	t->checked = true;
	t->unit = unit;
	t->low = row->lo;
	t->rate = row->rate;
	t->tripped = t->g.op == DIFF_OP_GE ? row->lo >= limit : row->lo > limit;
	return 0;
}
