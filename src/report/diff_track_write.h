#ifndef IOTALLY_REPORT_DIFF_TRACK_WRITE_H
#define IOTALLY_REPORT_DIFF_TRACK_WRITE_H

/*
 * The track part of a diff's JSON: totals, call sites that are new, grew,
 * shrank or are gone, per-module deltas; and the differential folded file
 * ("stack BEFORE AFTER", the difffolded.pl convention) for differential
 * flame graphs. Its text and Markdown tables are the pair report's
 * (model/report_track.h).
 */

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "model/diff_track.h"

json_t *diff_track_json(const struct diff_track *d);
/* One line per distinct folded stack, sorted by stack text. */
void diff_track_write_folded(FILE *out, const struct diff_track *d);

#endif
