#ifndef IOTALLY_REPORT_TRACK_TEXT_H
#define IOTALLY_REPORT_TRACK_TEXT_H

/*
 * Text reports of a tracking capture. The listing re-emits the shown
 * records in ioclasscount's own layout (header line, records largest
 * first, total, Binary Images), so a filtered capture is still a capture
 * iotally and people can read again; the group tables sum bytes per
 * module, symbol or category. Never opens files, never prints diagnostics.
 */

#include <stdio.h>

#include "model/track.h"

/*
 * The whole capture as far as shown; the records must be sorted. 0, or -1
 * with DIAG_IOERR in *err when a listed record cannot be read back.
 */
int track_text_write_listing(FILE *out, const struct track_capture *cap, struct diag *err);
/* The --by module|symbol|class table, the `top` largest rows (0 = all). */
void track_text_write_groups(FILE *out, const struct track_capture *cap, uint64_t top);

#endif
