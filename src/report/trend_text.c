/*
 * The trend report as text or Markdown: the order and warm-up used, the
 * caveat, one row per changing metric with a sparkline of every sample,
 * the verdicts' meanings, the gates and the inputs.
 */

#include "report/trend_report.h"
#include "model/diff.h"
#include "report/signature_write.h"

#include "report/report_md_write.h"
#include "report/texttable.h"
#include "util/array.h"
#include "util/escape.h"
#include "util/size.h"
#include "util/strbuf.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char trend_caveat[] =
	"Samples taken close together are correlated: the tests and the 95 % intervals "
	"allow for a lag-1 correlation of at least 0.5 (more when the samples show it), "
	"so p-values are approximate.";

/* Sparklines longer than this average neighbouring samples. */
#define SPARK_MAX 40

void
trend_format_amount(char out[48], double v, enum trend_unit unit, bool sign)
{
	const char *plus = sign && v > 0 ? "+" : "";
	if (isnan(v)) {
		snprintf(out, 48, "-");
		return;
	}
	if (unit == TREND_COUNT) {
		if (v == floor(v) && fabs(v) < 1e15)
			snprintf(out, 48, "%s%.0f", plus, v);
		else
			snprintf(out, 48, "%s%.2f", plus, v);
		return;
	}
	/*
	 * Bytes through the one text formatter (util/size.h): whole bytes as
	 * every command shows them; a fraction (a slope, a median of an even
	 * count) rounded to whole bytes and marked "~".
	 */
	double r = nearbyint(v);
	int64_t whole = r >= 9.2e18 ? INT64_MAX : r <= -9.2e18 ? -INT64_MAX : (int64_t)r;
	char b[32];
	size_format_text(whole, (sign ? SIZE_TEXT_SIGNED : 0) |
			 (r != v ? SIZE_TEXT_ROUNDED : 0), b);
	snprintf(out, 48, "%s", b);
}

/* Eight levels from the lowest to the highest value; a blank where none. */
void
trend_sparkline(const struct trend_metric *m, size_t n, struct strbuf *out)
{
	static const char *const bars[] = { "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" };
	size_t cols = n > SPARK_MAX ? SPARK_MAX : n;
	double v[SPARK_MAX], lo = INFINITY, hi = -INFINITY;
	for (size_t c = 0; c < cols; c++) {
		size_t a = c * n / cols, b = (c + 1) * n / cols, k = 0;
		double sum = 0;
		for (size_t i = a; i < b; i++)
			if (!isnan(m->v[i])) {
				sum += m->v[i];
				k++;
			}
		v[c] = k ? sum / (double)k : NAN;
		if (k) {
			lo = fmin(lo, v[c]);
			hi = fmax(hi, v[c]);
		}
	}
	for (size_t c = 0; c < cols; c++) {
		if (isnan(v[c])) {
			strbuf_addch(out, ' ');
			continue;
		}
		size_t level = hi > lo ? (size_t)((v[c] - lo) / (hi - lo) * 7 + 0.5) : 0;
		strbuf_addstr(out, bars[level > 7 ? 7 : level]);
	}
}

static void
add_amount(struct text_table *t, double v, enum trend_unit unit, bool sign)
{
	char s[48];
	trend_format_amount(s, v, unit, sign);
	text_table_add(t, s);
}

static void
add_interval(struct text_table *t, const struct trend_ts *ts, bool has, enum trend_unit unit)
{
	char lo[48], hi[48];
	if (!has) {
		text_table_add(t, "-");
		return;
	}
	trend_format_amount(lo, ts->lo, unit, true);
	trend_format_amount(hi, ts->hi, unit, true);
	text_table_addf(t, "%s .. %s", lo, hi);
}

static void
add_q(struct text_table *t, double q)
{
	if (isnan(q))
		text_table_add(t, "-");
	else if (q < 0.0001)
		text_table_add(t, "<0.0001");
	else
		text_table_addf(t, "%.4f", q);
}

static void
add_metric_row(struct text_table *t, const struct trend_metric *m, size_t n, bool hours)
{
	const struct trend_result *r = &m->r;
	const struct trend_ts *ts = hours ? &r->per_hour : &r->per_sample;
	bool has = hours ? r->has_hour : r->has_slope;
	struct strbuf sb = STRBUF_INIT;
	text_table_add(t, trend_verdict_name(r->verdict));
	text_table_add(t, m->name);
	add_amount(t, trend_metric_end_value(m, n, false), m->unit, false);
	add_amount(t, trend_metric_end_value(m, n, true), m->unit, false);
	add_amount(t, has ? ts->slope : NAN, m->unit, true);
	add_interval(t, ts, has, m->unit);
	/* The second half is fitted on the verdict's axis: hours when known. */
	add_amount(t, r->has_half ? r->half.slope : NAN, m->unit, true);
	add_q(t, r->q);
	trend_sparkline(m, n, &sb);
	text_table_add(t, sb.buf);
	strbuf_release(&sb);
}

static void
write_header(FILE *out, const struct trend_report *r, bool md)
{
	const struct trend_series *s = r->series;
	size_t w = r->params->warmup < s->nsamples ? r->params->warmup : s->nsamples;
	if (md)
		fprintf(out, "## iotally trend (%s)\n\n", r->kind);
	else
		fprintf(out, "iotally trend (%s)\n\n", r->kind);
	fprintf(out, "%s%zu samples", md ? "- " : "", s->nsamples);
	if (!isnan(r->span_hours))
		fprintf(out, " over %.2f h", r->span_hours);
	fputs(", in ", out);
	escape_puts(out, r->order_note);   /* may name a capture's time field */
	fputs(".\n", out);
	fprintf(out, "%sWarm-up: the first %zu sample%s left out of the fits (%s); %zu "
		"analysed.\n", md ? "- " : "", w, w == 1 ? " is" : "s are",
		r->warmup_given ? "--warmup" : "default max(2, 20 % of the samples)",
		s->nsamples - w);
	fprintf(out, "%sSlopes are per %s%s.\n", md ? "- " : "",
		s->has_times ? "hour (from the capture times)" : "sample",
		s->has_times ? "; the JSON output also has them per sample" : "");
	fprintf(out, md ? "\n> %s\n\n" : "%s\n\n", trend_caveat);
	struct strbuf msg = STRBUF_INIT;
	for (size_t i = 0; md && r->warnings && i < r->warnings->len; i++) {
		strbuf_reset(&msg);
		report_md_escape(diag_list_msg(r->warnings, i), 0, &msg);
		fprintf(out, "> **%s:** %s\n\n",
			r->warnings->items[i].severity == DIAG_NOTE ? "Note" : "Warning", msg.buf);
	}
	strbuf_release(&msg);
}

static void
write_metrics(FILE *out, const struct trend_report *r, bool md)
{
	const struct trend_series *s = r->series;
	bool hours = s->has_times;
	const char *headers[] = {
		"VERDICT", "METRIC", "FIRST", "LAST", hours ? "SLOPE/h" : "SLOPE/sample",
		"95% INTERVAL", hours ? "2ND HALF/h" : "2ND HALF/sample", "q", "SERIES",
	};
	struct text_table t;
	text_table_init(&t, 9, headers, "llrrrrrrl");
	const struct trend_metric **v;
	size_t n = trend_series_ranked(s, &v);
	for (size_t i = 0; i < n; i++)
		add_metric_row(&t, v[i], s->nsamples, hours);
	free(v);
	if (n)
		text_table_write(out, &t, md);
	else
		fprintf(out, "No metric changes across the samples.\n");
	text_table_release(&t);
	size_t unchanged = s->nmetrics - n;
	if (unchanged)
		fprintf(out, "%s%zu metric%s the same in every sample (not shown).\n",
			n ? "\n" : "", unchanged, unchanged == 1 ? " is" : "s are");
	fputc('\n', out);
}

static const char *const verdict_meaning[TREND_VERDICTS] = {
	"rises significantly (Mann-Kendall with its variance raised for correlated "
	"samples, adjusted across metrics), growth passes the minimum, and it has not "
	"stopped; or rose in steps and kept rising",
	"would be LEAK, but volatile or empty purgeable memory can be discarded by the "
	"kernel: not called a leak",
	"a significant rise, then a tail whose growth stopped (fitted over every sample, "
	"the warm-up included)",
	"one jump between two flat stretches (a cache filled once, a pool grown once)",
	"rises, but the tests cannot confirm it at this noise: see the notes",
	"no rise above the minimum growth (flat, falling, or one rounding step)",
	"fewer than the minimum samples after the warm-up, or too many without a value",
};

/* Why a PLATEAU, NO TREND or INSUFFICIENT metric got it, with the figures. */
static void
write_notes(FILE *out, const struct trend_report *r, bool md)
{
	const struct trend_series *s = r->series;
	const struct trend_metric **v;
	size_t n = trend_series_ranked(s, &v), shown = 0;
	for (size_t i = 0; i < n; i++) {
		const struct trend_metric *m = v[i];
		const struct trend_result *res = &m->r;
		enum trend_verdict vd = res->verdict;
		if (vd != TREND_PLATEAU && vd != TREND_NO_TREND && vd != TREND_INSUFFICIENT)
			continue;
		if (!shown++)
			fputs(md ? "### Notes\n\n" : "Notes:\n", out);
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "%s: %s", trend_verdict_name(vd), res->why);
		if (vd == TREND_PLATEAU) {
			char rise[48];
			trend_format_amount(rise, res->plateau.rise, m->unit, true);
			strbuf_addf(&sb, "; %s up to sample %zu, flat since", rise,
				    res->plateau_end + 1);
			if (isinf(res->plateau_t))
				strbuf_addstr(&sb, " (an exact fit: no noise)");
			else
				strbuf_addf(&sb, " (rise t = %.1f)", res->plateau_t);
		} else if (res->more_samples) {
			strbuf_addf(&sb, "; about %zu more sample%s at this noise would %s",
				    res->more_samples, res->more_samples == 1 ? "" : "s",
				    vd == TREND_INSUFFICIENT ? "give a verdict"
							    : "confirm a rise at this pace");
		}
		fprintf(out, md ? "- `%s`: %s\n" : "  %s: %s\n", m->name, sb.buf);
		strbuf_release(&sb);
	}
	free(v);
	if (shown)
		fputc('\n', out);
}

static void
write_legend(FILE *out, const struct trend_report *r, bool md)
{
	size_t count[TREND_VERDICTS] = { 0 };
	for (size_t i = 0; i < r->series->nmetrics; i++)
		if (!r->series->metrics[i].unchanged)
			count[r->series->metrics[i].r.verdict]++;
	bool any = false;
	for (int v = 0; v < TREND_VERDICTS; v++) {
		if (!count[v])
			continue;
		if (!any)
			fputs(md ? "### Verdicts\n\n" : "Verdicts:\n", out);
		any = true;
		fprintf(out, md ? "- **%s** (%zu): %s\n" : "  %-12s %3zu  %s\n",
			trend_verdict_name((enum trend_verdict)v), count[v], verdict_meaning[v]);
	}
	if (any)
		fputc('\n', out);
}

static void
write_gates(FILE *out, const struct trend_report *r, bool md)
{
	const char *headers[] = { "GATE", "SLOPE", "RESULT" };
	struct text_table t;
	text_table_init(&t, 3, headers, "lrl");
	for (size_t i = 0; i < r->ngates; i++) {
		const struct trend_gate *g = &r->gates[i];
		text_table_add(&t, g->g.text);
		if (g->g.percent)
			text_table_addf(&t, "%+.2f %%", g->slope);
		else
			add_amount(&t, g->slope, g->unit, true);
		text_table_add(&t, diff_gate_result_word(g->tripped, false));
	}
	if (r->fail_on_leak) {
		size_t leaks = trend_report_leaks(r);
		text_table_add(&t, "--fail-on leak");
		text_table_addf(&t, "%zu LEAK", leaks);
		text_table_add(&t, diff_gate_result_word(leaks, false));
	}
	text_table_write_section(out, &t, md, "Gates");
	text_table_release(&t);
}

static void
write_inputs(FILE *out, const struct trend_report *r, bool md)
{
	const char *headers[] = { "#", "CAPTURE TIME", "INPUT", "STATUS" };
	struct text_table t;
	text_table_init(&t, 4, headers, "rlll");
	for (size_t i = 0; i < r->ninputs; i++) {
		const struct trend_input_row *in = &r->inputs[i];
		if (in->used)
			text_table_addf(&t, "%zu", in->sample + 1);
		else
			text_table_add(&t, "-");
		text_table_add(&t, in->time_text ? in->time_text : "-");
		text_table_add(&t, diag_display_path(in->path));
		if (in->used)
			text_table_add(&t, in->sample < r->params->warmup ? "warm-up" : "used");
		else
			text_table_addf(&t, "left out: %s", in->left_out);
	}
	text_table_write_section(out, &t, md, "Samples");
	text_table_release(&t);
}

/* The series' leak signature (docs/signatures.md), when it has one. */
static void
write_signature(FILE *out, const struct trend_report *r, bool markdown)
{
	struct strbuf sb = STRBUF_INIT;
	signature_line_add(&sb, r->sig, markdown);
	fwrite(sb.buf, 1, sb.len, out);
	strbuf_release(&sb);
}

void
trend_text_write(FILE *out, const struct trend_report *r, bool markdown)
{
	write_header(out, r, markdown);
	write_signature(out, r, markdown);
	write_metrics(out, r, markdown);
	write_legend(out, r, markdown);
	write_notes(out, r, markdown);
	write_gates(out, r, markdown);
	write_inputs(out, r, markdown);
}

size_t
trend_report_leaks(const struct trend_report *r)
{
	size_t n = 0;
	for (size_t i = 0; i < r->series->nmetrics; i++)
		n += !r->series->metrics[i].unchanged &&
		     r->series->metrics[i].r.verdict == TREND_LEAK;
	return n;
}

void
trend_gate_slope_text(const struct trend_gate *g, char out[48])
{
	if (g->g.percent)
		snprintf(out, 48, "%+.2f %%", g->slope);
	else
		trend_format_amount(out, g->slope, g->unit, true);
}

size_t
trend_leak_names(const struct trend_report *const *reps, size_t n, struct strbuf *out)
{
	enum { NAMED = 3 };   /* as diff's Summary line names tripped gates */
	size_t named = 0, more = 0;
	for (size_t i = 0; i < n; i++) {
		const struct trend_series *s = reps[i]->series;
		for (size_t j = 0; j < s->nmetrics; j++) {
			const struct trend_metric *m = &s->metrics[j];
			if (m->unchanged || m->r.verdict != TREND_LEAK)
				continue;
			if (named == NAMED)
				more++;
			else
				strbuf_addf(out, "%s%s", named++ ? "; " : "", m->name);
		}
	}
	if (more)
		strbuf_addf(out, "; and %zu more", more);
	return named + more;
}
