#include "model/diff_track.h"

#include "model/diff.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
diff_track_init(struct diff_track *d, bool match_offsets)
{
	memset(d, 0, sizeof(*d));
	d->match_offsets = match_offsets;
	strmap_init(&d->site_index);
	strmap_init(&d->frame_index);
	strmap_init(&d->module_index);
	strmap_init(&d->label_index);
	d->vias = xcalloc(1, sizeof(*d->vias));
	strbuf_init(&d->key);
	strbuf_init(&d->frame_key);
}

void
diff_track_release(struct diff_track *d)
{
	for (size_t i = 0; i < d->nsites; i++)
		free(d->sites[i].frames);
	free(d->sites);
	for (size_t i = 0; i < d->nframes; i++) {
		free(d->frames[i].module);
		free(d->frames[i].symbol);
	}
	free(d->frames);
	for (size_t i = 0; i < d->nmodules; i++)
		free(d->modules[i].name);
	free(d->modules);
	strmap_release(&d->site_index);
	strmap_release(&d->frame_index);
	strmap_release(&d->module_index);
	strmap_release(&d->label_index);
	if (d->vias)
		free(d->vias->via);
	free(d->vias);
	strbuf_release(&d->key);
	strbuf_release(&d->frame_key);
	memset(d, 0, sizeof(*d));
}

/* Length-prefixed pieces: no byte a name may hold can make two keys collide. */
static void
key_add(struct strbuf *key, const void *p, size_t n)
{
	uint64_t len = n;
	strbuf_add(key, &len, sizeof(len));
	strbuf_add(key, p, n);
}

/* The id of a frame as the diff matches it, added when new. */
static uint32_t
frame_id(struct diff_track *d, const struct track_record *r, const struct track_frame *f)
{
	struct diff_track_frame fr = { 0 };
	const char *cls;
	size_t cl;
	bool created;
	fr.has_offset = d->match_offsets && f->has_offset && f->symbol.len;
	fr.offset = fr.has_offset ? f->offset : 0;
	fr.address = f->symbol.len ? 0 : f->address;
	fr.metaclass = track_frame_metaclass(r, f, &cls, &cl);
	strbuf_reset(&d->frame_key);
	key_add(&d->frame_key, track_str(r, f->module), f->module.len);
	key_add(&d->frame_key, track_str(r, f->symbol), f->symbol.len);
	key_add(&d->frame_key, &fr.address, sizeof(fr.address));
	strbuf_addch(&d->frame_key, fr.has_offset);
	key_add(&d->frame_key, &fr.offset, sizeof(fr.offset));
	size_t *idx = strmap_put(&d->frame_index, d->frame_key.buf, d->frame_key.len, &created);
	if (created) {
		fr.module = xmemdup0(track_str(r, f->module), f->module.len);
		fr.symbol = f->symbol.len ? xmemdup0(track_str(r, f->symbol), f->symbol.len) : NULL;
		d->frames = xgrow(d->frames, &d->frames_alloc, d->nframes + 1, sizeof(*d->frames));
		d->frames[d->nframes] = fr;
		*idx = d->nframes++;
	}
	return (uint32_t)*idx;
}

/* The frame a site is charged to (as track_record_module), else the innermost. */
static size_t
charged_frame(const struct track_record *r)
{
	for (size_t i = 0; i < r->nframes; i++) {
		const struct track_frame *f = &r->frames[i];
		const char *cls;
		size_t cl;
		if (!track_frame_is_user(r, f) && !track_frame_metaclass(r, f, &cls, &cl) &&
		    !track_frame_is_kernel(r, f))
			return i;
	}
	return r->nframes ? 0 : SIZE_MAX;
}

static struct diff_track_module *
module_get(struct diff_track *d, const char *name, size_t n, size_t *index)
{
	bool created;
	size_t *idx = strmap_put(&d->module_index, name, n, &created);
	if (created) {
		d->modules = xgrow(d->modules, &d->modules_alloc, d->nmodules + 1,
				   sizeof(*d->modules));
		memset(&d->modules[d->nmodules], 0, sizeof(*d->modules));
		d->modules[d->nmodules].name = xmemdup0(name, n);
		*idx = d->nmodules++;
	}
	*index = *idx;
	return &d->modules[*idx];
}

static void base_label(const struct diff_track *d, const struct diff_track_site *s,
		       struct strbuf *out);

/* Chain a new site to the sites that have its label (first one kept in label_index). */
static void
link_twins(struct diff_track *d, size_t site)
{
	struct strbuf label = STRBUF_INIT;
	bool created;
	d->sites[site].twin = SIZE_MAX;
	base_label(d, &d->sites[site], &label);
	size_t *first = strmap_put(&d->label_index, label.buf, label.len, &created);
	if (created) {
		*first = site;
	} else {
		d->sites[site].twin = d->sites[*first].twin;
		d->sites[*first].twin = site;
	}
	strbuf_release(&label);
}

static struct diff_track_site *
site_get(struct diff_track *d, const struct track_record *r)
{
	bool created;
	strbuf_reset(&d->key);
	strbuf_addch(&d->key, r->type == TRACK_RECORD_MAP ? 'M' : 'A');
	for (size_t i = 0; i < r->nframes; i++) {
		uint32_t id = frame_id(d, r, &r->frames[i]);
		strbuf_add(&d->key, &id, sizeof(id));
	}
	size_t *idx = strmap_put(&d->site_index, d->key.buf, d->key.len, &created);
	if (created) {
		struct diff_track_site s = { 0 };
		size_t mlen;
		const char *m = track_record_module(r, &mlen);
		s.nframes = r->nframes;
		s.frames = xmalloc(d->key.len);
		memcpy(s.frames, d->key.buf + 1, d->key.len - 1);
		s.charged = charged_frame(r);
		s.mapping = r->type == TRACK_RECORD_MAP;
		module_get(d, m, mlen, &s.module);
		d->sites = xgrow(d->sites, &d->sites_alloc, d->nsites + 1, sizeof(*d->sites));
		d->sites[d->nsites] = s;
		*idx = d->nsites++;
		link_twins(d, *idx);
	}
	return &d->sites[*idx];
}

int
diff_track_add_record(struct diff_track *d, int side, const struct track_record *r,
		      const char *path, struct diag *err)
{
	struct diff_track_site *s = site_get(d, r);
	struct diff_track_module *mod = &d->modules[s->module];
	int64_t c = r->type == TRACK_RECORD_MAP ? 1 : r->count;
	if (s->side[side].records == 0)
		d->nsites_side[side]++;
	if (!bytes_add(&s->side[side].bytes, r->bytes) ||
	    !bytes_add(&mod->bytes[side], r->bytes) || !bytes_add(&d->total[side], r->bytes) ||
	    __builtin_add_overflow(s->side[side].count, c, &s->side[side].count))
		return diag_set(err, DIAG_DATA, path, r->line, 0,
				"byte counts of the capture add up past 2^63");
	s->side[side].records++;
	mod->records[side]++;
	d->records[side]++;
	return 0;
}

/* ---- text of a site ---------------------------------------------------- */

uint32_t
diff_track_site_frame(const struct diff_track_site *s, size_t i)
{
	uint32_t id;
	memcpy(&id, (const char *)s->frames + i * sizeof(id), sizeof(id));
	return id;
}

void
diff_track_frame_text(const struct diff_track *d, uint32_t id, struct strbuf *out)
{
	const struct diff_track_frame *f = &d->frames[id];
	if (f->symbol)
		strbuf_addstr(out, f->symbol);
	else
		strbuf_addf(out, "0x%" PRIx64, f->address);
	if (f->has_offset)
		strbuf_addf(out, " + 0x%" PRIx64, f->offset);
	strbuf_addf(out, " (%s)", f->module);
}

static void
base_label(const struct diff_track *d, const struct diff_track_site *s, struct strbuf *out)
{
	if (s->charged == SIZE_MAX) {
		strbuf_addstr(out, "[no frames]");
		return;
	}
	const struct diff_track_frame *f = &d->frames[diff_track_site_frame(s, s->charged)];
	strbuf_addf(out, "%s: ", f->module);
	if (f->symbol)
		strbuf_addstr(out, f->symbol);
	else
		strbuf_addf(out, "0x%" PRIx64, f->address);
}

/* The first frame index where two backtraces differ (the shorter length when one
 * is the start of the other). */
static size_t
first_difference(const struct diff_track_site *s, const struct diff_track_site *t)
{
	size_t i = 0;
	while (i < s->nframes && i < t->nframes &&
	       diff_track_site_frame(s, i) == diff_track_site_frame(t, i))
		i++;
	return i;
}

/* Backtraces in lexicographic order of their frame ids (a prefix first). */
static int
cmp_backtraces(const void *a, const void *b)
{
	const struct diff_track_site *s = *(const struct diff_track_site *const *)a;
	const struct diff_track_site *t = *(const struct diff_track_site *const *)b;
	size_t i = first_difference(s, t);
	if (i < s->nframes && i < t->nframes)
		return diff_track_site_frame(s, i) < diff_track_site_frame(t, i) ? -1 : 1;
	return s->nframes < t->nframes ? -1 : s->nframes > t->nframes;
}

/* Twins of one kind (allocation or mapping) from the chain starting at head. */
static size_t
collect_twins(const struct diff_track *d, size_t head, bool mapping, bool *seen,
	      const struct diff_track_site ***group, size_t *alloc)
{
	size_t n = 0;
	for (size_t t = head; t != SIZE_MAX; t = d->sites[t].twin) {
		if (d->sites[t].mapping != mapping)
			continue;
		seen[t] = true;
		*group = xgrow(*group, alloc, n + 1, sizeof(**group));
		(*group)[n++] = &d->sites[t];
	}
	return n;
}

/*
 * Where a site parts from the others with its label is its longest common
 * prefix with any of them; in lexicographic order that is the longer of
 * its prefixes with its two neighbours. So each group is sorted once.
 */
static void
compute_vias(const struct diff_track *d)
{
	struct diff_track_vias *v = d->vias;
	bool *seen = xcalloc(d->nsites ? d->nsites : 1, sizeof(*seen));
	const struct diff_track_site **group = NULL;
	size_t alloc = 0;
	v->via = xrealloc(v->via, (d->nsites ? d->nsites : 1) * sizeof(*v->via));
	for (size_t i = 0; i < d->nsites; i++)
		v->via[i] = SIZE_MAX;
	/* A chain's first site has the lowest index: the first unseen one is a head. */
	for (size_t i = 0; i < d->nsites; i++) {
		if (seen[i])
			continue;
		for (int mapping = 0; mapping < 2; mapping++) {
			size_t n = collect_twins(d, i, mapping, seen, &group, &alloc);
			if (n < 2)
				continue;
			qsort(group, n, sizeof(*group), cmp_backtraces);
			for (size_t k = 0; k < n; k++) {
				size_t best = k ? first_difference(group[k], group[k - 1]) : 0;
				if (k + 1 < n && first_difference(group[k], group[k + 1]) > best)
					best = first_difference(group[k], group[k + 1]);
				v->via[group[k] - d->sites] = best;
			}
		}
	}
	v->n = d->nsites;
	free(group);
	free(seen);
}

void
diff_track_site_label(const struct diff_track *d, const struct diff_track_site *s,
		      struct strbuf *out)
{
	base_label(d, s, out);
	if (d->vias->n != d->nsites)
		compute_vias(d);
	size_t via = d->vias->via[s - d->sites];
	if (via == SIZE_MAX)
		return;
	if (via < s->nframes) {
		strbuf_addf(out, " via frame %zu: ", via);
		diff_track_frame_text(d, diff_track_site_frame(s, via), out);
	} else {
		strbuf_addf(out, " via frame %zu: (the backtrace ends)", via);
	}
}

/* As track_frame_folded_name(): symbol, else module, else "[unknown]". */
static void
folded_name(const struct diff_track_frame *f, struct strbuf *out)
{
	const char *name = f->symbol ? f->symbol : f->module;
	if (!*name)
		name = "[unknown]";
	for (; *name; name++)
		strbuf_addch(out, *name == ';' ? ':' : *name == '\t' ? ' ' : *name);
}

bool
diff_track_frame_folded(const struct diff_track *d, uint32_t id, struct strbuf *out)
{
	const struct diff_track_frame *f = &d->frames[id];
	if (f->metaclass)
		return false;
	folded_name(f, out);
	return true;
}

void
diff_track_site_folded(const struct diff_track *d, const struct diff_track_site *s,
		       struct strbuf *out)
{
	size_t start = out->len;
	for (size_t i = s->nframes; i-- > 0;) {
		const struct diff_track_frame *f = &d->frames[diff_track_site_frame(s, i)];
		if (f->metaclass)
			continue;
		if (out->len > start)
			strbuf_addch(out, ';');
		folded_name(f, out);
	}
	if (out->len == start)
		strbuf_addstr(out, "[no frames]");
}

int
diff_track_add_capture(struct diff_track *d, int side, const struct track_capture *cap,
		       const char *path, struct diag *err)
{
	int rc = 0;
	struct track_record rec;
	track_record_init(&rec);
	for (size_t i = 0; i < track_listing_count(&cap->listing) && rc == 0; i++)
		if ((rc = track_listing_read(&cap->listing, i, &rec, err)) == 0)
			rc = diff_track_add_record(d, side, &rec, path, err);
	track_record_release(&rec);
	return rc;
}

enum diff_track_change
diff_track_site_change(const struct diff_track_site *s)
{
	const struct diff_track_figures *b = &s->side[0], *a = &s->side[1];
	if (b->records == 0)
		return DIFF_TRACK_NEW;
	if (a->records == 0)
		return DIFF_TRACK_GONE;
	if (a->bytes > b->bytes || (a->bytes == b->bytes && a->count > b->count))
		return DIFF_TRACK_GROWN;
	if (a->bytes < b->bytes || a->count < b->count)
		return DIFF_TRACK_SHRUNK;
	return DIFF_TRACK_SAME;
}

const char *
diff_track_change_name(enum diff_track_change c)
{
	static const char *const names[] = { "new", "grown", "shrunk", "gone", "same" };
	return names[c];
}

bool
diff_track_changed(const struct diff_track *d)
{
	for (size_t i = 0; i < d->nsites; i++)
		if (diff_track_site_change(&d->sites[i]) != DIFF_TRACK_SAME)
			return true;
	return false;
}

static uint64_t
abs_delta(uint64_t b, uint64_t a)
{
	return a > b ? a - b : b - a;
}

struct site_sort {
	const struct diff_track *d;
	const struct diff_track_site *s;
	char *label;
};

static int
cmp_frames(const struct diff_track *d, const struct diff_track_site *s,
	   const struct diff_track_site *t)
{
	for (size_t i = 0; i < s->nframes && i < t->nframes; i++) {
		const struct diff_track_frame *f = &d->frames[diff_track_site_frame(s, i)];
		const struct diff_track_frame *g = &d->frames[diff_track_site_frame(t, i)];
		int c = strcmp(f->module, g->module);
		if (!c)
			c = strcmp(f->symbol ? f->symbol : "", g->symbol ? g->symbol : "");
		if (!c && f->address != g->address)
			c = f->address < g->address ? -1 : 1;
		if (!c && f->offset != g->offset)
			c = f->offset < g->offset ? -1 : 1;
		if (c)
			return c;
	}
	if (s->nframes != t->nframes)
		return s->nframes < t->nframes ? -1 : 1;
	return s->mapping - t->mapping;
}

static int
cmp_site(const void *x, const void *y)
{
	const struct site_sort *a = x, *b = y;
	const struct diff_track_site *s = a->s, *t = b->s;
	enum diff_track_change cs = diff_track_site_change(s), ct = diff_track_site_change(t);
	if (cs != ct)
		return cs < ct ? -1 : 1;
	uint64_t ds = abs_delta(s->side[0].bytes, s->side[1].bytes);
	uint64_t dt = abs_delta(t->side[0].bytes, t->side[1].bytes);
	if (ds != dt)
		return ds > dt ? -1 : 1;
	if (s->side[1].bytes != t->side[1].bytes)
		return s->side[1].bytes > t->side[1].bytes ? -1 : 1;
	int c = strcmp(a->label, b->label);
	return c ? c : cmp_frames(a->d, s, t);
}

size_t
diff_track_sorted_sites(const struct diff_track *d, const struct diff_track_site ***out)
{
	struct site_sort *v = xcalloc(d->nsites + 1, sizeof(*v));
	const struct diff_track_site **r = xcalloc(d->nsites + 1, sizeof(*r));
	for (size_t i = 0; i < d->nsites; i++) {
		struct strbuf sb = STRBUF_INIT;
		diff_track_site_label(d, &d->sites[i], &sb);
		v[i] = (struct site_sort){ d, &d->sites[i], strbuf_detach(&sb, NULL) };
	}
	qsort(v, d->nsites, sizeof(*v), cmp_site);
	for (size_t i = 0; i < d->nsites; i++) {
		r[i] = v[i].s;
		free(v[i].label);
	}
	free(v);
	*out = r;
	return d->nsites;
}

static int
cmp_module(const void *x, const void *y)
{
	const struct diff_track_module *m = *(const struct diff_track_module *const *)x;
	const struct diff_track_module *n = *(const struct diff_track_module *const *)y;
	uint64_t dm = abs_delta(m->bytes[0], m->bytes[1]), dn = abs_delta(n->bytes[0], n->bytes[1]);
	if (dm != dn)
		return dm > dn ? -1 : 1;
	return strcmp(m->name, n->name);
}

size_t
diff_track_sorted_modules(const struct diff_track *d, const struct diff_track_module ***out)
{
	const struct diff_track_module **v = xcalloc(d->nmodules + 1, sizeof(*v));
	for (size_t i = 0; i < d->nmodules; i++)
		v[i] = &d->modules[i];
	qsort(v, d->nmodules, sizeof(*v), cmp_module);
	*out = v;
	return d->nmodules;
}

/*
 * Call sites only AFTER has: 0 before, their number (or bytes) after, so a
 * new site and a gone one never cancel out as they do in the net "sites".
 */
static void
new_sites(const struct diff_track *d, bool bytes, uint64_t *before, uint64_t *after)
{
	bool capped = false;   /* bounded by the AFTER total, itself capped */
	*before = *after = 0;
	for (size_t i = 0; i < d->nsites; i++) {
		const struct diff_track_site *s = &d->sites[i];
		if (diff_track_site_change(s) != DIFF_TRACK_NEW)
			continue;
		bytes_add_capped(after, bytes ? s->side[1].bytes : 1, &capped);
	}
}

int
diff_track_metric(const struct diff_track *d, const char *metric, int64_t *before,
		  int64_t *after, struct diag *err)
{
	uint64_t b, a;
	if (strcmp(metric, "total") == 0) {
		b = d->total[0];
		a = d->total[1];
	} else if (strcmp(metric, "new-sites") == 0 || strcmp(metric, "new-bytes") == 0) {
		new_sites(d, metric[4] == 'b', &b, &a);
	} else if (strcmp(metric, "sites") == 0) {
		b = d->nsites_side[0];
		a = d->nsites_side[1];
	} else {
		size_t *idx = strmap_get(&d->module_index, metric, strlen(metric));
		if (!idx)
			return diag_set(err, DIAG_DATA, NULL, 0, 0,
					"metric 'track:%s': neither capture charges bytes to "
					"module '%s' (see 'iotally track --by module')", metric, metric);
		b = d->modules[*idx].bytes[0];
		a = d->modules[*idx].bytes[1];
	}
	/* Sums were kept at or below BYTES_MAX. */
	*before = (int64_t)b;
	*after = (int64_t)a;
	return 0;
}

/* The UUID of the kernel's image, if the capture lists binary images. */
static const char *
kernel_uuid(const struct track_capture *cap)
{
	for (size_t i = 0; i < cap->nimages; i++) {
		const char *n = cap->images[i].name;
		if (n && (strcmp(n, "kernel") == 0 || strncmp(n, "kernel.", 7) == 0 ||
			  strcmp(n, "mach_kernel") == 0))
			return cap->images[i].uuid;
	}
	return NULL;
}

void
diff_track_comparability(const struct track_capture *b, const struct track_capture *a,
			 const char *before_path, const char *after_path,
			 struct diag_list *w)
{
	(void)before_path;
	(void)after_path;
	if (b->kind != a->kind && b->kind != TRACK_KIND_UNKNOWN && a->kind != TRACK_KIND_UNKNOWN)
		diag_list_add(w, DIAG_WARNING, NULL, 0,
			      "the captures were made by different commands (--%s before, --%s "
			      "after): the diff may not mean what it seems",
			      track_kind_name(b->kind), track_kind_name(a->kind));
	if (b->command && a->command && strcmp(b->command, a->command) != 0)
		diag_list_add(w, DIAG_WARNING, NULL, 0,
			      "the captures were made with different command lines ('%s' before, "
			      "'%s' after): what they tracked may differ", b->command, a->command);
	if (b->layout != a->layout)
		diag_list_add(w, DIAG_WARNING, NULL, 0,
			      "the captures come from different ioclasscount versions (layout %s "
			      "before, %s after), so from different OS versions",
			      track_layout_name(b->layout), track_layout_name(a->layout));
	const char *bu = kernel_uuid(b), *au = kernel_uuid(a);
	if (bu && au && strcmp(bu, au) != 0)
		diag_list_add(w, DIAG_WARNING, NULL, 0,
			      "the captures are of different kernel builds (UUID %s before, %s "
			      "after): symbols and offsets may differ", bu, au);
}

void
diff_track_pair_init(struct diff_track_pair *p, bool match_offsets)
{
	track_capture_init(&p->before);
	track_capture_init(&p->after);
	diff_track_init(&p->diff, match_offsets);
}

void
diff_track_pair_release(struct diff_track_pair *p)
{
	diff_track_release(&p->diff);
	track_capture_release(&p->before);
	track_capture_release(&p->after);
}
