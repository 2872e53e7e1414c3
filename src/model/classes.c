#include "model/classes.h"

#include "util/size.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *const alloc_keys[ALLOC_KINDS] = {
	"Instance allocation",
	"Container allocation",
	"IOMalloc allocation",
	"Pageable allocation",
};

static const char *const alloc_names[ALLOC_KINDS] = {
	"instance", "container", "iomalloc", "pageable",
};

const char *
alloc_kind_name(enum alloc_kind k)
{
	return k < ALLOC_KINDS ? alloc_names[k] : "?";
}

int
alloc_kind_from_name(const char *name)
{
	for (int k = 0; k < ALLOC_KINDS; k++)
		if (strcmp(alloc_names[k], name) == 0)
			return k;
	return -1;
}

const char *
alloc_kind_key(enum alloc_kind k)
{
	return k < ALLOC_KINDS ? alloc_keys[k] : "?";
}

int
alloc_kind_from_key(const char *key, size_t len)
{
	for (int k = 0; k < ALLOC_KINDS; k++)
		if (strlen(alloc_keys[k]) == len && memcmp(alloc_keys[k], key, len) == 0)
			return k;
	return -1;
}

const char *
classes_source_name(enum classes_source s)
{
	switch (s) {
	case CLASSES_SRC_IOREG_TEXT:
		return "ioreg-text";
	case CLASSES_SRC_IOREG_XML:
		return "ioreg-xml";
	case CLASSES_SRC_IOCLASSCOUNT:
		return "ioclasscount";
	case CLASSES_SRC_KEXT_INFO:
	default:
		return "kext-info";
	}
}

void
classes_capture_init(struct classes_capture *cap)
{
	memset(cap, 0, sizeof(*cap));
}

void
classes_snapshot_free(struct classes_snapshot *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nclasses; i++)
		free(s->classes[i].name);
	free(s->classes);
	strmap_release(&s->index);
	free(s);
}

void
classes_capture_release(struct classes_capture *cap)
{
	for (size_t i = 0; i < cap->nsnapshots; i++)
		classes_snapshot_free(cap->snapshots[i]);
	free(cap->snapshots);
	classes_capture_init(cap);
}

struct classes_snapshot *
classes_capture_add(struct classes_capture *cap, enum classes_source source,
		    uint64_t line)
{
	struct classes_snapshot *s = xcalloc(1, sizeof(*s));
	s->source = source;
	s->line = line;
	strmap_init(&s->index);
	cap->snapshots = xgrow(cap->snapshots, &cap->snapshots_alloc,
			       cap->nsnapshots + 1, sizeof(*cap->snapshots));
	cap->snapshots[cap->nsnapshots++] = s;
	return s;
}

void
classes_capture_move(struct classes_capture *to, struct classes_capture *from)
{
	for (size_t i = 0; i < from->nsnapshots; i++) {
		to->snapshots = xgrow(to->snapshots, &to->snapshots_alloc, to->nsnapshots + 1,
				      sizeof(*to->snapshots));
		to->snapshots[to->nsnapshots++] = from->snapshots[i];
	}
	from->nsnapshots = 0;
}

/* Byte order: memcmp over the shorter length, then the shorter first. */
static int
name_bytes_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);
	if (c)
		return c;
	return alen < blen ? -1 : alen > blen;
}

static void
index_all(struct classes_snapshot *s)
{
	bool created;
	for (size_t i = 0; i < s->nclasses; i++)
		*strmap_put(&s->index, s->classes[i].name, s->classes[i].len, &created) = i;
	s->indexed = true;
}

/* A new name's place in the index; false for a name already there. */
static bool
index_new_name(struct classes_snapshot *s, const char *name, size_t len)
{
	if (!s->indexed) {
		const struct class_count *last = s->nclasses ? &s->classes[s->nclasses - 1] : NULL;
		if (!last || name_bytes_cmp(last->name, last->len, name, len) < 0)
			return true;   /* still ascending: cannot be a repeat */
		index_all(s);
	}
	bool created;
	size_t *slot = strmap_put(&s->index, name, len, &created);
	if (created)
		*slot = s->nclasses;
	return created;
}

struct class_count *
classes_snapshot_add(struct classes_snapshot *s, const char *name, size_t len,
		     int64_t value, enum class_count_state state, uint64_t line)
{
	if (!index_new_name(s, name, len)) {
		s->duplicates++;
		return NULL;
	}
	s->classes = xgrow(s->classes, &s->classes_alloc, s->nclasses + 1,
			   sizeof(*s->classes));
	struct class_count *c = &s->classes[s->nclasses++];
	c->name = xmemdup0(name, len);
	c->len = len;
	c->value = value;
	c->state = state;
	c->line = line;
	return c;
}

bool
classes_snapshot_holds_counts(const struct classes_snapshot *s)
{
	return s->nclasses > 0 || s->has_classes;
}

bool
classes_snapshot_holds_totals(const struct classes_snapshot *s)
{
	for (int k = 0; k < ALLOC_KINDS; k++)
		if (s->alloc_present[k])
			return true;
	return false;
}

const struct class_count *
classes_snapshot_find(const struct classes_snapshot *s, const char *name, size_t len)
{
	if (s->indexed) {
		size_t *i = strmap_get(&s->index, name, len);
		return i ? &s->classes[*i] : NULL;
	}
	size_t lo = 0, hi = s->nclasses;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct class_count *c = &s->classes[mid];
		int cmp = name_bytes_cmp(c->name, c->len, name, len);
		if (cmp == 0)
			return c;
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

bool
class_count_as_int32(const struct class_count *c, int32_t *out)
{
	if (c->state != CLASS_COUNT_OK || c->value < INT32_MIN || c->value > INT32_MAX)
		return false;
	*out = (int32_t)c->value;
	return true;
}

bool
class_count_is_nonzero(const struct class_count *c)
{
	return c->state == CLASS_COUNT_OK && c->value != 0;
}

bool
class_count_is_negative(const struct class_count *c)
{
	return c->state == CLASS_COUNT_OK && c->value < 0;
}

enum class_count_problem
class_count_problem(const struct class_count *c, int32_t *as32)
{
	if (c->state != CLASS_COUNT_OK)
		return CLASS_COUNT_FINE;
	if (!class_count_as_int32(c, as32))
		return CLASS_COUNT_NOT_INT32;
	return *as32 < 0 ? CLASS_COUNT_OVER_RELEASED : CLASS_COUNT_FINE;
}

static unsigned char
fold(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

int
classes_name_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t n = alen < blen ? alen : blen, i = 0;
	/* Equal bytes fold equally: skip a shared prefix eight bytes at a time. */
	while (i + 8 <= n && memcmp(a + i, b + i, 8) == 0)
		i += 8;
	for (; i < n; i++) {
		unsigned char x = fold((unsigned char)a[i]), y = fold((unsigned char)b[i]);
		if (x != y)
			return x < y ? -1 : 1;
	}
	if (alen != blen)
		return alen < blen ? -1 : 1;
	int c = memcmp(a, b, n);
	return c < 0 ? -1 : c > 0;
}

/*
 * A class for sorting by name: the first sixteen bytes of its name, case
 * folded and padded with NULs, as two big-endian numbers. Names never hold a
 * NUL, so when two keys differ they order the names as classes_name_cmp()
 * does (a name that is a prefix of the other within them pads with a NUL,
 * and the shorter comes first); only equal keys need the full comparison.
 * Most comparisons are then two integer compares on the sorted array
 * itself, not two pointer chases into the names.
 */
struct name_key {
	uint64_t hi, lo;
	const struct class_count *c;
};

static struct name_key
name_key_of(const struct class_count *c)
{
	struct name_key k = { 0, 0, c };
	for (size_t i = 0; i < 16; i++) {
		uint64_t byte = i < c->len ? fold((unsigned char)c->name[i]) : 0;
		if (i < 8)
			k.hi |= byte << (56 - 8 * i);
		else
			k.lo |= byte << (56 - 8 * (i - 8));
	}
	return k;
}

static int
cmp_listing(const void *pa, const void *pb)
{
	const struct name_key *a = pa, *b = pb;
	if (a->hi != b->hi)
		return a->hi < b->hi ? -1 : 1;
	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	return classes_name_cmp(a->c->name, a->c->len, b->c->name, b->c->len);
}

size_t
classes_snapshot_sorted(const struct classes_snapshot *s,
			const struct class_count ***out)
{
	size_t n = s->nclasses;
	const struct class_count **v = xmalloc((n ? n : 1) * sizeof(*v));
	struct name_key *keys = xmalloc((n ? n : 1) * sizeof(*keys));
	for (size_t i = 0; i < n; i++)
		keys[i] = name_key_of(&s->classes[i]);
	qsort(keys, n, sizeof(*keys), cmp_listing);
	for (size_t i = 0; i < n; i++)
		v[i] = keys[i].c;
	free(keys);
	*out = v;
	return n;
}

static int
cmp_by_count(const void *pa, const void *pb)
{
	const struct class_count *a = *(const struct class_count *const *)pa;
	const struct class_count *b = *(const struct class_count *const *)pb;
	bool ka = a->state == CLASS_COUNT_OK, kb = b->state == CLASS_COUNT_OK;
	if (ka != kb)
		return ka ? -1 : 1;
	if (ka && a->value != b->value)
		return a->value > b->value ? -1 : 1;
	return classes_name_cmp(a->name, a->len, b->name, b->len);
}

void
classes_sort_by_count(const struct class_count **v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_by_count);
}

bool
classes_filter_selects(const struct classes_filter *f, const struct class_count *c)
{
	if (f->nonzero && !class_count_is_nonzero(c))
		return false;
	if (!f->nmatch)
		return true;
	for (size_t i = 0; i < f->nmatch; i++)
		if (regex_search(f->match[i], c->name, c->len))
			return true;
	return false;
}

size_t
classes_snapshot_select(const struct classes_snapshot *s, const struct classes_filter *f,
			const struct class_count ***out)
{
	size_t n = classes_snapshot_sorted(s, out), k = 0;
	const struct class_count **v = *out;
	for (size_t i = 0; i < n; i++)
		if (classes_filter_selects(f, v[i]))
			v[k++] = v[i];
	if (f->has_top) {
		classes_sort_by_count(v, k);
		if (f->top < k)
			k = (size_t)f->top;
	}
	return k;
}

bool
classes_alloc_negative_message(const struct classes_snapshot *s, enum alloc_kind k,
			       struct strbuf *out)
{
	if (k >= ALLOC_KINDS || !s->alloc_present[k] || s->alloc[k] >= 0)
		return false;
	char human[32];
	size_format_binary_delta(s->alloc[k], human);
	strbuf_addf(out, "the %s total is negative (%" PRId64 " bytes, %s): the kernel's "
		    "counter went below zero, so more was freed through it than it counted as "
		    "allocated (a free with a larger size than the allocation, or of memory "
		    "allocated another way); ioalloccount prints it as 0x%016" PRIx64,
		    alloc_kind_key(k), s->alloc[k], human, (uint64_t)s->alloc[k]);
	return true;
}

