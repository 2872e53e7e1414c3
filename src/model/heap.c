/*
 * The heap report model (model/heap.h): rows keyed by class, type and
 * binary, their sums, the figures gates and trend read, and a pair.
 */

#include "model/heap.h"

#include "util/bytes.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

void
heap_capture_init(struct heap_capture *cap)
{
	memset(cap, 0, sizeof(*cap));
	strmap_init(&cap->index);
}

void
heap_capture_release(struct heap_capture *cap)
{
	for (size_t i = 0; i < cap->nheader; i++) {
		free(cap->header[i].key);
		free(cap->header[i].value);
	}
	for (size_t i = 0; i < cap->nzones; i++)
		free(cap->zones[i].name);
	free(cap->zones);
	for (size_t i = 0; i < cap->nrows; i++) {
		free(cap->rows[i].name);
		free(cap->rows[i].type);
		free(cap->rows[i].binary);
	}
	free(cap->rows);
	strmap_release(&cap->index);
	memset(cap, 0, sizeof(*cap));
}

const char *
heap_header_value(const struct heap_capture *cap, const char *key)
{
	for (size_t i = 0; i < cap->nheader; i++)
		if (strcmp(cap->header[i].key, key) == 0)
			return cap->header[i].value;
	return NULL;
}

bool
heap_header_add(struct heap_capture *cap, const char *key, size_t klen, const char *value,
		size_t vlen)
{
	if (cap->nheader >= HEAP_HEADER_MAX)
		return false;
	struct heap_header *h = &cap->header[cap->nheader++];
	h->key = xmemdup0(key, klen);
	h->value = xmemdup0(value, vlen);
	return true;
}

void
heap_zone_add(struct heap_capture *cap, const char *name, size_t nlen, uint64_t nodes,
	      bool has_malloced, uint64_t malloced)
{
	cap->zones = xgrow(cap->zones, &cap->zones_alloc, cap->nzones + 1, sizeof(*cap->zones));
	struct heap_zone *z = &cap->zones[cap->nzones++];
	z->name = xmemdup0(name, nlen);
	z->nodes = nodes;
	z->has_malloced = has_malloced;
	z->malloced = malloced;
}

/* "name\x1ftype\x1fbinary": a unit separator never printed in a report. */
static void
row_key(struct strbuf *sb, const char *name, size_t nlen, const char *type, size_t tlen,
	const char *binary, size_t blen)
{
	strbuf_add(sb, name, nlen);
	strbuf_addch(sb, '\x1f');
	strbuf_add(sb, type, tlen);
	strbuf_addch(sb, '\x1f');
	strbuf_add(sb, binary, blen);
}

bool
heap_row_add(struct heap_capture *cap, const char *name, size_t nlen, const char *type,
	     size_t tlen, const char *binary, size_t blen, uint64_t count, uint64_t bytes)
{
	uint64_t sc = cap->sum_count, sb_ = cap->sum_bytes;
	if (!bytes_fit(count) || !bytes_fit(bytes) || !bytes_add(&sc, count) ||
	    !bytes_add(&sb_, bytes))
		return false;
	struct strbuf key = STRBUF_INIT;
	bool created;
	row_key(&key, name, nlen, type, tlen, binary, blen);
	size_t *slot = strmap_put(&cap->index, key.buf, key.len, &created);
	strbuf_release(&key);
	if (!created) {
		struct heap_row *r = &cap->rows[*slot];
		uint64_t c = r->count, b = r->bytes;
		if (!bytes_add(&c, count) || !bytes_add(&b, bytes))
			return false;
		r->count = c;
		r->bytes = b;
	} else {
		*slot = cap->nrows;
		cap->rows = xgrow(cap->rows, &cap->rows_alloc, cap->nrows + 1, sizeof(*cap->rows));
		struct heap_row *r = &cap->rows[cap->nrows++];
		r->name = xmemdup0(name, nlen);
		r->type = xmemdup0(type, tlen);
		r->binary = xmemdup0(binary, blen);
		r->count = count;
		r->bytes = bytes;
	}
	cap->sum_count = sc;
	cap->sum_bytes = sb_;
	return true;
}

static int
cmp_u64_desc(uint64_t a, uint64_t b)
{
	return a > b ? -1 : a < b;
}

static int
cmp_rows(const struct heap_row *a, const struct heap_row *b)
{
	int c;
	if ((c = cmp_u64_desc(a->bytes, b->bytes)) != 0 ||
	    (c = cmp_u64_desc(a->count, b->count)) != 0 ||
	    (c = strcmp(a->name, b->name)) != 0 || (c = strcmp(a->type, b->type)) != 0)
		return c;
	return strcmp(a->binary, b->binary);
}

/* qsort has no context: the rows being ordered, for one call at a time per thread. */
static _Thread_local const struct heap_row *order_rows;

static int
cmp_index(const void *pa, const void *pb)
{
	return cmp_rows(&order_rows[*(const size_t *)pa], &order_rows[*(const size_t *)pb]);
}

size_t *
heap_rows_ordered(const struct heap_capture *cap)
{
	size_t *order = xcalloc(cap->nrows ? cap->nrows : 1, sizeof(*order));
	for (size_t i = 0; i < cap->nrows; i++)
		order[i] = i;
	order_rows = cap->rows;
	qsort(order, cap->nrows, sizeof(*order), cmp_index);
	order_rows = NULL;
	return order;
}

int
heap_metric_parse(const char *metric, const char **cls, size_t *clen, enum heap_figure *fig,
		  bool *total)
{
	*total = false;
	*cls = NULL;
	*clen = 0;
	if (strcmp(metric, "nodes") == 0 || strcmp(metric, "bytes") == 0) {
		*total = true;
		*fig = metric[0] == 'n' ? HEAP_COUNT : HEAP_BYTES;
		return 0;
	}
	const char *dot = strrchr(metric, '.');
	if (!dot || dot == metric)
		return -1;
	if (strcmp(dot, ".count") == 0)
		*fig = HEAP_COUNT;
	else if (strcmp(dot, ".bytes") == 0)
		*fig = HEAP_BYTES;
	else
		return -1;
	*cls = metric;
	*clen = (size_t)(dot - metric);
	return 0;
}

uint64_t
heap_class_figure(const struct heap_capture *cap, const char *cls, size_t clen,
		  enum heap_figure fig, bool *found)
{
	uint64_t sum = 0;
	*found = false;
	for (size_t i = 0; i < cap->nrows; i++) {
		const struct heap_row *r = &cap->rows[i];
		if (strlen(r->name) != clen || memcmp(r->name, cls, clen) != 0)
			continue;
		*found = true;
		/* Each row's figure and the rows' sum are at most 2^63 - 1 (heap_row_add). */
		sum += fig == HEAP_COUNT ? r->count : r->bytes;
	}
	return sum;
}

uint64_t
heap_total_figure(const struct heap_capture *cap, enum heap_figure fig)
{
	if (cap->has_all)
		return fig == HEAP_COUNT ? cap->all_nodes : cap->all_bytes;
	return fig == HEAP_COUNT ? cap->sum_count : cap->sum_bytes;
}

/* ---- a pair ---- */

bool
heap_diff_row_changed(const struct heap_diff_row *r)
{
	return r->before_count != r->after_count || r->before_bytes != r->after_bytes;
}

bool
heap_diff_changed(const struct heap_diff *d)
{
	return d->nchanged > 0 ||
	       heap_total_figure(d->before, HEAP_COUNT) != heap_total_figure(d->after, HEAP_COUNT) ||
	       heap_total_figure(d->before, HEAP_BYTES) != heap_total_figure(d->after, HEAP_BYTES);
}

/* |after - before| of a row's bytes: both at most 2^63 - 1, so it fits. */
static uint64_t
bytes_moved(const struct heap_diff_row *r)
{
	return r->after_bytes > r->before_bytes ? r->after_bytes - r->before_bytes
						: r->before_bytes - r->after_bytes;
}

static int
cmp_diff_rows(const void *pa, const void *pb)
{
	const struct heap_diff_row *a = pa, *b = pb;
	int c;
	if ((c = cmp_u64_desc(bytes_moved(a), bytes_moved(b))) != 0 ||
	    (c = strcmp(a->name, b->name)) != 0 || (c = strcmp(a->type, b->type)) != 0)
		return c;
	return strcmp(a->binary, b->binary);
}

void
heap_diff_compare(struct heap_diff *d, const struct heap_capture *before,
		  const struct heap_capture *after)
{
	memset(d, 0, sizeof(*d));
	d->before = before;
	d->after = after;
	size_t n = before->nrows + after->nrows;
	d->rows = xcalloc(n ? n : 1, sizeof(*d->rows));
	for (size_t i = 0; i < before->nrows; i++) {
		const struct heap_row *r = &before->rows[i];
		struct heap_diff_row *x = &d->rows[d->nrows++];
		x->name = r->name;
		x->type = r->type;
		x->binary = r->binary;
		x->before_count = r->count;
		x->before_bytes = r->bytes;
		x->in_before = true;
	}
	struct strbuf key = STRBUF_INIT;
	for (size_t i = 0; i < after->nrows; i++) {
		const struct heap_row *r = &after->rows[i];
		strbuf_reset(&key);
		row_key(&key, r->name, strlen(r->name), r->type, strlen(r->type), r->binary,
			strlen(r->binary));
		const size_t *at = strmap_get(&before->index, key.buf, key.len);
		struct heap_diff_row *x = at ? &d->rows[*at] : &d->rows[d->nrows++];
		if (!at) {
			x->name = r->name;
			x->type = r->type;
			x->binary = r->binary;
		}
		x->after_count = r->count;
		x->after_bytes = r->bytes;
		x->in_after = true;
	}
	strbuf_release(&key);
	for (size_t i = 0; i < d->nrows; i++)
		if (heap_diff_row_changed(&d->rows[i]))
			d->nchanged++;
	qsort(d->rows, d->nrows, sizeof(*d->rows), cmp_diff_rows);
}

void
heap_diff_release(struct heap_diff *d)
{
	free(d->rows);
	memset(d, 0, sizeof(*d));
}
