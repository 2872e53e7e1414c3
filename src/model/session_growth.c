#include "model/session_growth.h"

#include "model/track_classify.h"
#include "model/track_record.h"
#include "util/strbuf.h"

#include "util/array.h"
#include "util/bytes.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

void
session_growth_init(struct session_growth *g)
{
	memset(g, 0, sizeof(*g));
	strmap_init(&g->index);
}

static void
site_release(struct session_growth_row *r)
{
	free(r->site);
	free(r->site_module);
	for (size_t i = 0; i < r->site_nframes; i++)
		free(r->site_frames[i]);
	free(r->site_frames);
	r->site = r->site_module = NULL;
	r->site_frames = NULL;
	r->site_nframes = 0;
}

static void
row_release(struct session_growth_row *r)
{
	free(r->cls);
	site_release(r);
}

void
session_growth_release(struct session_growth *g)
{
	for (size_t i = 0; i < g->nrows; i++)
		row_release(&g->rows[i]);
	free(g->rows);
	strmap_release(&g->index);
	memset(g, 0, sizeof(*g));
}

static struct session_growth_row *
row_of(struct session_growth *g, const char *cls, size_t len)
{
	bool created;
	size_t *at = strmap_put(&g->index, cls, len, &created);
	if (created) {
		g->rows = xgrow(g->rows, &g->alloc, g->nrows + 1, sizeof(*g->rows));
		struct session_growth_row *r = &g->rows[g->nrows];
		memset(r, 0, sizeof(*r));
		r->cls = xmemdup0(cls, len);
		*at = g->nrows++;
	}
	return &g->rows[*at];
}

void
session_growth_set_counts(struct session_growth *g, const char *cls, size_t len,
			  int64_t before, int64_t after)
{
	struct session_growth_row *r = row_of(g, cls, len);
	r->has_delta = true;
	r->before = before;
	r->after = after;
	if (__builtin_sub_overflow(after, before, &r->delta)) {
		r->delta = after > before ? INT64_MAX : INT64_MIN;
		g->saturated = true;
	}
}

static uint64_t
add_bytes(struct session_growth *g, uint64_t a, uint64_t b)
{
	if (b > BYTES_MAX - a) {
		g->saturated = true;
		return BYTES_MAX;
	}
	return a + b;
}

static int64_t
add_count(struct session_growth *g, int64_t a, int64_t b)
{
	int64_t s;
	if (b < 0)
		b = 0;   /* a count printed from a corrupt uint32: not added */
	if (__builtin_add_overflow(a, b, &s)) {
		g->saturated = true;
		return INT64_MAX;
	}
	return s;
}

void
session_growth_add_site(struct session_growth *g, const char *cls, size_t len, bool leak,
			uint64_t bytes, int64_t count)
{
	struct session_growth_row *r = row_of(g, cls, len);
	if (leak) {
		r->leak_bytes = add_bytes(g, r->leak_bytes, bytes);
		r->leak_count = add_count(g, r->leak_count, count);
		r->leak_sites++;
	} else {
		r->track_bytes = add_bytes(g, r->track_bytes, bytes);
		r->track_count = add_count(g, r->track_count, count);
		r->track_sites++;
	}
}

/* A frame as a backtrace line: "symbol (module)", "0xADDR (module)". */
static char *
frame_line(const struct track_record *rec, const struct track_frame *f)
{
	struct strbuf sb = STRBUF_INIT;
	if (f->symbol.len)
		strbuf_addstr(&sb, track_str(rec, f->symbol));
	else
		strbuf_addf(&sb, "0x%llx", (unsigned long long)f->address);
	if (f->module.len)
		strbuf_addf(&sb, " (%s)", track_str(rec, f->module));
	return strbuf_detach(&sb, NULL);
}

void
session_growth_add_record(struct session_growth *g, const char *cls, size_t len,
			  const struct track_record *rec)
{
	session_growth_add_site(g, cls, len, false, rec->bytes, rec->count);
	struct session_growth_row *r = row_of(g, cls, len);
	if (r->site && rec->bytes <= r->site_bytes)
		return;
	site_release(r);
	size_t mlen;
	const char *module = track_record_module(rec, &mlen);
	/* The frame the record is charged to: the first of its module. */
	const struct track_frame *charged = NULL;
	for (size_t i = 0; i < rec->nframes && !charged; i++) {
		const struct track_frame *f = &rec->frames[i];
		if (f->module.len == mlen && memcmp(track_str(rec, f->module), module, mlen) == 0)
			charged = f;
	}
	/* All the kernel's own frames: the innermost that is not the class's marker. */
	for (size_t i = 0; i < rec->nframes && !charged; i++) {
		const char *c;
		size_t n;
		if (!track_frame_metaclass(rec, &rec->frames[i], &c, &n))
			charged = &rec->frames[i];
	}
	struct strbuf sb = STRBUF_INIT;
	strbuf_add(&sb, module, mlen);
	if (charged && charged->symbol.len)
		strbuf_addf(&sb, ": %s", track_str(rec, charged->symbol));
	r->site = strbuf_detach(&sb, NULL);
	r->site_module = xmemdup0(module, mlen);
	r->site_frames = xcalloc(rec->nframes + 1, sizeof(*r->site_frames));
	for (size_t i = 0; i < rec->nframes; i++)
		r->site_frames[i] = frame_line(rec, &rec->frames[i]);
	r->site_nframes = rec->nframes;
	r->site_bytes = rec->bytes;
	r->site_count = rec->count;
}

static bool
grew(const struct session_growth_row *r)
{
	return r->has_delta && r->delta > 0;
}

static int
cmp_rows(const void *pa, const void *pb)
{
	const struct session_growth_row *a = pa, *b = pb;
	if (grew(a) != grew(b))
		return grew(a) ? -1 : 1;
	if (grew(a) && a->delta != b->delta)
		return a->delta > b->delta ? -1 : 1;
	if (a->track_bytes != b->track_bytes)
		return a->track_bytes > b->track_bytes ? -1 : 1;
	if (a->leak_bytes != b->leak_bytes)
		return a->leak_bytes > b->leak_bytes ? -1 : 1;
	return strcmp(a->cls, b->cls);
}

void
session_growth_finish(struct session_growth *g)
{
	size_t kept = 0;
	for (size_t i = 0; i < g->nrows; i++) {
		struct session_growth_row *r = &g->rows[i];
		if (grew(r) || r->track_sites || r->leak_sites)
			g->rows[kept++] = *r;
		else
			row_release(r);
	}
	g->nrows = kept;
	array_sort(g->rows, g->nrows, sizeof(*g->rows), cmp_rows);   /* NULL when no row */
	/* The index pointed at the old positions: rebuild it for later lookups. */
	strmap_release(&g->index);
	strmap_init(&g->index);
	for (size_t i = 0; i < g->nrows; i++) {
		bool created;
		*strmap_put(&g->index, g->rows[i].cls, strlen(g->rows[i].cls), &created) = i;
	}
}
