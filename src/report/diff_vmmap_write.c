#include "report/diff_vmmap_write.h"

#include "report/diff_report.h"
#include "report/jsontext.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *const field_names[] = { "count", "vsize", "resident", "dirty", "swapped" };
#define NFIELDS 5

static uint64_t
field(const struct vmmap_amounts *a, size_t f)
{
	const uint64_t v[NFIELDS] = { a->count, a->vsize, a->resident, a->dirty, a->swapped };
	return v[f];
}

/* ---- JSON -------------------------------------------------------------- */

static json_t *
rows_json(const struct diff_vmmap *d)
{
	json_t *arr = json_array();
	for (size_t i = 0; i < d->nrows; i++) {
		const struct diff_vmmap_row *r = &d->rows[i];
		json_t *o = json_object();
		char p[2] = { vmmap_purge_char(r->purge), '\0' };
		json_object_set_new_nocheck(o, "type", json_text(r->type));
		json_object_set_new_nocheck(o, "purge", json_string_nocheck(p));
		for (size_t f = 0; f < NFIELDS; f++)
			json_object_set_new_nocheck(o, field_names[f],
				diff_json_triple(field(&r->before, f), field(&r->after, f)));
		json_object_set_new_nocheck(o, "changed", json_boolean(diff_vmmap_row_changed(r)));
		json_array_append_new(arr, o);
	}
	return arr;
}

static json_t *
buckets_json(const struct diff_vmmap *d)
{
	json_t *arr = json_array();
	for (size_t i = 0; i < d->nbuckets; i++) {
		const struct diff_vmmap_bucket *b = &d->buckets[i];
		json_t *o = json_object();
		json_object_set_new_nocheck(o, "type", json_text(b->type));
		json_object_set_new_nocheck(o, "vsize", json_uint(b->vsize));
		json_object_set_new_nocheck(o, "count", diff_json_triple(b->before, b->after));
		json_array_append_new(arr, o);
	}
	return arr;
}

static json_t *
movement_json(const struct diff_vmmap *d)
{
	json_t *arr = json_array();
	for (size_t i = 0; i < d->npurgeable; i++)
		for (int f = 0; f < VMMAP_PURGEABLE_STATES; f++)
			for (int to = 0; to < VMMAP_PURGEABLE_STATES; to++) {
				uint64_t m = d->purgeable[i].moved[f][to];
				if (!m)
					continue;
				json_t *o = json_object();
				char fs[2] = { vmmap_purge_char((enum vmmap_purge)f), '\0' };
				char ts[2] = { vmmap_purge_char((enum vmmap_purge)to), '\0' };
				json_object_set_new_nocheck(o, "type", json_text(d->purgeable[i].type));
				json_object_set_new_nocheck(o, "from", json_string_nocheck(fs));
				json_object_set_new_nocheck(o, "to", json_string_nocheck(ts));
				json_object_set_new_nocheck(o, "bytes", json_uint(m));
				json_array_append_new(arr, o);
			}
	return arr;
}

static json_t *
process_json(const struct vmmap_dump *d)
{
	json_t *o = json_object();
	json_object_set_new_nocheck(o, "name", d->process ? json_text(d->process) : json_null());
	json_object_set_new_nocheck(o, "pid", d->has_pid ? json_uint(d->pid) : json_null());
	return o;
}

/* Rounded printed figures; null where a dump does not print one. */
static json_t *
footprint_json(const struct diff_vmmap *d)
{
	json_t *o;
	if (d->has_footprint)
		return diff_json_triple(d->footprint_before, d->footprint_after);
	o = json_object();
	json_object_set_new_nocheck(o, "before", json_null());
	json_object_set_new_nocheck(o, "after", json_null());
	json_object_set_new_nocheck(o, "delta", json_null());
	return o;
}

/* Figures as vmmap prints them: 0 where a table lacks the row (in_* false) but
 * has the column, null where the capture has no such figure. */
static json_t *
summary_rows_json(const struct diff_vmmap *d)
{
	json_t *arr = json_array();
	for (size_t i = 0; i < d->nsrows; i++) {
		const struct diff_vmmap_summary_row *r = &d->srows[i];
		json_t *o = json_object();
		json_object_set_new_nocheck(o, "type", json_text(r->type));
		json_object_set_new_nocheck(o, "in_before", json_boolean(r->in_before));
		json_object_set_new_nocheck(o, "in_after", json_boolean(r->in_after));
		for (size_t f = 0; f < DIFF_VMMAP_SUMMARY_FIELDS; f++) {
			bool kb = (r->known_before >> f) & 1, ka = (r->known_after >> f) & 1;
			json_t *tr = json_object();
			json_object_set_new_nocheck(tr, "before", kb ? json_integer(
				(json_int_t)r->before[f]) : json_null());
			json_object_set_new_nocheck(tr, "after", ka ? json_integer(
				(json_int_t)r->after[f]) : json_null());
			json_object_set_new_nocheck(tr, "delta", kb && ka ? json_integer(
				diff_report_delta(r->before[f], r->after[f])) : json_null());
			json_object_set_new_nocheck(o, diff_vmmap_summary_field(f), tr);
		}
		json_object_set_new_nocheck(o, "changed",
					    json_boolean(diff_vmmap_summary_row_changed(r)));
		json_array_append_new(arr, o);
	}
	return arr;
}

json_t *
diff_vmmap_json(const struct diff_vmmap *d)
{
	json_t *o = json_object(), *proc = json_object(), *types = json_array();
	json_object_set_new_nocheck(proc, "before", process_json(d->before));
	json_object_set_new_nocheck(proc, "after", process_json(d->after));
	json_object_set_new_nocheck(o, "process", proc);
	json_object_set_new_nocheck(o, "footprint", footprint_json(d));
	for (size_t i = 0; i < d->ntypes; i++)
		json_array_append_new(types, json_text(d->types[i]));
	json_object_set_new_nocheck(o, "types", types);
	json_object_set_new_nocheck(o, "rows", rows_json(d));
	json_object_set_new_nocheck(o, "buckets", buckets_json(d));
	json_object_set_new_nocheck(o, "movement_by", json_string_nocheck(
		d->movement_by_address ? "address" : "totals"));
	json_object_set_new_nocheck(o, "movement", movement_json(d));
	if (d->by_summary)
		json_object_set_new_nocheck(o, "summary_rows", summary_rows_json(d));
	return o;
}
