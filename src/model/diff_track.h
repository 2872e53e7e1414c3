#ifndef IOTALLY_MODEL_DIFF_TRACK_H
#define IOTALLY_MODEL_DIFF_TRACK_H

/*
 * The track kind of `iotally diff`: call sites of two ioclasscount
 * --track / --leaks / --maps captures matched across them.
 *
 * A call site is a record's backtrace. Two records are the same site when
 * their frames have the same modules and symbols, in order; offsets are
 * ignored unless `match_offsets` (a rebuilt kext moves every offset), and
 * a frame without a symbol is matched by its address. Allocations and
 * mappings never match each other.
 *
 * Sides are 0 (BEFORE) and 1 (AFTER). The diff owns its strings; the
 * captures can be released once they are added.
 *
 * Metrics (gates): "total" (bytes of every site), "sites" (how many call
 * sites), "<module>" (bytes charged to a module, track_record_module()).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/track.h"
#include "util/diag.h"
#include "util/hashmap.h"

struct diff_track_figures {
	uint64_t bytes;
	int64_t count;       /* live allocations, or mappings */
	uint64_t records;
};

enum diff_track_change {
	DIFF_TRACK_NEW,
	DIFF_TRACK_GROWN,
	DIFF_TRACK_SHRUNK,
	DIFF_TRACK_GONE,
	DIFF_TRACK_SAME,
};

struct diff_track_site {
	char *label;         /* "module: symbol" of the frame the site is charged to */
	char *module;        /* track_record_module() of its records */
	char *frames;        /* one "symbol (module)" per frame, innermost first, '\n' ended */
	char *folded;        /* folded stack: outermost first, ';' separated */
	bool mapping;
	struct diff_track_figures side[2];
};

struct diff_track_module {
	char *name;
	uint64_t bytes[2];
	uint64_t records[2];
};

struct diff_track {
	bool match_offsets;
	struct strmap site_index;
	struct diff_track_site *sites;
	size_t nsites, sites_alloc;
	struct strmap module_index;
	struct diff_track_module *modules;
	size_t nmodules, modules_alloc;
	uint64_t total[2];
	uint64_t nsites_side[2];
	uint64_t records[2];
};

void diff_track_init(struct diff_track *d, bool match_offsets);
void diff_track_release(struct diff_track *d);
/*
 * Add the listed records of a capture (made with keep_records) as one side.
 * -1 with DIAG_DATA when a sum passes TRACK_BYTES_MAX.
 */
int diff_track_add_capture(struct diff_track *d, int side, const struct track_capture *cap,
			   const char *path, struct diag *err);

enum diff_track_change diff_track_site_change(const struct diff_track_site *s);
const char *diff_track_change_name(enum diff_track_change c);
bool diff_track_changed(const struct diff_track *d);
/* Sites by change (new, grown, shrunk, gone, same), then |byte delta|, label, frames. */
size_t diff_track_sorted_sites(const struct diff_track *d,
			       const struct diff_track_site ***out);
/* Modules by |byte delta| descending, then name. */
size_t diff_track_sorted_modules(const struct diff_track *d,
				 const struct diff_track_module ***out);

/* Resolve a metric (after "track:"): 0, or -1 with DIAG_DATA for an absent module. */
int diff_track_metric(const struct diff_track *d, const char *metric, int64_t *before,
		      int64_t *after, struct diag *err);

/* Warnings when the captures are hard to compare (command, kind, kernel build). */
void diff_track_comparability(const struct track_capture *before,
			      const struct track_capture *after, const char *before_path,
			      const char *after_path, struct diag_list *warnings);

#endif
