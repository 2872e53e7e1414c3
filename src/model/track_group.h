#ifndef IOTALLY_MODEL_TRACK_GROUP_H
#define IOTALLY_MODEL_TRACK_GROUP_H

/*
 * Call-site grouping of tracking records (`iotally track --by`, --folded):
 * one aggregate row per module, per (module, symbol), per category or per
 * folded stack, so memory follows the number of distinct keys, never the
 * number of records.
 *
 * A struct track_grouping owns its groups, their names and the interned
 * frame names of folded stacks; track_grouping_release frees them all. A
 * record is counted once per group even when a key occurs in several of
 * its frames. Group sums are checked (util/bytes.h): passing 2^63 bytes
 * is an input error.
 */

#include <stddef.h>
#include <stdint.h>

#include "model/track_record.h"
#include "util/diag.h"
#include "util/hashmap.h"
#include "util/strbuf.h"

enum track_by {
	TRACK_BY_NONE,
	TRACK_BY_MODULE,
	TRACK_BY_SYMBOL,
	TRACK_BY_CLASS,
	TRACK_BY_FOLDED,      /* folded stacks for flame graphs */
};

/* An aggregate row: a module, a (module, symbol), a category or a stack. */
struct track_group {
	char *name;           /* module or category; NULL for folded stacks */
	char *symbol;         /* TRACK_BY_SYMBOL: the function; else NULL */
	uint64_t bytes;       /* inclusive bytes (every record the key is in) */
	uint64_t self_bytes;  /* TRACK_BY_SYMBOL: records whose innermost frame it is */
	uint64_t records;
	int64_t count;        /* allocations (alloc records) or mappings */
	uint64_t first_seq;
	uint64_t last_seq;    /* to count a symbol once per record */
	uint32_t *stack;      /* TRACK_BY_FOLDED: frame names (ids), outermost first */
	size_t nstack;
};

struct track_grouping {
	struct strmap group_index;
	struct track_group *groups;     /* in order of first appearance */
	size_t ngroups, groups_alloc;

	/* Frame names of folded stacks, interned: a stack key is its ids. */
	struct strmap frame_index;
	char **frame_names;
	size_t nframe_names, frame_names_alloc;
};

void track_grouping_init(struct track_grouping *gr);
void track_grouping_release(struct track_grouping *gr);

/*
 * Add record r to the groups `by` puts it in (none for TRACK_BY_NONE);
 * `queue` is the capture's queue for its category (track_record_category()).
 * 0, or -1 with *err set when a group's sum passes 2^63 bytes.
 */
int track_grouping_add(struct track_grouping *gr, enum track_by by,
		       const struct track_record *r, const char *queue,
		       const char *path, struct diag *err);

/*
 * The groups sorted by bytes (self bytes first for TRACK_BY_SYMBOL), then
 * name, then first appearance. *out is an array the caller frees; the
 * pointers are into gr.
 */
size_t track_grouping_sorted(const struct track_grouping *gr,
			     const struct track_group ***out);

/* A folded stack as text: "frame;frame;...;frame", outermost caller first. */
void track_grouping_folded_text(const struct track_grouping *gr, const struct track_group *g,
				struct strbuf *out);

/* "module", "symbol", "class", "folded"; NULL for TRACK_BY_NONE. */
const char *track_by_name(enum track_by b);

#endif
