#ifndef IOTALLY_MODEL_TRACK_LISTING_H
#define IOTALLY_MODEL_TRACK_LISTING_H

/*
 * The records a track report lists, largest first.
 *
 * A listing cannot print its first record before it has seen the last, so
 * every shown record must be kept until the end. Memory keeps only a
 * 32-byte key per record (bytes, index, input order, where the record is);
 * the record itself (its fields, frames and text) goes to an unlinked
 * temporary file (util/spill.h) and is read back, one at a time, when the
 * report prints it. So a 200,000-record listing needs a few MiB, not the
 * ~2.5 KB a 16-frame record takes in memory.
 *
 * With a `top` limit the keys are trimmed to the largest `top` whenever they
 * reach twice that, so they stay bounded by 2 x top (the spill file still
 * holds every shown record: disk, not memory, follows the input).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/diag.h"
#include "util/spill.h"

struct track_record;

struct track_listing_key {
	uint64_t bytes;
	uint64_t index;       /* the printed [i] */
	uint64_t seq;         /* input order: the last tie-breaker */
	uint64_t off;         /* where the record is in the spill file */
};

struct track_listing {
	struct track_listing_key *keys;
	size_t nkeys, keys_alloc;
	struct spill spill;
	bool opened;          /* the spill file exists */
};

void track_listing_init(struct track_listing *l);
void track_listing_release(struct track_listing *l);
/*
 * Keep a copy of r; with top > 0 only the largest `top` are sure to stay.
 * 0, or -1 with DIAG_IOERR when the temporary file fails.
 */
int track_listing_add(struct track_listing *l, uint64_t top, const struct track_record *r,
		      struct diag *err);
/* Sort largest first (ties by index, then input order); keep `top` (0 = all). */
void track_listing_sort(struct track_listing *l, uint64_t top);
static inline size_t
track_listing_count(const struct track_listing *l)
{
	return l->nkeys;
}
/*
 * Read the i-th listed record into *out (initialised with
 * track_record_init; its buffers are reused). 0, or -1 with DIAG_IOERR.
 */
int track_listing_read(const struct track_listing *l, size_t i, struct track_record *out,
		       struct diag *err);

#endif
