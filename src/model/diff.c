#include "model/diff.h"

#include "util/size.h"
#include "util/strbuf.h"
#include "util/suggest.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *
diff_op_text(enum diff_op op)
{
	return op == DIFF_OP_GE ? ">=" : ">";
}

void
diff_gate_limit_text(const struct diff_gate *g, struct strbuf *out)
{
	strbuf_addf(out, "%s %s", diff_op_text(g->op), g->value_text);
	if (!g->bytes || g->percent || g->value == 0)
		return;
	/* Plain digits already are the exact bytes: what they lack is their size. */
	const char *v = g->value_text + strspn(g->value_text, "+-");
	if (v[strspn(v, "0123456789")] != '\0') {
		strbuf_addf(out, " (%+" PRId64 " bytes)", g->value);
		return;
	}
	char human[32];
	size_format_binary_delta(g->value, human);
	strbuf_addf(out, " (%s)", human);
}

bool
diff_gate_words(const struct diff_gate *g, struct strbuf *out)
{
	const char *s = g->subject;
	size_t slen = s ? strlen(s) : 0;
	/* "classes:*": the phrase "OSDictionary: +100" names the subject already. */
	if (s && g->phrase && strncmp(g->phrase, s, slen) == 0 && g->phrase[slen] == ':')
		s = NULL;
	if (g->phrase)
		strbuf_addstr(out, g->phrase);
	if (s)
		strbuf_addf(out, "%s%s", g->phrase ? "; " : "", s);
	return g->phrase || s;
}

void
diff_gate_release(struct diff_gate *g)
{
	free(g->text);
	free(g->kind);
	free(g->metric);
	free(g->value_text);
	free(g->subject);
	free(g->reason);
	free(g->phrase);
	memset(g, 0, sizeof(*g));
}

int
diff_gate_list_add(struct diff_gate **gates, size_t *n, size_t *alloc, const char *text,
		   struct diag *err)
{
	*gates = xgrow(*gates, alloc, *n + 1, sizeof(**gates));
	if (diff_gate_parse(text, &(*gates)[*n], err) < 0) {
		diff_gate_release(&(*gates)[*n]);
		return -1;
	}
	(*n)++;
	return 0;
}

void
diff_gate_copy(struct diff_gate *to, const struct diff_gate *from)
{
	memset(to, 0, sizeof(*to));
	to->text = xstrdup(from->text);
	to->kind = xstrdup(from->kind);
	to->metric = xstrdup(from->metric);
	to->value_text = xstrdup(from->value_text);
	to->op = from->op;
	to->percent = from->percent;
	to->value = from->value;
}

static bool
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* [p, p + n) without leading and trailing blanks. */
static void
trim(const char **p, size_t *n)
{
	while (*n && is_blank(**p)) {
		(*p)++;
		(*n)--;
	}
	while (*n && is_blank((*p)[*n - 1]))
		(*n)--;
}

/* "+10%", "-2.5%", "10%": hundredths of a percent, at most two decimals. */
static int
parse_percent(const char *s, size_t n, int64_t *out)
{
	int64_t v = 0;
	int decimals = -1;
	size_t digits = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '.' && decimals < 0) {
			decimals = 0;
			continue;
		}
		if (s[i] < '0' || s[i] > '9' || decimals >= 2)
			return -1;
		if (__builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, s[i] - '0', &v))
			return -1;
		digits++;
		if (decimals >= 0)
			decimals++;
	}
	if (digits == 0 || decimals == 0)
		return -1;
	for (int d = decimals < 0 ? 0 : decimals; d < 2; d++)
		if (__builtin_mul_overflow(v, 10, &v))
			return -1;
	*out = v;
	return 0;
}

static int
parse_value(const char *p, size_t n, struct diff_gate *g, struct diag *err)
{
	bool negative = false;
	const char *what = "a signed count or size (+5, +64K, +1MiB, +1.5G) or a "
			   "percentage of BEFORE (+10%)";
	g->value_text = xmemdup0(p, n);
	if (n && (p[0] == '+' || p[0] == '-')) {
		negative = p[0] == '-';
		p++;
		n--;
	}
	if (n == 0)
		goto bad;
	if (p[n - 1] == '%') {
		g->percent = true;
		if (parse_percent(p, n - 1, &g->value) < 0)
			goto bad;
	} else {
		char *s = xmemdup0(p, n);
		uint64_t v;
		int rc = size_parse_user(s, &v);
		free(s);
		if (rc != SIZE_OK || v > (uint64_t)INT64_MAX)
			goto bad;
		g->value = (int64_t)v;
	}
	if (negative)
		g->value = -g->value;
	return 0;
bad:
	return diag_set(err, DIAG_USAGE, NULL, 0, 0,
			"gate '%s': value '%s' is not %s", g->text, g->value_text, what);
}

const char *
diff_gate_result_word(bool tripped, bool unevaluable)
{
	return unevaluable ? "not evaluable" : tripped ? "TRIPPED" : "passed";
}

int
diff_gate_check_unit(const struct diff_gate *g, struct diag *err)
{
	const char *v = g->value_text;
	if (g->bytes || g->percent || !v)
		return 0;
	if (*v == '+' || *v == '-')
		v++;
	if (v[0] == '0' && (v[1] == 'x' || v[1] == 'X'))
		return 0;   /* hexadecimal digits, not a unit */
	for (const char *c = v; *c; c++)
		if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z'))
			return diag_set(err, DIAG_USAGE, NULL, 0, 0,
					"'%s:%s' is a count, and '%s' is a size: give a plain "
					"count (+5) or a percentage (+10%%)",
					g->kind, g->metric, g->value_text);
	return 0;
}

static int
parse_metric(const char *p, size_t n, struct diff_gate *g, struct diag *err)
{
	const char *colon = memchr(p, ':', n);
	if (n == 0)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"gate '%s': no metric before the operator", g->text);
	if (!colon || colon == p || colon + 1 == p + n)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"gate '%s': metric '%.*s' is not KIND:NAME (the kind of "
				"capture, then its metric)", g->text, (int)n, p);
	g->kind = xmemdup0(p, (size_t)(colon - p));
	g->metric = xmemdup0(colon + 1, n - (size_t)(colon - p) - 1);
	return 0;
}

/*
 * Is the '>' or '<' at p an operator? It is when what follows it (an
 * optional '=', blanks) is a value or nothing: class names such as
 * "OSValueObject<void*>" hold both characters.
 */
static bool
is_operator_at(const char *p)
{
	p++;
	if (*p == '=')
		p++;
	while (is_blank(*p))
		p++;
	return *p == '\0' || *p == '+' || *p == '-' || *p == '.' || *p == '%' ||
	       (*p >= '0' && *p <= '9');
}

/* The last operator character of the expression, or NULL. */
static const char *
find_operator(const char *text)
{
	for (size_t i = strlen(text); i-- > 0;)
		if ((text[i] == '>' || text[i] == '<') && is_operator_at(text + i))
			return text + i;
	return NULL;
}

int
diff_gate_parse(const char *text, struct diff_gate *g, struct diag *err)
{
	memset(g, 0, sizeof(*g));
	g->text = xstrdup(text);
	const char *op = find_operator(text);
	if (!op)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"gate '%s': no operator (expected 'METRIC > VALUE' or "
				"'METRIC >= VALUE')", text);
	if (*op == '<')
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"gate '%s': operator '<' is not supported (use '>' or '>=': "
				"a gate says how much growth fails)", text);
	const char *value = op + 1;
	g->op = DIFF_OP_GT;
	if (*value == '=') {
		g->op = DIFF_OP_GE;
		value++;
	}
	const char *mp = text;
	size_t mn = (size_t)(op - text);
	size_t vn = strlen(value);
	trim(&mp, &mn);
	trim(&value, &vn);
	if (parse_metric(mp, mn, g, err) < 0)
		return -1;
	if (vn == 0)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"gate '%s': no value after '%s'", text, diff_op_text(g->op));
	return parse_value(value, vn, g, err);
}

int
diff_delta_u64(uint64_t before, uint64_t after, int64_t *delta)
{
	if (before > (uint64_t)INT64_MAX || after > (uint64_t)INT64_MAX)
		return -1;
	*delta = (int64_t)after - (int64_t)before;
	return 0;
}

static bool
compare(enum diff_op op, __int128 lhs, __int128 rhs)
{
	return op == DIFF_OP_GE ? lhs >= rhs : lhs > rhs;
}

int
diff_gate_check(struct diff_gate *g, int64_t before, int64_t after, struct diag *err)
{
	int64_t delta;
	if (__builtin_sub_overflow(after, before, &delta))
		return diag_set(err, DIAG_DATA, NULL, 0, 0,
				"gate '%s': AFTER - BEFORE does not fit 64 bits", g->text);
	g->checked = true;
	g->before = before;
	g->after = after;
	g->delta = delta;
	/* 128-bit products: both factors are 64-bit, so neither can wrap. */
	if (g->percent && before == 0)
		g->tripped = delta > 0;   /* no base to take a share of: any growth */
	else if (g->percent)
		g->tripped = compare(g->op, (__int128)delta * 10000,
				     (__int128)before * g->value);
	else
		g->tripped = compare(g->op, delta, g->value);
	return 0;
}

void
diff_diag_add_suggestion(struct diag *err, const struct suggest *s)
{
	if (!err || !s->best)
		return;
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "; did you mean '");
	diag_quote(&sb, s->best, s->best_len, 120);
	strbuf_addstr(&sb, "'?");
	size_t len = strlen(err->msg);
	snprintf(err->msg + len, sizeof(err->msg) - len, "%s", sb.buf);
	strbuf_release(&sb);
}
