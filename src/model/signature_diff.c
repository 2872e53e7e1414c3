/*
 * What grew, kind by kind, as signature components. The thresholds and
 * key spellings are the rule's (model/signature.h): changing one is a new
 * SIGNATURE_RULE.
 */

#include "model/signature_diff.h"

#include "model/gpu.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Regions and bytes of one (purge state, size bucket) group of one side. */
struct gpu_group {
	uint64_t count[2];
	uint64_t bytes[2];
};

#define GPU_BUCKETS 64

static uint64_t
sat_mul(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

static uint64_t
sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static void
gpu_side(const struct vmmap_type_stats *t, int side, struct gpu_group g[2][GPU_BUCKETS])
{
	for (size_t i = 0; t && i < t->nhist; i++) {
		const struct vmmap_hist_bucket *h = &t->hist[i];
		unsigned b = signature_size_bucket(h->vsize);
		static const enum vmmap_purge kept[2] = { VMMAP_PURGE_N, VMMAP_PURGE_NONE };
		for (int k = 0; k < 2; k++) {
			uint64_t n = h->purge[kept[k]];
			g[k][b].count[side] = sat_add(g[k][b].count[side], n);
			g[k][b].bytes[side] = sat_add(g[k][b].bytes[side], sat_mul(n, h->vsize));
		}
	}
}

static const struct vmmap_type_stats *
type_in(const struct vmmap_dump *d, const char *name)
{
	const size_t *i = strmap_get(&d->type_index, name, strlen(name));
	return i ? &d->types[*i] : NULL;
}

/* One GPU type: its groups that grew past the thresholds. */
static void
gpu_type(struct signature *s, const char *name, const struct vmmap_type_stats *bt,
	 const struct vmmap_type_stats *at)
{
	/* [0]: PURGE=N, [1]: not purgeable ('-'); by size bucket. */
	struct gpu_group (*g)[GPU_BUCKETS] = xcalloc(2, sizeof(*g));
	gpu_side(bt, 0, g);
	gpu_side(at, 1, g);
	for (int k = 0; k < 2; k++) {
		for (unsigned b = 0; b < GPU_BUCKETS; b++) {
			const struct gpu_group *x = &g[k][b];
			if (x->count[1] <= x->count[0] || x->bytes[1] <= x->bytes[0])
				continue;
			uint64_t dn = x->count[1] - x->count[0], db = x->bytes[1] - x->bytes[0];
			if (!(db >= SIGNATURE_GPU_BYTES ||
			      (dn >= SIGNATURE_GPU_UNITS && db >= SIGNATURE_GPU_UNITS_BYTES)))
				continue;
			char unit[16];
			char purge = k == 0 ? 'N' : '-';
			signature_bucket_text(b, unit, sizeof(unit));
			struct strbuf key = STRBUF_INIT;
			strbuf_addf(&key, "%s/%c/%s", name, purge, unit);
			signature_add(s, SIGNATURE_GPU, key.buf, db, dn);
			strbuf_release(&key);
		}
	}
	free(g);
}

void
signature_add_vmmap(struct signature *s, const struct diff_vmmap *d)
{
	if (!d->before || !d->after)
		return;
	signature_set_meta(&s->os_version, vmmap_dump_field(d->after, "OS Version"));
	signature_set_meta(&s->captured, vmmap_dump_field(d->after, "Date/Time"));
	if (d->by_summary)
		return;
	/* Every GPU type either side has, each once. */
	for (int side = 0; side < 2; side++) {
		const struct vmmap_dump *dump = side ? d->after : d->before;
		for (size_t i = 0; i < dump->ntypes; i++) {
			const struct vmmap_type_stats *t = &dump->types[i];
			if (!t->gpu || (side == 1 && type_in(d->before, t->name)))
				continue;
			gpu_type(s, t->name, type_in(d->before, t->name), type_in(d->after, t->name));
		}
	}
}

/* Containers grow as a side effect of the object that holds them. */
static bool
is_container(const char *name)
{
	static const char *const generic[] = {
		"OSDictionary", "OSArray", "OSData", "OSString", "OSSymbol",
		"OSNumber", "OSSet", "OSOrderedSet", "OSBoolean",
	};
	for (size_t i = 0; i < sizeof(generic) / sizeof(generic[0]); i++)
		if (strcmp(name, generic[i]) == 0)
			return true;
	return false;
}

static bool
class_grew(const struct diff_classes_row *r)
{
	if (r->delta_overflow || !r->in_after || r->delta < SIGNATURE_CLASS_MIN)
		return false;
	/* 10 % of BEFORE, exactly: delta * 10 >= before. */
	int64_t before = r->before > 0 ? r->before : 0;
	return (uint64_t)r->delta >= (uint64_t)before / 10 + ((uint64_t)before % 10 != 0);
}

void
signature_add_classes(struct signature *s, const struct diff_classes *d)
{
	for (int pass = 0; pass < 2; pass++) {
		size_t added = 0;
		for (size_t i = 0; i < d->nrows; i++) {
			const struct diff_classes_row *r = &d->rows[i];
			if (!class_grew(r) || is_container(r->name) != (pass == 1))
				continue;
			struct strbuf key = STRBUF_INIT;
			strbuf_addf(&key, "+%s", r->name);
			signature_add(s, SIGNATURE_CLASS, key.buf, 0, (uint64_t)r->delta);
			strbuf_release(&key);
			added++;
		}
		if (added)
			return;
	}
}

void
signature_add_track(struct signature *s, const struct diff_track *d)
{
	for (size_t i = 0; i < d->nsites; i++) {
		const struct diff_track_site *site = &d->sites[i];
		enum diff_track_change ch = diff_track_site_change(d, site);
		if (ch != DIFF_TRACK_NEW && ch != DIFF_TRACK_GROWN)
			continue;
		const struct diff_track_figures *f0 = diff_track_site_side(d, site, 0);
		const struct diff_track_figures *f1 = diff_track_site_side(d, site, 1);
		uint64_t b0 = f0->bytes, b1 = f1->bytes;
		if (b1 <= b0 || b1 - b0 < SIGNATURE_TRACK_BYTES)
			continue;
		size_t at = site->charged == DIFF_TRACK_NO_FRAME ? 0 : site->charged;
		if (site->nframes == 0)
			continue;
		const struct diff_track_frame *f = &d->frames[diff_track_site_frame(site, at)];
		char sym[256] = "";
		if (f->symbol)
			signature_symbol_text(f->symbol, f->symbol_len, sym, sizeof(sym));
		struct strbuf key = STRBUF_INIT;
		strbuf_addf(&key, "%s%.*s!%s", site->mapping ? "map:" : "", (int)f->module_len,
			    f->module, sym);
		int64_t dc = f1->count - f0->count;
		signature_add(s, SIGNATURE_TRACK, key.buf, b1 - b0, dc > 0 ? (uint64_t)dc : 0);
		strbuf_release(&key);
	}
}

void
signature_add_footprint(struct signature *s, const struct diff_footprint *d)
{
	for (size_t i = 0; i < d->nrows; i++) {
		const struct diff_footprint_row *r = &d->rows[i];
		if (!r->category || r->field != FOOTPRINT_DIRTY || !r->has_delta || r->delta <= 0)
			continue;
		uint64_t delta = (uint64_t)r->delta, before = r->before.value;
		/* 20 % of BEFORE: delta * 5 >= before. */
		if (delta < SIGNATURE_FP_BYTES || delta < before / 5 + (before % 5 != 0))
			continue;
		signature_add(s, SIGNATURE_FP, r->category, delta, 0);
	}
}
