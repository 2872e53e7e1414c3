#ifndef IOTALLY_REPORT_DIFF_CLASSES_WRITE_H
#define IOTALLY_REPORT_DIFF_CLASSES_WRITE_H

/*
 * The classes part of a diff's JSON: per class before, after and delta
 * (largest change first; classes new in AFTER or gone from it marked), and
 * the allocation totals with their deltas. Its text and Markdown tables
 * are the pair report's (model/report_classes.h).
 */

#include <jansson.h>

#include "model/diff_classes.h"

/*
 * The JSON member of the allocation totals (and the `section` of their
 * NDJSON rows, which a bundle pair's joined totals name their files on).
 */
#define DIFF_CLASSES_ALLOCATION_KEY "allocation"

json_t *diff_classes_json(const struct diff_classes *d);

#endif
