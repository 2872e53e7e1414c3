#ifndef IOTALLY_APP_REPORT_BUNDLES_H
#define IOTALLY_APP_REPORT_BUNDLES_H

/*
 * `iotally report BEFORE_BUNDLE AFTER_BUNDLE`: one before/after report of
 * two capture bundles. Every kind both bundles hold is compared and
 * reported through its own pair hook (struct kind.report), in registry
 * order, so the joined headline is the kinds' verdicts most important
 * first: GPU memory (vmmap), IOKit classes, tracked kernel memory and
 * call sites, footprint. The kernel view is one section whatever files it
 * came from (app/kernel_view.h): the source is named, and sources of one
 * bundle that disagree are shown with the time each was taken. Where a
 * kernel object and its memory are both captured (IOSurface instances and
 * IOSurface regions, IOAccelerator instances and IOAccelerator regions)
 * one table puts them side by side.
 *
 * Nothing here prints: warnings go to a diag_list, errors to *err.
 */

#include <stdbool.h>
#include <stddef.h>

#include "app/kernel_view.h"
#include "app/kind.h"
#include "ingest/bundle.h"
#include "util/diag.h"

struct report;
struct diff_gate;

struct report_bundles {
	const char *paths[2];
	struct bundle b[2];
	bool opened[2];
	struct kernel_view kernel[2];
	/* The kinds compared, in registry order, and their diffs. */
	const struct kind *kinds[KINDS_MAX];
	void *diffs[KINDS_MAX];
	size_t ncompared;
	char *files[2];          /* "target/vmmap.txt (vmmap), ...": each side's captures read */
	/* A side's source of totals when not its reference (ioalloccount), joined to the
	 * classes section: at most one a side (kernel_view.totals). */
	const struct bundle_capture *merged[2][KERNEL_VIEW_SOURCES];
	size_t nmerged[2];
};

/*
 * Open both bundles. 0; -1 with *err: DIAG_USAGE when one is a series,
 * else what bundle_open() says.
 */
int report_bundles_open(struct report_bundles *rb, const char *before, const char *after,
			struct diag *err);

/*
 * Compare every kind both bundles hold and add its sections and verdict to
 * *r (report_init(r, "bundle", true) first), then the kernel sources and
 * the side-by-side table; check the gates (each against the diff of its
 * kind). Notes (checksums, readers) go to `notes`, warnings about the
 * pair (a kind one bundle lacks, another process) to `warnings`.
 * 0; -1 with *err (DIAG_NOINPUT: no kind in both bundles).
 */
int report_bundles_build(struct report_bundles *rb, struct report *r, struct diff_gate *gates,
			 size_t ngates, struct diag_list *notes, struct diag_list *warnings,
			 struct diag *err);

/*
 * The provenance of the pair: each key of side[1] (the after bundle's
 * provenance, as `report BUNDLE` gives it) as "BEFORE → AFTER" when the
 * two differ; keys one side lacks are said as that side's.
 */
void report_bundles_provenance(struct report *r, const struct report side[2]);

void report_bundles_release(struct report_bundles *rb);

#endif
