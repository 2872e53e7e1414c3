/*
 * The trend report as JSON (iotally.trend/2, docs/json/trend.md) and the
 * gates as JUnit XML.
 */

#include "report/trend_report.h"
#include "report/signature_write.h"

#include "report/jsontext.h"
#include "report/series_json_write.h"
#include "report/junit.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <jansson.h>
#include <stdlib.h>

static json_t *
slope_json(const struct trend_ts *ts, bool has)
{
	if (!has)
		return json_null();
	json_t *o = json_object();
	json_object_set_new_nocheck(o, "estimate", series_json_num(ts->slope));
	json_object_set_new_nocheck(o, "low", series_json_num(ts->lo));
	json_object_set_new_nocheck(o, "high", series_json_num(ts->hi));
	return o;
}

static json_t *
mk_json(const struct trend_result *r)
{
	if (!r->has_mk)
		return json_null();
	json_t *o = json_object();
	json_object_set_new_nocheck(o, "s", json_integer(r->mk.s));
	json_object_set_new_nocheck(o, "var_s", series_json_num(r->mk.var_s));
	json_object_set_new_nocheck(o, "z", series_json_num(r->mk.z));
	json_object_set_new_nocheck(o, "tau", series_json_num(r->mk.tau));
	json_object_set_new_nocheck(o, "variance_factor", series_json_num(r->mk.factor));
	json_object_set_new_nocheck(o, "rho", series_json_num(r->rho));
	json_object_set_new_nocheck(o, "p", series_json_num(r->mk.p));
	json_object_set_new_nocheck(o, "q", series_json_num(r->q));
	return o;
}

static json_t *
step_json(const struct trend_result *r)
{
	if (!r->step || r->verdict != TREND_STEP)
		return json_null();
	json_t *o = json_object();
	json_object_set_new_nocheck(o, "first_sample_after", json_integer((json_int_t)r->step_at + 1));
	json_object_set_new_nocheck(o, "size", series_json_num(r->step_size));
	return o;
}

static json_t *
plateau_json(const struct trend_result *r)
{
	if (!r->has_plateau || r->verdict != TREND_PLATEAU)
		return json_null();
	json_t *o = json_object();
	json_object_set_new_nocheck(o, "flat_from_sample",
				    json_integer((json_int_t)r->plateau_end + 1));
	json_object_set_new_nocheck(o, "rise", series_json_num(r->plateau.rise));
	json_object_set_new_nocheck(o, "t", series_json_num(r->plateau_t));
	return o;
}

static json_t *
metric_json(const struct trend_metric *m, size_t nsamples)
{
	const struct trend_result *r = &m->r;
	json_t *o = json_object(), *values = json_array();
	for (size_t k = 0; k < nsamples; k++)
		json_array_append_new(values, series_json_num(m->v[k]));
	json_object_set_new_nocheck(o, "name", json_text(m->name));
	json_object_set_new_nocheck(o, "unit", json_string(m->unit == TREND_BYTES ? "bytes"
										  : "count"));
	json_object_set_new_nocheck(o, "verdict", json_string(trend_verdict_name(r->verdict)));
	json_object_set_new_nocheck(o, "why", json_string(r->why));
	json_object_set_new_nocheck(o, "leak_exempt", json_boolean(m->leak_exempt));
	json_object_set_new_nocheck(o, "analysed", json_integer((json_int_t)r->n));
	json_object_set_new_nocheck(o, "missing", json_integer((json_int_t)r->missing));
	json_object_set_new_nocheck(o, "start", r->has_slope ? series_json_num(r->start) : json_null());
	json_object_set_new_nocheck(o, "growth", r->has_slope ? series_json_num(r->growth) : json_null());
	json_object_set_new_nocheck(o, "growth_percent", series_json_num(r->growth_pct));
	json_object_set_new_nocheck(o, "slope_per_sample", slope_json(&r->per_sample,
								       r->has_slope));
	json_object_set_new_nocheck(o, "slope_per_hour", slope_json(&r->per_hour, r->has_hour));
	json_object_set_new_nocheck(o, "second_half", slope_json(&r->half, r->has_half));
	json_object_set_new_nocheck(o, "mann_kendall", mk_json(r));
	json_object_set_new_nocheck(o, "step", step_json(r));
	json_object_set_new_nocheck(o, "plateau", plateau_json(r));
	json_object_set_new_nocheck(o, "resolution", r->resolution > 0 ? series_json_num(r->resolution)
								      : json_null());
	json_object_set_new_nocheck(o, "more_samples", r->more_samples
				    ? json_integer((json_int_t)r->more_samples) : json_null());
	json_object_set_new_nocheck(o, "values", values);
	return o;
}

static json_t *
params_json(const struct trend_report *r)
{
	const struct trend_params *p = r->params;
	json_t *o = json_object();
	json_object_set_new_nocheck(o, "warmup", json_integer((json_int_t)p->warmup));
	json_object_set_new_nocheck(o, "warmup_default", json_boolean(!r->warmup_given));
	json_object_set_new_nocheck(o, "min_samples", json_integer((json_int_t)p->min_samples));
	json_object_set_new_nocheck(o, "max_missing", series_json_num(p->max_missing));
	json_object_set_new_nocheck(o, "alpha", series_json_num(p->alpha));
	json_object_set_new_nocheck(o, "min_growth_bytes", series_json_num(p->min_bytes));
	json_object_set_new_nocheck(o, "min_growth_count", series_json_num(p->min_count));
	json_object_set_new_nocheck(o, "min_growth_percent", series_json_num(p->min_percent));
	json_object_set_new_nocheck(o, "confidence", json_real(0.95));
	return o;
}

static json_t *
gates_json(const struct trend_report *r)
{
	json_t *a = json_array();
	for (size_t i = 0; i < r->ngates; i++) {
		const struct trend_gate *g = &r->gates[i];
		json_t *o = series_json_gate(&g->g, g->name);
		json_object_set_new_nocheck(o, "rate", json_string(g->rate == TREND_PER_HOUR
								   ? "hour" : "sample"));
		json_object_set_new_nocheck(o, "percent", json_boolean(g->g.percent));
		json_object_set_new_nocheck(o, "slope", series_json_num(g->slope));
		json_object_set_new_nocheck(o, "tripped", json_boolean(g->tripped));
		json_array_append_new(a, o);
	}
	return a;
}

int
trend_json_write(FILE *out, const struct trend_report *r)
{
	const struct trend_series *s = r->series;
	json_t *root = json_object(), *metrics = json_array(), *counts = json_object();
	size_t count[TREND_VERDICTS] = { 0 };
	const struct trend_metric **v;
	size_t n = trend_series_ranked(s, &v);
	for (size_t i = 0; i < n; i++) {
		json_array_append_new(metrics, metric_json(v[i], s->nsamples));
		count[v[i]->r.verdict]++;
	}
	free(v);
	for (int k = 0; k < TREND_VERDICTS; k++)
		json_object_set_new_nocheck(counts, trend_verdict_name((enum trend_verdict)k),
					    json_integer((json_int_t)count[k]));
	json_object_set_new_nocheck(root, "schema", json_string(TREND_JSON_SCHEMA));
	json_object_set_new_nocheck(root, "kind", json_string(r->kind));
	json_object_set_new_nocheck(root, "order", json_string(r->by_time ? "capture-time"
									   : "arguments"));
	json_object_set_new_nocheck(root, "order_note", json_text(r->order_note));
	json_object_set_new_nocheck(root, "samples", json_integer((json_int_t)s->nsamples));
	json_object_set_new_nocheck(root, "span_hours", series_json_num(r->span_hours));
	json_object_set_new_nocheck(root, "params", params_json(r));
	json_object_set_new_nocheck(root, "caveat", json_string(trend_caveat));
	json_object_set_new_nocheck(root, "inputs", series_json_inputs(r->inputs, r->ninputs,
								      "sample", r->series, r->params->warmup));
	json_object_set_new_nocheck(root, "warnings", series_json_warnings(r->warnings));
	json_object_set_new_nocheck(root, "unchanged_metrics",
				    json_integer((json_int_t)(s->nmetrics - n)));
	json_object_set_new_nocheck(root, "verdicts", counts);
	json_object_set_new_nocheck(root, "metrics", metrics);
	json_object_set_new_nocheck(root, "fail_on_leak", json_boolean(r->fail_on_leak));
	json_object_set_new_nocheck(root, "signature", signature_json(r->sig));
	json_object_set_new_nocheck(root, "gates", gates_json(r));
	return series_json_dump(out, root);
}

int
trend_junit_write(FILE *out, const struct trend_report *r, struct diag *err)
{
	size_t n = r->ngates + (r->fail_on_leak ? 1 : 0);
	struct junit_case *cases = xcalloc(n ? n : 1, sizeof(*cases));
	struct strbuf *msgs = xcalloc(n ? n : 1, sizeof(*msgs));
	struct strbuf cls = STRBUF_INIT;
	strbuf_addf(&cls, "iotally.trend.%s", r->kind);
	for (size_t i = 0; i < n; i++) {
		strbuf_init(&msgs[i]);
		cases[i].classname = cls.buf;
	}
	for (size_t i = 0; i < r->ngates; i++) {
		const struct trend_gate *g = &r->gates[i];
		char s[48];
		trend_gate_slope_text(g, s);
		const char *per = g->rate == TREND_PER_HOUR ? "hour" : "sample";
		strbuf_addf(&msgs[i], "slope %s per %s, limit %s %s per %s", s, per,
			    diff_op_text(g->g.op), g->g.value_text, per);
		cases[i].name = g->g.text;
		cases[i].failed = g->tripped;
		cases[i].message = msgs[i].buf;
	}
	if (r->fail_on_leak) {
		size_t k = r->ngates, leaks = trend_report_leaks(r);
		strbuf_addf(&msgs[k], "%zu metric%s LEAK", leaks, leaks == 1 ? "" : "s");
		if (leaks) {
			strbuf_addstr(&msgs[k], ": ");
			trend_leak_names(&r, 1, &msgs[k]);
		}
		cases[k].name = "--fail-on leak";
		cases[k].failed = leaks > 0;
		cases[k].message = msgs[k].buf;
	}
	int rc = junit_write(out, "iotally trend", cases, n, err);
	for (size_t i = 0; i < n; i++)
		strbuf_release(&msgs[i]);
	strbuf_release(&cls);
	free(msgs);
	free(cases);
	return rc;
}
