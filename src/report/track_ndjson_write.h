#ifndef IOTALLY_REPORT_TRACK_NDJSON_WRITE_H
#define IOTALLY_REPORT_TRACK_NDJSON_WRITE_H

/*
 * `iotally track --format ndjson`: the rows of one input, schema
 * TRACK_NDJSON_SCHEMA (docs/json/track-ndjson.md). Per input, in order: one
 * "input" row (what kind of capture, its total, the shown records) and one
 * "site" row per call site (model/diff_track.h: records with the same
 * backtrace are one site), largest first.
 */

#include <stdint.h>
#include <stdio.h>

#include "model/diff_track.h"
#include "model/track.h"

/* Where the rows come from (report/ndjson.h). */
struct ndjson_source;

struct track_ndjson_input {
	const struct ndjson_source *src;
	const struct track_capture *cap;   /* the header and totals */
	const struct diff_track *sites;    /* the shown records as sites, on side 1 */
	uint64_t top;                      /* only the `top` largest sites; 0: all */
};

/* 0, or -1 when out could not be written. */
int track_ndjson_write(FILE *out, const struct track_ndjson_input *in);

/* The one row of an input that could not be read: `error` says why. */
int track_ndjson_write_error(FILE *out, const struct ndjson_source *src, const char *error);

#endif
