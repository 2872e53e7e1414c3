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
 * Each side's allocation totals from its own source, in the classes
 * section (a bundle pair's kernel view: ioreg's plist, or ioalloccount
 * beside ioclasscount's counts): `totals` is the pair of those sources. It
 * replaces the section's allocation totals, as "Allocation totals (FROM)"
 * when both sides name the same file, else "Allocation totals (FROM_BEFORE
 * before, FROM_AFTER after)". Only when both sides hold totals: true when
 * added.
 */
bool report_add_classes_allocs_from(struct report *r, const struct diff_classes *totals,
				    const char *from_before, const char *from_after);

#endif
