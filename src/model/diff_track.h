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
 * Sides are 0 (BEFORE) and 1 (AFTER). The diff owns its strings and keeps
 * one entry per distinct site: records are added as a parser delivers them
 * (track_capture.on_record) and need not be kept.
 *
 * Metrics (gates): "total" (bytes of every site), "sites" (how many call
 * sites), "new-sites" and "new-bytes" (sites only AFTER has, and their
 * bytes: 0 before), "<module>" (bytes charged to a module,
 * track_record_module()).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/track.h"
#include "util/diag.h"
#include "util/hashmap.h"
#include "util/strbuf.h"

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

/*
 * A distinct frame: module and symbol (or the address where there is no
 * symbol), and the offset when offsets are matched. Sites are sequences of
 * frame ids, so a stack costs 4 bytes a frame however long its names are.
 */
struct diff_track_frame {
	char *module;
	char *symbol;          /* NULL: unsymbolicated, matched by its address */
	size_t module_len, symbol_len;   /* no NUL inside: the parsers reject one */
	uint64_t address;
	bool has_offset;       /* match_offsets and the capture printed one */
	uint64_t offset;
	bool metaclass;        /* a "<Class>::gMetaClass" marker frame */
	uint32_t label;        /* its label group: frames whose base label text is equal */
};

/* diff_track_site.charged of a site without frames. */
#define DIFF_TRACK_NO_FRAME UINT32_MAX

/*
 * A distinct call site. Kept small (24 bytes): a report of a capture whose
 * records are all different sites holds one per record. Its figures are not
 * here but in diff_track.fig[side] (diff_track_site_side()), so that a single
 * capture, which fills one side, pays for one side only.
 */
struct diff_track_site {
	/*
	 * Frame ids, innermost first (diff_track_site_frame()): 16 bits each
	 * when every id of the site fits (a capture with fewer than 65,536
	 * distinct frames, the usual case), else 32.
	 */
	union {
		const uint16_t *narrow;
		const uint32_t *wide;
	} frames;
	uint32_t nframes : 30; /* < 2^30: diff_track_add_record() refuses more */
	uint32_t narrow : 1;   /* frames.narrow, else frames.wide */
	uint32_t mapping : 1;
	uint32_t charged;      /* frames[] index the site is charged to; DIFF_TRACK_NO_FRAME: none */
	uint32_t module;       /* index in diff_track.modules */
	uint32_t label;        /* its label group: sites whose labels (without "via")
				* read alike, charged to the same frame text */
};

struct diff_track_module {
	char *name;
	uint64_t bytes[2];
	uint64_t records[2];
};

/*
 * A hash table of ids into an array the diff owns: the caller checks a
 * candidate against its own record, so no key is built or copied. Slot:
 * the hash's low 32 bits and id + 1 (0: empty).
 */
struct diff_track_idslot {
	uint32_t hash, id1;
};

struct diff_track_ids {
	struct diff_track_idslot *slots;
	size_t cap, len;
};

/* Frame ids of the sites, in blocks that never move (a site points into one);
 * 16-bit ids take two to a unit. */
struct diff_track_pool {
	uint32_t **blocks;
	size_t nblocks, blocks_alloc;
	size_t used, size;     /* ids used of the last block, and its size */
};

/*
 * "via frame N" of every site, worked out once when a label is first asked
 * for after new sites came in (a label never walks the other sites of its
 * label group: that was quadratic in the sites that share a frame). Labels
 * themselves are never kept: the sort compares them piece by piece from
 * the frames, and a writer builds the label of each site it shows.
 */
struct diff_track_vias {
	uint32_t *via;         /* per site: the frame index where it parts from its
				* twins; DIFF_TRACK_NO_FRAME: it has none */
	size_t n;              /* sites covered; != nsites: out of date */
};

struct diff_track {
	bool match_offsets;
	struct diff_track_ids site_index;
	struct diff_track_site *sites;
	size_t nsites, sites_alloc;
	/* Per side, the figures of site i at [i]; NULL until the side gets a record. */
	struct diff_track_figures *fig[2];
	size_t fig_alloc[2];
	struct diff_track_pool pool;   /* the sites' frame ids */
	struct diff_track_ids frame_index;
	struct diff_track_frame *frames;
	size_t nframes, frames_alloc;
	struct strmap label_index;   /* a base label's text -> its label group */
	struct diff_track_vias *vias;   /* owned; filled on demand (labels of a const diff) */
	struct strmap module_index;
	struct diff_track_module *modules;
	size_t nmodules, modules_alloc;
	uint64_t total[2];
	uint64_t nsites_side[2];
	uint64_t records[2];
	uint32_t *ids;               /* scratch: the frame ids of the record being added */
	size_t ids_alloc;
};

void diff_track_init(struct diff_track *d, bool match_offsets);
void diff_track_release(struct diff_track *d);
/*
 * Add one record to a side. -1 with DIAG_DATA when a sum passes BYTES_MAX
 * or the distinct frames or sites pass 2^32 - 1.
 */
int diff_track_add_record(struct diff_track *d, int side, const struct track_record *r,
			  const char *path, struct diag *err);
/* Add the kept records of a capture (made with keep_records) as one side. */
int diff_track_add_capture(struct diff_track *d, int side, const struct track_capture *cap,
			   const char *path, struct diag *err);

/*
 * Both captures and their diff: the captures keep their headers (for the
 * comparability warnings), their records go into the diff as they are read.
 */
struct diff_track_pair {
	struct track_capture before, after;
	struct diff_track diff;
};

void diff_track_pair_init(struct diff_track_pair *p, bool match_offsets);
void diff_track_pair_release(struct diff_track_pair *p);

/* The figures of a site on one side (zero when that side has no record). */
static inline const struct diff_track_figures *
diff_track_site_side(const struct diff_track *d, const struct diff_track_site *s, int side)
{
	static const struct diff_track_figures none;
	return d->fig[side] ? &d->fig[side][s - d->sites] : &none;
}

enum diff_track_change diff_track_site_change(const struct diff_track *d,
					      const struct diff_track_site *s);

/*
 * "module: symbol" of the frame a site is charged to, else of its innermost
 * frame. Sites that would get the same label (charged to the same frame,
 * backtraces that differ further out) add " via frame N: TEXT", the first
 * frame where the site's backtrace differs from all the others with that
 * label (frames numbered as ioclasscount prints them, 0 innermost).
 */
void diff_track_site_label(const struct diff_track *d, const struct diff_track_site *s,
			   struct strbuf *out);
/* The id of frame i of a site (innermost first). */
static inline uint32_t
diff_track_site_frame(const struct diff_track_site *s, size_t i)
{
	return s->narrow ? s->frames.narrow[i] : s->frames.wide[i];
}
/* One frame as "symbol (module)", "0xADDR (module)", " + 0x.." with offsets. */
void diff_track_frame_text(const struct diff_track *d, uint32_t id, struct strbuf *out);
/* The folded stack: outermost first, ';' separated, gMetaClass frames left out. */
void diff_track_site_folded(const struct diff_track *d, const struct diff_track_site *s,
			    struct strbuf *out);
/*
 * One frame's name in the folded stack (never empty, no ';'); false, nothing
 * added, for a gMetaClass frame, which folded stacks leave out.
 */
bool diff_track_frame_folded(const struct diff_track *d, uint32_t id, struct strbuf *out);
const char *diff_track_change_name(enum diff_track_change c);
bool diff_track_changed(const struct diff_track *d);
/* Sites by change (new, grown, shrunk, gone, same), then |byte delta|, label, frames. */
size_t diff_track_sorted_sites(const struct diff_track *d,
			       const struct diff_track_site ***out);
/* Modules by |byte delta| descending, then name. */
size_t diff_track_sorted_modules(const struct diff_track *d,
				 const struct diff_track_module ***out);

/* Is the metric in bytes? All but `sites` and `new-sites`, which count sites. */
bool diff_track_metric_is_bytes(const char *metric);
/*
 * The call site whose bytes grew most among those a byte metric covers
 * (every site for "total", new sites for "new-bytes", a module's sites):
 * what a tripped gate names. NULL when none grew or the metric counts sites.
 */
const struct diff_track_site *diff_track_metric_grew_most(const struct diff_track *d,
							  const char *metric);
/*
 * A gate metric in words (the rate report's labels): "total" -> "tracked
 * total", a module -> "MODULE (tracked)". `kind` is unused (rate_label_fn).
 */
void diff_track_metric_label(const char *kind, const char *metric, char *out, size_t size);
/* Resolve a metric (after "track:"): 0, or -1 with DIAG_DATA for an absent module. */
int diff_track_metric(const struct diff_track *d, const char *metric, int64_t *before,
		      int64_t *after, struct diag *err);

/* Warnings when the captures are hard to compare (command, kind, kernel build). */
void diff_track_comparability(const struct track_capture *before,
			      const struct track_capture *after, const char *before_path,
			      const char *after_path, struct diag_list *warnings);

#endif
