#include "util/hashmap.h"

#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* Four bytes as a little-endian word: one load where the machine is one. */
static inline uint64_t
load_le32(const unsigned char *s)
{
	return (uint64_t)s[0] | (uint64_t)s[1] << 8 | (uint64_t)s[2] << 16 |
	       (uint64_t)s[3] << 24;
}

/*
 * The last n < 8 bytes of a key as a little-endian word, zero above them:
 * two loads that may overlap, or three bytes, in place of a memcpy of a
 * length unknown until run time (a call to the library's, for every key).
 */
static inline uint64_t
load_tail(const unsigned char *s, size_t n)
{
	if (n >= 4)
		return load_le32(s) | load_le32(s + n - 4) << (8 * (n - 4));
	if (n == 0)
		return 0;
	return (uint64_t)s[0] | (uint64_t)s[n / 2] << (8 * (n / 2)) |
	       (uint64_t)s[n - 1] << (8 * (n - 1));
}

uint64_t
hash_bytes(const void *p, size_t n)
{
	/* Eight bytes a step, then a 64-bit finaliser: keys are short names
	 * hashed once per input line, so this sits on the hot path. */
	const unsigned char *s = p;
	uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
	while (n >= 8) {
		uint64_t w;
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
		h ^= h >> 29;
		s += 8;
		n -= 8;
	}
	h = (h ^ load_tail(s, n)) * 0x94d049bb133111ebull;
	h ^= h >> 32;
	return h;
}

static uint64_t
hash_u64(uint64_t x)
{
	/* splitmix64 finaliser: sizes are multiples of the page size. */
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	x ^= x >> 31;
	return x;
}

void
strmap_init(struct strmap *m)
{
	memset(m, 0, sizeof(*m));
}

void
strmap_release(struct strmap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->slots[i].key);
	free(m->slots);
	strmap_init(m);
}

static struct strmap_slot *
strmap_find(const struct strmap *m, const char *key, size_t keylen, uint64_t h)
{
	size_t mask = m->cap - 1;
	for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
		struct strmap_slot *s = &m->slots[i];
		if (!s->key)
			return s;
		if (s->hash == h && s->keylen == keylen && memcmp(s->key, key, keylen) == 0)
			return s;
	}
}

static void
strmap_rehash(struct strmap *m)
{
	struct strmap old = *m;
	m->cap = old.cap ? old.cap * 2 : 16;
	m->slots = xcalloc(m->cap, sizeof(*m->slots));
	for (size_t i = 0; i < old.cap; i++) {
		struct strmap_slot *s = &old.slots[i];
		if (s->key)
			*strmap_find(m, s->key, s->keylen, s->hash) = *s;
	}
	free(old.slots);
}

size_t *
strmap_get(const struct strmap *m, const char *key, size_t keylen)
{
	if (!m->cap)
		return NULL;
	struct strmap_slot *s = strmap_find(m, key, keylen, hash_bytes(key, keylen));
	return s->key ? &s->value : NULL;
}

size_t *
strmap_put(struct strmap *m, const char *key, size_t keylen, bool *created)
{
	if ((m->len + 1) * 4 > m->cap * 3)
		strmap_rehash(m);
	uint64_t h = hash_bytes(key, keylen);
	struct strmap_slot *s = strmap_find(m, key, keylen, h);
	*created = !s->key;
	if (!s->key) {
		s->key = xmemdup0(key, keylen);
		s->keylen = keylen;
		s->hash = h;
		s->value = 0;
		m->len++;
	}
	return &s->value;
}

void
u64map_init(struct u64map *m)
{
	memset(m, 0, sizeof(*m));
}

void
u64map_release(struct u64map *m)
{
	free(m->slots);
	u64map_init(m);
}

static struct u64map_slot *
u64map_find(const struct u64map *m, uint64_t key)
{
	size_t mask = m->cap - 1;
	for (size_t i = (size_t)hash_u64(key) & mask;; i = (i + 1) & mask) {
		struct u64map_slot *s = &m->slots[i];
		if (!s->used || s->key == key)
			return s;
	}
}

static void
u64map_rehash(struct u64map *m)
{
	struct u64map old = *m;
	m->cap = old.cap ? old.cap * 2 : 16;
	m->slots = xcalloc(m->cap, sizeof(*m->slots));
	for (size_t i = 0; i < old.cap; i++)
		if (old.slots[i].used)
			*u64map_find(m, old.slots[i].key) = old.slots[i];
	free(old.slots);
}

size_t *
u64map_get(const struct u64map *m, uint64_t key)
{
	if (!m->cap)
		return NULL;
	struct u64map_slot *s = u64map_find(m, key);
	return s->used ? &s->value : NULL;
}

size_t *
u64map_put(struct u64map *m, uint64_t key, bool *created)
{
	if ((m->len + 1) * 4 > m->cap * 3)
		u64map_rehash(m);
	struct u64map_slot *s = u64map_find(m, key);
	*created = !s->used;
	if (!s->used) {
		s->used = true;
		s->key = key;
		s->value = 0;
		m->len++;
	}
	return &s->value;
}
