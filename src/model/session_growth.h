#ifndef IOTALLY_MODEL_SESSION_GROWTH_H
#define IOTALLY_MODEL_SESSION_GROWTH_H

/*
 * A tracking session's evidence side by side: each IOKit class whose
 * instance count grew between the session's before and after snapshots,
 * next to the tracked call sites (`ioclasscount --track`) and the
 * potential leaks (`--leaks`) charged to that class, i.e. the records
 * whose `<Class>::gMetaClass` frame names it (model/track_classify.h).
 *
 * Rows: the classes that grew, by delta (largest first), then tracked
 * bytes, then name; after them the classes that did not grow (or that the
 * snapshots do not hold) but have sites charged to them, by tracked bytes.
 * A class that neither grew nor has a site is no row. Pure: names are
 * copied; sums saturate at BYTES_MAX (util/bytes.h) and say so.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/hashmap.h"

struct session_growth_row {
	char *cls;
	bool has_delta;         /* the class is in both snapshots */
	int64_t before, after, delta;
	uint64_t track_bytes, leak_bytes;
	int64_t track_count, leak_count;    /* live allocations / leaked instances */
	uint64_t track_sites, leak_sites;   /* records */
	/*
	 * The largest tracked call site charged to the class (bytes, then
	 * the first seen): "module: symbol" of the frame it is charged to,
	 * its module, and its backtrace as "symbol (module)" lines, innermost
	 * first. NULL until a tracked site is added with its record.
	 */
	char *site, *site_module;
	char **site_frames;
	size_t site_nframes;
	uint64_t site_bytes;
	int64_t site_count;
};

struct session_growth {
	struct session_growth_row *rows;
	size_t nrows, alloc;
	struct strmap index;
	bool saturated;         /* a byte or count sum passed its cap */
};

void session_growth_init(struct session_growth *g);
void session_growth_release(struct session_growth *g);
/* The count of class `cls` (len bytes) before and after. */
void session_growth_set_counts(struct session_growth *g, const char *cls, size_t len,
			       int64_t before, int64_t after);
/* One record charged to `cls`: of --leaks when `leak`, else of --track. */
void session_growth_add_site(struct session_growth *g, const char *cls, size_t len, bool leak,
			     uint64_t bytes, int64_t count);
struct track_record;
/*
 * The same for a tracked record, kept as the class's site when it is the
 * largest so far (session_growth_row.site): the sessions name their sites.
 */
void session_growth_add_record(struct session_growth *g, const char *cls, size_t len,
			       const struct track_record *rec);
/* Keep the rows above and put them in their order. */
void session_growth_finish(struct session_growth *g);

#endif
