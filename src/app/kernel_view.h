#ifndef IOTALLY_APP_KERNEL_VIEW_H
#define IOTALLY_APP_KERNEL_VIEW_H

/*
 * The kernel view of one capture bundle. A bundle of `iotally capture`
 * holds the same IOKit view in up to three files: the ioreg root plist
 * (class counts and allocation totals), ioclasscount's listing (class
 * counts) and ioalloccount's (allocation totals). Commands that read two
 * bundles (`diff`, `report`) show that view once, from one source:
 *
 *   - the reference is the first ioreg capture (plist or text) in the
 *     manifest's step order, else the first classes capture;
 *   - another source is "covered" when the reference holds every kind of
 *     figure it holds (class counts, each allocation total it has); a
 *     covered source is not compared again, an uncovered one (or one that
 *     cannot be read) stays a view of its own;
 *   - a covered source that says another figure than the reference (a
 *     class count or total taken a moment later, or missing from the
 *     reference) is a disagreement, kept with the time each was taken
 *     (its step's start): the reference's figure is the one reported.
 *
 * Every capture is read in full once here; nothing prints.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/diag.h"

struct bundle;
struct bundle_capture;

#define KERNEL_VIEW_SOURCES 8
/* Disagreements kept in the model (the rest counted). */
#define KERNEL_VIEW_DISAGREEMENTS_MAX 50

struct kernel_disagreement {
	const struct bundle_capture *source;   /* the covered source that differs */
	char *figure;          /* "IOSurface" or "Instance allocation" */
	bool bytes;            /* an allocation total (else an instance count) */
	bool in_reference;     /* false: the reference does not hold the figure */
	int64_t reference, other;
};

struct kernel_view {
	const struct bundle_capture *reference;   /* NULL: no classes capture */
	const char *reference_source;             /* "ioreg-xml", "ioclasscount" ... or NULL */
	const struct bundle_capture *covered[KERNEL_VIEW_SOURCES];
	size_t ncovered;
	/* Sources with figures the reference lacks (ioalloccount beside ioclasscount). */
	const struct bundle_capture *uncovered[KERNEL_VIEW_SOURCES];
	size_t nuncovered;
	/*
	 * Where the bundle's allocation totals come from: the reference when it
	 * holds them (ioreg), else the first uncovered source that holds totals
	 * only (ioalloccount beside ioclasscount: the two make one view, counts
	 * and totals); NULL when no source holds them.
	 */
	const struct bundle_capture *totals;
	struct kernel_disagreement *disagree;     /* at most KERNEL_VIEW_DISAGREEMENTS_MAX */
	size_t ndisagree;
	uint64_t disagree_more;                   /* left out of `disagree` */
};

/* Read the bundle's classes captures and choose; never fails (see above). */
void kernel_view_pick(const struct bundle *b, struct kernel_view *v);
/*
 * The sources of allocation totals of a bundle pair (before's view, after's
 * view), when they are to be joined to the two references' counts: both
 * sides have a source of totals and one at least is not its reference (a
 * bundle without the ioreg plist takes them from ioalloccount). True with
 * each side's source in out[side] (its reference when that holds them);
 * false, out NULL, when the references' own totals are the pair's or a
 * side has none. The one rule of `diff` and `report` of bundles: their
 * tables, pages and gates all compare these figures.
 */
bool kernel_view_pair_totals(const struct kernel_view v[2], const struct bundle_capture *out[2]);
/* Is `c` a source the reference covers (not compared again)? */
bool kernel_view_covers(const struct kernel_view *v, const struct bundle_capture *c);
void kernel_view_release(struct kernel_view *v);

struct strbuf;
/* "kernel/ioclasscount.txt and kernel/ioalloccount.txt": the covered sources. */
void kernel_view_covered_list(const struct kernel_view *v, struct strbuf *sb);
/*
 * "kernel/ioclasscount.txt (taken T) says IOSurface = 13, kernel/ioreg-root.plist
 * (taken T, the reference) says 12": one sentence for every command.
 */
void kernel_disagreement_describe(const struct kernel_view *v,
				  const struct kernel_disagreement *d, struct strbuf *sb);

#endif
