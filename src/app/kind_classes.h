#ifndef IOTALLY_APP_KIND_CLASSES_H
#define IOTALLY_APP_KIND_CLASSES_H

/*
 * What the classes kind offers beyond its registry row: a bundle report's
 * kernel view joins a second source's allocation totals to its class
 * counts (app/report_bundles.c).
 */

#include <stdbool.h>

struct report;

/*
 * `totals` (a classes pair of the kind's compare) joined to the classes
 * section of `counts` as "Allocation totals (FROM)": only when `counts`
 * holds no totals and `totals` holds totals only, on both sides (see
 * report_add_classes_allocs_from). True when added.
 */
bool kind_classes_report_totals_from(struct report *r, const void *counts, const void *totals,
				     const char *from);

/*
 * The allocation totals of the classes capture at `path` as "Allocation
 * totals (FROM)" in the classes section of a one-bundle report. 0; -1
 * with *err when it cannot be read.
 */
struct diag;
struct diag_list;
int kind_classes_report_totals_of(struct report *r, const char *path, const char *from,
				  struct diag_list *notes, struct diag *err);

#endif
