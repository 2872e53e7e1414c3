#ifndef IOTALLY_MODEL_DIFF_CLASSES_H
#define IOTALLY_MODEL_DIFF_CLASSES_H

/*
 * The classes kind of `iotally diff`: the IOKit instance counts of two
 * snapshots (ioreg -l / -a, ioclasscount output, iotally classes JSON)
 * compared class by class, and their allocation totals.
 *
 * The counts compared are the snapshots' own (ioclasscount's adjusted
 * counts), or direct counts made with diff_classes_direct() when a class
 * hierarchy is available (--direct). A count that could not be read is
 * treated as absent from its snapshot. A snapshot that holds only some
 * classes (`query`: a class-names line, or a JSON report made with
 * --match / --nonzero / --top) is compared on the classes it holds only.
 *
 * The diff borrows its snapshots; rows point at their class names.
 *
 * Metrics (gates): kind "classes", metric "<Class>" (exact, case-sensitive
 * name) or "*" (the class that grew most: diff_classes_largest_growth(),
 * 0 -> 0 when none grew); kind "alloc", metric "instance", "container",
 * "iomalloc" or "pageable".
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/classes.h"
#include "model/diff.h"
#include "model/hierarchy.h"
#include "util/diag.h"

struct diff_classes_row {
	const char *name;
	bool in_before, in_after;
	int64_t before, after;   /* 0 where absent */
	int64_t delta;
	bool delta_overflow;     /* after - before does not fit 64 bits (corrupt counts) */
};

struct diff_classes {
	const struct classes_snapshot *before, *after;
	/*
	 * Each side's allocation totals: its own snapshot's (before, after),
	 * or another file's of the same capture, joined by
	 * diff_classes_join_totals() (a bundle's ioalloccount beside its
	 * ioclasscount counts). Every reader of the totals (the writers, the
	 * pages, the gates) takes them from here. totals_from names each
	 * side's file when they were joined, else both are NULL.
	 */
	const struct classes_snapshot *totals[2];
	const char *totals_from[2];
	bool direct;
	struct diff_classes_row *rows;  /* |delta| descending, then ioclasscount's order */
	size_t nrows;
};

void diff_classes_compute(struct diff_classes *d, const struct classes_snapshot *before,
			  const struct classes_snapshot *after, bool direct);
void diff_classes_release(struct diff_classes *d);
/*
 * Take each side's allocation totals from `totals[side]` (borrowed, held
 * past the diff), read from the file named `from[side]`: a side's own
 * snapshot with the name of its file, or another source's.
 */
void diff_classes_join_totals(struct diff_classes *d,
			      const struct classes_snapshot *const totals[2],
			      const char *const from[2]);
/*
 * The sides' totals come from files of different names (a bundle pair
 * whose one side takes them from its ioreg plist, the other from
 * ioalloccount): what a figure of them is compared from must be said.
 */
bool diff_classes_totals_sources_differ(const struct diff_classes *d);

/* A row changed: its count moved, or the class is new or gone. */
bool diff_classes_row_changed(const struct diff_classes_row *r);
bool diff_classes_changed(const struct diff_classes *d);

/*
 * A new snapshot holding the direct count of every class of `s` that the
 * hierarchy knows (count minus its direct subclasses with instances);
 * allocation totals are copied. The caller frees it.
 */
struct classes_snapshot *diff_classes_direct(const struct hierarchy *h,
					     const struct classes_snapshot *s);

/*
 * One side of a classes diff: the capture as read, a JSON report's own
 * direct counts, the hierarchy a raw capture records, the snapshot
 * compared and, with --direct, the direct counts made from a hierarchy.
 * The side owns all of them.
 */
struct diff_classes_side {
	struct classes_capture cap;
	struct classes_capture json_direct;
	struct hierarchy hier;
	const struct classes_snapshot *snap;
	struct classes_snapshot *direct;
};

void diff_classes_side_init(struct diff_classes_side *s);
void diff_classes_side_release(struct diff_classes_side *s);

/* Choose the snapshot to compare: the first, or --dump N (capture_pick_nth()). */
int diff_classes_side_pick(struct diff_classes_side *s, const char *path,
			   const struct diff_options *opts, struct diag_list *notes,
			   struct diag *err);

/*
 * Switch both sides to direct counts: a JSON report's own, or made from
 * the class hierarchy either side records (hierarchies change only with
 * kexts, so one serves both). -1 with DIAG_DATA when a side needs a
 * hierarchy and neither records one.
 */
int diff_classes_sides_direct(struct diff_classes_side *before, const char *before_path,
			      struct diff_classes_side *after, const char *after_path,
			      struct diag *err);

/* Both sides read and their diff. */
struct diff_classes_pair {
	struct diff_classes_side before, after;
	struct diff_classes diff;
	/*
	 * A side whose allocation totals come from another file than its
	 * counts (diff.totals): that file's capture and path (NULL: the
	 * side's own), each side's source named, and the subject of a gate
	 * on them ("allocation totals from ..."). NULL when not joined. Owned.
	 */
	struct classes_capture joined[2];
	char *joined_path[2];
	char *totals_from[2];
	char *totals_subject;
};

void diff_classes_pair_init(struct diff_classes_pair *p);
void diff_classes_pair_release(struct diff_classes_pair *p);
/* Pick each side's snapshot, switch to direct counts with --direct, compare. */
int diff_classes_pair_compare(struct diff_classes_pair *p, const char *before_path,
			      const char *after_path, const struct diff_options *opts,
			      struct diag_list *notes, struct diag *err);

/* The row whose count grew most (first in row order on a tie), or NULL. */
const struct diff_classes_row *diff_classes_largest_growth(const struct diff_classes *d);

/*
 * Resolve a metric of kind "classes" or "alloc". 0, or -1 with DIAG_USAGE
 * for an unknown allocation kind, DIAG_DATA when neither snapshot has it.
 */
int diff_classes_metric(const struct diff_classes *d, const char *kind, const char *metric,
			int64_t *before, int64_t *after, struct diag *err);
/* Is a metric of kind "classes" or "alloc" in bytes? Allocation totals are. */
bool diff_classes_metric_is_bytes(const char *kind);
/*
 * A gate metric in words (the rate report's labels): a class is its name,
 * an allocation total "IOKit instance allocations" (rate_label_fn).
 */
void diff_classes_metric_label(const char *kind, const char *metric, char *out, size_t size);

#endif
