#include "model/diff_track.h"

#include "model/diff.h"
#include "util/strbuf.h"
#include "util/suggest.h"
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
	strmap_init(&d->module_index);
	strmap_init(&d->label_index);
	d->vias = xcalloc(1, sizeof(*d->vias));
}

void
diff_track_release(struct diff_track *d)
{
	free(d->sites);
	free(d->fig[0]);
	free(d->fig[1]);
	for (size_t i = 0; i < d->pool.nblocks; i++)
		free(d->pool.blocks[i]);
	free(d->pool.blocks);
	for (size_t i = 0; i < d->nframes; i++) {
		free(d->frames[i].module);
		free(d->frames[i].symbol);
	}
	free(d->frames);
	for (size_t i = 0; i < d->nmodules; i++)
		free(d->modules[i].name);
	free(d->modules);
	free(d->site_index.slots);
	free(d->frame_index.slots);
	strmap_release(&d->module_index);
	strmap_release(&d->label_index);
	if (d->vias)
		free(d->vias->via);
	free(d->vias);
	free(d->ids);
	memset(d, 0, sizeof(*d));
}

/* ---- id tables ---------------------------------------------------------- */

/* Where a lookup of hash h starts (the table is never full: see ids_reserve). */
static size_t
ids_start(const struct diff_track_ids *t, uint32_t h)
{
	return h & (t->cap - 1);
}

/* Room for one more id, below 3/4 full so every probe ends at an empty slot. */
static void
ids_reserve(struct diff_track_ids *t)
{
	if ((t->len + 1) * 4 <= t->cap * 3)
		return;
	struct diff_track_ids old = *t;
	t->cap = old.cap ? old.cap * 2 : 64;
	t->slots = xcalloc(t->cap, sizeof(*t->slots));
	for (size_t i = 0; i < old.cap; i++) {
		if (!old.slots[i].id1)
			continue;
		size_t j = ids_start(t, old.slots[i].hash);
		while (t->slots[j].id1)
			j = (j + 1) & (t->cap - 1);
		t->slots[j] = old.slots[i];
	}
	free(old.slots);
}

/* Fill the empty slot a lookup ended at with a new id. */
static void
ids_fill(struct diff_track_ids *t, struct diff_track_idslot *slot, uint32_t h, size_t id)
{
	slot->hash = h;
	slot->id1 = (uint32_t)(id + 1);
	t->len++;
}

/* Ids stay below UINT32_MAX so that id + 1 fits a slot. */
static int
ids_full(size_t n, const char *what, const char *path, const struct track_record *r,
	 struct diag *err)
{
	if (n < UINT32_MAX - 1)
		return 0;
	return diag_set(err, DIAG_DATA, path, r->line, 0,
			"more than 2^32 - 2 distinct %s: the capture is too large to compare", what);
}

static uint64_t
mix64(uint64_t h, uint64_t x)
{
	h = (h ^ x) * 0xbf58476d1ce4e5b9ull;
	return h ^ (h >> 31);
}

/* ---- frames --------------------------------------------------------------- */

/* A frame of a record as the diff matches it: the fields that make its identity. */
struct frame_key {
	const char *module, *symbol;
	size_t module_len, symbol_len;
	uint64_t address, offset;
	bool has_offset;
};

static struct frame_key
frame_key_of(const struct diff_track *d, const struct track_record *r,
	     const struct track_frame *f)
{
	struct frame_key k;
	k.module = track_str(r, f->module);
	k.module_len = f->module.len;
	k.symbol = track_str(r, f->symbol);
	k.symbol_len = f->symbol.len;
	k.has_offset = d->match_offsets && f->has_offset && f->symbol.len;
	k.offset = k.has_offset ? f->offset : 0;
	k.address = f->symbol.len ? 0 : f->address;
	return k;
}

static uint32_t
frame_hash(const struct frame_key *k)
{
	uint64_t h = mix64(hash_bytes(k->module, k->module_len), hash_bytes(k->symbol, k->symbol_len));
	h = mix64(h, k->address);
	h = mix64(h, k->offset ^ ((uint64_t)k->has_offset << 63));
	return (uint32_t)(h ^ (h >> 32));
}

/* Every field compared: two frames that share a hash (or an address) stay apart. */
static bool
frame_equal(const struct diff_track_frame *f, const struct frame_key *k)
{
	return f->module_len == k->module_len && f->symbol_len == k->symbol_len &&
	       f->address == k->address && f->has_offset == k->has_offset &&
	       f->offset == k->offset && memcmp(f->module, k->module, k->module_len) == 0 &&
	       (!k->symbol_len || memcmp(f->symbol, k->symbol, k->symbol_len) == 0);
}

static void base_label_of_frame(const struct diff_track_frame *f, struct strbuf *out);

/* The label group of a text, a new one when no frame (or empty site) had it. */
static uint32_t
label_group(struct diff_track *d, const char *text, size_t n)
{
	bool created;
	size_t *idx = strmap_put(&d->label_index, text, n, &created);
	if (created)
		*idx = d->label_index.len - 1;
	return (uint32_t)*idx;
}

/* A new frame: its strings copied, its label group found (once per distinct frame). */
static void
frame_add(struct diff_track *d, const struct track_record *r, const struct track_frame *tf,
	  const struct frame_key *k)
{
	struct diff_track_frame f = { 0 };
	struct strbuf label = STRBUF_INIT;
	const char *cls;
	size_t cl;
	f.module = xmemdup0(k->module, k->module_len);
	f.module_len = k->module_len;
	f.symbol = k->symbol_len ? xmemdup0(k->symbol, k->symbol_len) : NULL;
	f.symbol_len = k->symbol_len;
	f.address = k->address;
	f.has_offset = k->has_offset;
	f.offset = k->offset;
	f.metaclass = track_frame_metaclass(r, tf, &cls, &cl);
	base_label_of_frame(&f, &label);
	f.label = label_group(d, label.buf, label.len);
	strbuf_release(&label);
	d->frames = xgrow(d->frames, &d->frames_alloc, d->nframes + 1, sizeof(*d->frames));
	d->frames[d->nframes++] = f;
}

/* The id of a frame as the diff matches it, added when new; -1 past 2^32 - 2 frames. */
static int
frame_id(struct diff_track *d, const struct track_record *r, const struct track_frame *tf,
	 uint32_t h, uint32_t *id, const char *path, struct diag *err)
{
	struct frame_key k = frame_key_of(d, r, tf);
	struct diff_track_ids *t = &d->frame_index;
	ids_reserve(t);
	size_t i = ids_start(t, h);
	for (; t->slots[i].id1; i = (i + 1) & (t->cap - 1)) {
		if (t->slots[i].hash == h && frame_equal(&d->frames[t->slots[i].id1 - 1], &k)) {
			*id = t->slots[i].id1 - 1;
			return 0;
		}
	}
	if (ids_full(d->nframes, "frames", path, r, err) < 0)
		return -1;
	frame_add(d, r, tf, &k);
	ids_fill(t, &t->slots[i], h, d->nframes - 1);
	*id = (uint32_t)(d->nframes - 1);
	return 0;
}

/* The frame a site is charged to (as track_record_module), else the innermost. */
static uint32_t
charged_frame(const struct track_record *r)
{
	for (uint32_t i = 0; i < r->nframes; i++) {
		const struct track_frame *f = &r->frames[i];
		const char *cls;
		size_t cl;
		if (!track_frame_is_user(r, f) && !track_frame_metaclass(r, f, &cls, &cl) &&
		    !track_frame_is_kernel(r, f))
			return i;
	}
	return r->nframes ? 0 : DIFF_TRACK_NO_FRAME;
}

static struct diff_track_module *
module_get(struct diff_track *d, const char *name, size_t n, uint32_t *index)
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
	*index = (uint32_t)*idx;   /* a module is a frame's: fewer than 2^32 - 1 */
	return &d->modules[*idx];
}

/* ---- sites ---------------------------------------------------------------- */

/* Room for n 32-bit units in the pool: one allocation per block of sites, not per site. */
static uint32_t *
pool_take(struct diff_track_pool *p, size_t n)
{
	if (p->nblocks == 0 || p->size - p->used < n) {
		size_t size = n > 16384 ? n : 16384;
		p->blocks = xgrow(p->blocks, &p->blocks_alloc, p->nblocks + 1, sizeof(*p->blocks));
		p->blocks[p->nblocks++] = xmalloc(size * sizeof(**p->blocks));
		p->size = size;
		p->used = 0;
	}
	uint32_t *dst = p->blocks[p->nblocks - 1] + p->used;
	p->used += n;
	return dst;
}

/* Does every id fit 16 bits? */
static bool
ids_narrow(const uint32_t *ids, size_t n)
{
	uint32_t any = 0;
	for (size_t i = 0; i < n; i++)
		any |= ids[i];
	return any <= UINT16_MAX;
}

/* A site's copy of its n frame ids in the pool, 16-bit when they all fit. */
static void
site_store_frames(struct diff_track_pool *p, struct diff_track_site *s, const uint32_t *ids,
		  size_t n)
{
	s->narrow = ids_narrow(ids, n);
	if (n == 0) {
		s->frames.wide = NULL;
	} else if (s->narrow) {
		uint16_t *dst = (uint16_t *)pool_take(p, (n + 1) / 2);
		for (size_t i = 0; i < n; i++)
			dst[i] = (uint16_t)ids[i];
		s->frames.narrow = dst;
	} else {
		uint32_t *dst = pool_take(p, n);
		memcpy(dst, ids, n * sizeof(*ids));
		s->frames.wide = dst;
	}
}

/* A site's label group: its charged frame's, or that of sites without frames. */
static uint32_t
site_label(struct diff_track *d, const struct diff_track_site *s)
{
	if (s->charged == DIFF_TRACK_NO_FRAME)
		return label_group(d, "[no frames]", strlen("[no frames]"));
	return d->frames[diff_track_site_frame(s, s->charged)].label;
}

static uint32_t
site_hash(const uint32_t *ids, size_t n, bool mapping)
{
	uint64_t h = hash_bytes(ids, n * sizeof(*ids));
	return (uint32_t)mix64(h, mapping);
}

/* A site's frame count fits its 31 bits (diff_track_site.nframes). */
#define SITE_FRAMES_MAX 0x3fffffffu

static bool
site_equal(const struct diff_track_site *s, const uint32_t *ids, size_t n, bool mapping)
{
	if (s->nframes != n || s->mapping != mapping)
		return false;
	if (!s->narrow)
		return n == 0 || memcmp(s->frames.wide, ids, n * sizeof(*ids)) == 0;
	for (size_t i = 0; i < n; i++)
		if (s->frames.narrow[i] != ids[i])
			return false;
	return true;
}

/*
 * Room for the figures of sites [0, n) on a side, site `from` on zero: a
 * side's array is made on its first record, for every site so far, then
 * grows with the sites. Only the figures in use are written, so the spare
 * capacity of the array costs no memory until used.
 */
static void
figures_reserve(struct diff_track *d, int side, size_t from, size_t n)
{
	d->fig[side] = xgrow(d->fig[side], &d->fig_alloc[side], n ? n : 1, sizeof(*d->fig[side]));
	memset(d->fig[side] + from, 0, (n - from) * sizeof(*d->fig[side]));
}

static void
site_add(struct diff_track *d, const struct track_record *r, const uint32_t *ids)
{
	struct diff_track_site s = { 0 };
	size_t mlen;
	const char *m = track_record_module(r, &mlen);
	s.nframes = (uint32_t)r->nframes & SITE_FRAMES_MAX;   /* checked by site_get() */
	site_store_frames(&d->pool, &s, ids, r->nframes);
	s.charged = charged_frame(r);
	s.mapping = r->type == TRACK_RECORD_MAP;
	module_get(d, m, mlen, &s.module);
	s.label = site_label(d, &s);
	d->sites = xgrow(d->sites, &d->sites_alloc, d->nsites + 1, sizeof(*d->sites));
	d->sites[d->nsites++] = s;
	for (int side = 0; side < 2; side++)
		if (d->fig[side])
			figures_reserve(d, side, d->nsites - 1, d->nsites);
}

/* The frame ids of a record, into d->ids. */
static int
record_ids(struct diff_track *d, const struct track_record *r, const char *path,
	   struct diag *err)
{
	struct diff_track_ids *t = &d->frame_index;
	d->ids = xgrow(d->ids, &d->ids_alloc, r->nframes + 1, sizeof(*d->ids));
	/*
	 * Every frame's hash first (kept in ids[i] until its id replaces it),
	 * with a prefetch of its slot: the table is larger than the caches, and
	 * so the frames' cache misses overlap rather than come one by one.
	 */
	ids_reserve(t);
	for (size_t i = 0; i < r->nframes; i++) {
		struct frame_key k = frame_key_of(d, r, &r->frames[i]);
		d->ids[i] = frame_hash(&k);
		__builtin_prefetch(&t->slots[ids_start(t, d->ids[i])]);
	}
	for (size_t i = 0; i < r->nframes; i++)
		if (frame_id(d, r, &r->frames[i], d->ids[i], &d->ids[i], path, err) < 0)
			return -1;
	return 0;
}

/* The site of a record (its type and frame ids), added when new. */
static struct diff_track_site *
site_get(struct diff_track *d, const struct track_record *r, const char *path,
	 struct diag *err)
{
	bool mapping = r->type == TRACK_RECORD_MAP;
	if (r->nframes > SITE_FRAMES_MAX) {
		diag_set(err, DIAG_DATA, path, r->line, 0,
			 "a record with more than 2^30 - 1 frames: the capture is too large to compare");
		return NULL;
	}
	if (record_ids(d, r, path, err) < 0)
		return NULL;
	uint32_t h = site_hash(d->ids, r->nframes, mapping);
	struct diff_track_ids *t = &d->site_index;
	ids_reserve(t);
	size_t i = ids_start(t, h);
	for (; t->slots[i].id1; i = (i + 1) & (t->cap - 1)) {
		struct diff_track_site *s = &d->sites[t->slots[i].id1 - 1];
		if (t->slots[i].hash == h && site_equal(s, d->ids, r->nframes, mapping))
			return s;
	}
	if (ids_full(d->nsites, "call sites", path, r, err) < 0)
		return NULL;
	site_add(d, r, d->ids);
	ids_fill(t, &t->slots[i], h, d->nsites - 1);
	return &d->sites[d->nsites - 1];
}

int
diff_track_add_record(struct diff_track *d, int side, const struct track_record *r,
		      const char *path, struct diag *err)
{
	struct diff_track_site *s = site_get(d, r, path, err);
	if (!s)
		return -1;
	if (!d->fig[side])
		figures_reserve(d, side, 0, d->nsites);
	struct diff_track_figures *f = &d->fig[side][s - d->sites];
	struct diff_track_module *mod = &d->modules[s->module];
	int64_t c = r->type == TRACK_RECORD_MAP ? 1 : r->count;
	if (f->records == 0)
		d->nsites_side[side]++;
	if (!bytes_add(&f->bytes, r->bytes) ||
	    !bytes_add(&mod->bytes[side], r->bytes) || !bytes_add(&d->total[side], r->bytes) ||
	    __builtin_add_overflow(f->count, c, &f->count))
		return diag_set(err, DIAG_DATA, path, r->line, 0,
				"byte counts of the capture add up past 2^63");
	f->records++;
	mod->records[side]++;
	d->records[side]++;
	return 0;
}

/* ---- text of a site ---------------------------------------------------- */

/* Room for "0x" and 16 hex digits, or the 20 decimal digits of a 64-bit value. */
#define DIGITS_MAX 24

/* "0x" and v in lowercase hex, as "0x%" PRIx64 prints it, at the end of buf. */
static size_t
hex_digits(char buf[DIGITS_MAX], uint64_t v, const char **start)
{
	size_t n = DIGITS_MAX;
	do {
		buf[--n] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	buf[--n] = 'x';
	buf[--n] = '0';
	*start = buf + n;
	return DIGITS_MAX - n;
}

/* v in decimal, as "%zu" prints it, at the end of buf. */
static size_t
dec_digits(char buf[DIGITS_MAX], size_t v, const char **start)
{
	size_t n = DIGITS_MAX;
	do {
		buf[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	*start = buf + n;
	return DIGITS_MAX - n;
}

static void
add_hex(struct strbuf *out, uint64_t v)
{
	char buf[DIGITS_MAX];
	const char *p;
	size_t n = hex_digits(buf, v, &p);
	strbuf_add(out, p, n);
}

/*
 * Labels are written once per reported site and compared while sorting,
 * so they are put together with memcpy and the digit writers above rather
 * than printf.
 */
void
diff_track_frame_text(const struct diff_track *d, uint32_t id, struct strbuf *out)
{
	const struct diff_track_frame *f = &d->frames[id];
	if (f->symbol)
		strbuf_add(out, f->symbol, f->symbol_len);
	else
		add_hex(out, f->address);
	if (f->has_offset) {
		strbuf_add(out, " + ", 3);
		add_hex(out, f->offset);
	}
	strbuf_add(out, " (", 2);
	strbuf_add(out, f->module, f->module_len);
	strbuf_addch(out, ')');
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

/* Which part of sites_by_group() a site goes to. */
static size_t
group_key(const struct diff_track_site *s)
{
	return 2 * (size_t)s->label + s->mapping;
}

/*
 * The sites in order of (label group, allocation before mapping), by a
 * counting sort: passes over the sites, not a walk from site to site.
 * Part k is order[start[k] .. start[k + 1]), its sites in index order.
 */
static const struct diff_track_site **
sites_by_group(const struct diff_track *d, size_t **start_out)
{
	size_t nkeys = 2 * d->label_index.len;
	size_t *start = xcalloc(nkeys + 1, sizeof(*start));
	size_t *next = xmalloc((nkeys ? nkeys : 1) * sizeof(*next));
	const struct diff_track_site **order = xmalloc((d->nsites ? d->nsites : 1) *
						       sizeof(*order));
	for (size_t i = 0; i < d->nsites; i++)
		start[group_key(&d->sites[i]) + 1]++;
	for (size_t k = 1; k <= nkeys; k++)
		start[k] += start[k - 1];
	memcpy(next, start, nkeys * sizeof(*next));
	for (size_t i = 0; i < d->nsites; i++)
		order[next[group_key(&d->sites[i])]++] = &d->sites[i];
	free(next);
	*start_out = start;
	return order;
}

/* The vias of one part (sites of one label group and kind), sorted by backtrace. */
static void
group_vias(const struct diff_track *d, const struct diff_track_site **group, size_t n)
{
	qsort(group, n, sizeof(*group), cmp_backtraces);
	for (size_t k = 0; k < n; k++) {
		size_t best = k ? first_difference(group[k], group[k - 1]) : 0;
		if (k + 1 < n && first_difference(group[k], group[k + 1]) > best)
			best = first_difference(group[k], group[k + 1]);
		d->vias->via[group[k] - d->sites] = (uint32_t)best;   /* <= nframes < 2^30 */
	}
}

/*
 * Where a site parts from the others with its label is its longest common
 * prefix with any of them; in lexicographic order that is the longer of
 * its prefixes with its two neighbours. So each group is sorted once, in
 * place in the order of the counting sort (one pointer a site while this
 * runs, and a 4-byte via a site kept).
 */
static void
compute_vias(const struct diff_track *d)
{
	struct diff_track_vias *v = d->vias;
	size_t *start, nkeys = 2 * d->label_index.len;
	const struct diff_track_site **order = sites_by_group(d, &start);
	v->via = xrealloc(v->via, (d->nsites ? d->nsites : 1) * sizeof(*v->via));
	for (size_t i = 0; i < d->nsites; i++)
		v->via[i] = DIFF_TRACK_NO_FRAME;
	for (size_t k = 0; k < nkeys; k++) {
		size_t n = start[k + 1] - start[k];
		if (n >= 2)
			group_vias(d, order + start[k], n);
	}
	v->n = d->nsites;
	free(start);
	free(order);
}

/*
 * A site's label as pieces: names the frames already hold, fixed words, and
 * figures written into `digits`. The sort compares labels piece by piece and
 * the writers join the pieces, so no label is built for a site nobody shows.
 * Pieces are never empty (a frame's module may be), so that the label ends
 * where its last piece does.
 */
#define LABEL_PIECES_MAX 12

struct label_pieces {
	const char *p[LABEL_PIECES_MAX];
	size_t len[LABEL_PIECES_MAX];
	size_t n;
	size_t base;           /* pieces of the base label, without " via ..." */
	char digits[4][DIGITS_MAX];
	size_t ndigits;
};

static void
piece(struct label_pieces *lp, const char *p, size_t len)
{
	if (len == 0)
		return;
	lp->p[lp->n] = p;
	lp->len[lp->n++] = len;
}

static void
piece_hex(struct label_pieces *lp, uint64_t v)
{
	const char *p;
	size_t n = hex_digits(lp->digits[lp->ndigits++], v, &p);
	piece(lp, p, n);
}

/* "symbol" or "0xADDR", as in the frame's text and the base label. */
static void
piece_symbol(struct label_pieces *lp, const struct diff_track_frame *f)
{
	if (f->symbol)
		piece(lp, f->symbol, f->symbol_len);
	else
		piece_hex(lp, f->address);
}

/* "module: symbol", or "module: 0xADDR" for an unsymbolicated frame. */
static void
base_pieces(struct label_pieces *lp, const struct diff_track_frame *f)
{
	piece(lp, f->module, f->module_len);
	piece(lp, ": ", 2);
	piece_symbol(lp, f);
}

static void
join_pieces(const struct label_pieces *lp, struct strbuf *out)
{
	for (size_t i = 0; i < lp->n; i++)
		strbuf_add(out, lp->p[i], lp->len[i]);
}

/* The base label of a frame: the text of its label group. */
static void
base_label_of_frame(const struct diff_track_frame *f, struct strbuf *out)
{
	struct label_pieces lp = { .n = 0 };
	base_pieces(&lp, f);
	join_pieces(&lp, out);
}

/* The label of a site (the vias up to date), as diff_track_site_label() writes it. */
static void
label_pieces_of(const struct diff_track *d, const struct diff_track_site *s,
		struct label_pieces *lp)
{
	lp->n = lp->ndigits = 0;
	if (s->charged == DIFF_TRACK_NO_FRAME)
		piece(lp, "[no frames]", 11);
	else
		base_pieces(lp, &d->frames[diff_track_site_frame(s, s->charged)]);
	lp->base = lp->n;
	uint32_t via = d->vias->via[s - d->sites];
	if (via == DIFF_TRACK_NO_FRAME)
		return;
	const char *p;
	piece(lp, " via frame ", 11);
	size_t n = dec_digits(lp->digits[lp->ndigits++], via, &p);
	piece(lp, p, n);
	if (via >= s->nframes) {
		piece(lp, ": (the backtrace ends)", 22);
		return;
	}
	/* As diff_track_frame_text(). */
	const struct diff_track_frame *g = &d->frames[diff_track_site_frame(s, via)];
	piece(lp, ": ", 2);
	piece_symbol(lp, g);
	if (g->has_offset) {
		piece(lp, " + ", 3);
		piece_hex(lp, g->offset);
	}
	piece(lp, " (", 2);
	piece(lp, g->module, g->module_len);
	piece(lp, ")", 1);
}

/*
 * The labels' bytes from piece i of a and piece j of b on, compared as
 * strcmp() compares the joined labels (no piece holds a NUL).
 */
static int
cmp_pieces(const struct label_pieces *a, size_t i, const struct label_pieces *b, size_t j)
{
	size_t ao = 0, bo = 0;
	while (i < a->n && j < b->n) {
		size_t n = a->len[i] - ao < b->len[j] - bo ? a->len[i] - ao : b->len[j] - bo;
		int c = memcmp(a->p[i] + ao, b->p[j] + bo, n);
		if (c)
			return c;
		ao += n;
		bo += n;
		if (ao == a->len[i]) {
			i++;
			ao = 0;
		}
		if (bo == b->len[j]) {
			j++;
			bo = 0;
		}
	}
	return (i < a->n) - (j < b->n);
}

/*
 * strcmp() of two sites' labels without building them. Sites of one label
 * group have the same base label, so only what follows it is compared.
 */
static int
cmp_labels(const struct diff_track *d, const struct diff_track_site *s,
	   const struct diff_track_site *t)
{
	struct label_pieces a, b;
	label_pieces_of(d, s, &a);
	label_pieces_of(d, t, &b);
	if (s->label == t->label)
		return cmp_pieces(&a, a.base, &b, b.base);
	return cmp_pieces(&a, 0, &b, 0);
}

/* The label of a site worked out from its frames (the vias up to date). */
static void
build_label(const struct diff_track *d, const struct diff_track_site *s, struct strbuf *out)
{
	struct label_pieces lp;
	label_pieces_of(d, s, &lp);
	join_pieces(&lp, out);
}

void
diff_track_site_label(const struct diff_track *d, const struct diff_track_site *s,
		      struct strbuf *out)
{
	if (d->vias->n != d->nsites)
		compute_vias(d);
	build_label(d, s, out);
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
diff_track_site_change(const struct diff_track *d, const struct diff_track_site *s)
{
	const struct diff_track_figures *b = diff_track_site_side(d, s, 0);
	const struct diff_track_figures *a = diff_track_site_side(d, s, 1);
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
		if (diff_track_site_change(d, &d->sites[i]) != DIFF_TRACK_SAME)
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
	const struct diff_track *d = a->d;
	const struct diff_track_site *s = a->s, *t = b->s;
	enum diff_track_change cs = diff_track_site_change(d, s), ct = diff_track_site_change(d, t);
	if (cs != ct)
		return cs < ct ? -1 : 1;
	const struct diff_track_figures *s0 = diff_track_site_side(d, s, 0);
	const struct diff_track_figures *s1 = diff_track_site_side(d, s, 1);
	const struct diff_track_figures *t0 = diff_track_site_side(d, t, 0);
	const struct diff_track_figures *t1 = diff_track_site_side(d, t, 1);
	uint64_t ds = abs_delta(s0->bytes, s1->bytes);
	uint64_t dt = abs_delta(t0->bytes, t1->bytes);
	if (ds != dt)
		return ds > dt ? -1 : 1;
	if (s1->bytes != t1->bytes)
		return s1->bytes > t1->bytes ? -1 : 1;
	int c = cmp_labels(a->d, s, t);
	return c ? c : cmp_frames(a->d, s, t);
}

size_t
diff_track_sorted_sites(const struct diff_track *d, const struct diff_track_site ***out)
{
	struct site_sort *v = xcalloc(d->nsites + 1, sizeof(*v));
	const struct diff_track_site **r = xcalloc(d->nsites + 1, sizeof(*r));
	if (d->vias->n != d->nsites)
		compute_vias(d);
	for (size_t i = 0; i < d->nsites; i++)
		v[i] = (struct site_sort){ d, &d->sites[i] };
	qsort(v, d->nsites, sizeof(*v), cmp_site);
	for (size_t i = 0; i < d->nsites; i++)
		r[i] = v[i].s;
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
		if (diff_track_site_change(d, s) != DIFF_TRACK_NEW)
			continue;
		bytes_add_capped(after, bytes ? diff_track_site_side(d, s, 1)->bytes : 1, &capped);
	}
}

const struct diff_track_site *
diff_track_metric_grew_most(const struct diff_track *d, const char *metric)
{
	/* Counts of sites name no one site. */
	if (!diff_track_metric_is_bytes(metric))
		return NULL;
	bool new_only = strcmp(metric, "new-bytes") == 0;
	const size_t *module = NULL;
	if (!new_only && strcmp(metric, "total") != 0) {
		module = strmap_get(&d->module_index, metric, strlen(metric));
		if (!module)
			return NULL;
	}
	const struct diff_track_site *most = NULL;
	int64_t most_delta = 0;
	for (size_t i = 0; i < d->nsites; i++) {
		const struct diff_track_site *s = &d->sites[i];
		if ((module && s->module != *module) ||
		    (new_only && diff_track_site_change(d, s) != DIFF_TRACK_NEW))
			continue;
		int64_t delta = 0;
		if (diff_delta_u64(diff_track_site_side(d, s, 0)->bytes,
				   diff_track_site_side(d, s, 1)->bytes, &delta) == 0 &&
		    delta > most_delta) {
			most = s;
			most_delta = delta;
		}
	}
	return most;
}

bool
diff_track_metric_is_bytes(const char *metric)
{
	return strcmp(metric, "sites") != 0 && strcmp(metric, "new-sites") != 0;
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
		if (!idx) {
			/* A misspelt metric name ("new-byte") is as likely as a module's. */
			static const char *const fixed[] = { "total", "sites", "new-sites",
							     "new-bytes" };
			struct suggest s;
			suggest_init(&s, metric, strlen(metric));
			for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
				suggest_consider(&s, fixed[i], strlen(fixed[i]));
			for (size_t i = 0; i < d->nmodules; i++)
				suggest_consider(&s, d->modules[i].name, strlen(d->modules[i].name));
			diag_set(err, DIAG_DATA, NULL, 0, 0,
				 "metric 'track:%s': neither capture charges bytes to "
				 "module '%s' (see 'iotally track --by module')", metric, metric);
			diff_diag_add_suggestion(err, &s);
			return -1;
		}
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

void
diff_track_metric_label(const char *kind, const char *metric, char *out, size_t size)
{
	(void)kind;
	if (strcmp(metric, "total") == 0)
		snprintf(out, size, "tracked total");
	else
		snprintf(out, size, "%s (tracked)", metric);
}
