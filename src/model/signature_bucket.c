/*
 * Bucketing: records sorted by (rule, id) into runs, each run a bucket
 * with its statistics, then buckets sorted by count.
 */

#include "model/signature_bucket.h"

#include "util/datetime.h"
#include "util/hashmap.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

static char *
dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void
signature_record_release(struct signature_record *r)
{
	free(r->name);
	free(r->before);
	free(r->after);
	free(r->kind);
	free(r->error);
	free(r->rule);
	free(r->label);
	free(r->canonical);
	free(r->os_version);
	free(r->machine);
	free(r->captured);
	memset(r, 0, sizeof(*r));
}

void
signature_record_take(struct signature_record *r, const struct signature *s)
{
	r->os_version = dup_or_null(s->os_version);
	r->machine = dup_or_null(s->machine);
	r->captured = dup_or_null(s->captured);
	r->grew = signature_has(s);
	if (!r->grew)
		return;
	memcpy(r->id, s->id, sizeof(r->id));
	r->rule = xstrdup(SIGNATURE_RULE);
	r->label = xstrdup(s->label);
	r->canonical = xstrdup(s->canonical);
	r->growth_bytes = s->growth_bytes;
	r->growth_count = s->growth_count;
}

/* The bucket key: rule, then id. */
static int
key_cmp(const struct signature_record *x, const struct signature_record *y)
{
	int c = strcmp(x->rule, y->rule);
	return c ? c : strcmp(x->id, y->id);
}

/* Records (pointers into one array) by key, input order within a key. */
static int
by_key(const void *pa, const void *pb)
{
	const struct signature_record *x = *(const struct signature_record *const *)pa;
	const struct signature_record *y = *(const struct signature_record *const *)pb;
	int c = key_cmp(x, y);
	return c ? c : (x < y ? -1 : x > y);
}

static int
by_u64(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
	return a < b ? -1 : a > b;
}

static int
by_str(const void *pa, const void *pb)
{
	return strcmp(*(const char *const *)pa, *(const char *const *)pb);
}

/* Distinct non-NULL strings, sorted; *n how many. */
static const char **
distinct(const char **v, size_t m, size_t *n)
{
	size_t k = 0;
	for (size_t i = 0; i < m; i++)
		if (v[i])
			v[k++] = v[i];
	qsort(v, k, sizeof(*v), by_str);
	size_t d = 0;
	for (size_t i = 0; i < k; i++)
		if (d == 0 || strcmp(v[d - 1], v[i]) != 0)
			v[d++] = v[i];
	*n = d;
	return v;
}

/* The lower median (a member's own figure, never an average of two). */
static uint64_t
median(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), by_u64);
	return v[(n - 1) / 2];
}

static void
bucket_stats(struct signature_bucket *b, const struct signature_record *recs)
{
	size_t n = b->count;
	const char **os = xcalloc(n, sizeof(*os)), **mach = xcalloc(n, sizeof(*mach));
	uint64_t *bytes = xcalloc(n, sizeof(*bytes)), *counts = xcalloc(n, sizeof(*counts));
	int64_t first = 0, last = 0;
	for (size_t i = 0; i < n; i++) {
		const struct signature_record *r = &recs[b->members[i]];
		os[i] = r->os_version;
		mach[i] = r->machine;
		bytes[i] = r->growth_bytes;
		counts[i] = r->growth_count;
		int64_t ms;
		if (!r->captured || !datetime_parse(r->captured, &ms))
			continue;
		if (!b->first || ms < first) {
			b->first = r->captured;
			first = ms;
		}
		if (!b->last || ms > last) {
			b->last = r->captured;
			last = ms;
		}
	}
	b->os_versions = distinct(os, n, &b->nos);
	b->machines = distinct(mach, n, &b->nmachines);
	b->median_bytes = median(bytes, n);
	b->median_count = median(counts, n);
	free(bytes);
	free(counts);
}

static int
by_count(const void *pa, const void *pb)
{
	const struct signature_bucket *a = pa, *b = pb;
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	int c = strcmp(a->first_record->id, b->first_record->id);
	return c ? c : strcmp(a->first_record->rule, b->first_record->rule);
}

void
signature_buckets_make(struct signature_buckets *out, const struct signature_record *recs,
		       size_t n)
{
	memset(out, 0, sizeof(*out));
	out->records = n;
	const struct signature_record **idx = xcalloc(n ? n : 1, sizeof(*idx));
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		if (recs[i].error)
			out->failed++;
		else if (!recs[i].grew)
			out->no_growth++;
		else
			idx[m++] = &recs[i];
	}
	out->grew = m;
	qsort(idx, m, sizeof(*idx), by_key);
	out->b = xcalloc(m ? m : 1, sizeof(*out->b));
	for (size_t i = 0; i < m;) {
		size_t j = i + 1;
		while (j < m && key_cmp(idx[i], idx[j]) == 0)
			j++;
		struct signature_bucket *b = &out->b[out->n++];
		b->first_record = idx[i];
		b->count = j - i;
		b->members = xcalloc(b->count, sizeof(*b->members));
		for (size_t k = 0; k < b->count; k++)
			b->members[k] = (size_t)(idx[i + k] - recs);
		bucket_stats(b, recs);
		i = j;
	}
	free((void *)idx);
	qsort(out->b, out->n, sizeof(*out->b), by_count);
}

void
signature_buckets_release(struct signature_buckets *b)
{
	for (size_t i = 0; i < b->n; i++) {
		free(b->b[i].members);
		free((void *)b->b[i].os_versions);
		free((void *)b->b[i].machines);
	}
	free(b->b);
	memset(b, 0, sizeof(*b));
}

size_t
signature_buckets_find(const struct signature_buckets *b, const char *prefix, size_t **found)
{
	size_t n = 0, alloc = 0, len = strlen(prefix);
	*found = NULL;
	for (size_t i = 0; i < b->n; i++)
		if (strncmp(b->b[i].first_record->id, prefix, len) == 0) {
			*found = xgrow(*found, &alloc, n + 1, sizeof(**found));
			(*found)[n++] = i;
		}
	return n;
}

/* Components by pairs, then section, then key: the same records give the same order. */
static int
by_pairs(const void *pa, const void *pb)
{
	const struct signature_component_count *a = pa, *b = pb;
	if (a->pairs != b->pairs)
		return a->pairs > b->pairs ? -1 : 1;
	if (a->section != b->section)
		return a->section < b->section ? -1 : 1;
	return strcmp(a->key, b->key);
}

/* The count of (section, key), made when new; `index` maps "section:key" to it. */
static struct signature_component_count *
component_slot(struct signature_components *out, size_t *alloc, struct strmap *index,
	       const struct signature_part *p)
{
	struct strbuf name = STRBUF_INIT;
	bool created;
	strbuf_addf(&name, "%s:%.*s", signature_section_name(p->section), (int)p->len, p->key);
	size_t *slot = strmap_put(index, name.buf, name.len, &created);
	strbuf_release(&name);
	if (!created)
		return &out->c[*slot];
	*slot = out->n;
	out->c = xgrow(out->c, alloc, out->n + 1, sizeof(*out->c));
	struct signature_component_count *c = &out->c[out->n++];
	struct strbuf key = STRBUF_INIT, label = STRBUF_INIT;
	strbuf_add(&key, p->key, p->len);
	signature_part_label(p, &label);
	*c = (struct signature_component_count){
		.section = p->section, .key = strbuf_detach(&key, NULL),
		.label = strbuf_detach(&label, NULL),
	};
	return c;
}

void
signature_components_make(struct signature_components *out, const struct signature_buckets *b)
{
	size_t alloc = 0;
	struct strmap index;
	memset(out, 0, sizeof(*out));
	strmap_init(&index);
	for (size_t i = 0; i < b->n; i++) {
		const struct signature_bucket *k = &b->b[i];
		const struct signature_record *r = k->first_record;
		struct signature_part *parts;
		size_t np;
		/* One bucket is one canonical text: its components once, its count added. */
		if (strcmp(r->rule, SIGNATURE_RULE) != 0 || !r->canonical ||
		    signature_parts_of(r->canonical, &parts, &np) < 0)
			continue;
		for (size_t j = 0; j < np; j++) {
			struct signature_component_count *c =
				component_slot(out, &alloc, &index, &parts[j]);
			c->pairs += k->count;
			c->buckets = xgrow(c->buckets, &c->buckets_alloc, c->nbuckets + 1,
					   sizeof(*c->buckets));
			c->buckets[c->nbuckets++] = i;
		}
		free(parts);
	}
	strmap_release(&index);
	if (out->n)
		qsort(out->c, out->n, sizeof(*out->c), by_pairs);
}

void
signature_components_release(struct signature_components *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->c[i].key);
		free(c->c[i].label);
		free(c->c[i].buckets);
	}
	free(c->c);
	memset(c, 0, sizeof(*c));
}
