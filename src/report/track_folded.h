#ifndef IOTALLY_REPORT_TRACK_FOLDED_H
#define IOTALLY_REPORT_TRACK_FOLDED_H

/*
 * Folded stacks ("frame;frame;...;frame BYTES", outermost caller first),
 * the input of flamegraph.pl, inferno and speedscope. One line per
 * distinct stack, largest first; identical stacks are already summed.
 */

#include <stdint.h>
#include <stdio.h>

#include "model/track.h"

void track_folded_write(FILE *out, const struct track_capture *cap, uint64_t top);

#endif
