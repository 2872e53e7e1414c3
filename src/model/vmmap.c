#include "model/vmmap.h"

#include "model/gpu.h"
#include "util/array.h"
#include "util/size.h"
#include "util/xalloc.h"

#include <assert.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* A block of the summary rows' names and header fields (vmmap_dump.texts). */
struct vmmap_name_block {
	struct vmmap_name_block *next;
	size_t used, cap;
	char text[];
};

#define NAME_BLOCK_SIZE 4096

/*
 * The rare paths of the per-region-line update, kept out of line so that
 * the common path stays small: a type or size not seen yet, sums near
 * BYTES_MAX, options that keep more than the breakdown.
 */
#define COLD __attribute__((noinline, cold))

/* Indexed by enum vmmap_purge. */
static const char purge_chars[VMMAP_PURGE_STATES + 1] = "NVE-";

char
vmmap_purge_char(enum vmmap_purge p)
{
	return p < VMMAP_PURGE_STATES ? purge_chars[p] : '-';
}

int
vmmap_purge_from_char(char c)
{
	/* Once per region line, and the states of neighbouring lines vary at
	 * random: arithmetic instead of an early return, which the branch
	 * predictor would miss on about every other line (1.1 ms of CPU on a
	 * 250,000-region dump, tools/bench-vmmap). The characters differ, so
	 * at most one term is not zero. */
	int state = -1;
	for (int i = 0; i < VMMAP_PURGE_STATES; i++)
		state += (purge_chars[i] == c) * (i + 1);
	return state;
}

const enum vmmap_purge vmmap_purge_order[VMMAP_PURGE_STATES] = {
	VMMAP_PURGE_NONE, VMMAP_PURGE_E, VMMAP_PURGE_N, VMMAP_PURGE_V,
};

void
vmmap_filter_init(struct vmmap_filter *f)
{
	memset(f, 0, sizeof(*f));
}

void
vmmap_filter_release(struct vmmap_filter *f)
{
	for (size_t i = 0; i < f->ntypes; i++)
		free(f->types[i]);
	free(f->types);
	free(f->type_lens);
	vmmap_filter_init(f);
}

void
vmmap_filter_add(struct vmmap_filter *f, const char *type, size_t len)
{
	f->types = xrealloc(f->types, (f->ntypes + 1) * sizeof(*f->types));
	f->type_lens = xrealloc(f->type_lens, (f->ntypes + 1) * sizeof(*f->type_lens));
	f->type_lens[f->ntypes] = len;
	f->types[f->ntypes++] = xmemdup0(type, len);
}

/*
 * Is the needle (m bytes) in the n bytes at hay? Each summary row's name
 * is matched against every selected type and "(graphics)" three or four
 * times by the readers and writers: a byte-by-byte loop over the
 * candidate starts was 5 % of the instructions of a -summary capture.
 * memchr() finds the candidates for the first byte (most names have
 * none or one), and only those are compared.
 */
static bool
contains(const char *hay, size_t n, const char *needle, size_t m)
{
	if (m == 0)
		return true;
	if (m > n)
		return false;
	const char *p = hay, *last = hay + (n - m);   /* the last possible start */
	while ((p = memchr(p, (unsigned char)needle[0], (size_t)(last - p) + 1)) != NULL) {
		if (memcmp(p + 1, needle + 1, m - 1) == 0)
			return true;
		if (p == last)
			return false;
		p++;
	}
	return false;
}

bool
vmmap_filter_selects(const struct vmmap_filter *f, const char *name, size_t len)
{
	if (f->all)
		return true;
	for (size_t i = 0; i < f->ntypes; i++)
		if (contains(name, len, f->types[i], f->type_lens[i]))
			return true;
	return false;
}

void
vmmap_capture_init(struct vmmap_capture *cap)
{
	memset(cap, 0, sizeof(*cap));
	vmmap_filter_init(&cap->filter);
	strmap_init(&cap->row_name_index);
}

void
vmmap_capture_release(struct vmmap_capture *cap)
{
	for (size_t i = 0; i < cap->ndumps; i++)
		vmmap_dump_free(cap->dumps[i]);
	free(cap->dumps);
	for (size_t i = 0; i < cap->nrow_names; i++)
		free(cap->row_names[i].name);
	free(cap->row_names);
	strmap_release(&cap->row_name_index);
	vmmap_filter_release(&cap->filter);
	memset(cap, 0, sizeof(*cap));
}

struct vmmap_dump *
vmmap_capture_new_dump(struct vmmap_capture *cap, uint64_t line)
{
	struct vmmap_dump *d = xcalloc(1, sizeof(*d));
	d->first_line = line;
	d->counted_headroom = BYTES_MAX;
	strmap_init(&d->type_index);
	cap->dumps = xgrow(cap->dumps, &cap->dumps_alloc, cap->ndumps + 1,
			   sizeof(*cap->dumps));
	cap->dumps[cap->ndumps++] = d;
	return d;
}

void
vmmap_capture_drop(struct vmmap_capture *cap, struct vmmap_dump *d)
{
	for (size_t i = 0; i < cap->ndumps; i++) {
		if (cap->dumps[i] != d)
			continue;
		memmove(&cap->dumps[i], &cap->dumps[i + 1],
			(cap->ndumps - i - 1) * sizeof(*cap->dumps));
		cap->ndumps--;
		break;
	}
	vmmap_dump_free(d);
}

void
vmmap_dump_free(struct vmmap_dump *d)
{
	if (!d)
		return;
	free(d->fields);
	free(d->process);
	free(d->report_format);
	for (size_t i = 0; i < d->ntypes; i++) {
		if (d->types[i].printed != d->types[i].name)
			free(d->types[i].printed);
		free(d->types[i].name);
		free(d->types[i].hist_slots);
		free(d->types[i].hist);
	}
	free(d->types);
	strmap_release(&d->type_index);
	free(d->rows);
	while (d->texts) {
		struct vmmap_name_block *b = d->texts;
		d->texts = b->next;
		free(b);
	}
	free(d->surfaces);
	free(d->purgeable);
	free(d->hist_log);
	free(d);
}

/* A NUL-terminated copy of text, kept until the dump is freed. */
static char *
keep_text(struct vmmap_dump *d, const char *text, size_t len)
{
	struct vmmap_name_block *b = d->texts;
	if (!b || b->cap - b->used <= len) {
		size_t cap = len < NAME_BLOCK_SIZE ? NAME_BLOCK_SIZE : len + 1;
		b = xmalloc(sizeof(*b) + cap);
		b->next = d->texts;
		b->used = 0;
		b->cap = cap;
		d->texts = b;
	}
	char *s = b->text + b->used;
	memcpy(s, text, len);
	s[len] = '\0';
	b->used += len + 1;
	return s;
}

void
vmmap_dump_set_field(struct vmmap_dump *d, const char *key, size_t klen,
		     const char *value, size_t vlen)
{
	d->fields = xgrow(d->fields, &d->fields_alloc, d->nfields + 1,
			  sizeof(*d->fields));
	d->fields[d->nfields].key = keep_text(d, key, klen);
	d->fields[d->nfields].value = keep_text(d, value, vlen);
	d->nfields++;
}

const char *
vmmap_dump_field(const struct vmmap_dump *d, const char *key)
{
	for (size_t i = 0; i < d->nfields; i++)
		if (strcmp(d->fields[i].key, key) == 0)
			return d->fields[i].value;
	return NULL;
}

/* Unaligned loads of 8 and 4 bytes: one instruction each, no library call. */
static inline uint64_t
load64(const char *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint32_t
load32(const char *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

/* The bits in which the 8 bytes at a + i and at b + i differ. */
static inline uint64_t
word_diff(const char *a, const char *b, size_t i)
{
	return load64(a + i) ^ load64(b + i);
}

/*
 * Are the n bytes at a and at b the same? Every region line compares its
 * type name with a cached one, and names are short, so a memcmp() call
 * costs more than the comparison itself. Reads stay inside [0, n) of both:
 * the first and the last word (which may overlap), and any words between.
 * Names of 8 to 32 bytes (vmmap's type column is 24 to 27 wide) take four
 * words whatever their length: a loop over the middle ones ended at a
 * place that moved with each line's type, and mispredicted where the
 * types of a dump's lines alternate.
 */
static inline bool
bytes_equal(const char *a, const char *b, size_t n)
{
	if (n >= 8 && n <= 32) {
		size_t mid = n > 16 ? 8 : 0, late = n > 16 ? n - 16 : 0;
		return (word_diff(a, b, 0) | word_diff(a, b, mid) | word_diff(a, b, late) |
			word_diff(a, b, n - 8)) == 0;
	}
	if (n >= 8) {
		for (size_t i = 8; i + 8 < n; i += 8)
			if (word_diff(a, b, i))
				return false;
		return (word_diff(a, b, 0) | word_diff(a, b, n - 8)) == 0;
	}
	if (n >= 4)
		return ((load32(a) ^ load32(b)) | (load32(a + n - 4) ^ load32(b + n - 4))) == 0;
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

/*
 * A name's two slots in vmmap_dump.type_cache: from its length with its
 * first, last and middle words, multiplied (Fibonacci hashing), the top
 * VMMAP_TYPE_CACHE_BITS bits and the ones below them. Cheap rather than
 * thorough: the words are read inside [0, len), and many names share
 * their first 8 bytes ("MALLOC_..."), fewer their middle and last ones.
 * Two slots a name: with one, the 47 to 78 types of the benchmark dumps
 * (tools/bench-vmmap) shared slots, and 11 to 20 % of their region lines
 * missed the cache and looked the name up in the map, their types'
 * lines alternating; with two, a miss is a type's first line.
 */
struct type_slots {
	size_t first, second;
};

static inline struct type_slots
type_slots(const char *name, size_t len)
{
	uint64_t h;
	if (len >= 8)
		h = load64(name) ^ (load64(name + len - 8) * 31) ^ (load64(name + (len - 8) / 2) << 7);
	else if (len >= 4)
		h = load32(name) ^ ((uint64_t)load32(name + len - 4) << 29);
	else
		h = len ? (unsigned char)name[0] | (uint64_t)(unsigned char)name[len - 1] << 8 : 0;
	h = (h ^ len) * UINT64_C(0x9E3779B97F4A7C15);
	size_t mask = ((size_t)1 << VMMAP_TYPE_CACHE_BITS) - 1;
	return (struct type_slots){ (size_t)(h >> (64 - VMMAP_TYPE_CACHE_BITS)),
				    (size_t)(h >> (64 - 2 * VMMAP_TYPE_CACHE_BITS)) & mask };
}

/*
 * Is a name as long as vmmap's type column, so that it may be a cut one?
 * Such a type is counted until the dump's end when its cut name is not
 * selected: the selection is then made on its full name.
 */
static bool
maybe_cut(size_t len)
{
	return len == VMMAP_TYPE_COLUMN;
}

/* Appends a type: `name` as printed, `full` its full name when known (else NULL). */
static size_t
type_new(struct vmmap_dump *d, const struct vmmap_filter *f, const char *name, size_t len,
	 const char *full)
{
	d->types = xgrow(d->types, &d->types_alloc, d->ntypes + 1, sizeof(*d->types));
	struct vmmap_type_stats *t = &d->types[d->ntypes];
	memset(t, 0, sizeof(*t));
	t->printed = xmemdup0(name, len);
	t->printed_len = len;
	t->name = full ? xstrdup(full) : t->printed;
	t->name_len = full ? strlen(full) : len;
	t->selected = vmmap_filter_selects(f, t->name, t->name_len);
	t->selection_pending = !full && !t->selected && maybe_cut(len);
	t->gpu = gpu_type_counts(t->name, t->name_len);
	t->counted = t->selected || t->selection_pending || t->gpu;
	t->hist_logged = t->selection_pending;
	t->lines_headroom = VMMAP_HIST_COUNT_MAX;   /* type_headroom() of no lines */
	if (full) {
		bool created;
		*strmap_put(&d->type_index, full, strlen(full), &created) = d->ntypes;
	}
	return d->ntypes++;
}

/*
 * The cache missed: the type's record from the map, created on first
 * sight, and cached in the first of its slots that is empty, else in its
 * first slot. A type past the cache's 16-bit entries is not cached: its
 * lines look it up in the map.
 */
static COLD struct vmmap_type_stats *
type_stats_lookup(struct vmmap_dump *d, const struct vmmap_filter *f,
		  const char *name, size_t len)
{
	bool created;
	size_t idx = *strmap_put(&d->type_index, name, len, &created);
	if (created) {
		/* A cut GPU type takes its full name now: known without the summary. */
		const char *full = gpu_type_full_name(name, len);
		size_t *known = full ? strmap_get(&d->type_index, full, strlen(full)) : NULL;
		/* met whole before (an edited dump): one type */
		idx = known ? *known : type_new(d, f, name, len, full);
		/*
		 * Stored by a second lookup: type_new() puts the full name in
		 * the same map, and a put may move every slot.
		 */
		*strmap_get(&d->type_index, name, len) = idx;
	}
	if (idx < VMMAP_TYPE_CACHE_TYPES) {
		struct type_slots s = type_slots(name, len);
		bool second = d->type_cache[s.first] && !d->type_cache[s.second];
		d->type_cache[second ? s.second : s.first] = (uint16_t)(idx + 1);
	}
	return &d->types[idx];
}

/* Is the cache entry `entry` the type printed as the len bytes at name? */
static inline struct vmmap_type_stats *
type_cache_match(struct vmmap_dump *d, uint16_t entry, const char *name, size_t len)
{
	size_t cached = (size_t)entry - 1;   /* SIZE_MAX for an empty slot */
	if (cached < d->ntypes) {
		struct vmmap_type_stats *t = &d->types[cached];
		if (t->printed_len == len && bytes_equal(t->printed, name, len))
			return t;
	}
	return NULL;
}

/*
 * The record of a type if the cache holds it, else NULL. Every region line
 * looks one up and a dump has few types, so this answers almost every one.
 */
static inline struct vmmap_type_stats *
type_cached(struct vmmap_dump *d, const char *name, size_t len)
{
	struct type_slots s = type_slots(name, len);
	struct vmmap_type_stats *t = type_cache_match(d, d->type_cache[s.first], name, len);
	return t ? t : type_cache_match(d, d->type_cache[s.second], name, len);
}

/* The record of a type, created on first sight. */
static inline struct vmmap_type_stats *
type_stats(struct vmmap_dump *d, const struct vmmap_filter *f,
	   const char *name, size_t len)
{
	struct vmmap_type_stats *t = type_cached(d, name, len);
	return t ? t : type_stats_lookup(d, f, name, len);
}

/*
 * a += b, all fields; false (a unchanged) when any sum would pass BYTES_MAX
 * (2^63 - 1). Branch-free: x + y wraps or passes BYTES_MAX exactly when
 * bit 63 is set in x, y or their wrapped sum, so one test covers the five
 * sums.
 */
static bool
amounts_add(struct vmmap_amounts *a, const struct vmmap_amounts *b)
{
	struct vmmap_amounts s = {
		a->count + b->count, a->vsize + b->vsize, a->resident + b->resident,
		a->dirty + b->dirty, a->swapped + b->swapped,
	};
	uint64_t high = (a->count | b->count | s.count) | (a->vsize | b->vsize | s.vsize) |
			(a->resident | b->resident | s.resident) |
			(a->dirty | b->dirty | s.dirty) | (a->swapped | b->swapped | s.swapped);
	if (high > BYTES_MAX)
		return false;
	*a = s;
	return true;
}

static struct vmmap_amounts
region_amounts(const struct vmmap_region *r)
{
	return (struct vmmap_amounts){ 1, r->vsize, r->resident, r->dirty, r->swapped };
}

static int
type_overflow(const struct vmmap_type_stats *t, const char *path, uint64_t line,
	      struct diag *err)
{
	return diag_set(err, DIAG_DATA, path, line, 0,
			"byte counts of '%s' regions add up past 2^63 bytes", t->name);
}

/*
 * Adds counted amounts to the type's state and to the dump's total, or
 * neither. The total bounds every sum a query makes over counted amounts
 * (any types, any states), so those sums cannot pass BYTES_MAX.
 */
static int
counted_add(struct vmmap_dump *d, struct vmmap_type_stats *t, enum vmmap_purge p,
	    const struct vmmap_amounts *a, const char *path, uint64_t line,
	    struct diag *err)
{
	struct vmmap_amounts state = t->by_purge[p], total = d->counted;
	if (!amounts_add(&state, a))
		return type_overflow(t, path, line, err);
	if (!amounts_add(&total, a))
		return diag_set(err, DIAG_DATA, path, line, 0,
				"byte counts of the dump's regions add up past 2^63 bytes");
	t->by_purge[p] = state;
	d->counted = total;
	return 0;
}

/* vmmap_region_counts(), inline for the per-line path. */
static inline bool
region_counts(const struct vmmap_region *r)
{
	if (r->purge != VMMAP_PURGE_NONE || r->purge_unknown)
		return true;
	if (r->size_columns < 4)
		return true;
	return r->resident != 0 || r->dirty != 0 || r->swapped != 0;
}

bool
vmmap_region_counts(const struct vmmap_region *r)
{
	return region_counts(r);
}

/*
 * How much every field of a can still grow without passing BYTES_MAX, or
 * less: the OR of the fields is at least the largest of them, and at most
 * BYTES_MAX since each field is.
 */
static uint64_t
headroom(const struct vmmap_amounts *a)
{
	return BYTES_MAX - (a->count | a->vsize | a->resident | a->dirty | a->swapped);
}

/* headroom(), and the room left in a histogram count (each line spends 1). */
static uint64_t
type_headroom(const struct vmmap_amounts *a)
{
	uint64_t room = headroom(a);
	uint64_t count_room = a->count < VMMAP_HIST_COUNT_MAX ? VMMAP_HIST_COUNT_MAX - a->count : 0;
	return room < count_room ? room : count_room;
}

/*
 * The sums of one region line, checked one by one, each with its own
 * message: the type's lines, then (when it counts) the type's state and
 * the dump's total. On an error the sums checked before it keep the line.
 */
static COLD int
region_sums_checked(struct vmmap_dump *d, struct vmmap_type_stats *t,
		    const struct vmmap_region *r, bool counts, const char *path,
		    struct diag *err)
{
	struct vmmap_amounts a = region_amounts(r), lines = t->lines;
	if (!amounts_add(&lines, &a))
		return type_overflow(t, path, r->line, err);
	if (lines.count > VMMAP_HIST_COUNT_MAX)
		return diag_set(err, DIAG_DATA, path, r->line, 0,
				"more than %" PRIu32 " regions of type '%s' in one dump",
				VMMAP_HIST_COUNT_MAX, t->name);
	t->lines = lines;
	t->lines_rounded |= r->vsize_rounded;
	t->lines_headroom = type_headroom(&t->lines);
	if (counts && counted_add(d, t, r->purge, &a, path, r->line, err) < 0)
		return -1;
	d->counted_headroom = headroom(&d->counted);
	return 0;
}

static void
amounts_add_region(struct vmmap_amounts *a, const struct vmmap_region *r)
{
	a->count++;
	a->vsize += r->vsize;
	a->resident += r->resident;
	a->dirty += r->dirty;
	a->swapped += r->swapped;
}

/*
 * The sums of one region line: every line adds to its type's lines, a
 * counted one also to its state and to the dump's total. When none of
 * them can pass BYTES_MAX (region_sums_fit) they are added without a test
 * each (region_sums_add); when one might, region_sums_checked() decides.
 *
 * Why no sum needs its own test:
 * - m, region_growth(): the OR of the region's amounts (and of the count's
 *   1), is at least each of them. When m is within a headroom, so is every
 *   field's growth, and the new sums stay at or below BYTES_MAX (so none
 *   wraps either); spending m keeps the headroom's promise for the next
 *   line. region_sums_checked() and vmmap_dump_add_group() set headrooms
 *   anew from the sums they change.
 * - The state needs no headroom: counted_add() and region_sums_add() are
 *   the only writers of by_purge[] and d->counted, and add the same amounts
 *   to both, so no field of by_purge[p] is above that of d->counted.
 */
static inline uint64_t
region_growth(const struct vmmap_region *r)
{
	return r->vsize | r->resident | r->dirty | r->swapped | 1;
}

static inline bool
region_sums_fit(const struct vmmap_dump *d, const struct vmmap_type_stats *t,
		uint64_t m, bool counts)
{
	return m <= t->lines_headroom && (!counts || m <= d->counted_headroom);
}

/* Adds the region's amounts once region_sums_fit() said they fit. */
static inline void
region_sums_add(struct vmmap_dump *d, struct vmmap_type_stats *t,
		const struct vmmap_region *r, uint64_t m, bool counts)
{
	t->lines_headroom -= m;
	amounts_add_region(&t->lines, r);
	t->lines_rounded |= r->vsize_rounded;
	if (counts) {
		d->counted_headroom -= m;
		amounts_add_region(&d->counted, r);
		amounts_add_region(&t->by_purge[r->purge], r);
	}
}

/*
 * The first slot of vsize in hist_slots: Fibonacci hashing (the top bits
 * of a product by 2^64 / phi) mixes every bit of the size, and sizes are
 * multiples of the page size. hist_slots_cap is a power of two, at least 2.
 */
static inline size_t
hist_slot(const struct vmmap_type_stats *t, uint64_t vsize)
{
	unsigned shift = 64u - (unsigned)__builtin_ctzll((unsigned long long)t->hist_slots_cap);
	return (size_t)((vsize * UINT64_C(0x9E3779B97F4A7C15)) >> shift);
}

/*
 * Slot i's entry: a bucket's index plus one, 0 when empty. The lookups
 * below take the width as a constant, so that each loop is made for one
 * width and tests none (testing it at every probe cost 2 % of the CPU of
 * a dump of many sizes).
 */
static inline uint32_t
hist_slot_read(const struct vmmap_type_stats *t, size_t i, bool wide)
{
	if (wide)
		return ((const uint32_t *)t->hist_slots)[i];
	return ((const uint16_t *)t->hist_slots)[i];
}

static inline uint32_t
hist_slot_get(const struct vmmap_type_stats *t, size_t i)
{
	return hist_slot_read(t, i, t->hist_slots_wide);
}

/* v fits: hist_slots_grow() widened the slots before an index could pass 16 bits. */
static inline void
hist_slot_set(struct vmmap_type_stats *t, size_t i, uint32_t v)
{
	if (t->hist_slots_wide)
		((uint32_t *)t->hist_slots)[i] = v;
	else
		((uint16_t *)t->hist_slots)[i] = (uint16_t)v;
}

/*
 * The slot that holds vsize's bucket, or the empty slot where it would go
 * (the table is never more than half full, so the probe ends); its entry
 * in *entry.
 */
static inline size_t
hist_probe_as(const struct vmmap_type_stats *t, uint64_t vsize, bool wide, uint32_t *entry)
{
	size_t mask = t->hist_slots_cap - 1;
	for (size_t i = hist_slot(t, vsize);; i = (i + 1) & mask) {
		uint32_t v = hist_slot_read(t, i, wide);
		if (v == 0 || t->hist[v - 1].vsize == vsize) {
			*entry = v;
			return i;
		}
	}
}

static inline size_t
hist_probe(const struct vmmap_type_stats *t, uint64_t vsize)
{
	uint32_t v;
	if (t->hist_slots_wide)
		return hist_probe_as(t, vsize, true, &v);
	return hist_probe_as(t, vsize, false, &v);
}

static inline struct vmmap_hist_bucket *
hist_find_as(const struct vmmap_type_stats *t, uint64_t vsize, bool wide)
{
	uint32_t v;
	hist_probe_as(t, vsize, wide, &v);
	return v ? &t->hist[v - 1] : NULL;
}

/* The bucket for vsize if the type has one, else NULL. */
static inline struct vmmap_hist_bucket *
hist_find(const struct vmmap_type_stats *t, uint64_t vsize)
{
	if (!t->hist_slots_cap)
		return NULL;
	if (t->hist_slots_wide)
		return hist_find_as(t, vsize, true);
	return hist_find_as(t, vsize, false);
}

/*
 * hist_find() for a type of fewer than VMMAP_HIST_DEFER_MIN buckets (one
 * counted at once, on every region line of a dump of few sizes): its
 * table is too small for wide slots.
 */
_Static_assert(VMMAP_HIST_DEFER_MIN <= UINT16_MAX, "a small type's slots are 16 bits");

static inline struct vmmap_hist_bucket *
hist_find_small(const struct vmmap_type_stats *t, uint64_t vsize)
{
	assert(t->nhist < VMMAP_HIST_DEFER_MIN && !t->hist_slots_wide);
	if (!t->hist_slots_cap)
		return NULL;
	return hist_find_as(t, vsize, false);
}

const struct vmmap_hist_bucket *
vmmap_type_find_bucket(const struct vmmap_type_stats *t, uint64_t vsize)
{
	assert(t->hist_pending == 0);   /* vmmap_dump_settle_hist() ran */
	return hist_find(t, vsize);
}

/*
 * Twice the slots, every bucket placed again. A table of cap slots holds
 * at most cap / 2 buckets, so its entries fit in 16 bits while that is
 * at most UINT16_MAX: half the pages of 32-bit slots, each touched for
 * the first time (a type of 7,500 sizes: 8 pages of slots, not 16).
 */
static void
hist_slots_grow(struct vmmap_type_stats *t)
{
	size_t cap = t->hist_slots_cap ? t->hist_slots_cap * 2 : 8;
	bool wide = cap / 2 > UINT16_MAX;
	free(t->hist_slots);
	t->hist_slots = xcalloc(cap, wide ? sizeof(uint32_t) : sizeof(uint16_t));
	xalloc_prefault(t->hist_slots, cap * (wide ? sizeof(uint32_t) : sizeof(uint16_t)));
	t->hist_slots_cap = cap;
	t->hist_slots_wide = wide;
	for (size_t i = 0; i < t->nhist; i++)
		hist_slot_set(t, hist_probe(t, t->hist[i].vsize), (uint32_t)(i + 1));
}

/*
 * Entry i of an array of `alloc` entries of `elem` bytes is about to be
 * written: when it is the first of a window of HIST_PREFAULT bytes, the
 * window's pages (those within the array) are mapped in one call
 * (xalloc_prefault()). Bounded: at most one window ahead of what is used.
 */
#define HIST_PREFAULT ((size_t)64 << 10)

static void
hist_prefault_ahead(void *base, size_t i, size_t alloc, size_t elem)
{
	size_t at = i * elem;
	if (at % HIST_PREFAULT >= elem && i != 0)
		return;
	size_t from = at - at % HIST_PREFAULT;
	size_t end = alloc * elem, to = from + HIST_PREFAULT < end ? from + HIST_PREFAULT : end;
	xalloc_prefault((char *)base + from, to - from);
}

/*
 * The buckets to make room for when one more is needed: one more, and
 * past VMMAP_HIST_DEFER_MIN (a type of many sizes: a dump of log-uniform
 * sizes has thousands in each type) HIST_GROWTH times as many, where
 * doubling copied the array at each step into pages never touched
 * before. The heap keeps what is freed (xalloc_keep_freed_memory()), so
 * the C library maps nothing of its own for arrays this size: the room
 * asked for comes from the top of the heap, whose pages the kernel gives
 * only when buckets fill them. A first touch of a page costs some 12 us
 * on a virtual machine; fewer copies spared 150 of the 930 page faults
 * of a dump of log-uniform sizes (300 of 1,040 with vmmap -w) and 4 to
 * 8 % of its CPU. The room never filled is address space, less than
 * HIST_GROWTH times what is used.
 */
#define HIST_GROWTH 8

static size_t
hist_want(const struct vmmap_type_stats *t)
{
	size_t need = t->nhist + 1;
	if (need <= t->hist_alloc || need <= VMMAP_HIST_DEFER_MIN ||
	    t->hist_alloc > SIZE_MAX / HIST_GROWTH)
		return need;
	return t->hist_alloc * HIST_GROWTH;
}

/*
 * vsize has no bucket yet: a new, empty one; its index. The slots index
 * buckets in 32 bits: 2^32 - 2 distinct sizes in one type (some 200 GB
 * of buckets) is past any memory first.
 */
static COLD size_t
hist_new_bucket(struct vmmap_type_stats *t, uint64_t vsize)
{
	if (t->nhist >= UINT32_MAX - 1)
		xdie("more than %" PRIu32 " region sizes in one type", UINT32_MAX - 2);
	if ((t->nhist + 1) * 2 > t->hist_slots_cap)
		hist_slots_grow(t);
	t->hist = xgrow(t->hist, &t->hist_alloc, hist_want(t), sizeof(*t->hist));
	hist_prefault_ahead(t->hist, t->nhist, t->hist_alloc, sizeof(*t->hist));
	memset(&t->hist[t->nhist], 0, sizeof(*t->hist));
	t->hist[t->nhist].vsize = vsize;
	hist_slot_set(t, hist_probe(t, vsize), (uint32_t)(t->nhist + 1));
	return t->nhist++;
}

/* No bucket (the type's regions left the counted sums). */
static void
hist_clear(struct vmmap_type_stats *t)
{
	assert(t->hist_pending == 0);
	t->nhist = 0;
	free(t->hist_slots);
	t->hist_slots = NULL;
	t->hist_slots_cap = 0;
	t->hist_slots_wide = false;
}

/* The index in t->hist of the bucket for vsize, created empty if new. */
static size_t
hist_bucket(struct vmmap_type_stats *t, uint64_t vsize)
{
	const struct vmmap_hist_bucket *b = hist_find(t, vsize);
	if (b)
		return (size_t)(b - t->hist);
	return hist_new_bucket(t, vsize);
}

/* The histogram count of one pending line: its bucket, created if new. */
static void
hist_count(struct vmmap_dump *d, const struct vmmap_hist_pending *e)
{
	struct vmmap_type_stats *t = &d->types[e->type];
	size_t i = hist_bucket(t, e->vsize);   /* first: it may move t->hist */
	t->hist[i].purge[e->purge]++;
	t->hist_pending--;
}

/* Hints only: a slot or bucket the table has since moved is a wasted load. */
static inline void
hist_prefetch_slot(const struct vmmap_type_stats *t, uint64_t vsize)
{
	if (!t->hist_slots_cap)
		return;
	size_t i = hist_slot(t, vsize);
	if (t->hist_slots_wide)
		__builtin_prefetch((const uint32_t *)t->hist_slots + i);
	else
		__builtin_prefetch((const uint16_t *)t->hist_slots + i);
}

static inline void
hist_prefetch_bucket(const struct vmmap_type_stats *t, uint64_t vsize)
{
	if (!t->hist_slots_cap)
		return;
	uint32_t v = hist_slot_get(t, hist_slot(t, vsize));
	if (v)
		__builtin_prefetch(&t->hist[v - 1]);
}

/*
 * The region's histogram count, made VMMAP_HIST_LAG region lines later
 * (vmmap_dump.hist_pending) in the order the lines came, so the buckets
 * are the same, created in the same order, as counting each at once.
 * Types are counted apart, so a type of few buckets (in cache, where the
 * queue only cost: 5 % more CPU on a dump of 33 sizes) is counted at once
 * while no line of its own is pending.
 */
static inline bool
hist_at_once(const struct vmmap_type_stats *t)
{
	return t->nhist < VMMAP_HIST_DEFER_MIN && !t->hist_pending;
}

static void
hist_defer(struct vmmap_dump *d, struct vmmap_type_stats *t, const struct vmmap_region *r)
{
	struct vmmap_hist_pending e = { r->vsize, (size_t)(t - d->types), r->purge };
	hist_prefetch_slot(t, r->vsize);
	t->hist_pending++;
	if (d->hist_npending < VMMAP_HIST_LAG) {
		d->hist_pending[d->hist_npending++] = e;
		return;
	}
	hist_count(d, &d->hist_pending[0]);
	for (unsigned k = 1; k < VMMAP_HIST_LAG; k++)
		d->hist_pending[k - 1] = d->hist_pending[k];
	d->hist_pending[VMMAP_HIST_LAG - 1] = e;
	const struct vmmap_hist_pending *next = &d->hist_pending[0];
	hist_prefetch_bucket(&d->types[next->type], next->vsize);
}

/*
 * Counts the logged lines of the types keep[] names (every logged type
 * when keep is NULL), in line order, so their buckets are made in the
 * order counting each line at once makes them; the others' are dropped.
 * No type is logged after it.
 */
static void
hist_log_replay(struct vmmap_dump *d, const bool *keep)
{
	for (size_t i = 0; i < d->hist_nlog; i++) {
		const struct vmmap_hist_logged *e = &d->hist_log[i];
		if (keep && !keep[e->type])
			continue;
		struct vmmap_type_stats *t = &d->types[e->type];
		size_t k = hist_bucket(t, e->vsize);   /* first: it may move t->hist */
		t->hist[k].purge[e->purge]++;
	}
	for (size_t i = 0; i < d->ntypes; i++)
		d->types[i].hist_logged = false;
	d->hist_nlog = 0;
}

/*
 * A logged type's line: appended to the log, whose writes are in order,
 * where a bucket lookup in a type of thousands of sizes touches memory
 * out of cache, for types most of which are not selected in the end. A
 * dump of log-uniform sizes with two such types (the independent shape
 * of tools/bench-vmmap) took 0.96x to 1.01x the CPU of counting them at
 * once (three runs), with 477 page faults instead of 505. A full log is
 * counted, and its types are counted at once from then on.
 */
static void hist_add_direct(struct vmmap_dump *d, struct vmmap_type_stats *t,
			    const struct vmmap_region *r);

static void
hist_log_add(struct vmmap_dump *d, struct vmmap_type_stats *t, const struct vmmap_region *r)
{
	if (d->hist_nlog == VMMAP_HIST_LOG_MAX) {
		hist_log_replay(d, NULL);
		hist_add_direct(d, t, r);
		return;
	}
	if (!d->hist_log) {
		/* All its room at once: pages not written are never touched, where
		 * growing by doubling copied each half into pages touched anew. */
		d->hist_log = xmalloc(VMMAP_HIST_LOG_MAX * sizeof(*d->hist_log));
	}
	assert((size_t)(t - d->types) <= UINT32_MAX);
	hist_prefault_ahead(d->hist_log, d->hist_nlog, VMMAP_HIST_LOG_MAX, sizeof(*d->hist_log));
	d->hist_log[d->hist_nlog++] = (struct vmmap_hist_logged){
		r->vsize, (uint32_t)(t - d->types), (uint8_t)r->purge };
}

static void
hist_add_direct(struct vmmap_dump *d, struct vmmap_type_stats *t, const struct vmmap_region *r)
{
	if (!hist_at_once(t)) {
		hist_defer(d, t, r);
		return;
	}
	size_t i = hist_bucket(t, r->vsize);   /* first: it may move t->hist */
	t->hist[i].purge[r->purge]++;
}

static void
hist_add(struct vmmap_dump *d, struct vmmap_type_stats *t, const struct vmmap_region *r)
{
	if (t->hist_logged)
		hist_log_add(d, t, r);
	else
		hist_add_direct(d, t, r);
}

void
vmmap_dump_settle_hist(struct vmmap_dump *d)
{
	hist_log_replay(d, NULL);
	for (unsigned k = 0; k < d->hist_npending; k++)
		hist_count(d, &d->hist_pending[k]);
	d->hist_npending = 0;
}

static COLD void
surface_add(struct vmmap_dump *d, const struct vmmap_region *r)
{
	const struct vmmap_surface *s = &r->surface;
	struct vmmap_surface_group *g = NULL;
	for (size_t i = 0; i < d->nsurfaces; i++) {
		struct vmmap_surface_group *c = &d->surfaces[i];
		if (c->width == s->width && c->height == s->height &&
		    strcmp(c->format, s->format) == 0) {
			g = c;
			break;
		}
	}
	if (!g) {
		d->surfaces = xgrow(d->surfaces, &d->surfaces_alloc,
				    d->nsurfaces + 1, sizeof(*d->surfaces));
		g = &d->surfaces[d->nsurfaces++];
		memset(g, 0, sizeof(*g));
		g->width = s->width;
		g->height = s->height;
		memcpy(g->format, s->format, sizeof(g->format));
	}
	/* Surface sums are bounded by region sums, which were checked. */
	g->count++;
	g->mapped += r->vsize;
	g->surface_bytes += s->bytes;
	g->rounded |= s->bytes_rounded;
}

static COLD void
purgeable_add(struct vmmap_dump *d, const struct vmmap_type_stats *t,
	      const struct vmmap_region *r)
{
	d->purgeable = xgrow(d->purgeable, &d->purgeable_alloc, d->npurgeable + 1,
			     sizeof(*d->purgeable));
	d->purgeable[d->npurgeable++] = (struct vmmap_purgeable_region){
		r->start, r->vsize, (uint32_t)(t - d->types), (uint8_t)r->purge };
}

/* Does the dump keep more of the region than its sums and histogram? */
static inline bool
region_wants_more(const struct vmmap_capture *cap, const struct vmmap_region *r)
{
	return (cap->want_surfaces && r->has_surface) ||
	       (cap->want_purgeable && r->has_range && r->purge != VMMAP_PURGE_NONE &&
		!r->purge_unknown);
}

static inline void
region_line_seen(struct vmmap_dump *d, const struct vmmap_region *r)
{
	d->region_lines++;
	if (r->size_columns > d->max_size_columns)
		d->max_size_columns = r->size_columns;
}

/* Any region line: the type or size may be new, sums near BYTES_MAX. */
static COLD int
region_add(struct vmmap_capture *cap, struct vmmap_dump *d,
	   const struct vmmap_region *r, const char *path, struct diag *err)
{
	struct vmmap_type_stats *t = type_stats(d, &cap->filter, r->type, r->type_len);
	region_line_seen(d, r);
	bool counts = t->counted && region_counts(r);
	uint64_t m = region_growth(r);
	if (region_sums_fit(d, t, m, counts))
		region_sums_add(d, t, r, m, counts);
	else if (region_sums_checked(d, t, r, counts, path, err) < 0)
		return -1;
	if (!counts)
		return 0;
	hist_add(d, t, r);
	if (cap->want_surfaces && r->has_surface && t->selected)
		surface_add(d, r);
	if (cap->want_purgeable && r->has_range && r->purge != VMMAP_PURGE_NONE &&
	    !r->purge_unknown)
		purgeable_add(d, t, r);
	return 0;
}

/*
 * The common region line: its type in the cache, sums far from BYTES_MAX,
 * nothing kept but sums and histogram, its bucket there or its count
 * deferred. Adds it as region_add() would and returns true; else false
 * with nothing changed. It calls nothing on a dump of few sizes, so that
 * path saves no registers (a call there cost 5 % on such a dump).
 */
static inline bool
region_add_cached(struct vmmap_capture *cap, struct vmmap_dump *d,
		  const struct vmmap_region *r)
{
	struct vmmap_type_stats *t = type_cached(d, r->type, r->type_len);
	if (!t)
		return false;
	bool counts = t->counted && region_counts(r);
	uint64_t m = region_growth(r);
	if (!region_sums_fit(d, t, m, counts))
		return false;
	struct vmmap_hist_bucket *b = NULL;
	if (counts && (region_wants_more(cap, r) ||
		       (!t->hist_logged && hist_at_once(t) &&
			!(b = hist_find_small(t, r->vsize)))))
		return false;   /* a new bucket is made by region_add() */
	region_line_seen(d, r);
	region_sums_add(d, t, r, m, counts);
	if (b) {
		b->purge[r->purge]++;
	} else if (counts) {
		if (t->hist_logged)
			hist_log_add(d, t, r);
		else
			hist_defer(d, t, r);
	}
	return true;
}

int
vmmap_dump_add_region(struct vmmap_capture *cap, struct vmmap_dump *d,
		      const struct vmmap_region *r, const char *path,
		      struct diag *err)
{
	if (region_add_cached(cap, d, r))
		return 0;
	return region_add(cap, d, r, path, err);
}

int
vmmap_dump_add_group(struct vmmap_capture *cap, struct vmmap_dump *d,
		     const char *type, size_t len, enum vmmap_purge p,
		     const struct vmmap_amounts *a, const char *path, struct diag *err)
{
	struct vmmap_type_stats *t = type_stats(d, &cap->filter, type, len);
	if (counted_add(d, t, p, a, path, 0, err) < 0)
		return -1;
	t->lines = t->by_purge[p];
	t->lines_headroom = type_headroom(&t->lines);
	d->counted_headroom = headroom(&d->counted);
	return 0;
}

int
vmmap_dump_add_bucket(struct vmmap_capture *cap, struct vmmap_dump *d,
		      const char *type, size_t len, uint64_t vsize,
		      const uint64_t purge[VMMAP_PURGE_STATES], const char *path,
		      struct diag *err)
{
	vmmap_dump_settle_hist(d);
	struct vmmap_type_stats *t = type_stats(d, &cap->filter, type, len);
	size_t i = hist_bucket(t, vsize);
	uint64_t count = vmmap_hist_bucket_count(&t->hist[i]), sums[VMMAP_PURGE_STATES];
	for (int p = 0; p < VMMAP_PURGE_STATES; p++) {
		sums[p] = t->hist[i].purge[p];
		if (!bytes_add(&sums[p], purge[p]) || !bytes_add(&count, purge[p]) ||
		    count > VMMAP_HIST_COUNT_MAX)
			return diag_set(err, DIAG_DATA, path, 0, 0,
					"region counts of '%s' of one size add up past %" PRIu32,
					t->name, VMMAP_HIST_COUNT_MAX);
	}
	for (int p = 0; p < VMMAP_PURGE_STATES; p++)
		t->hist[i].purge[p] = (uint32_t)sums[p];   /* each at most count */
	return 0;
}

void
vmmap_dump_add_wrapped_surface(struct vmmap_capture *cap, struct vmmap_dump *d,
			       const struct vmmap_region *r)
{
	size_t *idx = strmap_get(&d->type_index, r->type, r->type_len);
	if (!idx || !cap->want_surfaces || !r->has_surface)
		return;
	const struct vmmap_type_stats *t = &d->types[*idx];
	if (t->selected && region_counts(r))
		surface_add(d, r);
}

/* The row's facts (vmmap_summary_row.facts_known) for f. */
static void
row_facts(struct vmmap_summary_row *r, const struct vmmap_filter *f)
{
	r->selected = vmmap_filter_selects(f, r->name, r->text_len);
	r->selected_whole = r->text_len == r->name_len ? r->selected :
			    vmmap_filter_selects(f, r->name, r->name_len);
	r->gpu = vmmap_type_is_gpu(r->name, r->name_len);
	r->facts_known = true;
}

void
vmmap_dump_add_summary_row(struct vmmap_dump *d, const struct vmmap_summary_row *row)
{
	d->rows = xgrow(d->rows, &d->rows_alloc, d->nrows + 1, sizeof(*d->rows));
	struct vmmap_summary_row *r = &d->rows[d->nrows++];
	*r = *row;
	r->name = keep_text(d, row->name, row->name_len);
	r->text_len = strnlen(r->name, row->name_len);
	r->facts_known = false;
	/* A row after vmmap_dump_finish() gets its facts as the others did. */
	if (d->rows_filter)
		row_facts(r, d->rows_filter);
	d->has_summary = true;
}

/* The capture's entry for a name: its index, or SIZE_MAX past the cap. */
static size_t
row_name_entry(struct vmmap_capture *cap, const char *name, size_t len)
{
	size_t *idx = strmap_get(&cap->row_name_index, name, len);
	if (idx)
		return *idx;
	if (cap->nrow_names >= VMMAP_ROW_NAMES_MAX)
		return SIZE_MAX;
	cap->row_names = xgrow(cap->row_names, &cap->row_names_alloc, cap->nrow_names + 1,
			       sizeof(*cap->row_names));
	struct vmmap_row_name *e = &cap->row_names[cap->nrow_names];
	e->name = xmemdup0(name, len);
	e->name_len = len;
	e->text_len = strnlen(e->name, len);
	e->selected = vmmap_filter_selects(&cap->filter, e->name, e->text_len);
	e->selected_whole = e->text_len == len ? e->selected :
			    vmmap_filter_selects(&cap->filter, e->name, len);
	e->gpu = vmmap_type_is_gpu(e->name, len);
	bool created;
	*strmap_put(&cap->row_name_index, name, len, &created) = cap->nrow_names;
	return cap->nrow_names++;
}

void
vmmap_capture_add_summary_row(struct vmmap_capture *cap, struct vmmap_dump *d,
			      const struct vmmap_summary_row *row)
{
	size_t i = row_name_entry(cap, row->name, row->name_len);
	if (i == SIZE_MAX || (d->rows_filter && d->rows_filter != &cap->filter)) {
		vmmap_dump_add_summary_row(d, row);
		return;
	}
	/* Copied out of the entry: the array moves when it grows. */
	const struct vmmap_row_name *e = &cap->row_names[i];
	d->rows = xgrow(d->rows, &d->rows_alloc, d->nrows + 1, sizeof(*d->rows));
	struct vmmap_summary_row *r = &d->rows[d->nrows++];
	*r = *row;
	r->name = e->name;
	r->text_len = e->text_len;
	r->facts_known = true;
	r->selected = e->selected;
	r->selected_whole = e->selected_whole;
	r->gpu = e->gpu;
	d->has_summary = true;
}

bool
vmmap_dump_row_selected(const struct vmmap_dump *d, const struct vmmap_filter *f, size_t i)
{
	const struct vmmap_summary_row *row = &d->rows[i];
	if (f == d->rows_filter)
		return row->selected;
	return vmmap_filter_selects(f, row->name, row->text_len);
}

/* The same question for the whole name (name_len bytes, past a NUL). */
static bool
row_selected_whole(const struct vmmap_dump *d, const struct vmmap_filter *f, size_t i)
{
	const struct vmmap_summary_row *row = &d->rows[i];
	if (f == d->rows_filter)
		return row->selected_whole;
	return vmmap_filter_selects(f, row->name, row->name_len);
}

/* Is the row's whole name a GPU type's? */
static bool
row_is_gpu(const struct vmmap_dump *d, size_t i)
{
	const struct vmmap_summary_row *row = &d->rows[i];
	return row->facts_known ? row->gpu : vmmap_type_is_gpu(row->name, row->name_len);
}

/* Each row's facts for f, worked out once for every writer and check. */
static void
select_rows(struct vmmap_dump *d, const struct vmmap_filter *f)
{
	for (size_t i = 0; i < d->nrows; i++)
		if (!d->rows[i].facts_known)
			row_facts(&d->rows[i], f);
	d->rows_filter = f;
}

static bool
type_has_entries(const struct vmmap_type_stats *t)
{
	if (!t->selected)
		return false;
	for (int p = 0; p < VMMAP_PURGE_STATES; p++)
		if (t->by_purge[p].count)
			return true;
	return false;
}

bool
vmmap_dump_has_entries(const struct vmmap_dump *d)
{
	for (size_t i = 0; i < d->ntypes; i++)
		if (type_has_entries(&d->types[i]))
			return true;
	return false;
}

bool
vmmap_type_is_gpu(const char *name, size_t len)
{
	return contains(name, len, "(graphics)", strlen("(graphics)"));
}

static bool
has_region_type(const struct vmmap_dump *d, const char *name)
{
	for (size_t i = 0; i < d->ntypes; i++)
		if (d->types[i].lines.count && strcmp(d->types[i].name, name) == 0)
			return true;
	return false;
}

static int
cmp_left_out(const void *a, const void *b)
{
	return strcmp(((const struct vmmap_left_out *)a)->name,
		      ((const struct vmmap_left_out *)b)->name);
}

size_t
vmmap_dump_gpu_left_out(const struct vmmap_dump *d, const struct vmmap_filter *f,
			struct vmmap_left_out **out)
{
	size_t n = 0, alloc = 0;
	*out = NULL;
	for (size_t i = 0; i < d->ntypes; i++) {
		const struct vmmap_type_stats *t = &d->types[i];
		if (!t->lines.count || !vmmap_type_is_gpu(t->name, t->name_len) ||
		    vmmap_filter_selects(f, t->name, t->name_len))
			continue;
		*out = xgrow(*out, &alloc, n + 1, sizeof(**out));
		(*out)[n++] = (struct vmmap_left_out){ t->name, t->lines.count, t->lines.vsize,
						       false, true };
	}
	for (size_t i = 0; i < d->nrows; i++) {
		const struct vmmap_summary_row *row = &d->rows[i];
		if (!row_is_gpu(d, i) || row_selected_whole(d, f, i) ||
		    has_region_type(d, row->name))
			continue;
		*out = xgrow(*out, &alloc, n + 1, sizeof(**out));
		(*out)[n++] = (struct vmmap_left_out){ row->name, row->count,
						       row->value[VMMAP_COL_VIRTUAL], true,
						       row->has_count };
	}
	if (n > 1)
		qsort(*out, n, sizeof(**out), cmp_left_out);
	return n;
}

static int
cmp_type_name(const void *a, const void *b)
{
	const struct vmmap_type_stats *x = *(const struct vmmap_type_stats *const *)a;
	const struct vmmap_type_stats *y = *(const struct vmmap_type_stats *const *)b;
	return strcmp(x->name, y->name);
}

size_t
vmmap_dump_sorted_types(const struct vmmap_dump *d,
			const struct vmmap_type_stats ***out)
{
	const struct vmmap_type_stats **v = xcalloc(d->ntypes + 1, sizeof(*v));
	size_t n = 0;
	for (size_t i = 0; i < d->ntypes; i++)
		if (type_has_entries(&d->types[i]))
			v[n++] = &d->types[i];
	qsort(v, n, sizeof(*v), cmp_type_name);
	*out = v;
	return n;
}

/*
 * The buckets' pointers in order of vsize, by a radix sort on its bytes
 * (least significant first, stable): a type of log-uniform sizes has
 * thousands of buckets, and qsort() with a comparison callback was a
 * tenth of the report's time. Byte positions where every vsize agrees are
 * skipped. Sizes in one type are distinct, so the order is total.
 */
static void
sort_buckets_by_vsize(const struct vmmap_hist_bucket **v, size_t n)
{
	if (n < 2)
		return;
	uint64_t same = ~UINT64_C(0), first = v[0]->vsize;
	for (size_t i = 1; i < n; i++)
		same &= ~(v[i]->vsize ^ first);
	const struct vmmap_hist_bucket **tmp = xcalloc(n, sizeof(*tmp));
	for (unsigned shift = 0; shift < 64; shift += 8) {
		if (((same >> shift) & 0xff) == 0xff)
			continue;
		size_t count[257] = { 0 };
		for (size_t i = 0; i < n; i++)
			count[((v[i]->vsize >> shift) & 0xff) + 1]++;
		for (size_t k = 1; k < 257; k++)
			count[k] += count[k - 1];
		for (size_t i = 0; i < n; i++)
			tmp[count[(v[i]->vsize >> shift) & 0xff]++] = v[i];
		memcpy(v, tmp, n * sizeof(*v));
	}
	free(tmp);
}

size_t
vmmap_type_sorted_hist(const struct vmmap_type_stats *t,
		       const struct vmmap_hist_bucket ***out)
{
	assert(t->hist_pending == 0);   /* vmmap_dump_settle_hist() ran */
	const struct vmmap_hist_bucket **v = xcalloc(t->nhist + 1, sizeof(*v));
	for (size_t i = 0; i < t->nhist; i++)
		v[i] = &t->hist[i];
	sort_buckets_by_vsize(v, t->nhist);
	*out = v;
	return t->nhist;
}

static int
cmp_surface(const void *a, const void *b)
{
	const struct vmmap_surface_group *x = *(const struct vmmap_surface_group *const *)a;
	const struct vmmap_surface_group *y = *(const struct vmmap_surface_group *const *)b;
	if (x->mapped != y->mapped)
		return x->mapped > y->mapped ? -1 : 1;
	if (x->width != y->width)
		return x->width < y->width ? -1 : 1;
	if (x->height != y->height)
		return x->height < y->height ? -1 : 1;
	return strcmp(x->format, y->format);
}

size_t
vmmap_dump_sorted_surfaces(const struct vmmap_dump *d,
			   const struct vmmap_surface_group ***out)
{
	const struct vmmap_surface_group **v = xcalloc(d->nsurfaces + 1, sizeof(*v));
	for (size_t i = 0; i < d->nsurfaces; i++)
		v[i] = &d->surfaces[i];
	qsort(v, d->nsurfaces, sizeof(*v), cmp_surface);
	*out = v;
	return d->nsurfaces;
}

static void
amounts_sum(struct vmmap_amounts *a, const struct vmmap_amounts *b)
{
	/* Bounded by the dump's checked total (counted_add). */
	bool ok = amounts_add(a, b);
	assert(ok);
	(void)ok;
}

struct vmmap_amounts
vmmap_dump_total_purge(const struct vmmap_dump *d, enum vmmap_purge p)
{
	struct vmmap_amounts a = { 0 };
	for (size_t i = 0; i < d->ntypes; i++)
		if (d->types[i].selected)
			amounts_sum(&a, &d->types[i].by_purge[p]);
	return a;
}

struct vmmap_amounts
vmmap_dump_total(const struct vmmap_dump *d)
{
	struct vmmap_amounts a = { 0 };
	for (int p = 0; p < VMMAP_PURGE_STATES; p++) {
		struct vmmap_amounts s = vmmap_dump_total_purge(d, (enum vmmap_purge)p);
		amounts_sum(&a, &s);
	}
	return a;
}

/*
 * Region lines carry names cut to 24 bytes; summary rows carry full names.
 * A line type matches a row when the names are equal or the line's name
 * is a 24-byte prefix of the row's.
 */
static bool
line_type_matches_row(const char *type, const char *row)
{
	size_t tl = strlen(type);
	if (strcmp(type, row) == 0)
		return true;
	/* The summary lumps "unused __DATA", "unused shlib __DATA", ... together. */
	if (strcmp(row, "unused but dirty shlib __DATA") == 0)
		return strncmp(type, "unused ", 7) == 0;
	return tl == 24 && strncmp(type, row, tl) == 0;
}

/*
 * Does an exact byte count agree with a rounded printed size? The printed
 * figure stands for every value within half a unit of its last digit, in
 * any of vmmap's renderings ("54952K" in format 2.0 is "53.7M" later).
 */
static bool
size_text_agrees(const char *text, uint64_t exact)
{
	uint64_t printed;
	size_t n = strlen(text);
	if (size_parse_vmmap(text, n, &printed) != SIZE_OK)
		return false;
	double unit = 1.0;
	switch (n ? text[n - 1] : 0) {
	case 'K': unit = 1024.0; break;
	case 'M': unit = 1048576.0; break;
	case 'G': unit = 1073741824.0; break;
	case 'T': unit = 1099511627776.0; break;
	default: break;
	}
	const char *dot = strchr(text, '.');
	size_t decimals = dot ? n - (size_t)(dot - text) - 1 - (unit > 1.0) : 0;
	double half = unit * 0.5;
	while (decimals--)
		half /= 10.0;
	double diff = (double)exact - (double)printed;
	return diff <= half + 1.0 && -diff <= half + 1.0;
}

/*
 * Does a row's VIRTUAL agree with the exact sum of its lines? Page counts
 * (vmmap -pages) print whole pages, or pages to two decimals.
 */
static bool
virtual_agrees(const struct vmmap_dump *d, const struct vmmap_summary_row *row, uint64_t bytes)
{
	if (!d->page_counts)
		return size_text_agrees(row->virtual_text, bytes);
	uint64_t v = row->value[VMMAP_COL_VIRTUAL];
	uint64_t diff = v > bytes ? v - bytes : bytes - v;
	return diff <= d->page_size / 200 + 1;
}

static void
crosscheck_row(const struct vmmap_dump *d, const struct vmmap_summary_row *row,
	       const char *path, struct diag_list *w)
{
	struct vmmap_amounts lines = { 0 };
	bool rounded = false;
	for (size_t i = 0; i < d->ntypes; i++) {
		const struct vmmap_type_stats *t = &d->types[i];
		if (!line_type_matches_row(t->name, row->name))
			continue;
		lines.count += t->lines.count;
		lines.vsize += t->lines.vsize;
		rounded |= t->lines_rounded;
	}

	bool virtual_ok = true;
	if ((row->present & (1u << VMMAP_COL_VIRTUAL)) && !rounded) {
		char text[32];
		size_format_vmmap(lines.vsize, text);
		if (!virtual_agrees(d, row, lines.vsize)) {
			virtual_ok = false;
			diag_list_add(w, DIAG_WARNING, path, row->line,
				      "summary row '%s' says VIRTUAL %s, but its %" PRIu64
				      " region lines add up to %" PRIu64 " bytes (%s): "
				      "the dump is truncated or edited",
				      row->name, row->virtual_text, lines.count,
				      lines.vsize, text);
		}
	}
	if (!row->has_count || lines.count == row->count)
		return;
	/* vmmap 10.12 and 10.13 print every REGION COUNT one too high. */
	if (d->legacy_layout && lines.count + 1 == row->count)
		return;
	/* Coalesced output prints fewer lines than regions, same bytes. */
	if (lines.count < row->count && virtual_ok && lines.count > 0)
		return;
	diag_list_add(w, DIAG_WARNING, path, row->line,
		      "summary row '%s' counts %" PRIu64 " regions, but %" PRIu64
		      " region lines were parsed: the dump is truncated or edited",
		      row->name, row->count, lines.count);
}

void
vmmap_dump_crosscheck(const struct vmmap_dump *d, const struct vmmap_filter *f,
		      const char *path, struct diag_list *warnings)
{
	/* Only a dump that lists its regions can be checked against its summary. */
	if (!d->has_region_section || !d->has_summary)
		return;
	for (size_t i = 0; i < d->nrows; i++) {
		const struct vmmap_summary_row *row = &d->rows[i];
		if (row_selected_whole(d, f, i))
			crosscheck_row(d, row, path, warnings);
	}
}

/* ---- canonical type names ---------------------------------------------- */

const char *
vmmap_type_full_name(const struct vmmap_dump *d, const char *name, size_t len)
{
	if (!maybe_cut(len))
		return NULL;
	const char *found = NULL;
	for (size_t i = 0; i < d->nrows; i++) {
		const char *row = d->rows[i].name;
		size_t rl = d->rows[i].name_len;
		if (rl == len && memcmp(row, name, len) == 0)
			return NULL;   /* a type of exactly the column's width: whole */
		if (rl <= len || memcmp(row, name, len) != 0)
			continue;
		if (found && strcmp(found, row) != 0)
			return gpu_type_full_name(name, len);   /* two rows fit: ambiguous */
		found = row;
	}
	return found ? found : gpu_type_full_name(name, len);
}

/* t's regions leave the counted sums: its selection, made on its full name, is no. */
static void
type_uncount(struct vmmap_dump *d, struct vmmap_type_stats *t)
{
	for (int p = 0; p < VMMAP_PURGE_STATES; p++) {
		const struct vmmap_amounts *a = &t->by_purge[p];
		d->counted.count -= a->count;
		d->counted.vsize -= a->vsize;
		d->counted.resident -= a->resident;
		d->counted.dirty -= a->dirty;
		d->counted.swapped -= a->swapped;
	}
	memset(t->by_purge, 0, sizeof(t->by_purge));
	hist_clear(t);
	size_t idx = (size_t)(t - d->types), n = 0;
	for (size_t i = 0; i < d->npurgeable; i++)
		if (d->purgeable[i].type != idx)
			d->purgeable[n++] = d->purgeable[i];
	d->npurgeable = n;
	t->counted = false;
}

/*
 * Can `from`'s buckets be added to `to`'s without a count past
 * VMMAP_HIST_COUNT_MAX? Lines bound the counts of a parsed dump, not the
 * counts a JSON document gives (vmmap_dump_add_bucket()), so each is
 * checked.
 */
static bool
hist_merge_fits(const struct vmmap_type_stats *to, const struct vmmap_type_stats *from)
{
	for (size_t i = 0; i < from->nhist; i++) {
		const struct vmmap_hist_bucket *b = &from->hist[i];
		const struct vmmap_hist_bucket *a = hist_find(to, b->vsize);
		if (a && vmmap_hist_bucket_count(a) + vmmap_hist_bucket_count(b) >
			     VMMAP_HIST_COUNT_MAX)
			return false;
	}
	return true;
}

/*
 * Folds type `from` into `to` (the same type under its cut and its full
 * name): its lines, its counted amounts and histogram. False, both left
 * apart, when a sum would pass BYTES_MAX.
 */
static bool
type_merge(struct vmmap_dump *d, struct vmmap_type_stats *to, struct vmmap_type_stats *from)
{
	struct vmmap_amounts lines = to->lines, by[VMMAP_PURGE_STATES];
	memcpy(by, to->by_purge, sizeof(by));
	if (!amounts_add(&lines, &from->lines))
		return false;
	for (int p = 0; p < VMMAP_PURGE_STATES; p++)
		if (!amounts_add(&by[p], &from->by_purge[p]))
			return false;
	if (!to->counted) {
		/* Its counted amounts would be lost: keep them apart instead. */
		for (int p = 0; p < VMMAP_PURGE_STATES; p++)
			if (from->by_purge[p].count)
				return false;
	}
	if (!hist_merge_fits(to, from))
		return false;
	to->lines = lines;
	to->lines_headroom = type_headroom(&lines);
	to->lines_rounded |= from->lines_rounded;
	memcpy(to->by_purge, by, sizeof(by));
	for (size_t i = 0; i < from->nhist; i++) {
		const struct vmmap_hist_bucket *b = &from->hist[i];
		size_t k = hist_bucket(to, b->vsize);
		for (int p = 0; p < VMMAP_PURGE_STATES; p++)
			to->hist[k].purge[p] += b->purge[p];   /* hist_merge_fits() */
	}
	size_t fi = (size_t)(from - d->types), ti = (size_t)(to - d->types);
	for (size_t i = 0; i < d->npurgeable; i++)
		if (d->purgeable[i].type == fi)
			d->purgeable[i].type = (uint32_t)ti;
	memset(&from->lines, 0, sizeof(from->lines));
	memset(from->by_purge, 0, sizeof(from->by_purge));
	hist_clear(from);
	from->selected = from->counted = from->selection_pending = false;
	*strmap_put(&d->type_index, from->printed, from->printed_len, &(bool){ false }) = ti;
	return true;
}

/* The type takes the full name `full` (a summary row's, or the documented one). */
static void
type_rename(struct vmmap_dump *d, struct vmmap_type_stats *t, const char *full)
{
	size_t flen = strlen(full);
	size_t *other = strmap_get(&d->type_index, full, flen);
	if (other && *other != (size_t)(t - d->types) &&
	    type_merge(d, &d->types[*other], t))
		return;
	if (other)
		return;
	if (t->name != t->printed)
		free(t->name);
	t->name = xstrdup(full);
	t->name_len = flen;
	bool created;
	*strmap_put(&d->type_index, full, flen, &created) = (size_t)(t - d->types);
}

/*
 * The full name a type still named as printed (cut to vmmap's column)
 * takes at the dump's end, a summary row's or the documented one; NULL
 * when it keeps its name. vmmap_dump_finish() renames it to this, and
 * hist_log_keeps() asks of this name before, so both read one rule.
 */
static const char *
type_end_name(const struct vmmap_dump *d, const struct vmmap_type_stats *t)
{
	if (t->name != t->printed)
		return NULL;
	return vmmap_type_full_name(d, t->printed, t->printed_len);
}

/*
 * May a logged type still be counted once the loop below has given it
 * its full name? If its full name selects it or is a GPU type's, or names
 * another type it may merge into (whose sums take its histogram). It
 * answers as that loop decides, or yes where in doubt: a type it says
 * no to must end uncounted, its histogram empty.
 */
static bool
hist_log_keeps(const struct vmmap_dump *d, const struct vmmap_filter *f,
	       const struct vmmap_type_stats *t)
{
	const char *name = t->name;
	size_t len = t->name_len;
	const char *full = type_end_name(d, t);
	if (full) {
		len = strlen(full);
		const size_t *other = strmap_get(&d->type_index, full, len);
		if (other && *other != (size_t)(t - d->types))
			return true;
		name = full;
	}
	return vmmap_filter_selects(f, name, len) || gpu_type_counts(name, len);
}

/* The logged lines of the types that may be counted; the others' dropped. */
static void
hist_log_settle(struct vmmap_dump *d, const struct vmmap_filter *f)
{
	if (d->hist_nlog) {
		bool *keep = xcalloc(d->ntypes, sizeof(*keep));
		for (size_t i = 0; i < d->ntypes; i++)
			keep[i] = d->types[i].hist_logged && hist_log_keeps(d, f, &d->types[i]);
		hist_log_replay(d, keep);
		free(keep);
	}
	free(d->hist_log);   /* the dump is held for its report: no log with it */
	d->hist_log = NULL;
}

void
vmmap_dump_finish(struct vmmap_capture *cap, struct vmmap_dump *d)
{
	if (d->finished)
		return;
	d->finished = true;
	select_rows(d, &cap->filter);
	hist_log_settle(d, &cap->filter);
	vmmap_dump_settle_hist(d);   /* before types merge or leave the counts */
	size_t n = d->ntypes;   /* type_rename() appends none */
	for (size_t i = 0; i < n; i++) {
		struct vmmap_type_stats *t = &d->types[i];
		const char *full = type_end_name(d, t);
		if (full)
			type_rename(d, t, full);
		if (!t->selection_pending)
			continue;
		t->selection_pending = false;
		t->gpu = gpu_type_counts(t->name, t->name_len);
		t->selected = vmmap_filter_selects(&cap->filter, t->name, t->name_len);
		if (!t->selected && !t->gpu && t->counted)
			type_uncount(d, t);
		t->counted = t->selected || t->gpu;
	}
	/* The cache compares printed names: a merged type's is stale. */
	memset(d->type_cache, 0, sizeof(d->type_cache));
}
