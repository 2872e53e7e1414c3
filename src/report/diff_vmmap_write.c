#include "report/diff_vmmap_write.h"

#include "report/diff_report.h"
#include "report/jsontext.h"
#include "report/report_md_write.h"
#include "report/texttable.h"
#include "util/escape.h"
#include "util/size.h"

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

/* Appends s to the text in out[0 .. n - 1] at *k, cut to fit (n > 0). */
static void
put_text(char *out, size_t n, size_t *k, const char *s)
{
	size_t len = strlen(s);
	if (len > n - 1 - *k)
		len = n - 1 - *k;
	memcpy(out + *k, s, len);
	*k += len;
	out[*k] = '\0';
}

/*
 * A figure of a row: bytes through the text formatter (util/size.h:
 * "+384 MiB", "~433.2 MiB" where vmmap rounded it), a count as digits;
 * the exact bytes are in the JSON. `sign` writes a delta's sign.
 */
static void
figure_text(char out[32], uint64_t v, bool bytes, bool rounded)
{
	if (bytes)
		diff_report_bytes(out, v, rounded ? SIZE_TEXT_ROUNDED : 0);
	else
		snprintf(out, 32, "%" PRIu64, v);
}

static void
delta_text(char out[32], uint64_t before, uint64_t after, bool bytes, bool rounded)
{
	if (bytes)
		diff_report_bytes_delta(out, before, after, rounded ? SIZE_TEXT_ROUNDED : 0);
	else
		text_signed(out, (long long)diff_report_delta(before, after));
}

/*
 * vmmap's "Physical footprint" header of each side, rounded by vmmap
 * ("1.2G"): written in binary units marked "~", as every text output
 * writes a rounded figure (util/size.h); the exact reading is in the JSON.
 */
static void
write_footprint(FILE *out, const struct diff_vmmap *d, bool markdown)
{
	char b[32], a[32], dt[32];
	if (!d->has_footprint)
		return;
	size_format_text((int64_t)d->footprint_before, SIZE_TEXT_ROUNDED, b);
	size_format_text((int64_t)d->footprint_after, SIZE_TEXT_ROUNDED, a);
	size_format_text(diff_report_delta(d->footprint_before, d->footprint_after),
			 SIZE_TEXT_SIGNED | SIZE_TEXT_ROUNDED, dt);
	fprintf(out, "%s %s -> %s (%s), as vmmap rounded them\n\n",
		markdown ? "**Physical footprint:**" : "Physical footprint:", b, a, dt);
}

static void
write_rows(FILE *out, const struct diff_vmmap *d, bool markdown)
{
	static const char *const headers[] = { "TYPE", "PURGE", "FIELD", "BEFORE", "AFTER", "DELTA" };
	struct text_table t;
	text_table_init(&t, 6, headers, "lllrrr");
	for (size_t i = 0; i < d->nrows; i++) {
		const struct diff_vmmap_row *r = &d->rows[i];
		for (size_t f = 0; f < NFIELDS; f++) {
			uint64_t b = field(&r->before, f), a = field(&r->after, f);
			char dt[32], bt[32], at[32];
			if (a == b)
				continue;
			delta_text(dt, b, a, f > 0, false);
			figure_text(bt, b, f > 0, false);
			figure_text(at, a, f > 0, false);
			char purge[2] = { vmmap_purge_char(r->purge), '\0' };
			text_table_add(&t, r->type);
			text_table_add(&t, purge);
			text_table_add(&t, field_names[f]);
			text_table_add(&t, bt);
			text_table_add(&t, at);
			text_table_add(&t, dt);
		}
	}
	text_table_write_section(out, &t, markdown,
				 "Regions by type and purge state (changed figures)");
	text_table_release(&t);
}

static void
write_buckets(FILE *out, const struct diff_vmmap *d, bool markdown)
{
	static const char *const headers[] = { "TYPE", "CHANGE", "BEFORE", "AFTER" };
	struct text_table t;
	text_table_init(&t, 4, headers, "llrr");
	for (size_t i = 0; i < d->nbuckets; i++) {
		const struct diff_vmmap_bucket *b = &d->buckets[i];
		char size[32], num[32], change[96];
		int64_t n = diff_report_delta(b->before, b->after);
		size_t k = 0;
		size_format_text((b->vsize > INT64_MAX ? INT64_MAX : (int64_t)b->vsize), 0, size);
		text_signed(num, (long long)n);
		/* "+3 regions of 16 KiB", put together by hand: one a changed bucket. */
		put_text(change, sizeof(change), &k, num);
		put_text(change, sizeof(change), &k, n == 1 || n == -1 ? " region of " : " regions of ");
		put_text(change, sizeof(change), &k, size);
		text_table_add(&t, b->type);
		text_table_add(&t, change);
		text_table_add_u64(&t, b->before);
		text_table_add_u64(&t, b->after);
	}
	text_table_write_section(out, &t, markdown, "Size buckets whose region count changed");
	text_table_release(&t);
}

static void
write_movement(FILE *out, const struct diff_vmmap *d, bool markdown)
{
	static const char *const headers[] = { "TYPE", "FROM", "TO", "BYTES" };
	struct text_table t;
	text_table_init(&t, 4, headers, "lllr");
	for (size_t i = 0; i < d->npurgeable; i++)
		for (int f = 0; f < VMMAP_PURGEABLE_STATES; f++)
			for (int to = 0; to < VMMAP_PURGEABLE_STATES; to++) {
				uint64_t m = d->purgeable[i].moved[f][to];
				if (!m)
					continue;
				char from[2] = { vmmap_purge_char((enum vmmap_purge)f), '\0' };
				char into[2] = { vmmap_purge_char((enum vmmap_purge)to), '\0' };
				text_table_add(&t, d->purgeable[i].type);
				text_table_add(&t, from);
				text_table_add(&t, into);
				text_table_add_u64(&t, m);
			}
	text_table_write_section(out, &t, markdown, d->movement_by_address
				 ? "Purgeable bytes that moved between states (regions matched "
				   "by address)"
				 : "Purgeable bytes that moved between states (inferred from the "
				   "per-state totals)");
	text_table_release(&t);
}

/* A summary-only dump: the summary tables' rows whose figures changed. */
static void
write_summary_rows(FILE *out, const struct diff_vmmap *d, bool markdown)
{
	static const char *const headers[] = { "TYPE", "FIELD", "BEFORE", "AFTER", "DELTA" };
	struct text_table t;
	text_table_init(&t, 5, headers, "llrrr");
	for (size_t i = 0; i < d->nsrows; i++) {
		const struct diff_vmmap_summary_row *r = &d->srows[i];
		for (size_t f = 0; f < DIFF_VMMAP_SUMMARY_FIELDS; f++) {
			uint64_t b = r->before[f], a = r->after[f];
			bool kb = (r->known_before >> f) & 1, ka = (r->known_after >> f) & 1;
			char dt[32], bt[32], at[32];
			/* Unknown on both sides: nothing to show. */
			if (!kb && !ka)
				continue;
			if (kb && ka && a == b && r->in_before == r->in_after)
				continue;
			/* vmmap's summary table rounds every byte figure ("433.2M"). */
			if (kb && ka)
				delta_text(dt, b, a, f > 0, true);
			else
				snprintf(dt, sizeof(dt), "?");
			figure_text(bt, b, f > 0, true);
			figure_text(at, a, f > 0, true);
			text_table_add(&t, r->type);
			text_table_add(&t, diff_vmmap_summary_field(f));
			/* '-': no row (0 regions); '?': the capture has no such figure. */
			text_table_add(&t, !kb ? "?" : r->in_before ? bt : "-");
			text_table_add(&t, !ka ? "?" : r->in_after ? at : "-");
			text_table_add(&t, dt);
		}
	}
	text_table_write_section(out, &t, markdown,
				 "Summary table rows (summary-only dump: figures as vmmap prints "
				 "them, rounded; no purge states or region sizes)");
	text_table_release(&t);
}

void
diff_vmmap_write_text(FILE *out, const struct diff_vmmap *d, bool markdown)
{
	write_footprint(out, d, markdown);
	if (d->by_summary) {
		if (!diff_vmmap_changed(d))
			fputs("No change in the summary tables (figures as vmmap prints them, "
			      "rounded).\n\n", out);
		else
			write_summary_rows(out, d, markdown);
		return;
	}
	if (!diff_vmmap_changed(d)) {
		fputs("No change in the regions of the compared types.\n\n", out);
		return;
	}
	write_rows(out, d, markdown);
	write_buckets(out, d, markdown);
	write_movement(out, d, markdown);
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
