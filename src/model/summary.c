/*
 * The summary block (model/summary.h): facts noted by the report builders,
 * composed into at most four lines. The rule of the cost is written once,
 * in docs/gpu.md ("The cost"), and applied here only.
 */

#include "model/summary.h"

#include "model/diff_footprint.h"
#include "model/diff_track.h"
#include "model/diff_vmmap.h"
#include "model/footprint.h"
#include "model/gpu.h"
#include "model/heap.h"
#include "model/vmmap.h"
#include "util/size.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const source_names[SUMMARY_SOURCES] = {
	[SUMMARY_SRC_FOOTPRINT] = "footprint",
	[SUMMARY_SRC_VMMAP] = "vmmap",
	[SUMMARY_SRC_RESIDENT] = "vmmap",
};

static const char *const source_meanings[SUMMARY_SOURCES] = {
	[SUMMARY_SRC_FOOTPRINT] = "GPU dirty + swapped",
	[SUMMARY_SRC_VMMAP] = "GPU dirty + swapped",
	[SUMMARY_SRC_RESIDENT] = "GPU resident",
};

static const char *const line_names[] = {
	[SUMMARY_LINE_COST] = "cost",
	[SUMMARY_LINE_GREW] = "grew",
	[SUMMARY_LINE_WHERE] = "where",
	[SUMMARY_LINE_VERDICT] = "verdict",
};

const char *
summary_source_name(enum summary_source s)
{
	return s < SUMMARY_SOURCES ? source_names[s] : "none";
}

const char *
summary_source_meaning(enum summary_source s)
{
	return s < SUMMARY_SOURCES ? source_meanings[s] : "";
}

const char *
summary_line_name(enum summary_line_kind k)
{
	return line_names[k];
}

/* A figure of at most 2^63 - 1 bytes (util/bytes.h) as a signed one. */
static int64_t
clamp_i64(uint64_t v)
{
	return v > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)v;
}

static uint64_t
magnitude(int64_t v)
{
	return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
}

/* ---- one growth, in words --------------------------------------------- */

void
summary_growth_phrase(const struct summary_growth *g, struct strbuf *out)
{
	char b[32];
	unsigned rounded = g->rounded ? SIZE_TEXT_ROUNDED : 0;
	strbuf_addstr(out, g->what ? g->what : "(unnamed)");
	if (g->state)
		strbuf_addf(out, ", %s", g->state);
	strbuf_addstr(out, ": ");
	if (g->regions && g->has_bytes && g->has_count && g->count != 0 && g->bytes != 0 &&
	    (g->bytes > 0) == (g->count > 0) && g->bytes % g->count == 0) {
		/* Equal sizes: how many and how large each ("+3 × 128 MiB"). */
		size_format_text(g->bytes / g->count, rounded, b);
		strbuf_addf(out, "%+" PRId64 " \u00d7 %s", g->count, b);
		return;
	}
	if (g->has_bytes) {
		size_format_text(g->bytes, SIZE_TEXT_SIGNED | rounded, b);
		strbuf_addstr(out, b);
		if (g->measure)
			strbuf_addf(out, " %s", g->measure);
		if (g->has_count && g->count != 0) {
			strbuf_addf(out, " (%+" PRId64, g->count);
			if (g->count_noun)
				strbuf_addf(out, " %s%s", g->count_noun,
					    magnitude(g->count) == 1 ? "" : "s");
			strbuf_addch(out, ')');
		}
		return;
	}
	strbuf_addf(out, "%+" PRId64, g->has_count ? g->count : 0);
	if (g->count_noun)
		strbuf_addf(out, " %s%s", g->count_noun, magnitude(g->count) == 1 ? "" : "s");
}

/* ---- facts --------------------------------------------------------------- */

void
summary_facts_init(struct summary_facts *f, bool pair)
{
	memset(f, 0, sizeof(*f));
	f->pair = pair;
}

static void
item_release(struct summary_item *it)
{
	free(it->what);
	free(it->state);
	for (size_t i = 0; i < it->ndetail; i++)
		free(it->detail[i]);
	free(it->detail);
	memset(it, 0, sizeof(*it));
}

static void
list_release(struct summary_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		item_release(&l->items[i]);
	l->n = 0;
}

void
summary_facts_release(struct summary_facts *f)
{
	list_release(&f->grew_regions);
	list_release(&f->grew_categories);
	list_release(&f->grew_heap);
	list_release(&f->sites);
	list_release(&f->classes);
	free(f->tracked_class);
	free(f->verdict);
	memset(f, 0, sizeof(*f));
}

void
summary_note_cost(struct summary_facts *f, enum summary_source s, int side,
		  struct summary_amount a)
{
	if (s >= SUMMARY_SOURCES || side < 0 || side > 1)
		return;
	f->seen[s] = true;
	f->cost[s][side] = a;
}

void
summary_note_virtual(struct summary_facts *f, int side, struct summary_amount a)
{
	if (side < 0 || side > 1)
		return;
	f->virt_seen = true;
	f->virt[side] = a;
}

/* Larger first: |bytes|, then |count|, then the name. */
static int
growth_cmp(const struct summary_growth *a, const struct summary_growth *b)
{
	uint64_t ab = a->has_bytes ? magnitude(a->bytes) : 0;
	uint64_t bb = b->has_bytes ? magnitude(b->bytes) : 0;
	if (ab != bb)
		return ab > bb ? -1 : 1;
	uint64_t ac = a->has_count ? magnitude(a->count) : 0;
	uint64_t bc = b->has_count ? magnitude(b->count) : 0;
	if (ac != bc)
		return ac > bc ? -1 : 1;
	int c = strcmp(a->what ? a->what : "", b->what ? b->what : "");
	if (c)
		return c;
	return strcmp(a->state ? a->state : "", b->state ? b->state : "");
}

static bool
is_growth(const struct summary_growth *g)
{
	if (g->has_bytes && g->bytes != 0)
		return g->bytes > 0;
	return g->has_count && g->count > 0;
}

void
summary_offer(struct summary_list *l, const struct summary_growth *g,
	      const char *const *detail, size_t ndetail)
{
	if (!is_growth(g))
		return;
	size_t at = l->n;
	while (at > 0 && growth_cmp(g, &l->items[at - 1].g) < 0)
		at--;
	if (at == SUMMARY_ITEMS_MAX) {
		l->more++;
		return;
	}
	if (l->n == SUMMARY_ITEMS_MAX) {
		item_release(&l->items[SUMMARY_ITEMS_MAX - 1]);
		l->n--;
		l->more++;
	}
	memmove(&l->items[at + 1], &l->items[at], (l->n - at) * sizeof(l->items[0]));
	struct summary_item *it = &l->items[at];
	memset(it, 0, sizeof(*it));
	it->g = *g;
	it->what = xstrdup(g->what ? g->what : "(unnamed)");
	it->state = g->state ? xstrdup(g->state) : NULL;
	it->g.what = it->what;
	it->g.state = it->state;
	if (ndetail) {
		it->detail = xcalloc(ndetail + 1, sizeof(*it->detail));
		for (size_t i = 0; i < ndetail; i++)
			it->detail[i] = xstrdup(detail[i]);
		it->ndetail = ndetail;
	}
	l->n++;
}

/* ---- facts of the captures ------------------------------------------------ */

void
summary_note_footprint(struct summary_facts *f, int side, const struct footprint_process *p)
{
	struct footprint_figure sum = footprint_figure_exact(0);
	bool fits = true;
	for (size_t i = 0; i < footprint_gpu_ncategories && fits; i++) {
		const char *c = footprint_gpu_categories[i];
		struct footprint_figure d = footprint_process_figure(p, c, strlen(c), FOOTPRINT_DIRTY);
		struct footprint_figure w = footprint_process_figure(p, c, strlen(c),
								     FOOTPRINT_SWAPPED);
		fits = footprint_figure_add(&sum, &d) && footprint_figure_add(&sum, &w);
	}
	struct summary_amount a = {
		.known = fits && sum.known,
		.value = sum.value,
		.rounded = sum.slack != 0,
		.at_least = sum.at_least,
	};
	summary_note_cost(f, SUMMARY_SRC_FOOTPRINT, side, a);
}

void
summary_note_vmmap(struct summary_facts *f, int side, const struct vmmap_dump *d)
{
	uint64_t dirty = 0, swapped = 0, resident = 0, vsize = 0;
	bool rd = false, rs = false, rr = false, rv = false;
	bool kd = vmmap_dump_gpu_figure(d, VMMAP_FIELD_DIRTY, &dirty, &rd);
	bool ks = vmmap_dump_gpu_figure(d, VMMAP_FIELD_SWAPPED, &swapped, &rs);
	bool kr = vmmap_dump_gpu_figure(d, VMMAP_FIELD_RESIDENT, &resident, &rr);
	bool kv = vmmap_dump_gpu_figure(d, VMMAP_FIELD_VSIZE, &vsize, &rv);
	uint64_t sum = dirty;
	bool fits = kd && ks && !__builtin_add_overflow(sum, swapped, &sum) && sum <= INT64_MAX;
	summary_note_cost(f, SUMMARY_SRC_VMMAP, side, (struct summary_amount){
		.known = fits, .value = fits ? sum : 0, .rounded = rd || rs });
	summary_note_cost(f, SUMMARY_SRC_RESIDENT, side, (struct summary_amount){
		.known = kr, .value = resident, .rounded = rr });
	summary_note_virtual(f, side, (struct summary_amount){
		.known = kv, .value = vsize, .rounded = rv });
}

static const char *const purge_words[] = {
	[VMMAP_PURGE_N] = "non-volatile",
	[VMMAP_PURGE_V] = "volatile",
	[VMMAP_PURGE_E] = "empty",
	[VMMAP_PURGE_NONE] = NULL,
};

void
summary_growth_of_vmmap_row(const struct diff_vmmap_row *row, int field,
			    struct summary_growth *out)
{
	enum vmmap_metric_field f = (enum vmmap_metric_field)field;
	*out = (struct summary_growth){
		.what = row->type,
		.state = purge_words[row->purge],
		.has_count = true,
		.count = clamp_i64(row->after.count) - clamp_i64(row->before.count),
		.count_noun = "region",
	};
	if (f == VMMAP_FIELD_COUNT)
		return;
	out->has_bytes = true;
	out->bytes = clamp_i64(vmmap_amounts_field(&row->after, f)) -
		     clamp_i64(vmmap_amounts_field(&row->before, f));
	/* Only the virtual size is the regions' own size: "+3 × 128 MiB". */
	out->regions = f == VMMAP_FIELD_VSIZE;
	out->measure = out->regions ? NULL : vmmap_fields[f].name;
}

void
summary_note_vmmap_growth(struct summary_facts *f, const struct diff_vmmap *d)
{
	for (size_t i = 0; i < d->nrows; i++) {
		const struct diff_vmmap_row *row = &d->rows[i];
		if (!gpu_type_counts(row->type, strlen(row->type)))
			continue;
		struct summary_growth g;
		summary_growth_of_vmmap_row(row, VMMAP_FIELD_VSIZE, &g);
		summary_offer(&f->grew_regions, &g, NULL, 0);
	}
}

void
summary_growth_of_footprint_row(const struct diff_footprint_row *row, struct strbuf *what,
				struct summary_growth *out)
{
	strbuf_reset(what);
	strbuf_addf(what, "%s (footprint %s)", row->category, footprint_fields[row->field].name);
	bool bytes = footprint_fields[row->field].unit == METRIC_BYTES;
	*out = (struct summary_growth){
		.what = what->buf,
		.has_bytes = bytes,
		.bytes = row->delta,
		.has_count = !bytes,
		.count = row->delta,
		.rounded = row->slack != 0,
	};
}

void
summary_growth_of_heap_row(const struct heap_diff_row *row, bool rounded, struct strbuf *what,
			   struct summary_growth *out)
{
	strbuf_reset(what);
	strbuf_addstr(what, row->name);
	if (row->binary && *row->binary)
		strbuf_addf(what, " (%s)", row->binary);
	/* Each figure at most 2^63 - 1 (heap_row_add()'s checked sums). */
	*out = (struct summary_growth){
		.what = what->buf,
		.has_bytes = true,
		.bytes = (int64_t)row->after_bytes - (int64_t)row->before_bytes,
		.has_count = true,
		.count = (int64_t)row->after_count - (int64_t)row->before_count,
		.rounded = rounded,
		.count_noun = "instance",
	};
}

void
summary_note_heap_growth(struct summary_facts *f, const struct heap_diff *d)
{
	struct strbuf sb = STRBUF_INIT;
	bool rounded = d->before->rounded || d->after->rounded;
	for (size_t i = 0; i < d->nrows; i++) {
		struct summary_growth g;
		summary_growth_of_heap_row(&d->rows[i], rounded, &sb, &g);
		summary_offer(&f->grew_heap, &g, NULL, 0);
	}
	strbuf_release(&sb);
}

void
summary_note_footprint_growth(struct summary_facts *f, const struct diff_footprint *d)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < d->nrows; i++) {
		const struct diff_footprint_row *row = &d->rows[i];
		if (!row->category || row->field != FOOTPRINT_DIRTY || !row->has_delta)
			continue;
		struct summary_growth g;
		summary_growth_of_footprint_row(row, &sb, &g);
		summary_offer(&f->grew_categories, &g, NULL, 0);
	}
	strbuf_release(&sb);
}

/* A site's figures as a growth, without its label (built only for those kept). */
static struct summary_growth
track_site_growth(const struct diff_track *d, const struct diff_track_site *site)
{
	const struct diff_track_figures *b = diff_track_site_side(d, site, 0);
	const struct diff_track_figures *a = diff_track_site_side(d, site, 1);
	return (struct summary_growth){
		.has_bytes = true,
		.bytes = clamp_i64(a->bytes) - clamp_i64(b->bytes),
		.has_count = true,
		.count = a->count - b->count,
		.count_noun = site->mapping ? "mapping" : "allocation",
	};
}

void
summary_growth_of_track_site(const struct diff_track *d, const struct diff_track_site *site,
			     struct strbuf *label, struct summary_growth *out)
{
	*out = track_site_growth(d, site);
	strbuf_reset(label);
	diff_track_site_label(d, site, label);
	out->what = label->buf;
}

void
summary_note_track_growth(struct summary_facts *f, const struct diff_track *d)
{
	for (size_t i = 0; i < d->nsites; i++) {
		const struct diff_track_site *site = &d->sites[i];
		struct summary_growth g = track_site_growth(d, site);
		/* Only the largest few are kept: their labels are built alone. */
		if (!is_growth(&g) ||
		    (f->sites.n == SUMMARY_ITEMS_MAX &&
		     magnitude(g.bytes) < magnitude(f->sites.items[SUMMARY_ITEMS_MAX - 1].g.bytes))) {
			f->sites.more += is_growth(&g);
			continue;
		}
		struct strbuf label = STRBUF_INIT;
		diff_track_site_label(d, site, &label);
		g.what = label.buf;
		char **frames = xcalloc(site->nframes + 1, sizeof(*frames));
		for (size_t k = 0; k < site->nframes; k++) {
			struct strbuf fr = STRBUF_INIT;
			diff_track_frame_text(d, diff_track_site_frame(site, k), &fr);
			frames[k] = strbuf_detach(&fr, NULL);
		}
		summary_offer(&f->sites, &g, (const char *const *)frames, site->nframes);
		for (size_t k = 0; k < site->nframes; k++)
			free(frames[k]);
		free(frames);
		strbuf_release(&label);
	}
}

void
summary_note_class(struct summary_facts *f, const char *cls, int64_t delta)
{
	struct summary_growth g = { .what = cls, .has_count = true, .count = delta };
	summary_offer(&f->classes, &g, NULL, 0);
}

static void
list_merge(struct summary_list *dst, const struct summary_list *src)
{
	for (size_t i = 0; i < src->n; i++)
		summary_offer(dst, &src->items[i].g, (const char *const *)src->items[i].detail,
			      src->items[i].ndetail);
	dst->more += src->more;
}

void
summary_facts_merge(struct summary_facts *dst, const struct summary_facts *src)
{
	for (int s = 0; s < SUMMARY_SOURCES; s++) {
		if (!src->seen[s])
			continue;
		dst->seen[s] = true;
		dst->cost[s][0] = src->cost[s][0];
		dst->cost[s][1] = src->cost[s][1];
	}
	if (src->virt_seen) {
		dst->virt_seen = true;
		dst->virt[0] = src->virt[0];
		dst->virt[1] = src->virt[1];
	}
	list_merge(&dst->grew_regions, &src->grew_regions);
	list_merge(&dst->grew_categories, &src->grew_categories);
	list_merge(&dst->grew_heap, &src->grew_heap);
	list_merge(&dst->sites, &src->sites);
	list_merge(&dst->classes, &src->classes);
	if (src->tracked_class)
		summary_note_tracked_class(dst, src->tracked_class);
	if (src->verdict)
		summary_note_verdict(dst, src->verdict);
}

void
summary_note_tracked_class(struct summary_facts *f, const char *cls)
{
	free(f->tracked_class);
	f->tracked_class = cls ? xstrdup(cls) : NULL;
}

void
summary_note_verdict(struct summary_facts *f, const char *verdict)
{
	free(f->verdict);
	f->verdict = verdict ? xstrdup(verdict) : NULL;
}

/* ---- the lines ------------------------------------------------------------ */

enum summary_source
summary_cost_source(const struct summary_facts *f)
{
	for (int s = 0; s < SUMMARY_SOURCES; s++) {
		if (!f->seen[s])
			continue;
		if (f->cost[s][1].known && (!f->pair || f->cost[s][0].known))
			return (enum summary_source)s;
	}
	return SUMMARY_SOURCES;
}

static void
amount_text(const struct summary_amount *a, char out[40])
{
	char b[32];
	size_format_text(clamp_i64(a->value), a->rounded ? SIZE_TEXT_ROUNDED : 0, b);
	snprintf(out, 40, "%s%s", a->at_least ? ">=" : "", b);
}

static struct summary_line *
add_line(struct summary *s, enum summary_line_kind k, struct strbuf *text)
{
	struct summary_line *l = &s->lines[s->n++];
	memset(l, 0, sizeof(*l));
	l->kind = k;
	l->text = strbuf_detach(text, NULL);
	return l;
}

/*
 * The virtual size second, when vmmap has it on every side: "; virtual
 * 3.4 GiB" (a pair: its change, "; virtual +389 MiB"). Mapped is not paid:
 * it never leads, but a reader comparing with vmmap's VIRTUAL column finds it.
 */
static void
virtual_text(const struct summary_facts *f, struct strbuf *sb)
{
	const struct summary_amount *b = &f->virt[0], *a = &f->virt[1];
	if (!f->virt_seen || !a->known || (f->pair && !b->known))
		return;
	char t[40];
	if (f->pair) {
		size_format_text(clamp_i64(a->value) - clamp_i64(b->value),
				 SIZE_TEXT_SIGNED | (a->rounded || b->rounded ? SIZE_TEXT_ROUNDED : 0),
				 t);
		strbuf_addf(sb, "; virtual %s", t);
	} else {
		amount_text(a, t);
		strbuf_addf(sb, "; virtual %s", t);
	}
}

/*
 * "Cost: +64 MiB (897.5 MiB → 961.5 MiB), GPU dirty + swapped (footprint);
 * virtual +389 MiB"; one capture: "Cost: 961.5 MiB, GPU dirty + swapped
 * (footprint); virtual 3.4 GiB".
 */
static void
cost_line(const struct summary_facts *f, struct summary *s)
{
	enum summary_source src = summary_cost_source(f);
	if (src == SUMMARY_SOURCES)
		return;
	const struct summary_amount *b = &f->cost[src][0], *a = &f->cost[src][1];
	struct strbuf sb = STRBUF_INIT;
	char at[40], bt[40], dt[32];
	amount_text(a, at);
	int64_t figure = clamp_i64(a->value);
	if (f->pair) {
		amount_text(b, bt);
		figure = clamp_i64(a->value) - clamp_i64(b->value);
		size_format_text(figure, SIZE_TEXT_SIGNED |
				 (a->rounded || b->rounded ? SIZE_TEXT_ROUNDED : 0), dt);
		strbuf_addf(&sb, "Cost: %s (%s \u2192 %s)", dt, bt, at);
	} else {
		strbuf_addf(&sb, "Cost: %s", at);
	}
	strbuf_addf(&sb, ", %s (%s)", summary_source_meaning(src), summary_source_name(src));
	virtual_text(f, &sb);
	struct summary_line *l = add_line(s, SUMMARY_LINE_COST, &sb);
	l->has_bytes = true;
	l->bytes = figure;
}

/* The items of a list joined by "; ", and "and N more". */
static void
list_text(const struct summary_list *l, size_t shown, struct strbuf *sb)
{
	for (size_t i = 0; i < l->n && i < shown; i++) {
		if (i)
			strbuf_addstr(sb, "; ");
		summary_growth_phrase(&l->items[i].g, sb);
	}
	uint64_t more = l->more + (l->n > shown ? l->n - shown : 0);
	if (more)
		strbuf_addf(sb, "; and %" PRIu64 " more", more);
}

static void
grew_line(const struct summary_facts *f, struct summary *s)
{
	const struct summary_list *l = f->grew_regions.n ? &f->grew_regions
				       : f->grew_categories.n ? &f->grew_categories
				       : &f->grew_heap;
	if (!l->n)
		return;
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "Grew: ");
	list_text(l, 2, &sb);
	struct summary_line *line = add_line(s, SUMMARY_LINE_GREW, &sb);
	line->has_bytes = l->items[0].g.has_bytes;
	line->bytes = l->items[0].g.bytes;
}

/*
 * "Where: com.example.driver.NewCache: NewCache::grow(unsigned long): +1 MiB
 * (+4 allocations); classes OSDictionary +100, IOSurface +5"; a session
 * leads with its tracked class.
 */
static void
where_line(const struct summary_facts *f, struct summary *s)
{
	if (!f->sites.n && !f->classes.n && !f->tracked_class)
		return;
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "Where: ");
	if (f->tracked_class)
		strbuf_addf(&sb, "%s; ", f->tracked_class);
	if (f->sites.n)
		list_text(&f->sites, 1, &sb);
	if (f->classes.n) {
		strbuf_addstr(&sb, f->sites.n ? "; classes " : "classes ");
		for (size_t i = 0; i < f->classes.n; i++)
			strbuf_addf(&sb, "%s%s %+" PRId64, i ? ", " : "", f->classes.items[i].what,
				    f->classes.items[i].g.count);
	} else if (!f->sites.n) {
		strbuf_addstr(&sb, "no call site grew");
	}
	struct summary_line *l = add_line(s, SUMMARY_LINE_WHERE, &sb);
	if (f->sites.n) {
		l->has_bytes = f->sites.items[0].g.has_bytes;
		l->bytes = f->sites.items[0].g.bytes;
		l->detail = (const char *const *)f->sites.items[0].detail;
		l->ndetail = f->sites.items[0].ndetail;
	}
}

void
summary_build(const struct summary_facts *f, struct summary *out)
{
	memset(out, 0, sizeof(*out));
	if (f->verdict) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "Verdict: %s", f->verdict);
		add_line(out, SUMMARY_LINE_VERDICT, &sb);
	}
	/* A tracking session was run for its call sites: they lead. */
	if (f->tracked_class)
		where_line(f, out);
	cost_line(f, out);
	grew_line(f, out);
	if (!f->tracked_class)
		where_line(f, out);
}

void
summary_release(struct summary *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->lines[i].text);
	memset(s, 0, sizeof(*s));
}
