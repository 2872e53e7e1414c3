#ifndef IOTALLY_MODEL_REPORT_TRACK_H
#define IOTALLY_MODEL_REPORT_TRACK_H

/*
 * The track parts of a report (model/report.h): the largest call sites
 * and modules of an ioclasscount --track / --leaks / --maps capture, and
 * an icicle graph of its call stacks. Both a single capture and a pair are
 * read from the call sites of a diff_track: a single capture fills side 1
 * (AFTER) only. In pair mode new and grown sites carry their backtrace.
 */

#include "model/diff_track.h"
#include "model/report.h"
#include "model/track.h"

/* `before` is NULL for a single capture (then only side 1 of `d` is used). */
void report_add_track(struct report *r, const struct diff_track *d,
		      const struct track_capture *before, const struct track_capture *after);

#endif
