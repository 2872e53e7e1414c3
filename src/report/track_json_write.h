#ifndef IOTALLY_REPORT_TRACK_JSON_WRITE_H
#define IOTALLY_REPORT_TRACK_JSON_WRITE_H

/*
 * A tracking capture as one JSON document, schema "iotally.track/1"
 * (docs/json/track.md, docs/json/track.schema.json): the shown records
 * with their frames, or the --by groups, then totals, suppressions and
 * Binary Images. Fixed key order; byte counts are exact integers and
 * addresses "0x" strings (they pass 2^63).
 */

#include <stdint.h>
#include <stdio.h>

#include "model/track.h"


struct track_json_opts {
	const char *path;     /* the input's name as given */
	uint64_t top;         /* rows of a --by table; 0 = all */
};

/*
 * 0, or -1 with DIAG_IOERR in *err when writing fails or a listed record
 * cannot be read back.
 */
int track_json_write(FILE *out, const struct track_capture *cap,
		     const struct track_json_opts *opts, struct diag *err);

#endif
