#ifndef IOTALLY_MODEL_REPORT_HEAP_H
#define IOTALLY_MODEL_REPORT_HEAP_H

/*
 * The heap kind's part of a report (model/report.h): its provenance (the
 * report's header as heap printed it), the verdict, and the "heap" section:
 * the totals and the classes of one capture, or of a pair with their deltas.
 */

#include "model/heap.h"
#include "model/report.h"

void report_add_heap(struct report *r, const struct heap_capture *cap);
void report_add_heap_diff(struct report *r, const struct heap_diff *d);

#endif
