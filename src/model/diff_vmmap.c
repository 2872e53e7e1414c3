#include "model/diff_vmmap.h"

#include "model/diff.h"
#include "model/gpu.h"
#include "model/pick.h"
#include "util/array.h"
#include "util/datetime.h"
#include "util/size.h"
#include "util/suggest.h"
#include "util/xalloc.h"

#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct vmmap_type_stats *
find_type(const struct vmmap_dump *d, const char *name)
{
	size_t *idx = strmap_get(&d->type_index, name, strlen(name));
	return idx ? &d->types[*idx] : NULL;
}

static bool
type_has_entries(const struct vmmap_type_stats *t)
{
	for (int p = 0; p < VMMAP_PURGE_STATES; p++)
		if (t->by_purge[p].count)
			return true;
	return false;
}

/* A type of `d` takes part when both captures selected it and it has regions. */
static bool
takes_part(const struct vmmap_type_stats *t, const struct vmmap_capture *other)
{
	return t->selected && type_has_entries(t) &&
	       vmmap_filter_selects(&other->filter, t->name, t->name_len);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void
collect_types(struct diff_vmmap *d, const struct vmmap_capture *bcap,
	      const struct vmmap_capture *acap)
{
	const struct vmmap_dump *b = d->before, *a = d->after;
	d->types = xcalloc(b->ntypes + a->ntypes + 1, sizeof(*d->types));
	for (size_t i = 0; i < b->ntypes; i++)
		if (takes_part(&b->types[i], acap))
			d->types[d->ntypes++] = b->types[i].name;
	for (size_t i = 0; i < a->ntypes; i++) {
		const struct vmmap_type_stats *t = &a->types[i];
		const struct vmmap_type_stats *bt = find_type(b, t->name);
		if (takes_part(t, bcap) && !(bt && takes_part(bt, acap)))
			d->types[d->ntypes++] = t->name;
	}
	qsort(d->types, d->ntypes, sizeof(*d->types), cmp_str);
}

/* The type's amounts in one state, zero when the dump does not have it. */
static struct vmmap_amounts
amounts_of(const struct vmmap_dump *d, const char *type, enum vmmap_purge p)
{
	const struct vmmap_type_stats *t = find_type(d, type);
	struct vmmap_amounts zero = { 0 };
	return t ? t->by_purge[p] : zero;
}

static void
collect_rows(struct diff_vmmap *d)
{
	d->rows = xcalloc(d->ntypes * VMMAP_PURGE_STATES + 1, sizeof(*d->rows));
	for (size_t i = 0; i < d->ntypes; i++)
		for (int k = 0; k < VMMAP_PURGE_STATES; k++) {
			struct diff_vmmap_row r = {
				.type = d->types[i],
				.purge = vmmap_purge_order[k],
				.before = amounts_of(d->before, d->types[i], vmmap_purge_order[k]),
				.after = amounts_of(d->after, d->types[i], vmmap_purge_order[k]),
			};
			if (r.before.count || r.after.count)
				d->rows[d->nrows++] = r;
		}
}

static uint64_t
bucket_count(const struct vmmap_type_stats *t, uint64_t vsize)
{
	const struct vmmap_hist_bucket *b = t ? vmmap_type_find_bucket(t, vsize) : NULL;
	return b ? vmmap_hist_bucket_count(b) : 0;
}

static void
add_bucket(struct diff_vmmap *d, size_t *alloc, const char *type, uint64_t vsize,
	   uint64_t before, uint64_t after)
{
	if (before == after)
		return;
	d->buckets = xgrow(d->buckets, alloc, d->nbuckets + 1, sizeof(*d->buckets));
	d->buckets[d->nbuckets++] = (struct diff_vmmap_bucket){ type, vsize, before, after };
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

static void
collect_buckets(struct diff_vmmap *d)
{
	size_t alloc = 0;
	for (size_t i = 0; i < d->ntypes; i++) {
		const struct vmmap_type_stats *b = find_type(d->before, d->types[i]);
		const struct vmmap_type_stats *a = find_type(d->after, d->types[i]);
		size_t nb = b ? b->nhist : 0, na = a ? a->nhist : 0, n = 0;
		uint64_t *sizes = xcalloc(nb + na + 1, sizeof(*sizes));
		for (size_t k = 0; k < nb; k++)
			sizes[n++] = b->hist[k].vsize;
		for (size_t k = 0; k < na; k++)
			if (bucket_count(b, a->hist[k].vsize) == 0)
				sizes[n++] = a->hist[k].vsize;
		qsort(sizes, n, sizeof(*sizes), cmp_u64);
		for (size_t k = 0; k < n; k++)
			add_bucket(d, &alloc, d->types[i], sizes[k],
				   bucket_count(b, sizes[k]), bucket_count(a, sizes[k]));
		free(sizes);
	}
}

/*
 * Regions are not followed by address across captures, so movement is
 * inferred from the totals: bytes a state lost went to the states that
 * gained, in the order purgeable memory ages (N to V, V to E, N to E) and
 * then back (E to N, V to N, E to V). What no other state gained was
 * freed; what no state lost was new.
 */
static void
infer_moves(struct diff_vmmap_purgeable *p)
{
	static const int order[6][2] = { { 0, 1 }, { 1, 2 }, { 0, 2 },
					 { 2, 0 }, { 1, 0 }, { 2, 1 } };
	uint64_t lost[VMMAP_PURGEABLE_STATES], gained[VMMAP_PURGEABLE_STATES];
	for (int s = 0; s < VMMAP_PURGEABLE_STATES; s++) {
		lost[s] = p->before[s] > p->after[s] ? p->before[s] - p->after[s] : 0;
		gained[s] = p->after[s] > p->before[s] ? p->after[s] - p->before[s] : 0;
	}
	for (int k = 0; k < 6; k++) {
		int from = order[k][0], to = order[k][1];
		uint64_t m = lost[from] < gained[to] ? lost[from] : gained[to];
		p->moved[from][to] = m;
		lost[from] -= m;
		gained[to] -= m;
	}
}

static int
cmp_region_start(const void *a, const void *b)
{
	const struct vmmap_purgeable_region *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->type > y->type) - (x->type < y->type);
}

/*
 * vmmap lists regions by address, so the array is usually in order already:
 * checking costs one pass where the sort cost a sixth of a folder diff, and
 * an array in order is read where it is (the copy and its zeroing were
 * another 2.5 % of a folder diff). Only a strictly increasing array skips the
 * sort, so ties are ordered by qsort exactly as before.
 */
static bool
strictly_sorted(const struct vmmap_purgeable_region *v, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (cmp_region_start(&v[i - 1], &v[i]) >= 0)
			return false;
	return true;
}

/* The dump's regions by start address: its own array when in order, else a
 * sorted copy, which *owned then holds for the caller to free. */
static const struct vmmap_purgeable_region *
regions_by_start(const struct vmmap_dump *dump, struct vmmap_purgeable_region **owned)
{
	*owned = NULL;
	if (strictly_sorted(dump->purgeable, dump->npurgeable))
		return dump->purgeable;
	/* Not in order: at least two regions, so the array is not NULL. */
	struct vmmap_purgeable_region *v = xcalloc(dump->npurgeable, sizeof(*v));
	memcpy(v, dump->purgeable, dump->npurgeable * sizeof(*v));
	qsort(v, dump->npurgeable, sizeof(*v), cmp_region_start);
	*owned = v;
	return v;
}

static struct diff_vmmap_purgeable *
purgeable_of(struct diff_vmmap *d, const char *type)
{
	for (size_t i = 0; i < d->npurgeable; i++)
		if (strcmp(d->purgeable[i].type, type) == 0)
			return &d->purgeable[i];
	return NULL;
}

/*
 * Regions at the same start address, of the same type, in both dumps:
 * the bytes they hold in both moved when their state changed. A region
 * that grew or shrank moved only what both captures saw.
 */
static void
match_moves(struct diff_vmmap *d)
{
	struct vmmap_purgeable_region *bown, *aown;
	const struct vmmap_purgeable_region *b = regions_by_start(d->before, &bown);
	const struct vmmap_purgeable_region *a = regions_by_start(d->after, &aown);
	size_t i = 0, k = 0;
	while (i < d->before->npurgeable && k < d->after->npurgeable) {
		if (b[i].start != a[k].start) {
			if (b[i].start < a[k].start)
				i++;
			else
				k++;
			continue;
		}
		const char *type = d->before->types[b[i].type].name;
		struct diff_vmmap_purgeable *p = purgeable_of(d, type);
		if (p && b[i].purge != a[k].purge &&
		    strcmp(type, d->after->types[a[k].type].name) == 0) {
			uint64_t bytes = b[i].vsize < a[k].vsize ? b[i].vsize : a[k].vsize;
			uint64_t *m = &p->moved[b[i].purge][a[k].purge];
			/* Bounded by the type's purgeable bytes, which were checked. */
			*m += bytes;
		}
		i++;
		k++;
	}
	free(bown);
	free(aown);
}

static void
collect_purgeable(struct diff_vmmap *d, bool by_address)
{
	d->purgeable = xcalloc(d->ntypes + 1, sizeof(*d->purgeable));
	for (size_t i = 0; i < d->ntypes; i++) {
		struct diff_vmmap_purgeable p = { .type = d->types[i] };
		bool any = false;
		for (int s = 0; s < VMMAP_PURGEABLE_STATES; s++) {
			p.before[s] = amounts_of(d->before, d->types[i], (enum vmmap_purge)s).vsize;
			p.after[s] = amounts_of(d->after, d->types[i], (enum vmmap_purge)s).vsize;
			any |= p.before[s] || p.after[s];
		}
		if (!any)
			continue;
		if (!by_address)
			infer_moves(&p);
		d->purgeable[d->npurgeable++] = p;
	}
	d->movement_by_address = by_address;
	if (by_address)
		match_moves(d);
}

static bool
footprint(const struct vmmap_dump *d, uint64_t *bytes)
{
	const char *t = vmmap_dump_field(d, "Physical footprint");
	return t && size_parse_vmmap(t, strlen(t), bytes) == SIZE_OK &&
	       *bytes <= BYTES_MAX;
}

const char *
diff_vmmap_summary_field(size_t f)
{
	return vmmap_fields[f].name;
}

/* The figures of a row by field (enum vmmap_metric_field) and which it has. */
static unsigned
summary_values(const struct vmmap_summary_row *r, uint64_t *v)
{
	unsigned known = 0;
	for (size_t f = 0; f < VMMAP_FIELDS; f++) {
		int col = vmmap_fields[f].summary_column;
		bool has = col < 0 ? r->has_count : (r->present & (1u << col)) != 0;
		v[f] = !has ? 0 : col < 0 ? r->count : r->value[col];
		known |= (unsigned)has << f;
	}
	return known;
}

/* The fields a table has: those some row of it prints. */
static unsigned
table_fields(const struct vmmap_dump *d)
{
	unsigned known = 0;
	uint64_t v[VMMAP_FIELDS];
	for (size_t i = 0; i < d->nrows; i++)
		known |= summary_values(&d->rows[i], v);
	return known;
}

bool
diff_vmmap_summary_known(const struct diff_vmmap_summary_row *r, size_t f)
{
	return (r->known_before & r->known_after & (1u << f)) != 0;
}

static struct diff_vmmap_summary_row *
summary_row(struct diff_vmmap *d, const char *type)
{
	for (size_t i = 0; i < d->nsrows; i++)
		if (strcmp(d->srows[i].type, type) == 0)
			return &d->srows[i];
	struct diff_vmmap_summary_row *r = &d->srows[d->nsrows++];
	memset(r, 0, sizeof(*r));
	r->type = type;
	return r;
}

/* A dump without region lines: both summary tables, row by row. */
static void
collect_summary(struct diff_vmmap *d)
{
	const struct vmmap_dump *b = d->before, *a = d->after;
	unsigned bfields = table_fields(b), afields = table_fields(a);
	d->srows = xcalloc(b->nrows + a->nrows + 1, sizeof(*d->srows));
	for (size_t i = 0; i < b->nrows; i++) {
		struct diff_vmmap_summary_row *r = summary_row(d, b->rows[i].name);
		if (!r->in_before)
			r->known_before = summary_values(&b->rows[i], r->before);
		r->in_before = true;
	}
	for (size_t i = 0; i < a->nrows; i++) {
		struct diff_vmmap_summary_row *r = summary_row(d, a->rows[i].name);
		if (!r->in_after)
			r->known_after = summary_values(&a->rows[i], r->after);
		r->in_after = true;
	}
	/* A row a table lacks: no regions of the type, 0 in the columns it has. */
	for (size_t i = 0; i < d->nsrows; i++) {
		struct diff_vmmap_summary_row *r = &d->srows[i];
		if (!r->in_before)
			r->known_before = bfields;
		if (!r->in_after)
			r->known_after = afields;
	}
}

void
diff_vmmap_compute(struct diff_vmmap *d, const struct vmmap_capture *bcap,
		   const struct vmmap_dump *before, const struct vmmap_capture *acap,
		   const struct vmmap_dump *after)
{
	memset(d, 0, sizeof(*d));
	d->before = before;
	d->after = after;
	collect_types(d, bcap, acap);
	collect_rows(d);
	collect_buckets(d);
	collect_purgeable(d, bcap->want_purgeable && acap->want_purgeable);
	d->has_footprint = footprint(before, &d->footprint_before) &&
			   footprint(after, &d->footprint_after);
	d->by_summary = (before->region_lines == 0 || after->region_lines == 0) &&
			before->nrows && after->nrows;
	if (d->by_summary)
		collect_summary(d);
}

void
diff_vmmap_release(struct diff_vmmap *d)
{
	free(d->rows);
	free(d->buckets);
	free(d->purgeable);
	free(d->types);
	free(d->srows);
	free(d->paths[0]);
	free(d->paths[1]);
	memset(d, 0, sizeof(*d));
}

bool
diff_vmmap_row_changed(const struct diff_vmmap_row *r)
{
	return memcmp(&r->before, &r->after, sizeof(r->before)) != 0;
}

bool
diff_vmmap_summary_row_changed(const struct diff_vmmap_summary_row *r)
{
	if (r->in_before != r->in_after)
		return true;
	for (size_t f = 0; f < DIFF_VMMAP_SUMMARY_FIELDS; f++)
		if (diff_vmmap_summary_known(r, f) && r->before[f] != r->after[f])
			return true;
	return false;
}

bool
diff_vmmap_changed(const struct diff_vmmap *d)
{
	for (size_t i = 0; d->by_summary && i < d->nsrows; i++)
		if (diff_vmmap_summary_row_changed(&d->srows[i]))
			return true;
	for (size_t i = 0; i < d->nrows; i++)
		if (diff_vmmap_row_changed(&d->rows[i]))
			return true;
	/* Regions that swapped states move bytes while every total stays. */
	for (size_t i = 0; i < d->npurgeable; i++)
		for (int f = 0; f < VMMAP_PURGEABLE_STATES; f++)
			for (int t = 0; t < VMMAP_PURGEABLE_STATES; t++)
				if (d->purgeable[i].moved[f][t])
					return true;
	return d->nbuckets > 0 ||
	       (d->has_footprint && d->footprint_before != d->footprint_after);
}

/* ---- metrics ---------------------------------------------------------- */

static const char *const side_name[2] = { "BEFORE", "AFTER" };

/* The column a field is printed in, for messages: "RESIDENT", "REGION COUNT". */
static const char *
column_name(size_t field)
{
	static const char *const cols[VMMAP_COL_SIZES] = {
		"VIRTUAL", "RESIDENT", "DIRTY", "SWAPPED", "VOLATILE", "NONVOL", "EMPTY",
	};
	int c = vmmap_fields[field].summary_column;
	return c < 0 ? "REGION COUNT" : cols[c];
}

static int
not_evaluable(const struct diff_vmmap *d, struct diag *err, int side, const char *what)
{
	const char *path = d->paths[side];
	diag_set(err, DIAG_OK, NULL, 0, 0, "the %s capture%s%s%s %s", side_name[side],
		 path ? " (" : "", path ? diag_display_path(path) : "", path ? ")" : "", what);
	return 1;
}

/* Do both dumps' region lines print the field's column? */
static int
lines_have_field(const struct diff_vmmap *d, size_t field,
		 struct diag *err)
{
	const struct vmmap_dump *dumps[2] = { d->before, d->after };
	unsigned need = vmmap_fields[field].line_column;
	for (int s = 0; s < 2; s++) {
		if (!dumps[s]->region_lines || dumps[s]->max_size_columns >= need)
			continue;
		char what[160];
		snprintf(what, sizeof(what), "prints %u size column%s on its region lines, "
			 "no %s column", dumps[s]->max_size_columns,
			 dumps[s]->max_size_columns == 1 ? "" : "s", column_name(field));
		return not_evaluable(d, err, s, what);
	}
	return 0;
}

static bool
type_known(const struct diff_vmmap *d, const char *type)
{
	for (size_t i = 0; i < d->ntypes; i++)
		if (strcmp(d->types[i], type) == 0)
			return true;
	return false;
}

/* Sum of one field over the requested states of a type (bounded by the dump's checked total). */
static uint64_t
metric_sum(const struct vmmap_dump *dump, const char *type, int state, size_t field)
{
	uint64_t sum = 0;
	bool capped = false;   /* never set while the dump's total bounds the sum */
	for (int p = 0; p < VMMAP_PURGE_STATES; p++)
		if (state < 0 || state == p) {
			struct vmmap_amounts a = amounts_of(dump, type, (enum vmmap_purge)p);
			bytes_add_capped(&sum, vmmap_amounts_field(&a, (enum vmmap_metric_field)field),
					 &capped);
		}
	return sum;
}

/* GPU memory: one definition, model/gpu.h. */
static bool
is_gpu_type(const char *type)
{
	return gpu_type_counts(type, strlen(type));
}

static bool
has_glob(const char *sel)
{
	return strpbrk(sel, "*?[") != NULL;
}

/*
 * Does type take part in selector `sel`? "gpu" is every GPU type; a name
 * that is a type is that type only; a glob (* ? [...]) matches whole
 * names; otherwise a substring, as `vmmap --types` selects.
 */
static bool
selects(const struct diff_vmmap *d, const char *sel, const char *type)
{
	if (strcmp(sel, "gpu") == 0)
		return is_gpu_type(type);
	if (type_known(d, sel))
		return strcmp(sel, type) == 0;
	if (has_glob(sel))
		return fnmatch(sel, type, 0) == 0;
	return strstr(type, sel) != NULL;
}

/* Sum of one field over the selected types (capped at BYTES_MAX, *capped said). */
static size_t
selection_sum(const struct diff_vmmap *d, const char *sel, int state, size_t field,
	      uint64_t *before, uint64_t *after, bool *capped)
{
	size_t n = 0;
	*before = *after = 0;
	for (size_t i = 0; i < d->ntypes; i++) {
		if (!selects(d, sel, d->types[i]))
			continue;
		n++;
		bytes_add_capped(before, metric_sum(d->before, d->types[i], state, field), capped);
		bytes_add_capped(after, metric_sum(d->after, d->types[i], state, field), capped);
	}
	return n;
}

static int
footprint_metric(const struct diff_vmmap *d, int64_t *before, int64_t *after,
		 struct diag *err)
{
	if (!d->has_footprint)
		return diag_set(err, DIAG_DATA, NULL, 0, 0,
				"metric 'vmmap:footprint': the dumps do not both print a "
				"'Physical footprint' header");
	*before = (int64_t)d->footprint_before;
	*after = (int64_t)d->footprint_after;
	return 0;
}

/* Does summary row `type` take part in selector `sel`? TOTAL rows only by name. */
static bool
summary_selects(const struct diff_vmmap *d, const char *sel, const char *type)
{
	bool exact = false;
	for (size_t i = 0; i < d->nsrows && !exact; i++)
		exact = strcmp(d->srows[i].type, sel) == 0;
	if (exact)
		return strcmp(sel, type) == 0;
	if (strncmp(type, "TOTAL", 5) == 0)
		return false;
	if (strcmp(sel, "gpu") == 0)
		return is_gpu_type(type);
	if (has_glob(sel))
		return fnmatch(sel, type, 0) == 0;
	return strstr(type, sel) != NULL;
}

static int
summary_metric(const struct diff_vmmap *d, const char *metric, int64_t *before,
	       int64_t *after, struct diag *err)
{
	const char *dot = strrchr(metric, '.');
	if (!dot || dot == metric)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"metric 'vmmap:%s' is not TYPE.FIELD", metric);
	int f = vmmap_field_find(dot + 1);
	if (f < 0 || !(vmmap_fields[f].sources & VMMAP_FROM_SUMMARY))
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"metric 'vmmap:%s': field '%s' is not in a summary table (%s)",
				metric, dot + 1, vmmap_field_list(VMMAP_FROM_SUMMARY));
	size_t field = (size_t)f;
	char *sel = xmemdup0(metric, (size_t)(dot - metric));
	size_t tlen = strlen(sel);
	int rc = 0;
	if (tlen >= 2 && sel[tlen - 2] == ':' && vmmap_purge_from_char(sel[tlen - 1]) >= 0) {
		rc = diag_set(err, DIAG_USAGE, NULL, 0, 0,
			      "metric 'vmmap:%s': a summary-only dump has no purge states",
			      metric);
		goto out;
	}
	uint64_t b = 0, a = 0;
	bool capped = false;
	size_t n = 0;
	for (size_t i = 0; i < d->nsrows; i++) {
		const struct diff_vmmap_summary_row *r = &d->srows[i];
		if (!summary_selects(d, sel, r->type))
			continue;
		n++;
		unsigned known[2] = { r->known_before, r->known_after };
		for (int side = 0; side < 2 && !diff_vmmap_summary_known(r, field); side++) {
			if (known[side] & (1u << field))
				continue;
			char what[200];
			snprintf(what, sizeof(what), "has no %s figure for '%s' (its summary "
				 "table has no %s column there)", vmmap_fields[field].name,
				 r->type, column_name(field));
			rc = not_evaluable(d, err, side, what);
			goto out;
		}
		bytes_add_capped(&b, r->before[field], &capped);
		bytes_add_capped(&a, r->after[field], &capped);
	}
	if (n == 0 && strcmp(sel, "gpu") != 0) {
		struct suggest s;
		suggest_init(&s, sel, strlen(sel));
		for (size_t i = 0; i < d->nsrows; i++)
			suggest_consider(&s, d->srows[i].type, strlen(d->srows[i].type));
		rc = diag_set(err, DIAG_DATA, NULL, 0, 0,
			      "metric 'vmmap:%s': neither summary table has a row matching '%s'",
			      metric, sel);
		diff_diag_add_suggestion(err, &s);
		goto out;
	}
	*before = (int64_t)b;
	*after = (int64_t)a;
out:
	free(sel);
	return rc;
}

/* A metric of region lines, "<Type>[:<N|V|E|->].<field>", in its parts. */
struct lines_metric {
	size_t field;            /* enum vmmap_metric_field */
	int state;               /* enum vmmap_purge, or -1: every state */
	size_t tlen;             /* the length of <Type> */
};

/* 0, or -1 with a DIAG_USAGE *err naming the part that is wrong. */
static int
lines_metric_parse(const char *metric, struct lines_metric *m, struct diag *err)
{
	const char *dot = strrchr(metric, '.');
	const char *fields = vmmap_field_list(VMMAP_FROM_LINES);
	if (!dot)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"metric 'vmmap:%s' has no '.FIELD' (%s)", metric, fields);
	int f = vmmap_field_find(dot + 1);
	if (f < 0 || !(vmmap_fields[f].sources & VMMAP_FROM_LINES))
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"metric 'vmmap:%s': field '%s' is not %s", metric, dot + 1,
				fields);
	m->field = (size_t)f;
	m->tlen = (size_t)(dot - metric);
	m->state = -1;
	if (m->tlen >= 2 && metric[m->tlen - 2] == ':') {
		m->state = vmmap_purge_from_char(metric[m->tlen - 1]);
		if (m->state < 0)
			return diag_set(err, DIAG_USAGE, NULL, 0, 0,
					"metric 'vmmap:%s': purge state '%c' is not N, V, E or '-'",
					metric, metric[m->tlen - 1]);
		m->tlen -= 2;
	}
	if (m->tlen == 0)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"metric 'vmmap:%s' names no region type", metric);
	return 0;
}

const struct diff_vmmap_row *
diff_vmmap_metric_grew_most(const struct diff_vmmap *d, const char *metric, int *field)
{
	struct lines_metric m;
	struct diag err;
	if (d->by_summary || strcmp(metric, DIFF_VMMAP_METRIC_FOOTPRINT) == 0 ||
	    lines_metric_parse(metric, &m, &err) < 0)
		return NULL;
	char *sel = xmemdup0(metric, m.tlen);
	const struct diff_vmmap_row *most = NULL;
	int64_t most_delta = 0;
	for (size_t i = 0; i < d->nrows; i++) {
		const struct diff_vmmap_row *r = &d->rows[i];
		if ((m.state >= 0 && (int)r->purge != m.state) || !selects(d, sel, r->type))
			continue;
		int64_t delta = 0;
		enum vmmap_metric_field f = (enum vmmap_metric_field)m.field;
		if (diff_delta_u64(vmmap_amounts_field(&r->before, f),
				   vmmap_amounts_field(&r->after, f), &delta) == 0 &&
		    delta > most_delta) {
			most = r;
			most_delta = delta;
		}
	}
	free(sel);
	*field = (int)m.field;
	return most;
}

int
diff_vmmap_metric(const struct diff_vmmap *d, const char *metric,
		  int64_t *before, int64_t *after, struct diag *err)
{
	if (strcmp(metric, DIFF_VMMAP_METRIC_FOOTPRINT) == 0)
		return footprint_metric(d, before, after, err);
	/* An excerpt (grepped rows or region lines), or JSON made for other
	 * types, that lists no GPU type says nothing of GPU memory: a gate on
	 * the gpu family is not evaluable, never 0 against 0. (A type named
	 * outright that neither lists is an error of its own below.) */
	const struct vmmap_dump *dumps[2] = { d->before, d->after };
	bool family = strncmp(metric, "gpu.", 4) == 0 || strncmp(metric, "gpu:", 4) == 0;
	for (int s = 0; family && s < 2; s++)
		if (!vmmap_dump_gpu_absence_known(dumps[s])) {
			char why[160];
			snprintf(why, sizeof(why), "is %s that lists no GPU type",
				 vmmap_dump_gpu_unknown_why(dumps[s]));
			return not_evaluable(d, err, s, why);
		}
	if (d->by_summary)
		return summary_metric(d, metric, before, after, err);
	struct lines_metric m;
	if (lines_metric_parse(metric, &m, err) < 0)
		return -1;
	size_t field = m.field, tlen = m.tlen;
	int state = m.state;
	int rc = lines_have_field(d, field, err);
	if (rc != 0)
		return rc;
	char *sel = xmemdup0(metric, tlen);
	uint64_t b, a;
	bool capped = false;   /* each dump's types sum to at most its own capped totals */
	/* "gpu" with no GPU type in either dump is 0 -> 0: the budget holds. */
	if (selection_sum(d, sel, state, field, &b, &a, &capped) == 0 &&
	    strcmp(sel, "gpu") != 0) {
		struct suggest s;
		suggest_init(&s, sel, tlen);
		for (size_t i = 0; i < d->ntypes; i++)
			suggest_consider(&s, d->types[i], strlen(d->types[i]));
		rc = diag_set(err, DIAG_DATA, NULL, 0, 0,
			      "metric 'vmmap:%s': neither capture has regions of a type "
			      "matching '%s' (a type name, a substring of one, or a glob)",
			      metric, sel);
		diff_diag_add_suggestion(err, &s);
	} else {
		*before = (int64_t)b;
		*after = (int64_t)a;
	}
	free(sel);
	return rc;
}

bool
diff_vmmap_metric_is_bytes(const char *metric)
{
	/* The field's unit in the descriptor table; "footprint" names none. */
	const char *dot = strrchr(metric, '.');
	int f = dot ? vmmap_field_find(dot + 1) : -1;
	return f < 0 || vmmap_fields[f].unit == METRIC_BYTES;
}

/* ---- comparability ---------------------------------------------------- */

/* "macOS 26.6 (25G72)": the version before " (", the build inside. */
static void
split_os(const char *s, size_t *vlen, const char **build, size_t *blen)
{
	const char *open = strstr(s, " (");
	const char *close = open ? strchr(open, ')') : NULL;
	*vlen = open ? (size_t)(open - s) : strlen(s);
	*build = close ? open + 2 : NULL;
	*blen = close ? (size_t)(close - open - 2) : 0;
}

static void
differ(struct diag_list *w, const char *what, const char *b, const char *a)
{
	diag_list_add(w, DIAG_WARNING, NULL, 0,
		      "the captures are of different %s ('%s' before, '%s' after): "
		      "the diff may not mean what it seems", what, b, a);
}

void
diff_vmmap_comparability(const struct diff_vmmap *d, const char *before_path,
			 const char *after_path, struct diag_list *w)
{
	const struct vmmap_dump *b = d->before, *a = d->after;
	if (b->process && a->process && strcmp(b->process, a->process) != 0)
		differ(w, "processes", b->process, a->process);
	const char *bo = vmmap_dump_field(b, "OS Version"), *ao = vmmap_dump_field(a, "OS Version");
	if (bo && ao && strcmp(bo, ao) != 0) {
		size_t bv, av, bbl, abl;
		const char *bb, *ab;
		split_os(bo, &bv, &bb, &bbl);
		split_os(ao, &av, &ab, &abl);
		if (bv != av || memcmp(bo, ao, bv) != 0)
			differ(w, "OS versions", bo, ao);
		else
			differ(w, "kernel builds", bo, ao);
	}
	if (b->page_size && a->page_size && b->page_size != a->page_size)
		diag_list_add(w, DIAG_WARNING, NULL, 0,
			      "the captures have different page sizes (%" PRIu64 " before, %"
			      PRIu64 " after): region sizes are not comparable",
			      b->page_size, a->page_size);
	const char *bd = vmmap_dump_field(b, "Date/Time"), *ad = vmmap_dump_field(a, "Date/Time");
	int64_t bt, at;
	if (bd && ad && datetime_parse(bd, &bt) && datetime_parse(ad, &at) && at < bt)
		diag_list_add(w, DIAG_WARNING, NULL, 0,
			      "AFTER (%s, %s) was captured before BEFORE (%s, %s): are the "
			      "arguments the wrong way round?", diag_display_path(after_path),
			      ad, diag_display_path(before_path), bd);
}

void
diff_vmmap_side_init(struct diff_vmmap_side *s)
{
	memset(s, 0, sizeof(*s));
	vmmap_capture_init(&s->cap);
}

void
diff_vmmap_side_release(struct diff_vmmap_side *s)
{
	vmmap_capture_release(&s->cap);
	s->dump = NULL;
}

static void
process_text(const struct vmmap_dump *d, char *out, size_t n)
{
	if (d->process && d->has_pid)
		snprintf(out, n, "%s [%" PRIu64 "]", d->process, d->pid);
	else
		snprintf(out, n, "%s", d->process ? d->process : "unnamed process");
}

int
diff_vmmap_side_pick(struct diff_vmmap_side *s, const char *path,
		     const struct diff_options *opts, struct diag_list *notes,
		     struct diag *err)
{
	size_t i;
	if (capture_pick_nth(s->cap.ndumps, opts->has_dump ? opts->dump : 0, "--dump",
			     "vmmap dump", path, &i, err) < 0)
		return -1;
	s->dump = s->cap.dumps[i];
	if (s->cap.ndumps > 1) {
		char proc[256];
		process_text(s->dump, proc, sizeof(proc));
		diag_list_add(notes, DIAG_NOTE, path, 0,
			      "holds %zu dumps; comparing dump %zu (%s)%s", s->cap.ndumps, i + 1,
			      proc, opts->has_dump ? "" : "; --dump N picks another");
	}
	return 0;
}

void
diff_vmmap_pair_init(struct diff_vmmap_pair *p)
{
	memset(p, 0, sizeof(*p));
	diff_vmmap_side_init(&p->before);
	diff_vmmap_side_init(&p->after);
}

void
diff_vmmap_pair_release(struct diff_vmmap_pair *p)
{
	diff_vmmap_release(&p->diff);
	diff_vmmap_side_release(&p->before);
	diff_vmmap_side_release(&p->after);
}

int
diff_vmmap_pair_compare(struct diff_vmmap_pair *p, const char *before_path,
			const char *after_path, const struct diff_options *opts,
			struct diag_list *notes, struct diag *err)
{
	if (diff_vmmap_side_pick(&p->before, before_path, opts, notes, err) < 0 ||
	    diff_vmmap_side_pick(&p->after, after_path, opts, notes, err) < 0)
		return -1;
	diff_vmmap_compute(&p->diff, &p->before.cap, p->before.dump, &p->after.cap,
			   p->after.dump);
	p->diff.paths[0] = before_path ? xstrdup(before_path) : NULL;
	p->diff.paths[1] = after_path ? xstrdup(after_path) : NULL;
	return 0;
}

/* ---- labels ------------------------------------------------------------ */

/* The purge state's word in a label ("N" -> "non-volatile "), "" unpurgeable. */
static const char *
state_word(char c)
{
	switch (c) {
	case 'N':
		return "non-volatile ";
	case 'V':
		return "volatile ";
	case 'E':
		return "empty ";
	default:
		return "";
	}
}

void
diff_vmmap_metric_label(const char *kind, const char *metric, char *out, size_t size)
{
	(void)kind;
	/* <Type>:<S>.<field>, gpu.<field>, footprint */
	const char *dot = strrchr(metric, '.'), *sc = strrchr(metric, ':');
	if (sc && dot && dot == sc + 2)
		snprintf(out, size, "%.*s %s%s", (int)(sc - metric), metric, state_word(sc[1]),
			 dot + 1);
	else if (strncmp(metric, "gpu.", 4) == 0)
		snprintf(out, size, "GPU %s (vmmap)", metric + 4);
	else if (strcmp(metric, DIFF_VMMAP_METRIC_FOOTPRINT) == 0)
		snprintf(out, size, "physical footprint (vmmap)");
	else
		snprintf(out, size, "%s", metric);
}
