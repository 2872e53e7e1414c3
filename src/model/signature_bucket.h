#ifndef IOTALLY_MODEL_SIGNATURE_BUCKET_H
#define IOTALLY_MODEL_SIGNATURE_BUCKET_H

/*
 * Many pairs' signatures bucketed like crash reports (`iotally
 * signatures`): one record per pair (computed now, or read back from rows
 * written earlier), one bucket per rule and id.
 *
 * A bucket keeps its count, its members (record indexes, input order), the
 * OS versions and machine models its members name (sorted, distinct), the
 * first and last capture time, and the median growth. Buckets are sorted
 * by count, then id, then rule: the same records give the same bytes.
 * Records without growth are counted, not bucketed; records that could not
 * be computed are counted apart.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/signature.h"

/* The JSON of `iotally signatures` (docs/json/signatures.*). */
#define SIGNATURES_SCHEMA "iotally.signatures/2"
/* Its NDJSON rows, one per pair, read back by `iotally signatures` (docs/json/signatures-ndjson.*). */
#define SIGNATURES_NDJSON_SCHEMA "iotally.signatures-ndjson/1"

struct signature_record {
	char *name;           /* the pair as its input names it (owned) */
	char *before, *after; /* paths (owned; NULL when not known) */
	char *kind;           /* owned; NULL when not known */
	char *error;          /* owned; non-NULL: the pair could not be compared */
	bool grew;
	char id[SIGNATURE_ID_SIZE];
	char *rule, *label, *canonical;   /* owned when grew */
	char *os_version, *machine, *captured;   /* owned, NULL when unknown */
	uint64_t growth_bytes, growth_count;
};

void signature_record_release(struct signature_record *r);
/* A record from a finished signature (its strings copied, `name` etc. not set). */
void signature_record_take(struct signature_record *r, const struct signature *s);

struct signature_bucket {
	const struct signature_record *first_record;   /* id, rule, label, canonical */
	size_t count;
	size_t *members;            /* record indexes, in input order */
	const char **os_versions;   /* sorted, distinct; point into records */
	size_t nos;
	const char **machines;
	size_t nmachines;
	const char *first, *last;   /* capture times as written; NULL when none known */
	uint64_t median_bytes, median_count;
};

struct signature_buckets {
	struct signature_bucket *b;
	size_t n;
	size_t records, grew, no_growth, failed;
	bool partial;        /* set by the caller: an input could not be read to its end */
};

/* Bucket the records (borrowed: they must outlive the buckets). */
void signature_buckets_make(struct signature_buckets *out, const struct signature_record *recs,
			    size_t n);
void signature_buckets_release(struct signature_buckets *b);

/*
 * The buckets whose id starts with `prefix` (a whole id or a unique
 * prefix; case as written, ids are lowercase hex): their indexes in
 * b->b, in table order, into *found (owned; NULL when none). How many.
 */
size_t signature_buckets_find(const struct signature_buckets *b, const char *prefix,
			      size_t **found);

/*
 * The component view: pairs counted per signature component (a GPU type,
 * purge state and size bucket, a class, a call site, ...) across buckets,
 * so that one leak whose pairs differ in their other components, and so
 * fall in several buckets, is one row with its total. Only records of
 * SIGNATURE_RULE are read (a component is its key under that rule).
 */
struct signature_component_count {
	enum signature_section section;
	char *key;                  /* owned */
	char *label;                /* owned: the component's words */
	size_t pairs;               /* records whose signature holds it */
	size_t *buckets;            /* indexes into the buckets it was made from, in table order */
	size_t nbuckets, buckets_alloc;
};

struct signature_components {
	struct signature_component_count *c;   /* by pairs, then section, then key */
	size_t n;
};

void signature_components_make(struct signature_components *out,
			       const struct signature_buckets *b);
void signature_components_release(struct signature_components *c);

#endif
