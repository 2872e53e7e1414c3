#ifndef IOTALLY_INGEST_TRACK_COMMAND_H
#define IOTALLY_INGEST_TRACK_COMMAND_H

/*
 * The ioclasscount command line a tracking capture records in its header
 * ("ioclasscount --track --site=AGX IOSurface"), read for what it says about
 * the records: which kind of capture it is (the last of --track, --leaks,
 * --maps wins, as in ioclasscount), whether --site/--ignore hid records
 * (the printed total then counts them), and the one queue it was restricted
 * to (then every record without a class frame belongs to it).
 */

#include <stddef.h>

#include "model/track.h"

/* Read the n bytes of command text into cap (track_capture_set_command). */
void track_command_read(struct track_capture *cap, const char *p, size_t n);

#endif
