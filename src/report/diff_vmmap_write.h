#ifndef IOTALLY_REPORT_DIFF_VMMAP_WRITE_H
#define IOTALLY_REPORT_DIFF_VMMAP_WRITE_H

/*
 * The vmmap part of a diff report: the footprint header, the figures of
 * each type and purge state that changed, the size buckets whose region
 * count changed, and the movement of purgeable bytes between states.
 */

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "model/diff_vmmap.h"

/* Text or Markdown (pipe tables). */
void diff_vmmap_write_text(FILE *out, const struct diff_vmmap *d, bool markdown);
/* The kind's members of the iotally.diff/1 document, in a new object. */
json_t *diff_vmmap_json(const struct diff_vmmap *d);

#endif
