#ifndef IOTALLY_REPORT_DIFF_VMMAP_WRITE_H
#define IOTALLY_REPORT_DIFF_VMMAP_WRITE_H

/*
 * The vmmap part of diff's JSON: the footprint header, the figures of each
 * type and purge state, the size buckets whose region count changed, and
 * the movement of purgeable bytes between states. Its text and Markdown
 * are the pair report's tables (model/report_vmmap_diff.c).
 */

#include <jansson.h>

#include "model/diff_vmmap.h"

/* The kind's members of the iotally.diff/1 document, in a new object. */
json_t *diff_vmmap_json(const struct diff_vmmap *d);

#endif
