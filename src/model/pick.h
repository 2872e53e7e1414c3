#ifndef IOTALLY_MODEL_PICK_H
#define IOTALLY_MODEL_PICK_H

#include <stddef.h>
#include <stdint.h>

#include "util/diag.h"

/*
 * Which capture of a file to use when it holds `have` of them (dumps,
 * snapshots): the `want`th (1-based), the first when `want` is 0. The one
 * rule for every command: 0 with *index set; -1 with DIAG_DATA when the
 * file holds none ("holds no <unit>"), DIAG_USAGE when `want` is past the
 * last ("<option> N asked for, but the input holds M <unit>s").
 */
int capture_pick_nth(size_t have, uint64_t want, const char *option, const char *unit,
		     const char *path, size_t *index, struct diag *err);

#endif
