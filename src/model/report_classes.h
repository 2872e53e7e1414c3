#ifndef IOTALLY_MODEL_REPORT_CLASSES_H
#define IOTALLY_MODEL_REPORT_CLASSES_H

/*
 * The IOKit classes parts of a report (model/report.h): the classes with
 * the most instances (or the largest changes, new and gone classes
 * marked) and the allocation totals.
 */

#include "model/diff_classes.h"
#include "model/report.h"

/* `shown` is the listing to report (a filtered selection), in its order. */
void report_add_classes(struct report *r, const struct classes_snapshot *s,
			const struct class_count **shown, size_t n);
void report_add_classes_diff(struct report *r, const struct diff_classes *d);
/* A second source's allocation totals in the classes section, as "Allocation totals (FROM)". */
void report_add_classes_totals_from(struct report *r, const struct classes_snapshot *snap,
				    const char *from);
/*
 * A second source's allocation totals in the classes section of the pair
 * `counts` (a bundle without an ioreg capture: ioalloccount's totals beside
 * ioclasscount's counts), as "Allocation totals (FROM)". Only when `counts`
 * holds no totals and `totals` holds totals only, on both sides: true when
 * added.
 */
bool report_add_classes_allocs_from(struct report *r, const struct diff_classes *counts,
				    const struct diff_classes *totals, const char *from);

#endif
