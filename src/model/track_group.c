#include "model/track_group.h"

#include "model/track_classify.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

void
track_grouping_init(struct track_grouping *gr)
{
	memset(gr, 0, sizeof(*gr));
	strmap_init(&gr->group_index);
	strmap_init(&gr->frame_index);
}

void
track_grouping_release(struct track_grouping *gr)
{
	for (size_t i = 0; i < gr->ngroups; i++) {
		free(gr->groups[i].name);
		free(gr->groups[i].symbol);
		free(gr->groups[i].stack);
	}
	free(gr->groups);
	strmap_release(&gr->group_index);
	for (size_t i = 0; i < gr->nframe_names; i++)
		free(gr->frame_names[i]);
	free(gr->frame_names);
	strmap_release(&gr->frame_index);
	track_grouping_init(gr);
}

static struct track_group *
group_get(struct track_grouping *gr, const char *key, size_t keylen, uint64_t seq)
{
	bool created;
	size_t *slot = strmap_put(&gr->group_index, key, keylen, &created);
	if (created) {
		gr->groups = xgrow(gr->groups, &gr->groups_alloc, gr->ngroups + 1,
				   sizeof(*gr->groups));
		struct track_group *g = &gr->groups[gr->ngroups];
		memset(g, 0, sizeof(*g));
		g->first_seq = seq;
		g->last_seq = UINT64_MAX;
		*slot = gr->ngroups++;
	}
	return &gr->groups[*slot];
}

static int
group_add(struct track_group *g, const struct track_record *r, bool self,
	  const char *path, struct diag *err)
{
	if (g->last_seq == r->seq)
		return 0;
	g->last_seq = r->seq;
	if (track_record_add_bytes(r, &g->bytes, "sum of a group", path, err) < 0)
		return -1;
	if (self)
		g->self_bytes += r->bytes;   /* at most g->bytes */
	g->records++;
	int64_t c = r->type == TRACK_RECORD_MAP ? 1 : r->count;
	/* Counts are %d of the kernel's uint32: saturate rather than wrap. */
	if ((c > 0 && g->count > INT64_MAX - c) || (c < 0 && g->count < INT64_MIN - c))
		g->count = c > 0 ? INT64_MAX : INT64_MIN;
	else
		g->count += c;
	return 0;
}

/* The group of a plain name (a module or a category). */
static int
add_named(struct track_grouping *gr, const char *name, size_t n,
	  const struct track_record *r, const char *path, struct diag *err)
{
	struct track_group *g = group_get(gr, name, n, r->seq);
	if (!g->name)
		g->name = xmemdup0(name, n);
	return group_add(g, r, true, path, err);
}

static int
add_module(struct track_grouping *gr, const struct track_record *r, const char *path,
	   struct diag *err)
{
	size_t n;
	const char *name = track_record_module(r, &n);
	return add_named(gr, name, n, r, path, err);
}

static int
add_category(struct track_grouping *gr, const struct track_record *r, const char *queue,
	     const char *path, struct diag *err)
{
	size_t n;
	const char *cat = track_record_category(r, queue, &n);
	if (!cat) {
		cat = "(unknown)";
		n = 9;
	}
	return add_named(gr, cat, n, r, path, err);
}

static void
add_text(struct strbuf *out, const struct track_record *r, struct track_text t)
{
	strbuf_add(out, track_str(r, t), t.len);
}

static int
add_symbols(struct track_grouping *gr, const struct track_record *r, struct strbuf *key,
	    const char *path, struct diag *err)
{
	bool first = true;
	for (size_t i = 0; i < r->nframes; i++) {
		const struct track_frame *f = &r->frames[i];
		const char *cls;
		size_t cl;
		if (track_frame_metaclass(r, f, &cls, &cl))
			continue;
		strbuf_reset(key);
		add_text(key, r, f->module);
		strbuf_addch(key, '\0');
		add_text(key, r, f->symbol);
		struct track_group *g = group_get(gr, key->buf, key->len, r->seq);
		if (!g->name) {
			g->name = xmemdup0(track_str(r, f->module), f->module.len);
			g->symbol = xmemdup0(track_str(r, f->symbol), f->symbol.len);
		}
		if (group_add(g, r, first, path, err) < 0)
			return -1;
		first = false;
	}
	return 0;
}

/* The interned id of a frame's folded name (track_frame_folded_name). */
static uint32_t
frame_name_id(struct track_grouping *gr, const struct track_record *r,
	      const struct track_frame *f, struct strbuf *tmp)
{
	struct track_text t = f->symbol.len ? f->symbol : f->module;
	const char *name = track_str(r, t);
	size_t len = t.len;
	if (len == 0 || memchr(name, ';', len) || memchr(name, '\t', len)) {
		strbuf_reset(tmp);
		track_frame_folded_name(r, f, tmp);
		name = tmp->buf;
		len = tmp->len;
	}
	bool created;
	size_t *slot = strmap_put(&gr->frame_index, name, len, &created);
	if (created) {
		gr->frame_names = xgrow(gr->frame_names, &gr->frame_names_alloc,
					gr->nframe_names + 1, sizeof(*gr->frame_names));
		gr->frame_names[gr->nframe_names] = xmemdup0(name, len);
		*slot = gr->nframe_names++;
	}
	return (uint32_t)*slot;
}

/* The key of a folded stack: the ids of its frame names, outermost first. */
static void
folded_key(struct track_grouping *gr, const struct track_record *r, struct strbuf *key)
{
	struct strbuf tmp = STRBUF_INIT;
	for (size_t i = r->nframes; i-- > 0;) {
		const char *cls;
		size_t cl;
		if (track_frame_metaclass(r, &r->frames[i], &cls, &cl))
			continue;
		uint32_t id = frame_name_id(gr, r, &r->frames[i], &tmp);
		strbuf_add(key, &id, sizeof(id));
	}
	strbuf_release(&tmp);
}

static int
add_folded(struct track_grouping *gr, const struct track_record *r, struct strbuf *key,
	   const char *path, struct diag *err)
{
	folded_key(gr, r, key);
	struct track_group *g = group_get(gr, key->buf, key->len, r->seq);
	if (!g->stack && key->len) {
		g->nstack = key->len / sizeof(uint32_t);
		g->stack = xmalloc(key->len);
		memcpy(g->stack, key->buf, key->len);
	}
	return group_add(g, r, true, path, err);
}

int
track_grouping_add(struct track_grouping *gr, enum track_by by,
		   const struct track_record *r, const char *queue,
		   const char *path, struct diag *err)
{
	struct strbuf key = STRBUF_INIT;
	int rc = 0;
	switch (by) {
	case TRACK_BY_NONE:
		break;
	case TRACK_BY_MODULE:
		rc = add_module(gr, r, path, err);
		break;
	case TRACK_BY_SYMBOL:
		rc = add_symbols(gr, r, &key, path, err);
		break;
	case TRACK_BY_CLASS:
		rc = add_category(gr, r, queue, path, err);
		break;
	case TRACK_BY_FOLDED:
		rc = add_folded(gr, r, &key, path, err);
		break;
	}
	strbuf_release(&key);
	return rc;
}

void
track_grouping_folded_text(const struct track_grouping *gr, const struct track_group *g,
			   struct strbuf *out)
{
	for (size_t i = 0; i < g->nstack; i++) {
		if (i)
			strbuf_addch(out, ';');
		strbuf_addstr(out, gr->frame_names[g->stack[i]]);
	}
	if (g->nstack == 0)
		strbuf_addstr(out, "[no frames]");
}

static int
cmp_groups(const void *a, const void *b)
{
	const struct track_group *x = *(const struct track_group *const *)a;
	const struct track_group *y = *(const struct track_group *const *)b;
	/* Only --by symbol groups have a symbol: they sort by self bytes first. */
	if (x->symbol && y->symbol && x->self_bytes != y->self_bytes)
		return x->self_bytes > y->self_bytes ? -1 : 1;
	if (x->bytes != y->bytes)
		return x->bytes > y->bytes ? -1 : 1;
	if (!x->name || !y->name)   /* folded stacks: first seen first */
		return x->first_seq < y->first_seq ? -1 : x->first_seq > y->first_seq;
	int c = strcmp(x->name, y->name);
	if (c)
		return c;
	if (x->symbol && y->symbol && (c = strcmp(x->symbol, y->symbol)) != 0)
		return c;
	return x->first_seq < y->first_seq ? -1 : x->first_seq > y->first_seq;
}

size_t
track_grouping_sorted(const struct track_grouping *gr, const struct track_group ***out)
{
	const struct track_group **v = xcalloc(gr->ngroups ? gr->ngroups : 1, sizeof(*v));
	for (size_t i = 0; i < gr->ngroups; i++)
		v[i] = &gr->groups[i];
	if (gr->ngroups)
		qsort(v, gr->ngroups, sizeof(*v), cmp_groups);
	*out = v;
	return gr->ngroups;
}

const char *
track_by_name(enum track_by b)
{
	switch (b) {
	case TRACK_BY_MODULE:
		return "module";
	case TRACK_BY_SYMBOL:
		return "symbol";
	case TRACK_BY_CLASS:
		return "class";
	case TRACK_BY_FOLDED:
		return "folded";
	case TRACK_BY_NONE:
	default:
		return NULL;
	}
}
