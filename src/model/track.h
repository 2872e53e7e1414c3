#ifndef IOTALLY_MODEL_TRACK_H
#define IOTALLY_MODEL_TRACK_H

/*
 * The model of an `ioclasscount --track / --leaks / --maps=PID` capture.
 *
 * A parser builds one record at a time in a struct track_record it owns
 * and hands it to track_capture_add_record(), which applies the offline
 * filters and suppressions, adds it to the aggregates a report asked for
 * and, only when the report lists records, keeps a copy in a listing whose
 * records wait in a temporary file (model/track_listing.h). So memory
 * follows the number of distinct call sites (aggregates), plus 32 bytes per
 * listed record, never the number of input lines.
 *
 * Strings of a record (module, symbol, source, process) are (offset,
 * length) views into the record's own `text` buffer; they may hold any
 * byte except '\n'.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/suppress.h"
#include "model/track_listing.h"
#include "util/bytes.h"
#include "util/diag.h"
#include "util/hashmap.h"
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

/* Which IOKitTools output layout the capture uses (formats §4.4, §4.5). */
enum track_layout {
	TRACK_LAYOUT_105,     /* no header line, 36-wide module, padded address */
	TRACK_LAYOUT_97,      /* ", [i]" headers, 24-wide module, unpadded address */
	TRACK_LAYOUT_108,     /* "kernel memory allocations (...)" header (108 to 125) */
};

enum track_record_type {
	TRACK_RECORD_ALLOC,   /* 0x.. bytes (0x.. + 0x..), N calls [i] */
	TRACK_RECORD_MAP,     /* [0xADDR, 0xLEN] proc(pid) [i] */
};

struct track_text {
	size_t off, len;      /* view into track_record.text */
};

struct track_frame {
	uint64_t index;       /* the printed frame number */
	uint64_t address;
	uint64_t offset;
	bool has_offset;      /* printed " + 0x.." */
	bool has_source;      /* printed " (file:line)" */
	bool zero_address;    /* printed as "%#018llx" of 0: eighteen zeros, no 0x */
	struct track_text module, symbol, source;
};

struct track_record {
	enum track_record_type type;
	uint64_t bytes;        /* alloc: size[0] + size[1]; map: mapped length */
	uint64_t size[2];      /* alloc: live, accumulated */
	int64_t count;         /* alloc: live allocations ("calls") */
	uint64_t map_address;  /* map: mapped address */
	struct track_text map_process;
	int64_t map_pid;
	uint64_t index;        /* the printed [i] */
	bool has_trailer;      /* a "<proc(pid)>" line */
	bool trailer_exited;   /* "<exited process(pid)>" */
	struct track_text trailer_process;
	int64_t trailer_pid;
	size_t trailer_at;     /* number of frames printed before the trailer */
	struct track_frame *frames;
	size_t nframes, frames_alloc;
	struct strbuf text;
	uint64_t line;         /* line of the record header */
	uint64_t seq;          /* 0-based position in the input */
};

void track_record_init(struct track_record *r);
void track_record_reset(struct track_record *r);
void track_record_release(struct track_record *r);
/* Append bytes to the record's text and return their view. */
struct track_text track_record_add_text(struct track_record *r, const char *p, size_t n);
struct track_frame *track_record_add_frame(struct track_record *r);

static inline const char *
track_str(const struct track_record *r, struct track_text t)
{
	return r->text.buf + t.off;
}

/*
 * The record in ioclasscount's own layout for `layout`, starting with the
 * header line (no leading blank line), each line ending in '\n'.
 */
void track_record_format(const struct track_record *r, enum track_layout layout,
			 struct strbuf *out);

/* "<Class>::gMetaClass" frames mark per-class records; *len gets the class length. */
bool track_frame_metaclass(const struct track_record *r, const struct track_frame *f,
			   const char **cls, size_t *len);
/* A frame of the kernel itself (not a kext, not user space). */
bool track_frame_is_kernel(const struct track_record *r, const struct track_frame *f);
/* A user-space frame of the record's process. */
bool track_frame_is_user(const struct track_record *r, const struct track_frame *f);

/*
 * The module a record is charged to: its first frame that is neither the
 * kernel itself, a gMetaClass marker nor user space, else "kernel".
 * *len gets the length; the result points into the record (or is static).
 */
const char *track_record_module(const struct track_record *r, size_t *len);
/*
 * A frame's name in a folded stack: its symbol without offset, else its
 * module, else "[unknown]"; ';' and tabs, which the folded format uses,
 * become ':' and ' '.
 */
void track_frame_folded_name(const struct track_record *r, const struct track_frame *f,
			     struct strbuf *out);

struct track_image {
	uint64_t start, end;
	char *name, *uuid, *path;
	uint64_t line;
};

enum track_by {
	TRACK_BY_NONE,
	TRACK_BY_MODULE,
	TRACK_BY_SYMBOL,
	TRACK_BY_CLASS,
	TRACK_BY_FOLDED,      /* folded stacks for flame graphs */
};

/* An aggregate row: a module, a (module, symbol), a category or a stack. */
struct track_group {
	char *name;           /* module or category; NULL for folded stacks */
	char *symbol;         /* TRACK_BY_SYMBOL: the function; else NULL */
	uint64_t bytes;       /* inclusive bytes (every record the key is in) */
	uint64_t self_bytes;  /* TRACK_BY_SYMBOL: records whose innermost frame it is */
	uint64_t records;
	int64_t count;        /* allocations (alloc records) or mappings */
	uint64_t first_seq;
	uint64_t last_seq;    /* to count a symbol once per record */
	uint32_t *stack;      /* TRACK_BY_FOLDED: frame names (ids), outermost first */
	size_t nstack;
};

struct track_filter {
	char **sites, **ignores, **names;
	size_t nsites, nignores, nnames;
	bool exclude;          /* NAME operands name what to drop */
	uint64_t min_bytes;
};

void track_filter_init(struct track_filter *f);
void track_filter_release(struct track_filter *f);
void track_filter_add(char ***list, size_t *n, const char *s);

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

	struct strmap group_index;
	struct track_group *groups;
	size_t ngroups, groups_alloc;

	/* Frame names of folded stacks, interned: a stack key is its ids. */
	struct strmap frame_index;
	char **frame_names;
	size_t nframe_names, frame_names_alloc;

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
 * The category of a record: "IOMap" for mappings, the class of its
 * gMetaClass frame, the single queue the command named, "IOMalloc" or
 * "IOWire" from the allocating frames, else NULL. *len gets the length.
 */
const char *track_record_category(const struct track_capture *cap,
				  const struct track_record *r, size_t *len);

/*
 * Take one parsed record: count it, filter it, aggregate it and keep a
 * copy if the report lists records. The record stays the caller's.
 * -1 with *err set when a byte sum passes BYTES_MAX.
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
/* A folded stack as text: "frame;frame;...;frame", outermost caller first. */
void track_group_folded_text(const struct track_capture *cap, const struct track_group *g,
			     struct strbuf *out);
/* Groups sorted by bytes (self bytes first for TRACK_BY_SYMBOL), then name. */
size_t track_capture_sorted_groups(const struct track_capture *cap,
				   const struct track_group ***out);

/*
 * Compare the records with the capture's printed total and add a warning
 * when they disagree in a way filtering at capture time cannot explain.
 */
void track_capture_check_total(const struct track_capture *cap, const char *path,
			       struct diag_list *warnings);

const char *track_kind_name(enum track_kind k);
const char *track_layout_name(enum track_layout l);
const char *track_by_name(enum track_by b);

#endif
