#ifndef IOTALLY_MODEL_REPORT_FOOTPRINT_H
#define IOTALLY_MODEL_REPORT_FOOTPRINT_H

/*
 * The footprint kind's sections of a report (`iotally report`): one
 * process (the verdict is footprint:gpu.dirty, "GPU memory (footprint,
 * dirty) ~448 MiB"; the process figures; the GPU categories' table) or a
 * pair ("GPU memory (footprint, dirty) ~448 MiB -> ~512 MiB (~+64 MiB)",
 * the figures and categories before, after and their delta; for captures
 * of several processes, each process's figures, matched as
 * model/diff_footprint.h says, with the sums as TOTAL rows). Figures
 * footprint printed formatted are marked "~" (model/footprint.h's rule);
 * one a capture lacks is "?", never 0.
 */

#include "model/diff_footprint.h"
#include "model/footprint.h"
#include "model/report.h"

void report_add_footprint(struct report *r, const struct footprint_process *p);
void report_add_footprint_diff(struct report *r, const struct diff_footprint *d);

#endif
