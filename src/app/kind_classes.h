#ifndef IOTALLY_APP_KIND_CLASSES_H
#define IOTALLY_APP_KIND_CLASSES_H

/*
 * What the classes kind offers beyond its registry row: the kernel view of
 * a bundle (or of a pair of bundles, in `report` and `diff`) joins a second
 * source's allocation totals to its class counts (app/report_bundles.c,
 * cli/cmd_diff.c).
 */

#include <stdbool.h>

struct bundle_capture;
struct diag;
struct diff_section_files;
struct diag_list;
struct report;

/*
 * Join to `pair` (a classes pair of the kind's compare, of the captures
 * `counts`: each side's kernel view reference) each side's allocation
 * totals from `totals[side]` (kernel_view_pair_totals(): a side's own
 * reference, or ioalloccount beside ioclasscount, read here). The pair's
 * tables, pages and gates then compare those figures, its comparability
 * says which file each side's came from, and so does a gate on them. 0; -1 with *err when a source cannot be read
 * (the pair then keeps its own totals).
 */
int kind_classes_join_totals(void *pair, const struct bundle_capture *const counts[2],
			     const struct bundle_capture *const totals[2],
			     struct diag_list *notes, struct diag *err);

/*
 * Where the allocation totals of `pair` were read from, when
 * kind_classes_join_totals() joined them: true with out->section the
 * totals' section of the kind's JSON, and each side's file (the one
 * joined, else `paths[side]`, the side's own); false, *out untouched,
 * when the pair's totals are its own files'.
 */
bool kind_classes_totals_files(const void *pair, const char *const paths[2],
			       struct diff_section_files *out);

#endif
