/*
 * The rate report as one JSON document (iotally.rate/1) and as NDJSON rows,
 * one per metric (iotally.rate-ndjson/1); docs/json/rate.md.
 */

#include "report/rate_write.h"

#include "report/jsontext.h"
#include "report/ndjson.h"
#include "report/series_json_write.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>

static json_t *
count_or_null(size_t v)
{
	return v ? json_integer((json_int_t)v) : json_null();
}

static json_t *
label_json(const struct rate_kind_report *k, const char *name)
{
	char label[256];
	rate_row_label(k, name, label, sizeof(label));
	return json_text(label);
}

static json_t *
row_json(const struct rate_kind_report *kr, const struct rate_row *row, size_t nsamples)
{
	const struct trend_metric *m = row->m;
	json_t *o = json_object(), *values = json_array();
	for (size_t k = 0; k < nsamples; k++)
		json_array_append_new(values, series_json_num(m->v[k]));
	json_object_set_new_nocheck(o, "name", json_text(m->name));
	json_object_set_new_nocheck(o, "label", label_json(kr, m->name));
	json_object_set_new_nocheck(o, "unit", json_string(m->unit == TREND_BYTES ? "bytes"
										  : "count"));
	json_object_set_new_nocheck(o, "verdict", json_string(rate_verdict_name(row->verdict)));
	json_object_set_new_nocheck(o, "why", json_string(row->why));
	json_object_set_new_nocheck(o, "per_iteration", row->has_rate ? series_json_num(row->rate)
								       : json_null());
	json_object_set_new_nocheck(o, "low", row->has_rate ? series_json_num(row->lo) : json_null());
	json_object_set_new_nocheck(o, "high", row->has_rate ? series_json_num(row->hi) : json_null());
	json_object_set_new_nocheck(o, "rate_from_iteration", row->has_rate
				    ? json_integer((json_int_t)row->rate_from) : json_null());
	json_object_set_new_nocheck(o, "analysed", json_integer((json_int_t)m->r.n));
	json_object_set_new_nocheck(o, "missing", json_integer((json_int_t)m->r.missing));
	json_object_set_new_nocheck(o, "rho", m->r.has_slope ? series_json_num(m->r.rho) : json_null());
	json_object_set_new_nocheck(o, "trend_verdict",
				    json_string(trend_verdict_name(m->r.verdict)));
	json_object_set_new_nocheck(o, "more_iterations", count_or_null(row->more));
	json_object_set_new_nocheck(o, "flat_from_iteration", count_or_null(row->warm_until));
	json_object_set_new_nocheck(o, "values", values);
	return o;
}

static json_t *
kind_json(const struct rate_kind_report *k)
{
	const struct rate_series *rs = k->rates;
	json_t *o = json_object(), *rows = json_array(), *counts = json_object();
	for (size_t i = 0; i < rs->nrows; i++)
		json_array_append_new(rows, row_json(k, &rs->rows[i], k->series->nsamples));
	for (int v = 0; v < RATE_VERDICTS; v++)
		json_object_set_new_nocheck(counts, rate_verdict_name((enum rate_verdict)v),
					    json_integer((json_int_t)rs->count[v]));
	json_object_set_new_nocheck(o, "kind", json_string(k->kind));
	json_object_set_new_nocheck(o, "order_note", json_text(k->order_note));
	json_object_set_new_nocheck(o, "iterations", json_integer((json_int_t)rs->iterations));
	json_object_set_new_nocheck(o, "warmup", json_integer((json_int_t)rs->warmup));
	json_object_set_new_nocheck(o, "unchanged_metrics", json_integer((json_int_t)rs->unchanged));
	json_object_set_new_nocheck(o, "verdicts", counts);
	json_object_set_new_nocheck(o, "metrics", rows);
	json_object_set_new_nocheck(o, "inputs", series_json_inputs(k->inputs, k->ninputs, "iteration",
								      NULL, rs->warmup));
	json_object_set_new_nocheck(o, "warnings", series_json_warnings(k->warnings));
	return o;
}

static json_t *
params_json(const struct rate_report *r)
{
	json_t *o = json_object();
	const struct trend_params *p = r->nkinds ? r->kinds[0].params : NULL;
	json_object_set_new_nocheck(o, "warmup_default", json_boolean(!r->warmup_given));
	json_object_set_new_nocheck(o, "alpha", p ? series_json_num(p->alpha) : json_null());
	json_object_set_new_nocheck(o, "floor_bytes", series_json_num(r->rparams->floor_bytes));
	json_object_set_new_nocheck(o, "floor_count", series_json_num(r->rparams->floor_count));
	json_object_set_new_nocheck(o, "confidence", json_real(0.95));
	return o;
}

static json_t *
gates_json(const struct rate_report *r)
{
	json_t *a = json_array();
	for (size_t i = 0; i < r->ngates; i++) {
		const struct rate_gate *g = &r->gates[i];
		json_t *o = series_json_gate(&g->g, g->name);
		json_object_set_new_nocheck(o, "limit", json_integer((json_int_t)g->g.value));
		json_object_set_new_nocheck(o, "per_iteration", g->checked ? series_json_num(g->rate)
									   : json_null());
		json_object_set_new_nocheck(o, "low", g->checked ? series_json_num(g->low) : json_null());
		json_object_set_new_nocheck(o, "tripped", json_boolean(g->tripped));
		json_array_append_new(a, o);
	}
	return a;
}

int
rate_json_write(FILE *out, const struct rate_report *r)
{
	json_t *root = json_object(), *kinds = json_array();
	struct strbuf sb = STRBUF_INIT;
	rate_summary(r, &sb);
	for (size_t k = 0; k < r->nkinds; k++)
		json_array_append_new(kinds, kind_json(&r->kinds[k]));
	json_object_set_new_nocheck(root, "schema", json_string(RATE_SCHEMA));
	json_object_set_new_nocheck(root, "summary", json_text(sb.buf));
	json_object_set_new_nocheck(root, "leaks", json_integer((json_int_t)rate_report_leaks(r)));
	json_object_set_new_nocheck(root, "params", params_json(r));
	json_object_set_new_nocheck(root, "caveat", json_string(rate_caveat));
	json_object_set_new_nocheck(root, "kinds", kinds);
	json_object_set_new_nocheck(root, "gates", gates_json(r));
	strbuf_release(&sb);
	return series_json_dump(out, root);
}

/* A figure of a row: an exact integer when it is one, else a number; null when none. */
static void
set_num(struct ndjson_row *nr, const char *key, bool has, double v)
{
	if (!has || isnan(v) || isinf(v))
		ndjson_set_null(nr, key);
	else
		ndjson_set(nr, key, series_json_num(v));
}

int
rate_ndjson_write(FILE *out, const struct rate_report *r)
{
	for (size_t k = 0; k < r->nkinds; k++) {
		const struct rate_kind_report *kr = &r->kinds[k];
		const struct rate_series *rs = kr->rates;
		for (size_t i = 0; i < rs->nrows; i++) {
			const struct rate_row *row = &rs->rows[i];
			char label[256];
			rate_row_label(kr, row->m->name, label, sizeof(label));
			struct ndjson_row *nr = ndjson_row_new(RATE_NDJSON_SCHEMA, "metric",
							       r->source, kr->kind);
			ndjson_set_text(nr, "name", row->m->name);
			ndjson_set_text(nr, "label", label);
			ndjson_set_text(nr, "unit", row->m->unit == TREND_BYTES ? "bytes" : "count");
			ndjson_set_text(nr, "verdict", rate_verdict_name(row->verdict));
			set_num(nr, "per_iteration", row->has_rate, row->rate);
			set_num(nr, "low", row->has_rate, row->lo);
			set_num(nr, "high", row->has_rate, row->hi);
			ndjson_set_int(nr, "rate_from_iteration", row->has_rate,
				       (int64_t)row->rate_from);
			ndjson_set_int(nr, "iterations", true, (int64_t)rs->iterations);
			ndjson_set_int(nr, "warmup", true, (int64_t)rs->warmup);
			ndjson_set_int(nr, "analysed", true, (int64_t)row->m->r.n);
			ndjson_set_int(nr, "more_iterations", row->more > 0, (int64_t)row->more);
			ndjson_set_int(nr, "flat_from_iteration", row->warm_until > 0,
				       (int64_t)row->warm_until);
			if (ndjson_row_write(out, nr) < 0)
				return -1;
		}
	}
	return 0;
}
