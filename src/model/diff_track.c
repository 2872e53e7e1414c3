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
	strmap_init(&d->module_index);
}

void
diff_track_release(struct diff_track *d)
{
	for (size_t i = 0; i < d->nsites; i++) {
		free(d->sites[i].label);
		free(d->sites[i].module);
		free(d->sites[i].frames);
		free(d->sites[i].folded);
	}
	free(d->sites);
	for (size_t i = 0; i < d->nmodules; i++)
		free(d->modules[i].name);
	free(d->modules);
	strmap_release(&d->site_index);
	strmap_release(&d->module_index);
	memset(d, 0, sizeof(*d));
}

/* Length-prefixed pieces: no byte a name may hold can make two keys collide. */
static void
key_add(struct strbuf *key, const char *p, size_t n)
{
	uint64_t len = n;
	strbuf_add(key, &len, sizeof(len));
	strbuf_add(key, p, n);
}

static void
site_key(const struct diff_track *d, const struct track_record *r, struct strbuf *key)
{
	strbuf_addch(key, r->type == TRACK_RECORD_MAP ? 'M' : 'A');
	for (size_t i = 0; i < r->nframes; i++) {
		const struct track_frame *f = &r->frames[i];
		char num[24];
		key_add(key, track_str(r, f->module), f->module.len);
		if (f->symbol.len) {
			key_add(key, track_str(r, f->symbol), f->symbol.len);
			if (d->match_offsets && f->has_offset) {
				snprintf(num, sizeof(num), "+%" PRIx64, f->offset);
				key_add(key, num, strlen(num));
			} else {
				key_add(key, "", 0);
			}
		} else {
			snprintf(num, sizeof(num), "@%" PRIx64, f->address);
			key_add(key, num, strlen(num));
			key_add(key, "", 0);
		}
	}
}

static void
frame_text(const struct track_record *r, const struct track_frame *f, bool offsets,
	   struct strbuf *out)
{
	if (f->symbol.len) {
		strbuf_add(out, track_str(r, f->symbol), f->symbol.len);
		if (offsets && f->has_offset)
			strbuf_addf(out, " + 0x%" PRIx64, f->offset);
	} else {
		strbuf_addf(out, "0x%" PRIx64, f->address);
	}
	strbuf_addstr(out, " (");
	strbuf_add(out, track_str(r, f->module), f->module.len);
	strbuf_addch(out, ')');
}

/* The frame a site is charged to (as track_record_module), else the innermost. */
static const struct track_frame *
charged_frame(const struct track_record *r)
{
	for (size_t i = 0; i < r->nframes; i++) {
		const struct track_frame *f = &r->frames[i];
		const char *cls;
		size_t cl;
		if (!track_frame_is_user(r, f) && !track_frame_metaclass(r, f, &cls, &cl) &&
		    !track_frame_is_kernel(r, f))
			return f;
	}
	return r->nframes ? &r->frames[0] : NULL;
}

static void
site_describe(const struct diff_track *d, struct diff_track_site *s,
	      const struct track_record *r)
{
	struct strbuf sb = STRBUF_INIT;
	const struct track_frame *cf = charged_frame(r);
	size_t mlen;
	const char *m = track_record_module(r, &mlen);

	s->mapping = r->type == TRACK_RECORD_MAP;
	s->module = xmemdup0(m, mlen);
	if (cf) {
		strbuf_add(&sb, track_str(r, cf->module), cf->module.len);
		strbuf_addstr(&sb, ": ");
		if (cf->symbol.len)
			strbuf_add(&sb, track_str(r, cf->symbol), cf->symbol.len);
		else
			strbuf_addf(&sb, "0x%" PRIx64, cf->address);
	} else {
		strbuf_addstr(&sb, "[no frames]");
	}
	s->label = strbuf_detach(&sb, NULL);
	for (size_t i = 0; i < r->nframes; i++) {
		frame_text(r, &r->frames[i], d->match_offsets, &sb);
		strbuf_addch(&sb, '\n');
	}
	s->frames = strbuf_detach(&sb, NULL);
	for (size_t i = r->nframes; i-- > 0;) {
		const char *cls;
		size_t cl;
		if (track_frame_metaclass(r, &r->frames[i], &cls, &cl))
			continue;
		if (sb.len)
			strbuf_addch(&sb, ';');
		track_frame_folded_name(r, &r->frames[i], &sb);
	}
	if (sb.len == 0)
		strbuf_addstr(&sb, "[no frames]");
	s->folded = strbuf_detach(&sb, NULL);
}

static struct diff_track_module *
module_get(struct diff_track *d, const char *name, size_t n)
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
	return &d->modules[*idx];
}

static bool
add_bytes(uint64_t *sum, uint64_t v)
{
	uint64_t s;
	if (__builtin_add_overflow(*sum, v, &s) || s > TRACK_BYTES_MAX)
		return false;
	*sum = s;
	return true;
}

static int
add_record(struct diff_track *d, int side, const struct track_record *r,
	   struct strbuf *key, const char *path, struct diag *err)
{
	bool created;
	strbuf_reset(key);
	site_key(d, r, key);
	size_t *idx = strmap_put(&d->site_index, key->buf, key->len, &created);
	if (created) {
		d->sites = xgrow(d->sites, &d->sites_alloc, d->nsites + 1, sizeof(*d->sites));
		memset(&d->sites[d->nsites], 0, sizeof(*d->sites));
		site_describe(d, &d->sites[d->nsites], r);
		*idx = d->nsites++;
	}
	struct diff_track_site *s = &d->sites[*idx];
	size_t mlen;
	const char *m = track_record_module(r, &mlen);
	struct diff_track_module *mod = module_get(d, m, mlen);
	int64_t c = r->type == TRACK_RECORD_MAP ? 1 : r->count;
	if (s->side[side].records == 0)
		d->nsites_side[side]++;
	if (!add_bytes(&s->side[side].bytes, r->bytes) ||
	    !add_bytes(&mod->bytes[side], r->bytes) || !add_bytes(&d->total[side], r->bytes) ||
	    __builtin_add_overflow(s->side[side].count, c, &s->side[side].count))
		return diag_set(err, DIAG_DATA, path, r->line, 0,
				"byte counts of the capture add up past 2^63");
	s->side[side].records++;
	mod->records[side]++;
	d->records[side]++;
	return 0;
}

int
diff_track_add_capture(struct diff_track *d, int side, const struct track_capture *cap,
		       const char *path, struct diag *err)
{
	struct strbuf key = STRBUF_INIT;
	int rc = 0;
	for (size_t i = 0; i < cap->nkept && rc == 0; i++)
		rc = add_record(d, side, cap->kept[i], &key, path, err);
	strbuf_release(&key);
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

static int
cmp_site(const void *x, const void *y)
{
	const struct diff_track_site *s = *(const struct diff_track_site *const *)x;
	const struct diff_track_site *t = *(const struct diff_track_site *const *)y;
	enum diff_track_change cs = diff_track_site_change(s), ct = diff_track_site_change(t);
	if (cs != ct)
		return cs < ct ? -1 : 1;
	uint64_t ds = abs_delta(s->side[0].bytes, s->side[1].bytes);
	uint64_t dt = abs_delta(t->side[0].bytes, t->side[1].bytes);
	if (ds != dt)
		return ds > dt ? -1 : 1;
	if (s->side[1].bytes != t->side[1].bytes)
		return s->side[1].bytes > t->side[1].bytes ? -1 : 1;
	int c = strcmp(s->label, t->label);
	return c ? c : strcmp(s->frames, t->frames);
}

size_t
diff_track_sorted_sites(const struct diff_track *d, const struct diff_track_site ***out)
{
	const struct diff_track_site **v = xcalloc(d->nsites + 1, sizeof(*v));
	for (size_t i = 0; i < d->nsites; i++)
		v[i] = &d->sites[i];
	qsort(v, d->nsites, sizeof(*v), cmp_site);
	*out = v;
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

int
diff_track_metric(const struct diff_track *d, const char *metric, int64_t *before,
		  int64_t *after, struct diag *err)
{
	uint64_t b, a;
	if (strcmp(metric, "total") == 0) {
		b = d->total[0];
		a = d->total[1];
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
	/* Sums were kept at or below TRACK_BYTES_MAX. */
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
