#ifndef IOTALLY_UTIL_HASHMAP_H
#define IOTALLY_UTIL_HASHMAP_H

/*
 * Two small open-addressing hash maps whose values are indexes into an
 * array the caller owns (so the caller keeps its records in insertion
 * order and sorts them however a report wants).
 *
 * strmap: byte-string keys (copied into the map; may hold any byte).
 * u64map: 64-bit integer keys.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct strmap_slot {
	char *key;        /* NULL: empty slot */
	size_t keylen;
	uint64_t hash;
	size_t value;
};

struct strmap {
	struct strmap_slot *slots;
	size_t cap, len;
};

void strmap_init(struct strmap *m);
void strmap_release(struct strmap *m);
/* The value for a key, or NULL. */
size_t *strmap_get(const struct strmap *m, const char *key, size_t keylen);
/*
 * The value slot for a key, inserted with *created = true (value 0) if absent.
 * Any put may move every slot: a pointer from get or put is good only until
 * the next put into the same map.
 */
size_t *strmap_put(struct strmap *m, const char *key, size_t keylen, bool *created);

struct u64map_slot {
	uint64_t key;
	size_t value;
	bool used;
};

struct u64map {
	struct u64map_slot *slots;
	size_t cap, len;
};

void u64map_init(struct u64map *m);
void u64map_release(struct u64map *m);
size_t *u64map_get(const struct u64map *m, uint64_t key);
size_t *u64map_put(struct u64map *m, uint64_t key, bool *created);

uint64_t hash_bytes(const void *p, size_t n);

#endif
