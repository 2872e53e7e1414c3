/*
 * The series report (app/report_series.h): trend's analysed series, per
 * kind, turned into one report document.
 */

#include "app/report_series.h"

#include "model/gpu.h"
#include "model/trend.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* A trend value as a report figure: whole bytes or counts, saturated. */
static int64_t
figure(double v)
{
	if (isnan(v))
		return 0;
	if (v >= 9.2e18)
		return INT64_MAX;
	if (v <= -9.2e18)
		return -INT64_MAX;
	return (int64_t)llround(v);
}

/* "+48.38 MiB/h", "+3/sample"; "-" without a slope. */
static void
slope_text(const struct trend_metric *m, bool hours, struct strbuf *out)
{
	const struct trend_result *r = &m->r;
	bool has = hours ? r->has_hour : r->has_slope;
	if (!has) {
		strbuf_addch(out, '-');
		return;
	}
	char s[48];
	trend_format_amount(s, hours ? r->per_hour.slope : r->per_sample.slope, m->unit, true);
	strbuf_addf(out, "%s/%s", s, hours ? "h" : "sample");
}

/* The headline verdicts, in trend's rank order. */
static const enum trend_verdict headline_verdicts[] = {
	TREND_LEAK, TREND_GROWING, TREND_PLATEAU, TREND_STEP,
};

/* "LEAK: vmmap:gpu.dirty 128.16 MiB → 279.98 MiB (+96.08 MiB/h) and 6 more". */
static void
headline_part(struct report *r, const struct trend_report *const *trends, size_t n,
	      enum trend_verdict vd)
{
	size_t count = 0;
	const struct trend_metric *top = NULL;
	const struct trend_report *top_t = NULL;
	for (size_t i = 0; i < n; i++) {
		const struct trend_metric **v;
		size_t nm = trend_series_ranked(trends[i]->series, &v);
		for (size_t k = 0; k < nm; k++) {
			if (v[k]->r.verdict != vd)
				continue;
			if (!count++) {
				top = v[k];
				top_t = trends[i];
			}
		}
		free(v);
	}
	if (!count)
		return;
	const struct trend_series *s = top_t->series;
	char a[48], b[48];
	trend_format_amount(a, trend_metric_end_value(top, s->nsamples, false), top->unit, false);
	trend_format_amount(b, trend_metric_end_value(top, s->nsamples, true), top->unit, false);
	struct strbuf slope = STRBUF_INIT;
	slope_text(top, s->has_times, &slope);
	struct strbuf part = STRBUF_INIT;
	strbuf_addf(&part, "%s: %s %s \u2192 %s (%s)", trend_verdict_name(vd), top->name, a, b,
		    slope.buf);
	if (count > 1)
		strbuf_addf(&part, " and %zu more", count - 1);
	report_add_verdict(r, "%s", part.buf);
	/* The summary's verdict line: the highest-ranked verdict and its rate. */
	if (!r->facts.verdict) {
		struct strbuf v = STRBUF_INIT;
		strbuf_addf(&v, "%s, %s %s", trend_verdict_name(vd), top->name, slope.buf);
		if (count > 1)
			strbuf_addf(&v, " (and %zu more)", count - 1);
		summary_note_verdict(&r->facts, v.buf);
		strbuf_release(&v);
	}
	strbuf_release(&part);
	strbuf_release(&slope);
}

/* No metric with a headline verdict: say what the changed ones are. */
static void
headline_quiet(struct report *r, const struct trend_report *const *trends, size_t n)
{
	size_t by[TREND_VERDICTS] = { 0 }, changed = 0;
	for (size_t i = 0; i < n; i++) {
		const struct trend_series *s = trends[i]->series;
		for (size_t k = 0; k < s->nmetrics; k++)
			if (!s->metrics[k].unchanged) {
				by[s->metrics[k].r.verdict]++;
				changed++;
			}
	}
	struct strbuf sb = STRBUF_INIT;
	for (int v = 0; v < TREND_VERDICTS; v++)
		if (by[v])
			strbuf_addf(&sb, "%s%zu %s", sb.len ? ", " : "", by[v],
				    trend_verdict_name((enum trend_verdict)v));
	if (changed)
		report_add_verdict(r, "No leak: no metric grows significantly (%zu changed: %s)",
				   changed, sb.buf);
	else
		report_add_verdict(r, "No leak: every metric is the same in every sample");
	summary_note_verdict(&r->facts, changed ? "no leak: no metric grows significantly"
						: "no leak: every metric is the same in every sample");
	strbuf_release(&sb);
}

static void
headline(struct report *r, const struct trend_report *const *trends, size_t n)
{
	for (size_t i = 0; i < sizeof(headline_verdicts) / sizeof(headline_verdicts[0]); i++)
		headline_part(r, trends, n, headline_verdicts[i]);
	if (!r->verdict)
		headline_quiet(r, trends, n);
	size_t most = 0;
	double span = NAN;
	for (size_t i = 0; i < n; i++)
		if (trends[i]->series->nsamples > most) {
			most = trends[i]->series->nsamples;
			span = trends[i]->span_hours;
		}
	if (isnan(span))
		report_add_verdict(r, "%zu samples", most);
	else
		report_add_verdict(r, "%zu samples over %.2f h", most, span);
}

/* ---- provenance -------------------------------------------------------- */

static void
provenance(struct report *r, const struct trend_report *const *trends, size_t n)
{
	const struct trend_report *t = trends[0];
	const char *first = NULL, *last = NULL;
	for (size_t i = 0; i < t->ninputs; i++)
		if (t->inputs[i].used && t->inputs[i].time_text) {
			first = first ? first : t->inputs[i].time_text;
			last = t->inputs[i].time_text;
		}
	if (first)
		report_add_provenance(r, "Captured", "%s \u2192 %s", first, last);
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < n; i++) {
		size_t used = 0;
		for (size_t k = 0; k < trends[i]->ninputs; k++)
			used += trends[i]->inputs[k].used;
		strbuf_addf(&sb, "%s%s %zu of %zu used", i ? ", " : "", trends[i]->kind, used,
			    trends[i]->ninputs);
	}
	report_add_provenance(r, "Samples", "%s", sb.buf);
	strbuf_release(&sb);
	report_add_provenance(r, "Order", "%s", t->order_note);
	size_t w = t->params->warmup;
	report_add_provenance(r, "Warm-up", "the first %zu sample%s left out of the fits (%s)", w,
			      w == 1 ? " is" : "s are",
			      t->warmup_given ? "--warmup" : "default max(2, 20 % of the samples)");
	report_add_provenance(r, "Method", "the verdicts of 'iotally trend' (docs/trend.md); %s",
			      trend_caveat);
}

/* ---- the overview: GPU memory by type over time ------------------------------- */

/* Samples drawn at most: a longer series is drawn every Nth sample, the last always. */
#define OVERVIEW_ROWS_MAX 24

/*
 * The GPU type a per-state metric is of: "KIND:TYPE:STATE.FIELD" with FIELD
 * dirty or swapped (what the cost counts: docs/gpu.md) and TYPE a GPU type
 * (model/gpu.h). Its length in *len, or NULL.
 */
static const char *
overview_type(const char *name, size_t *len)
{
	const char *t = strchr(name, ':'), *dot = strrchr(name, '.');
	if (!t || !dot || (strcmp(dot, ".dirty") != 0 && strcmp(dot, ".swapped") != 0))
		return NULL;
	t++;
	const char *state = NULL;
	for (const char *p = t; p < dot; p++)
		if (*p == ':')
			state = p;
	if (!state || !gpu_type_counts(t, (size_t)(state - t)))
		return NULL;
	*len = (size_t)(state - t);
	return t;
}

/* "+1.25 h" from the first sample, else the sample's number. */
static void
elapsed_label(const struct trend_series *s, size_t k, struct strbuf *out)
{
	strbuf_reset(out);
	if (s->has_times && !isnan(s->hours[k]))
		strbuf_addf(out, "%zu: +%.2f h", k + 1, s->hours[k]);
	else
		strbuf_addf(out, "sample %zu", k + 1);
}

/*
 * The first thing a series page shows: GPU memory (dirty + swapped, the
 * cost's figure) by type, one stacked bar a sample, from the first series
 * whose metrics name GPU types; the table beside it holds the same bytes.
 * Up to REPORT_SERIES_MAX types, the largest at the end first; the rest
 * are summed as "other GPU types".
 */
static void
overview(struct report *r, const struct trend_report *const *trends, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct trend_series *s = trends[i]->series;
		char *types[64];
		size_t ntypes = 0;
		double last[64] = { 0 };
		for (size_t m = 0; m < s->nmetrics; m++) {
			size_t len;
			const char *t = overview_type(s->metrics[m].name, &len);
			if (!t)
				continue;
			size_t k = 0;
			while (k < ntypes && (strlen(types[k]) != len || memcmp(types[k], t, len) != 0))
				k++;
			if (k == ntypes) {
				if (ntypes == sizeof(types) / sizeof(types[0]))
					continue;
				types[ntypes++] = xmemdup0(t, len);
			}
			double v = s->metrics[m].v[s->nsamples - 1];
			last[k] += isnan(v) ? 0 : v;
		}
		if (ntypes == 0)
			continue;
		/* The largest at the end first; the name breaks ties. */
		for (size_t a = 1; a < ntypes; a++)
			for (size_t b = a; b > 0 && (last[b] > last[b - 1] ||
				(last[b] == last[b - 1] && strcmp(types[b], types[b - 1]) < 0)); b--) {
				char *tt = types[b]; types[b] = types[b - 1]; types[b - 1] = tt;
				double tv = last[b]; last[b] = last[b - 1]; last[b - 1] = tv;
			}
		size_t shown = ntypes > REPORT_SERIES_MAX ? REPORT_SERIES_MAX - 1 : ntypes;
		size_t nseries = shown + (ntypes > shown);
		struct report_section *sec = report_section(r, REPORT_SEC_GPU, "GPU memory over time");
		report_section_add_paragraph(sec, "GPU memory by type, dirty + swapped (what the "
					     "process pays: docs/gpu.md), at each sample from the "
					     "first; every figure's exact bytes are in its tooltip "
					     "and the table.");
		const char *cols[2 + REPORT_SERIES_MAX];
		cols[0] = "sample";
		for (size_t k = 0; k < shown; k++)
			cols[1 + k] = types[k];
		if (nseries > shown)
			cols[1 + shown] = "other GPU types";
		cols[1 + nseries] = "total";
		struct report_table *tab = report_section_add_table(sec, "overview", "GPU memory "
								    "by type", 2 + nseries, cols);
		struct report_chart *c = report_section_add_chart(sec, REPORT_CHART_STACKED,
								  "GPU memory by type over time",
								  "overview", true);
		for (size_t k = 0; k < nseries; k++)
			report_chart_series(c, cols[1 + k]);
		size_t step = (s->nsamples + OVERVIEW_ROWS_MAX - 1) / OVERVIEW_ROWS_MAX;
		struct strbuf label = STRBUF_INIT;
		for (size_t smp = 0; smp < s->nsamples; smp++) {
			if (smp % step != 0 && smp != s->nsamples - 1)
				continue;
			int64_t v[REPORT_SERIES_MAX] = { 0 }, total = 0;
			for (size_t m = 0; m < s->nmetrics; m++) {
				size_t len;
				const char *t = overview_type(s->metrics[m].name, &len);
				double x = t ? s->metrics[m].v[smp] : NAN;
				if (!t || isnan(x))
					continue;
				size_t k = 0;
				while (k < shown && (strlen(types[k]) != len ||
						     memcmp(types[k], t, len) != 0))
					k++;
				int64_t f = figure(x);
				if (__builtin_add_overflow(v[k < shown ? k : shown], f,
							   &v[k < shown ? k : shown]))
					v[k < shown ? k : shown] = INT64_MAX;
			}
			elapsed_label(s, smp, &label);
			struct report_chart_item *it = report_chart_add(c, label.buf);
			if (report_table_row(tab))
				report_table_text(tab, label.buf);
			for (size_t k = 0; k < nseries; k++) {
				if (it)
					it->v[k] = v[k];
				report_table_figure(tab, REPORT_CELL_BYTES, v[k]);
				if (__builtin_add_overflow(total, v[k], &total))
					total = INT64_MAX;
			}
			report_table_figure(tab, REPORT_CELL_BYTES, total);
		}
		if (step > 1)
			report_section_add_paragraph(sec, "One sample in %zu and the last are drawn "
						     "(of %zu samples).", step, s->nsamples);
		strbuf_release(&label);
		for (size_t k = 0; k < ntypes; k++)
			free(types[k]);
		return;
	}
}

/* ---- timelines ----------------------------------------------------------- */

static const char *const timeline_cols[] = {
	"Verdict", "Metric", "First", "Last", "Slope", "Series",
};

static void
table_row(struct report_table *tab, const struct trend_metric *m, size_t nsamples, bool hours)
{
	if (!report_table_row(tab)) {
		if (m->unchanged)
			report_table_unchanged(tab);
		return;
	}
	enum report_cell_kind fig = m->unit == TREND_BYTES ? REPORT_CELL_BYTES : REPORT_CELL_COUNT;
	report_table_text(tab, m->unchanged ? "unchanged" : trend_verdict_name(m->r.verdict));
	report_table_code(tab, m->name);
	report_table_figure(tab, fig, figure(trend_metric_end_value(m, nsamples, false)));
	report_table_figure(tab, fig, figure(trend_metric_end_value(m, nsamples, true)));
	struct strbuf sb = STRBUF_INIT;
	if (m->unchanged)
		strbuf_addch(&sb, '0');
	else
		slope_text(m, hours, &sb);
	report_table_text(tab, sb.buf);
	strbuf_reset(&sb);
	trend_sparkline(m, nsamples, &sb);
	report_table_text(tab, sb.buf);
	strbuf_release(&sb);
	if (m->unchanged)
		report_table_unchanged(tab);
}

/* An item's label: the sample's capture time, else its number. */
static void
sample_label(const struct trend_report *t, size_t k, struct strbuf *out)
{
	strbuf_reset(out);
	for (size_t i = 0; i < t->ninputs; i++)
		if (t->inputs[i].used && t->inputs[i].sample == k) {
			if (t->inputs[i].time_text) {
				strbuf_addf(out, "%zu: %s", k + 1, t->inputs[i].time_text);
				return;
			}
			break;
		}
	strbuf_addf(out, "sample %zu", k + 1);
}

static struct report_chart *
timeline(struct report_section *sec, const char *table_id, const struct trend_report *t,
	 const struct trend_metric *m)
{
	const struct trend_series *s = t->series;
	const struct trend_result *res = &m->r;
	struct report_chart *c = report_section_add_chart(sec, REPORT_CHART_TIMELINE, m->name,
							  table_id, m->unit == TREND_BYTES);
	report_chart_series(c, m->name);
	struct strbuf sb = STRBUF_INIT;
	for (size_t k = 0; k < s->nsamples; k++) {
		sample_label(t, k, &sb);
		struct report_chart_item *it = report_chart_add(c, sb.buf);
		if (!it)
			break;
		it->absent = isnan(m->v[k]);
		it->v[0] = figure(m->v[k]);
	}
	strbuf_reset(&sb);
	slope_text(m, s->has_times, &sb);
	strbuf_addf(&sb, "; %s", res->why ? res->why : "");
	report_chart_badge(c, trend_verdict_name(res->verdict), sb.buf);
	strbuf_release(&sb);
	/* Theil-Sen per sample: x is the sample number, 1-based (model/trend.c). */
	size_t from = t->params->warmup;
	if (res->has_slope && from < s->nsamples && s->nsamples <= c->nitems) {
		c->has_fit = true;
		c->fit.from = from;
		c->fit.to = s->nsamples - 1;
		c->fit.first = figure(res->per_sample.intercept +
				      res->per_sample.slope * (double)(from + 1));
		c->fit.last = figure(res->per_sample.intercept +
				     res->per_sample.slope * (double)s->nsamples);
	}
	return c;
}

/* The same value (or none) in every sample: one line drawn twice says nothing more. */
static bool
same_line(const struct trend_metric *a, const struct trend_metric *b, size_t n)
{
	if (a->unit != b->unit)
		return false;
	for (size_t k = 0; k < n; k++) {
		if (isnan(a->v[k]) != isnan(b->v[k]))
			return false;
		if (!isnan(a->v[k]) && a->v[k] != b->v[k])
			return false;
	}
	return true;
}

/* A drawn timeline and the metric it was drawn for. */
struct drawn_line {
	const struct trend_metric *m;
	struct report_chart *c;
};

/*
 * A metric whose values are those of a timeline already drawn joins it:
 * its name is added to the title ("A = B = C"), and it is not drawn again.
 */
static bool
merge_line(struct drawn_line *d, size_t nd, const struct trend_metric *m, size_t nsamples)
{
	for (size_t i = 0; i < nd; i++) {
		if (!same_line(d[i].m, m, nsamples))
			continue;
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "%s = %s", d[i].c->title, m->name);
		free(d[i].c->title);
		d[i].c->title = strbuf_detach(&sb, NULL);
		return true;
	}
	return false;
}

static void
timelines(struct report *r, const struct trend_report *const *trends, size_t n)
{
	struct report_section *sec = report_section(r, REPORT_SEC_TIMELINES, "Metrics over time");
	report_section_add_paragraph(sec, "Each metric that changed, ranked as 'iotally trend' "
				     "ranks them (LEAK, GROWING, PLATEAU, STEP, NO TREND, STABLE, "
				     "INSUFFICIENT; the largest growth first): its samples, the "
				     "Theil-Sen slope fitted over the analysed samples (dashed) and "
				     "its verdict.");
	size_t drawn = 0, undrawn = 0, unchanged = 0, merged = 0;
	for (size_t i = 0; i < n; i++) {
		const struct trend_report *t = trends[i];
		const struct trend_series *s = t->series;
		struct strbuf id = STRBUF_INIT, title = STRBUF_INIT;
		strbuf_addf(&id, "timelines-%s", t->kind);
		strbuf_addf(&title, "%s metrics", t->kind);
		struct report_table *tab = report_section_add_table(sec, id.buf, title.buf, 6,
								    timeline_cols);
		const struct trend_metric **v;
		size_t nm = trend_series_ranked(s, &v);
		struct drawn_line *d = xcalloc(nm + 1, sizeof(*d));
		size_t nd = 0;
		for (size_t k = 0; k < nm; k++) {
			table_row(tab, v[k], s->nsamples, s->has_times);
			if (merge_line(d, nd, v[k], s->nsamples)) {
				merged++;
			} else if (drawn < REPORT_SERIES_TIMELINES_MAX) {
				d[nd].m = v[k];
				d[nd++].c = timeline(sec, id.buf, t, v[k]);
				drawn++;
			} else {
				undrawn++;
			}
		}
		free(d);
		free(v);
		for (size_t k = 0; k < s->nmetrics; k++)
			if (s->metrics[k].unchanged) {
				table_row(tab, &s->metrics[k], s->nsamples, s->has_times);
				unchanged++;
			}
		strbuf_release(&id);
		strbuf_release(&title);
	}
	if (merged)
		report_section_add_paragraph(sec, "%zu metric%s the same values in every sample as "
					     "another: drawn once, their names joined by '='.", merged,
					     merged == 1 ? " has" : "s have");
	if (undrawn)
		report_section_add_paragraph(sec, "%zu more changed metric%s not drawn (the first "
					     "%d are): the tables list every one.", undrawn,
					     undrawn == 1 ? " is" : "s are",
					     REPORT_SERIES_TIMELINES_MAX);
	if (unchanged)
		report_section_add_paragraph(sec, "%zu metric%s the same in every sample: counted "
					     "and folded ('--all' shows them).", unchanged,
					     unchanged == 1 ? " is" : "s are");
}

/* ---- samples ---------------------------------------------------------------- */

static const char *const sample_cols[] = { "#", "Input", "Captured", "Status" };

static void
samples(struct report *r, const struct trend_report *const *trends, size_t n)
{
	struct report_section *sec = report_section(r, REPORT_SEC_SAMPLES, "Samples");
	size_t left = 0;
	for (size_t i = 0; i < n; i++) {
		const struct trend_report *t = trends[i];
		struct strbuf id = STRBUF_INIT, title = STRBUF_INIT;
		strbuf_addf(&id, "samples-%s", t->kind);
		strbuf_addf(&title, "%s captures", t->kind);
		struct report_table *tab = report_section_add_table(sec, id.buf, title.buf, 4,
								    sample_cols);
		for (size_t k = 0; k < t->ninputs; k++) {
			const struct trend_input_row *in = &t->inputs[k];
			left += !in->used;
			if (!report_table_row(tab))
				continue;
			if (in->used)
				report_table_figure(tab, REPORT_CELL_COUNT, (int64_t)in->sample + 1);
			else
				report_table_empty(tab);
			report_table_code(tab, in->path);
			if (in->time_text)
				report_table_text(tab, in->time_text);
			else
				report_table_empty(tab);
			/* The words of trend's own samples table (report/trend_text.c). */
			if (in->used)
				report_table_text(tab, in->sample < t->params->warmup ? "warm-up"
										  : "used");
			else
				report_table_textf(tab, "left out: %s", in->left_out);
		}
		strbuf_release(&id);
		strbuf_release(&title);
	}
	if (left)
		report_section_add_paragraph(sec, "%zu input%s left out, each with the reason "
					     "below.", left, left == 1 ? " was" : "s were");
}

void
report_series_build(struct report *r, const struct trend_report *const *trends, size_t n)
{
	if (n == 0)
		return;
	headline(r, trends, n);
	provenance(r, trends, n);
	overview(r, trends, n);
	timelines(r, trends, n);
	samples(r, trends, n);
}
