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
/*
 * A pair's class changes and allocation totals (each side's from d->totals,
 * the table titled with their files when they were joined).
 */
void report_add_classes_diff(struct report *r, const struct diff_classes *d);
/* A second source's allocation totals in the classes section, as "Allocation totals (FROM)". */
void report_add_classes_totals_from(struct report *r, const struct classes_snapshot *snap,
				    const char *from);

/*
 * The IOKit classes section of `r` (its id "classes" in the JSON report and
 * the page's anchors), made present: the kernel view of a bundle adds to it too.
 */
struct report_section *report_classes_section(struct report *r);

#endif
