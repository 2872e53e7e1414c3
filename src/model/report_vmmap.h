#ifndef IOTALLY_MODEL_REPORT_VMMAP_H
#define IOTALLY_MODEL_REPORT_VMMAP_H

/*
 * The vmmap parts of a report (model/report.h): provenance from the dump
 * header, GPU memory by type and purgeable state, log2 size histograms and
 * IOSurfaces by dimensions.
 *
 * A single dump reports the types its capture selected (the vmmap
 * command's --types; `iotally report` selects the GPU types). A pair
 * (model/report_vmmap_diff.c, the one rendering of a vmmap diff) reports
 * the GPU types, IOAccelerator*, IOSurface* and Apple silicon's "owned
 * unmapped (graphics)", in the GPU and Sizes sections, and every other
 * type both captures hold in the vmmap section.
 */

#include <stdbool.h>

#include "model/diff_vmmap.h"
#include "model/report.h"
#include "model/vmmap.h"

/* IOAccelerator, IOSurface or owned unmapped (graphics) memory. */
bool report_vmmap_gpu_type(const char *name);

/* The figures of one dump (the types its capture selected). */
void report_add_vmmap(struct report *r, const struct vmmap_dump *d);
/* Before, after and delta of a diff's types: the GPU types first. */
void report_add_vmmap_diff(struct report *r, const struct diff_vmmap *d);

#endif
