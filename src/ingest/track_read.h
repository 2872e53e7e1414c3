#ifndef IOTALLY_INGEST_TRACK_READ_H
#define IOTALLY_INGEST_TRACK_READ_H

/*
 * Parser for saved `ioclasscount --track / --leaks / --maps=PID` output,
 * every IOKitTools layout from 97 to 125 (formats/ioclasscount.md §4).
 * Streams lines from a line_reader; each record is built in one reusable
 * buffer and handed to track_capture_add_record() as soon as it ends, so
 * the parser itself holds one record at a time.
 *
 * Fields are found by pattern from the right, never by column: a module
 * name may overflow its column, C++ symbols hold spaces, commas,
 * parentheses and '+', process names hold spaces and parentheses.
 */

#include <stdbool.h>
#include <stddef.h>

#include "model/track.h"
#include "util/diag.h"
#include "util/linereader.h"

struct track_parse_opts {
	bool strict;              /* the first line that does not parse is an error */
	size_t report_unparsed;   /* how many unparsed lines get a warning each */
};

/*
 * Parse the whole input into `cap`. 0, or -1 with *err set (read error,
 * --strict violation, a byte sum past 2^63, or input that holds no
 * tracking record, header or total at all). Warnings go to `warnings`.
 */
int track_parse(struct line_reader *r, struct track_capture *cap,
		const struct track_parse_opts *opts, struct diag_list *warnings,
		struct diag *err);

/* Line-level pieces, exposed for unit tests. Views point into the line. */

struct track_frame_view {
	uint64_t index, address, offset;
	bool has_offset, has_source, zero_address;
	const char *module, *symbol, *source;
	size_t module_len, symbol_len, source_len;
};

/* 0, or -1 with *why saying what is wrong. */
int track_parse_frame_line(const char *p, size_t n, struct track_frame_view *f,
			   const char **why);

struct track_header_view {
	bool map;
	bool layout97;            /* ", [i]" */
	uint64_t size[2], bytes, address, index;
	int64_t count, pid;
	const char *process;
	size_t process_len;
};

/* 1: a record header; 0: not one; -1: looks like one but does not parse (*why). */
int track_parse_record_header(const char *p, size_t n, struct track_header_view *h,
			      const char **why);

#endif
