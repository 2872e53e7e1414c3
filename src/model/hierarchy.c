#include "model/hierarchy.h"

#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

void
hierarchy_init(struct hierarchy *h)
{
	memset(h, 0, sizeof(*h));
	strmap_init(&h->index);
}

void
hierarchy_release(struct hierarchy *h)
{
	for (size_t i = 0; i < h->nclasses; i++) {
		free(h->classes[i].name);
		free(h->classes[i].children);
	}
	free(h->classes);
	strmap_release(&h->index);
	hierarchy_init(h);
}

bool
hierarchy_empty(const struct hierarchy *h)
{
	return h->nclasses == 0;
}

size_t
hierarchy_intern(struct hierarchy *h, const char *name, size_t len)
{
	bool created;
	size_t *slot = strmap_put(&h->index, name, len, &created);
	if (!created)
		return *slot;
	*slot = h->nclasses;
	h->classes = xgrow(h->classes, &h->classes_alloc, h->nclasses + 1,
			   sizeof(*h->classes));
	struct hier_class *c = &h->classes[h->nclasses];
	memset(c, 0, sizeof(*c));
	c->name = xmemdup0(name, len);
	c->len = len;
	c->super = HIER_NONE;
	h->finished = false;
	return h->nclasses++;
}

size_t
hierarchy_find(const struct hierarchy *h, const char *name, size_t len)
{
	size_t *i = strmap_get(&h->index, name, len);
	return i ? *i : HIER_NONE;
}

int
hierarchy_set_super(struct hierarchy *h, size_t child, size_t parent)
{
	struct hier_class *c = &h->classes[child];
	c->defined = true;
	if (child == parent) {
		h->conflicts++;
		return -1;
	}
	if (c->super == parent)
		return 0;
	if (c->super != HIER_NONE) {
		h->conflicts++;
		return -1;
	}
	c->super = parent;
	h->finished = false;
	return 0;
}

void
hierarchy_set_tracking(struct hierarchy *h, size_t cls, int64_t count)
{
	h->classes[cls].defined = true;
	h->classes[cls].has_tracking = true;
	h->classes[cls].tracking = count;
}

static const struct hierarchy *sort_hierarchy;

static int
cmp_index(const void *pa, const void *pb)
{
	const struct hier_class *a = &sort_hierarchy->classes[*(const size_t *)pa];
	const struct hier_class *b = &sort_hierarchy->classes[*(const size_t *)pb];
	return classes_name_cmp(a->name, a->len, b->name, b->len);
}

static void
sort_indexes(const struct hierarchy *h, size_t *v, size_t n)
{
	if (n < 2)
		return;   /* v may be NULL for a class without children */
	sort_hierarchy = h;
	qsort(v, n, sizeof(*v), cmp_index);
	sort_hierarchy = NULL;
}

static void
mark_reachable(struct hierarchy *h, size_t root)
{
	size_t *stack = xmalloc(sizeof(*stack) * (h->nclasses + 1));
	size_t top = 0;
	stack[top++] = root;
	while (top) {
		size_t i = stack[--top];
		if (h->classes[i].reachable)
			continue;
		h->classes[i].reachable = true;
		for (size_t k = 0; k < h->classes[i].nchildren; k++)
			stack[top++] = h->classes[i].children[k];
	}
	free(stack);
}

void
hierarchy_finish(struct hierarchy *h)
{
	for (size_t i = 0; i < h->nclasses; i++) {
		h->classes[i].nchildren = 0;
		h->classes[i].reachable = false;
	}
	for (size_t i = 0; i < h->nclasses; i++) {
		size_t p = h->classes[i].super;
		if (p == HIER_NONE)
			continue;
		struct hier_class *pc = &h->classes[p];
		pc->children = xgrow(pc->children, &pc->children_alloc, pc->nchildren + 1,
				     sizeof(*pc->children));
		pc->children[pc->nchildren++] = i;
	}
	for (size_t i = 0; i < h->nclasses; i++)
		sort_indexes(h, h->classes[i].children, h->classes[i].nchildren);
	for (size_t i = 0; i < h->nclasses; i++)
		if (h->classes[i].super == HIER_NONE)
			mark_reachable(h, i);
	h->unreachable = 0;
	for (size_t i = 0; i < h->nclasses; i++)
		if (!h->classes[i].reachable)
			h->unreachable++;
	h->finished = true;
}

size_t
hierarchy_roots(const struct hierarchy *h, size_t **out)
{
	size_t *v = xmalloc(sizeof(*v) * (h->nclasses + 1));
	size_t n = 0;
	for (size_t i = 0; i < h->nclasses; i++)
		if (h->classes[i].super == HIER_NONE)
			v[n++] = i;
	sort_indexes(h, v, n);
	*out = v;
	return n;
}

static bool
readable_count(const struct classes_snapshot *s, const struct hier_class *c,
	       int64_t *value)
{
	const struct class_count *cc = classes_snapshot_find(s, c->name, c->len);
	if (!cc || cc->state != CLASS_COUNT_OK)
		return false;
	*value = cc->value;
	return true;
}

bool
hierarchy_direct_count(const struct hierarchy *h, size_t cls,
		       const struct classes_snapshot *s, int64_t *direct,
		       uint64_t *live_subclasses)
{
	const struct hier_class *c = &h->classes[cls];
	int64_t count, sub;
	uint64_t live = 0;
	if (!readable_count(s, c, &count))
		return false;
	for (size_t k = 0; k < c->nchildren; k++)
		if (readable_count(s, &h->classes[c->children[k]], &sub) && sub >= 1)
			live++;
	*live_subclasses = live;
	/* Counts are 32-bit values and live is below 2^32 classes: no overflow. */
	*direct = count - (int64_t)live;
	return true;
}

struct walk_item {
	size_t cls;
	size_t depth;
};

void
hierarchy_walk(const struct hierarchy *h, size_t root, hierarchy_visit_fn visit,
	       void *ctx)
{
	/*
	 * `seen` keeps a walk started inside a superclass cycle (corrupt
	 * input) finite: every class is visited at most once.
	 */
	struct walk_item *stack = xmalloc(sizeof(*stack) * (h->nclasses + 1));
	bool *seen = xcalloc(h->nclasses + 1, sizeof(*seen));
	size_t top = 0;
	stack[top++] = (struct walk_item){ root, 0 };
	while (top) {
		struct walk_item it = stack[--top];
		if (seen[it.cls])
			continue;
		seen[it.cls] = true;
		visit(h, it.cls, it.depth, ctx);
		const struct hier_class *c = &h->classes[it.cls];
		for (size_t k = c->nchildren; k-- > 0;)
			if (!seen[c->children[k]])
				stack[top++] = (struct walk_item){ c->children[k], it.depth + 1 };
	}
	free(seen);
	free(stack);
}

size_t
hierarchy_check_identity(const struct hierarchy *h, const struct classes_snapshot *s,
			 struct hier_identity_failure **out)
{
	size_t *order = xmalloc(sizeof(*order) * (h->nclasses + 1));
	for (size_t i = 0; i < h->nclasses; i++)
		order[i] = i;
	sort_indexes(h, order, h->nclasses);
	struct hier_identity_failure *v = NULL;
	size_t n = 0, alloc = 0;
	for (size_t k = 0; k < h->nclasses; k++) {
		int64_t direct;
		uint64_t live;
		/* A negative count is an over-release, reported as such by the caller. */
		if (!hierarchy_direct_count(h, order[k], s, &direct, &live) || direct >= 0 ||
		    direct + (int64_t)live < 0)
			continue;
		v = xgrow(v, &alloc, n + 1, sizeof(*v));
		v[n++] = (struct hier_identity_failure){ order[k], direct + (int64_t)live, live };
	}
	free(order);
	*out = v;
	return n;
}

size_t
hierarchy_tracking_mismatches(const struct hierarchy *h, const struct classes_snapshot *s,
			      size_t *first)
{
	size_t n = 0;
	size_t best = HIER_NONE;
	for (size_t i = 0; i < h->nclasses; i++) {
		const struct hier_class *c = &h->classes[i];
		int64_t count;
		if (!c->has_tracking || !readable_count(s, c, &count) || count == c->tracking)
			continue;
		n++;
		if (best == HIER_NONE ||
		    classes_name_cmp(c->name, c->len, h->classes[best].name,
				     h->classes[best].len) < 0)
			best = i;
	}
	if (first)
		*first = best;
	return n;
}
