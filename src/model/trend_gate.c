#include "model/trend_gate.h"

#include "util/strbuf.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool
ends_with(const char *s, size_t n, const char *suffix, size_t *cut)
{
	size_t k = strlen(suffix);
	if (n < k || memcmp(s + n - k, suffix, k) != 0)
		return false;
	*cut = n - k;
	return true;
}

static size_t
trim_end(const char *s, size_t n)
{
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return n;
}

/* Split off "/h", "/hour" or "/sample"; the rest goes to diff's gate parser. */
static size_t
strip_rate(const char *text, enum trend_rate *rate)
{
	size_t n = trim_end(text, strlen(text)), cut;
	*rate = TREND_PER_SAMPLE;
	if (ends_with(text, n, "/h", &cut) || ends_with(text, n, "/hour", &cut)) {
		*rate = TREND_PER_HOUR;
		return trim_end(text, cut);
	}
	if (ends_with(text, n, "/sample", &cut))
		return trim_end(text, cut);
	return n;
}

int
trend_gate_parse(const char *text, struct trend_gate *t, struct diag *err)
{
	memset(t, 0, sizeof(*t));
	char *body = xmemdup0(text, strip_rate(text, &t->rate));
	int rc = diff_gate_parse(body, &t->g, err);
	free(body);
	/* Messages and reports quote the expression as given, rate included. */
	free(t->g.text);
	t->g.text = xstrdup(text);
	if (rc < 0)
		return -1;
	size_t n = trim_end(t->g.metric, strlen(t->g.metric)), cut;
	if (!ends_with(t->g.metric, n, " slope", &cut))
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"gate '%s': expected 'METRIC slope OP VALUE' (e.g. "
				"'vmmap:IOSurface.dirty slope > 10MiB/h')", text);
	t->g.metric[trim_end(t->g.metric, cut)] = '\0';
	if (t->g.metric[0] == '\0')
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"gate '%s': no metric before 'slope'", text);
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s:%s", t->g.kind, t->g.metric);
	t->name = strbuf_detach(&sb, NULL);
	return 0;
}

void
trend_gate_release(struct trend_gate *t)
{
	diff_gate_release(&t->g);
	free(t->name);
	memset(t, 0, sizeof(*t));
}

int
trend_gate_check(struct trend_gate *t, const struct trend_result *r, enum trend_unit unit,
		 struct diag *err)
{
	bool hour = t->rate == TREND_PER_HOUR;
	if (hour ? !r->has_hour : !r->has_slope)
		return diag_set(err, DIAG_DATA, NULL, 0, 0,
				hour ? "gate '%s': no slope per hour (the captures carry no "
				       "usable capture times; use '/sample')"
				     : "gate '%s': too few samples for a slope", t->g.text);
	double slope = hour ? r->per_hour.slope : r->per_sample.slope;
	double limit = (double)t->g.value;
	if (t->g.percent) {
		if (!(r->start > 0))
			return diag_set(err, DIAG_DATA, NULL, 0, 0,
					"gate '%s': the metric starts at 0, so a percentage of "
					"it has no base", t->g.text);
		slope = 100 * slope / r->start;
		limit /= 100;   /* hundredths of a percent */
	}
	t->checked = true;
	t->unit = unit;
	t->slope = slope;
	t->tripped = t->g.op == DIFF_OP_GE ? slope >= limit : slope > limit;
	return 0;
}
