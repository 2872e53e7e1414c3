#ifndef IOTALLY_APP_KIND_CLASSES_H
#define IOTALLY_APP_KIND_CLASSES_H

/*
 * What the classes kind offers beyond its registry row: a bundle report's
 * kernel view joins a second source's allocation totals to its class
 * counts (app/report_bundles.c).
 */

#include <stdbool.h>

struct report;

struct diag_list;

/*
 * `totals`, a classes pair of the kind's compare whose sides are each
 * side's source of allocation totals (named `from`, at `path`), as the
 * classes section's allocation totals (report_add_classes_allocs_from).
 * A side `joined` takes its totals from another file than its counts: its
 * partial read and negative totals are said here, in `warnings` (the
 * counts' pair says its own). True when added.
 */
bool kind_classes_report_totals_from(struct report *r, const void *totals,
				     const char *const from[2], const char *const path[2],
				     const bool joined[2], struct diag_list *warnings);

/*
 * The allocation totals of the classes capture at `path` as "Allocation
 * totals (FROM)" in the classes section of a one-bundle report. 0; -1
 * with *err when it cannot be read.
 */
struct diag;
int kind_classes_report_totals_of(struct report *r, const char *path, const char *from,
				  struct diag_list *notes, struct diag *err);

#endif
