#include "report/diff_report.h"
#include "model/diff.h"

#include "report/jsontext.h"
#include "report/report_md_write.h"
#include "report/signature_write.h"
#include "report/texttable.h"
#include "util/escape.h"
#include "util/strbuf.h"

#include "util/size.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

int64_t
diff_report_delta(uint64_t before, uint64_t after)
{
	int64_t d = 0;
	diff_delta_u64(before, after, &d);
	return d;
}

void
diff_report_bytes(char out[32], uint64_t v, unsigned flags)
{
	size_format_text(v > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)v, flags, out);
}

void
diff_report_bytes_delta(char out[32], uint64_t before, uint64_t after, unsigned flags)
{
	size_format_text(diff_report_delta(before, after), flags | SIZE_TEXT_SIGNED, out);
}

json_t *
diff_json_triple(uint64_t before, uint64_t after)
{
	json_t *o = json_object();
	json_object_set_new_nocheck(o, "before", json_integer((json_int_t)before));
	json_object_set_new_nocheck(o, "after", json_integer((json_int_t)after));
	json_object_set_new_nocheck(o, "delta", json_integer(diff_report_delta(before, after)));
	return o;
}

/*
 * A gate's figure as exact digits and, for bytes, in binary units beside
 * them: "6642270143 (~6.19 GiB)", "+100663296 (+96 MiB)"; a count, and a
 * zero, as digits alone. `sign` writes a delta's sign (a negative figure
 * has its own).
 */
static void
gate_figure(char out[GATE_FIGURE_SIZE], int64_t v, bool bytes, bool sign)
{
	char digits[32], human[32];
	if (sign)
		text_signed(digits, (long long)v);
	else
		snprintf(digits, sizeof(digits), "%" PRId64, v);
	if (!bytes || v == 0) {
		snprintf(out, GATE_FIGURE_SIZE, "%s", digits);
		return;
	}
	/* Only an allocation total is ever negative (an over-released counter). */
	if (sign || v < 0)
		size_format_binary_delta(v, human);
	else
		size_format_binary((uint64_t)v, human);
	snprintf(out, GATE_FIGURE_SIZE, "%s (%s)", digits, human);
}

void
diff_gate_figures(const struct diff_gate *g, char before[GATE_FIGURE_SIZE],
		  char after[GATE_FIGURE_SIZE], char delta[GATE_FIGURE_SIZE])
{
	gate_figure(before, g->before, g->bytes, false);
	gate_figure(after, g->after, g->bytes, false);
	gate_figure(delta, g->delta, g->bytes, true);
}

void
diff_gate_describe(const struct diff_gate *g, struct strbuf *out)
{
	if (g->unevaluable) {
		strbuf_addf(out, "not evaluable: %s", g->reason);
		return;
	}
	char b[GATE_FIGURE_SIZE], a[GATE_FIGURE_SIZE], d[GATE_FIGURE_SIZE];
	diff_gate_figures(g, b, a, d);
	/* What grew first, in the summary's words, then the exact figures:
	 * "IOSurface: +5; delta +5 ...", "Physical footprint as printed,
	 * rounded by vmmap: delta ...". */
	if (diff_gate_words(g, out))
		strbuf_addstr(out, g->phrase ? "; " : ": ");
	/* Bytes carry parentheses of their own: the figures then go without. */
	strbuf_addf(out, g->bytes ? "delta %s, before %s, after %s, fails when "
				  : "delta %s (before %s, after %s), fails when ",
		    d, b, a);
	diff_gate_limit_text(g, out);
}

static json_t *
gate_json(const struct diff_gate *g)
{
	json_t *o = json_object();
	json_object_set_new_nocheck(o, "expression", json_text(g->text));
	json_object_set_new_nocheck(o, "kind", json_text(g->kind));
	json_object_set_new_nocheck(o, "metric", json_text(g->metric));
	json_object_set_new_nocheck(o, "op", json_string_nocheck(diff_op_text(g->op)));
	json_object_set_new_nocheck(o, "value", json_integer(g->value));
	json_object_set_new_nocheck(o, "unit", json_string_nocheck(g->percent ? "percent_x100"
									   : "absolute"));
	/* Not evaluable: no figures, neither passed nor tripped. */
	json_object_set_new_nocheck(o, "before", g->unevaluable ? json_null()
								 : json_integer(g->before));
	json_object_set_new_nocheck(o, "after", g->unevaluable ? json_null()
							       : json_integer(g->after));
	json_object_set_new_nocheck(o, "delta", g->unevaluable ? json_null()
							       : json_integer(g->delta));
	json_object_set_new_nocheck(o, "tripped", json_boolean(g->tripped));
	if (g->unevaluable) {
		json_object_set_new_nocheck(o, "evaluable", json_false());
		json_object_set_new_nocheck(o, "reason", json_text(g->reason));
	}
	if (g->subject)
		json_object_set_new_nocheck(o, "subject", json_text(g->subject));
	return o;
}

int
diff_json_write(FILE *out, const struct diff_report *r, json_t *body)
{
	json_t *root = json_document_new(DIFF_SCHEMA), *in = json_object(), *warn = json_array();
	json_t *gates = json_array();
	const char *key;
	json_t *v;
	size_t tripped = 0;

	json_object_set_new_nocheck(root, "kind", json_string_nocheck(r->kind));
	json_object_set_new_nocheck(in, "before", json_text(r->before_path));
	json_object_set_new_nocheck(in, "after", json_text(r->after_path));
	json_object_set_new_nocheck(root, "inputs", in);
	for (size_t i = 0; r->warnings && i < r->warnings->len; i++)
		json_array_append_new(warn, json_text(diag_list_msg(r->warnings, i)));
	json_object_set_new_nocheck(root, "warnings", warn);
	json_object_set_new_nocheck(root, "changed", json_boolean(r->changed));
	json_object_set_new_nocheck(root, "signature", signature_json(r->sig));
	json_object_foreach(body, key, v)
		json_object_set(root, key, v);
	json_decref(body);
	for (size_t i = 0; i < r->ngates; i++) {
		json_array_append_new(gates, gate_json(&r->gates[i]));
		tripped += r->gates[i].tripped;
	}
	json_object_set_new_nocheck(root, "gates", gates);
	json_object_set_new_nocheck(root, "tripped", json_integer((json_int_t)tripped));

	return json_document_write(out, root);
}

void
diff_gates_write_text(FILE *out, const struct diff_report *r, bool markdown)
{
	static const char *const headers[] = {
		"GATE", "BEFORE", "AFTER", "DELTA", "LIMIT", "RESULT",
	};
	struct text_table t;
	if (r->ngates == 0)
		return;
	struct strbuf limit = STRBUF_INIT;
	text_table_init(&t, 6, headers, "lrrrll");
	for (size_t i = 0; i < r->ngates; i++) {
		const struct diff_gate *g = &r->gates[i];
		char b[GATE_FIGURE_SIZE], a[GATE_FIGURE_SIZE], d[GATE_FIGURE_SIZE];
		diff_gate_figures(g, b, a, d);
		if (g->subject)
			text_table_addf(&t, "%s (%s)", g->text, g->subject);
		else
			text_table_add(&t, g->text);
		if (g->unevaluable) {
			for (int k = 0; k < 3; k++)
				text_table_add(&t, "?");
		} else {
			text_table_add(&t, b);
			text_table_add(&t, a);
			text_table_add(&t, d);
		}
		/* The limit as report's Gates table gives it: its bytes beside a
		 * unit, so a delta equal to it reads as equal. */
		strbuf_reset(&limit);
		diff_gate_limit_text(g, &limit);
		text_table_add(&t, limit.buf);
		text_table_add(&t, diff_gate_result_word(g->tripped, g->unevaluable));
	}
	strbuf_release(&limit);
	fputs(markdown ? "### Gates\n\n" : "Gates:\n", out);
	text_table_write(out, &t, markdown);
	/* Like every table of the report, a blank line after it: the next
	 * pair's heading does not run into it. */
	fputc('\n', out);
	text_table_release(&t);
}

/*
 * An input's name in the Markdown heading: a code span of its escaped text,
 * or, when it holds a backtick that would end the span, Markdown text
 * escaped as the report's.
 */
static void
md_name(struct strbuf *out, const char *name)
{
	struct strbuf tmp = STRBUF_INIT;
	const char *shown = escape_str(&tmp, name);
	if (strchr(shown, '`')) {
		report_md_escape(name, 0, out);
	} else {
		strbuf_addch(out, '`');
		strbuf_addstr(out, shown);
		strbuf_addch(out, '`');
	}
	strbuf_release(&tmp);
}

bool
diff_unchanged_write(FILE *out, const struct diff_report *r, bool markdown)
{
	if (r->changed || (r->warnings && r->warnings->len))
		return false;
	for (size_t i = 0; i < r->ngates; i++)
		if (r->gates[i].tripped || r->gates[i].unevaluable)
			return false;
	diff_heading_write(out, r, markdown);
	if (r->ngates)
		fprintf(out, "Unchanged; %zu gate%s passed.\n\n", r->ngates,
			r->ngates == 1 ? "" : "s");
	else
		fputs("Unchanged.\n\n", out);
	return true;
}

void
diff_heading_write(FILE *out, const struct diff_report *r, bool markdown)
{
	struct strbuf sb = STRBUF_INIT;
	if (markdown) {
		strbuf_addf(&sb, "## iotally diff (%s): ", r->kind);
		md_name(&sb, r->before_path);
		strbuf_addstr(&sb, " → ");
		md_name(&sb, r->after_path);
		strbuf_addstr(&sb, "\n\n");
	} else {
		strbuf_addf(&sb, "iotally diff (%s): ", r->kind);
		escape_addstr(&sb, r->before_path);
		strbuf_addstr(&sb, " -> ");
		escape_addstr(&sb, r->after_path);
		strbuf_addstr(&sb, "\n\n");
	}
	for (size_t i = 0; markdown && r->warnings && i < r->warnings->len; i++) {
		strbuf_addf(&sb, "> **%s:** ",
			    r->warnings->items[i].severity == DIAG_NOTE ? "Note" : "Warning");
		report_md_escape(diag_list_msg(r->warnings, i), 0, &sb);
		strbuf_addstr(&sb, "\n\n");
	}
	signature_line_add(&sb, r->sig, markdown);
	fwrite(sb.buf, 1, sb.len, out);
	strbuf_release(&sb);
}
