/*
 * The pieces of a series report's JSON (report/series_json_write.h).
 */

#include "report/series_json_write.h"

#include "report/jsontext.h"

#include <math.h>

json_t *
series_json_num(double v)
{
	if (isnan(v) || isinf(v))
		return json_null();
	if (v == floor(v) && fabs(v) < 9007199254740992.0)   /* 2^53: exact */
		return json_integer((json_int_t)v);
	return json_real(v);
}

json_t *
series_json_inputs(const struct trend_input_row *rows, size_t n, const char *number_key,
		   const struct trend_series *timed, size_t warmup)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++) {
		const struct trend_input_row *in = &rows[i];
		json_t *o = json_object();
		json_object_set_new_nocheck(o, "path", json_text(diag_display_path(in->path)));
		json_object_set_new_nocheck(o, number_key, in->used
					    ? json_integer((json_int_t)in->sample + 1) : json_null());
		if (timed) {
			json_object_set_new_nocheck(o, "time", in->time_text ? json_text(in->time_text)
									      : json_null());
			json_object_set_new_nocheck(o, "hours", in->used
						    ? series_json_num(timed->hours[in->sample])
						    : json_null());
		}
		json_object_set_new_nocheck(o, "status", json_string(
			!in->used ? "left-out" : in->sample < warmup ? "warm-up" : "used"));
		json_object_set_new_nocheck(o, "reason", in->used ? json_null()
								  : json_text(in->left_out));
		json_array_append_new(a, o);
	}
	return a;
}

json_t *
series_json_warnings(const struct diag_list *w)
{
	json_t *a = json_array();
	for (size_t i = 0; w && i < w->len; i++)
		json_array_append_new(a, json_text(diag_list_msg(w, i)));
	return a;
}

json_t *
series_json_gate(const struct diff_gate *g, const char *name)
{
	json_t *o = json_object();
	json_object_set_new_nocheck(o, "expression", json_text(g->text));
	json_object_set_new_nocheck(o, "metric", json_text(name));
	return o;
}

int
series_json_dump(FILE *out, json_t *root)
{
	int rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
				       JSON_REAL_PRECISION(10));
	json_decref(root);
	if (rc == 0 && fputc('\n', out) == EOF)
		rc = -1;
	return rc < 0 ? -1 : 0;
}
