#ifndef IOTALLY_MODEL_TRACK_H
#define IOTALLY_MODEL_TRACK_H

/*
 * The model of an `ioclasscount --track / --leaks / --maps=PID` capture.
 *
 * A parser builds one record at a time (model/track_record.h) and hands it
 * to track_capture_add_record(), which counts it, applies the offline
 * filters (model/track_filter.h) and suppressions (model/suppress.h), adds
 * it to the groups a report asked for (model/track_group.h) and, only when
 * the report lists records, keeps a copy in a listing whose records wait
 * in a temporary file (model/track_listing.h). So memory follows the
 * number of distinct call sites (groups), plus 32 bytes per listed record,
 * never the number of input lines.
 *
 * The capture owns its strings, images, groups and listing;
 * track_capture_release frees them. The suppression list is borrowed.
 * What a record's frames say (kernel, user, module, category) is in
 * model/track_classify.h.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/suppress.h"
#include "model/track_classify.h"
#include "model/track_filter.h"
#include "model/track_group.h"
#include "model/track_listing.h"
#include "model/track_record.h"
#include "util/bytes.h"
#include "util/diag.h"
#include "util/strbuf.h"

/* The id of the JSON report (docs/json/track.*): written by report/, read back by ingest/. */
#define TRACK_SCHEMA "iotally.track/1"
/* The id of the rows of `iotally track --format ndjson` (docs/json/track-ndjson.*). */
#define TRACK_NDJSON_SCHEMA "iotally.track-ndjson/1"

enum track_kind {
	TRACK_KIND_UNKNOWN,   /* no header says which command made the capture */
	TRACK_KIND_TRACK,     /* --track */
	TRACK_KIND_LEAKS,     /* --leaks */
	TRACK_KIND_MAPS,      /* --maps=PID */
};

struct track_image {
	uint64_t start, end;
	char *name, *uuid, *path;
	uint64_t line;
};

struct track_capture {
	/* What the report wants; set before parsing. */
	struct track_filter filter;
	struct suppress_list *suppress;   /* borrowed; may be NULL */
	enum track_by by;
	bool keep_records;                /* the report lists records */
	uint64_t top;                     /* 0 = all; keep only this many records */
	/*
	 * Optional: called with every shown record, so a caller can build
	 * aggregates of its own (a diff's call sites) without keeping records.
	 * A return below 0 (with *err set) stops the parse.
	 */
	int (*on_record)(void *ctx, const struct track_record *r, const char *path,
			 struct diag *err);
	void *on_record_ctx;

	/* What the capture says. */
	enum track_kind kind;
	enum track_layout layout;
	char *command;                    /* the header's argv text, or NULL */
	bool site_filtered;               /* the header's argv has --site / --ignore */
	char *queue;                      /* the one queue the argv names, or NULL */
	bool has_total;
	uint64_t total;                   /* the printed "0x.. bytes total" */
	bool has_capture_total;
	uint64_t capture_total;           /* iotally's "... bytes total in the capture" */
	bool has_images_section;
	struct track_image *images;
	size_t nimages, images_alloc;

	/* Every parsed record, before filters. */
	uint64_t nrecords;
	uint64_t records_sum;             /* saturates at BYTES_MAX: sum_overflow */
	bool sum_overflow;
	uint64_t uncategorised;           /* with NAME filters: records without a category */

	/* Shown = passed the filters and was not suppressed. */
	uint64_t shown_records;
	uint64_t shown_bytes;
	uint64_t suppressed_records, suppressed_bytes;

	struct track_listing listing;     /* listed records (keep_records) */
	struct track_grouping grouping;   /* groups of shown records (by) */

	bool partial;                     /* some input was not understood */
};

void track_capture_init(struct track_capture *cap);
void track_capture_release(struct track_capture *cap);
/*
 * What the capture's command line says, as ingest/track_command.c read it:
 * its text, the kind the last of --track/--leaks/--maps chose, whether
 * --site or --ignore hid records, and the one queue it named (NULL: none
 * or several, or --exclude). Copies every string.
 */
void track_capture_set_command(struct track_capture *cap, const char *text, size_t n,
			       enum track_kind kind, bool site_filtered,
			       const char *queue, size_t queue_len);
void track_capture_add_image(struct track_capture *cap, const struct track_image *img);

/*
 * Take one parsed record: count it, filter it, suppress or show it,
 * group it and keep a copy if the report lists records. The record stays
 * the caller's. -1 with *err set when a byte sum passes BYTES_MAX.
 */
int track_capture_add_record(struct track_capture *cap, const struct track_record *r,
			     const char *path, struct diag *err);

/*
 * The listed records, largest first (ties by index, then input order), the
 * largest `top` of them when top is set. Read them with track_listing_read().
 */
void track_capture_sort_kept(struct track_capture *cap);
/*
 * The total of the whole capture: iotally's "in the capture" line, else the
 * printed total, else the sum of every record.
 */
uint64_t track_capture_total(const struct track_capture *cap);

/*
 * Compare the records with the capture's printed total and add a warning
 * when they disagree in a way filtering at capture time cannot explain.
 */
void track_capture_check_total(const struct track_capture *cap, const char *path,
			       struct diag_list *warnings);

const char *track_kind_name(enum track_kind k);

#endif
