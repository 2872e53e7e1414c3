#ifndef IOTALLY_MODEL_VMMAP_H
#define IOTALLY_MODEL_VMMAP_H

/*
 * The vmmap model: what a report needs from one or more vmmap dumps, kept
 * as aggregates so memory grows with the number of distinct region types
 * and sizes, never with the number of lines.
 *
 * A capture owns its dumps; a dump owns every string in it. Parsers build
 * dumps through vmmap_dump_add_*(); reports only read them.
 *
 * Purgeable state: N = purgeable, currently non-volatile; V = volatile;
 * E = empty (purged); NONE = not a purgeable object (printed '-').
 * vmmap's rare "PURGE=?" (an unknown state) is kept apart as UNKNOWN and
 * reported with '-' in the tables, like the regions that have no PURGE.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/bytes.h"
#include "util/diag.h"
#include "util/hashmap.h"

/* The id of the JSON report (docs/json/vmmap.*): written by report/, read back by ingest/. */
#define VMMAP_SCHEMA "iotally.vmmap/1"
/* The id of the rows of `iotally vmmap --format ndjson` (docs/json/vmmap-ndjson.*). */
#define VMMAP_NDJSON_SCHEMA "iotally.vmmap-ndjson/1"

enum vmmap_purge {
	VMMAP_PURGE_N,
	VMMAP_PURGE_V,
	VMMAP_PURGE_E,
	VMMAP_PURGE_NONE,
	VMMAP_PURGE_STATES,
};

/* N, V and E come first: the purgeable states are 0 .. VMMAP_PURGEABLE_STATES - 1. */
#define VMMAP_PURGEABLE_STATES 3

/* 'N', 'V', 'E' or '-'. */
char vmmap_purge_char(enum vmmap_purge p);
/* The state a letter 'N', 'V', 'E' or '-' names; -1 for any other character. */
int vmmap_purge_from_char(char c);
/* The one order every report lists states in: by letter, '-', 'E', 'N', 'V'. */
extern const enum vmmap_purge vmmap_purge_order[VMMAP_PURGE_STATES];

/* Which region types a report is about: substrings of the type name. */
struct vmmap_filter {
	char **types;
	size_t *type_lens;    /* strlen of each: every summary row is matched */
	size_t ntypes;
	bool all;
};

void vmmap_filter_init(struct vmmap_filter *f);
void vmmap_filter_release(struct vmmap_filter *f);
void vmmap_filter_add(struct vmmap_filter *f, const char *type, size_t len);
bool vmmap_filter_selects(const struct vmmap_filter *f, const char *name, size_t len);

struct vmmap_amounts {
	uint64_t count;
	uint64_t vsize;
	uint64_t resident;
	uint64_t dirty;
	uint64_t swapped;
};

/* An IOSurface region's "SurfaceID: 0x.. WxH (FMT) SIZE" detail. */
struct vmmap_surface {
	uint64_t id;
	uint32_t width, height;
	char format[8];       /* the four-character code, NUL-terminated */
	uint64_t bytes;       /* the surface's own size as printed */
	bool bytes_rounded;   /* printed with a fraction of M/G/T */
};

/* One parsed region line. Views point into the line being parsed. */
struct vmmap_region {
	const char *type;
	size_t type_len;
	uint64_t start, end;
	bool has_range;        /* false for "unmapped" / "kernel" address tokens */
	bool zero_padded;      /* START printed with leading zeros (10.13 and older) */
	uint64_t vsize;        /* end - start, or the printed VSIZE without a range */
	bool vsize_rounded;    /* vsize came from a rounded printed token */
	uint64_t resident, dirty, swapped;
	unsigned size_columns; /* how many of VSIZE RSDNT DIRTY SWAP were printed */
	const char *sizes;     /* the text inside [...] (a view into the line) */
	size_t sizes_len;
	bool page_counts;      /* sizes only vmmap -pages prints (unitless "0", a range
				  of pages printed as a bare count) */
	enum vmmap_purge purge;
	bool purge_unknown;    /* PURGE=? */
	const char *detail;    /* REGION DETAIL (a view into the line), may be empty */
	size_t detail_len;
	bool has_surface;      /* set by vmmap_region_read_surface(); surface valid */
	struct vmmap_surface surface;
	uint64_t line;
};

/*
 * A histogram bucket counts in 32 bits, and keeps no total: the regions
 * of one size are its counts by purgeable state, which add up to it
 * (vmmap_hist_bucket_count()). 24 bytes a bucket, not 48: a dump of
 * log-uniform sizes holds tens of thousands of buckets, and every page
 * they fill is a page the kernel hands out on first touch (on a virtual
 * machine some 12 us each). A type's lines in one dump stop at the same
 * figure (vmmap_type_stats.lines_headroom), so neither a bucket's counts
 * nor their sum can pass it.
 */
#define VMMAP_HIST_COUNT_MAX UINT32_MAX

struct vmmap_hist_bucket {
	uint64_t vsize;
	uint32_t purge[VMMAP_PURGE_STATES];
};

/* The regions a bucket counts: at most VMMAP_HIST_COUNT_MAX. */
static inline uint64_t
vmmap_hist_bucket_count(const struct vmmap_hist_bucket *b)
{
	uint64_t n = 0;
	for (int p = 0; p < VMMAP_PURGE_STATES; p++)
		n += b->purge[p];
	return n;
}

/*
 * Slots of vmmap_dump.type_cache (2^9): a name may sit in either of two
 * (model/vmmap.c, type_slots). A full macOS dump has 40 to 80 region
 * types; with 2^7 slots and one a name, 11 to 20 % of the lines of a dump
 * whose types alternate missed and hashed the name for the map.
 */
#define VMMAP_TYPE_CACHE_BITS 9
/* Types the cache can hold: its entries are 16-bit, index + 1. */
#define VMMAP_TYPE_CACHE_TYPES ((size_t)UINT16_MAX)

struct vmmap_type_stats {
	char *name;                      /* the canonical (full) name */
	size_t name_len;
	/* The name as region lines print it, which the per-line cache compares:
	 * `name` itself, or vmmap's 24-byte cut of it (see vmmap_dump_finish). */
	char *printed;
	size_t printed_len;
	bool selected;
	/* Cut to 24 bytes and not selected by its cut name: counted until the
	 * dump's end, when the selection is made on the full name. */
	bool selection_pending;
	bool gpu;                        /* GPU memory (model/gpu.h) */
	/* Its counted regions go into by_purge and hist: selected, a GPU type
	 * (the gpu metric family counts it whatever the selection), or its
	 * selection pending. Reports list selected types only. */
	bool counted;
	struct vmmap_amounts lines;      /* every parsed region line of the type */
	/* No field of `lines` is above BYTES_MAX - lines_headroom, nor its
	 * count above VMMAP_HIST_COUNT_MAX - lines_headroom: a region whose
	 * amounts are all within it adds without a check. */
	uint64_t lines_headroom;
	bool lines_rounded;              /* some vsize in `lines` was not exact */
	struct vmmap_amounts by_purge[VMMAP_PURGE_STATES]; /* what the breakdown counts */
	/* vsize -> bucket: an open-addressed table of indexes in hist, plus
	 * one (0 = empty), hist_slots_cap slots (a power of two, at least
	 * twice nhist; 0 before the first bucket). One probe answers nearly
	 * every region line, however many sizes a type has (a dump of
	 * log-uniform sizes has thousands per type). A slot is 16 bits while
	 * the table is too small to hold an index past UINT16_MAX, 32 bits
	 * (hist_slots_wide) from then on (model/vmmap.c, hist_slots_grow). */
	void *hist_slots;
	size_t hist_slots_cap;
	bool hist_slots_wide;
	struct vmmap_hist_bucket *hist;
	size_t nhist, hist_alloc;
	/* Its region lines in vmmap_dump.hist_pending, not yet in hist. */
	unsigned hist_pending;
	/* Its histogram counts wait in vmmap_dump.hist_log, in line order,
	 * and hist is empty: its selection is pending (model/vmmap.c). */
	bool hist_logged;
};

/*
 * A region line's histogram count, made a few lines after its parse (see
 * vmmap_dump.hist_pending).
 */
struct vmmap_hist_pending {
	uint64_t vsize;
	size_t type;                     /* index in vmmap_dump.types */
	enum vmmap_purge purge;
};

/* A region line of a type whose selection is pending (vmmap_dump.hist_log). */
struct vmmap_hist_logged {
	uint64_t vsize;
	uint32_t type;                   /* index in vmmap_dump.types */
	uint8_t purge;                   /* enum vmmap_purge */
};

/* Region lines the log holds at most: 1 MiB of them, then they are counted. */
#define VMMAP_HIST_LOG_MAX ((size_t)1 << 16)

/* Region lines a histogram count is made after. */
#define VMMAP_HIST_LAG 2
/* Buckets from which a type's counts wait (12 KiB of buckets: below, in cache). */
#define VMMAP_HIST_DEFER_MIN 256

enum vmmap_column {
	VMMAP_COL_VIRTUAL,
	VMMAP_COL_RESIDENT,
	VMMAP_COL_DIRTY,
	VMMAP_COL_SWAPPED,
	VMMAP_COL_VOLATILE,
	VMMAP_COL_NONVOL,
	VMMAP_COL_EMPTY,
	VMMAP_COL_SIZES,       /* number of size columns */
};

struct vmmap_name_block;

struct vmmap_summary_row {
	/* The type name, name_len bytes. The parser's row points into the
	 * input line; vmmap_dump_add_summary_row() keeps a NUL-terminated copy
	 * in the dump (texts), which the dump's rows point to. */
	const char *name;
	size_t name_len;
	/* In the dump's rows: the name's bytes before its first NUL (a row
	 * of a line with a NUL byte may hold one), the name as the writers
	 * print and select it, as they read the NUL-terminated copy; set
	 * once by vmmap_dump_add_summary_row() instead of a strlen() each. */
	size_t text_len;
	uint64_t line;
	unsigned present;                 /* bit (1 << enum vmmap_column) */
	uint64_t value[VMMAP_COL_SIZES];  /* bytes derived from the rounded text */
	char virtual_text[24];            /* VIRTUAL exactly as printed */
	bool has_count;
	/* In the dump's rows, once known (facts_known): the filter of
	 * vmmap_dump.rows_filter selects the name as printed (text_len
	 * bytes; read it through vmmap_dump_row_selected()), and the whole
	 * name (name_len bytes); the whole name is a GPU type's
	 * (vmmap_type_is_gpu()). */
	bool facts_known;
	bool selected;
	bool selected_whole;
	bool gpu;
	uint64_t count;
};

struct vmmap_surface_group {
	uint32_t width, height;
	char format[8];
	uint64_t count;
	uint64_t mapped;         /* sum of region vsize */
	uint64_t surface_bytes;  /* sum of the surfaces' own sizes */
	bool rounded;
};

/* A purgeable region (N, V or E) of a selected type, kept for diffs by address. */
struct vmmap_purgeable_region {
	uint64_t start;
	uint64_t vsize;
	uint32_t type;            /* index in vmmap_dump.types */
	uint8_t purge;            /* N, V or E: below VMMAP_PURGEABLE_STATES */
};

/* A header field; both strings are kept in the dump's text blocks. */
struct vmmap_field {
	char *key;
	char *value;
};

struct vmmap_dump {
	uint64_t first_line;

	/* Header block ("Key:  value" lines), in input order. */
	struct vmmap_field *fields;
	size_t nfields, fields_alloc;
	char *process;            /* NULL when the dump does not say */
	bool has_pid;
	uint64_t pid;
	uint64_t page_size;       /* 0 when unknown */
	char *report_format;      /* "Output report format" value */

	struct strmap type_index; /* name -> index in types */
	/* A small cache in front of type_index, two slots a name: a dump has
	 * few types (some 30 to 80 in a real one) and every region line looks
	 * one up. An entry is a type's index + 1, 0 = empty slot: 16 bits keep
	 * the dump as small as 2^7 slots of size_t did (a dump is made for
	 * each of the thousands a -summary capture may hold). */
	uint16_t type_cache[1 << VMMAP_TYPE_CACHE_BITS];
	struct vmmap_type_stats *types;
	size_t ntypes, types_alloc;

	struct vmmap_summary_row *rows;
	size_t nrows, rows_alloc;
	/* The filter each row's `selected` was worked out with (the
	 * capture's, by vmmap_dump_finish()); NULL before. Every writer and
	 * check asks about every row: a -summary capture is all rows, and
	 * matching each name three or four times was a tenth of its run. */
	const struct vmmap_filter *rows_filter;
	/* The rows' names and the header fields' keys and values, copied in
	 * blocks: a dump of -summary captures is all rows and header, and an
	 * allocation per name or field was a tenth of its read. */
	struct vmmap_name_block *texts;

	struct vmmap_surface_group *surfaces;
	size_t nsurfaces, surfaces_alloc;

	/* Sum of every counted amount (all types, all states); bounds every
	 * sum a query makes over them, so none passes BYTES_MAX. */
	struct vmmap_amounts counted;

	/* With vmmap_capture.want_purgeable: every N/V/E region with an address. */
	struct vmmap_purgeable_region *purgeable;
	size_t npurgeable, purgeable_alloc;

	/* No field of `counted` is above BYTES_MAX - counted_headroom. (Not
	 * next to `counted`: there gcc pairs the two in vector code that
	 * costs the per-line update more than the scalar one.) */
	uint64_t counted_headroom;
	uint64_t lines;           /* input lines that belong to this dump */
	uint64_t region_lines;    /* lines parsed as regions (any type) */
	uint64_t unparsed_lines;  /* lines that looked like regions but did not parse */
	unsigned max_size_columns;
	bool legacy_layout;       /* zero-padded addresses of 10.13 and before */
	bool page_counts;         /* vmmap -pages: sizes were page counts, converted
				     to bytes with page_size */
	bool has_region_section;  /* a "==== ... regions for process" header was seen */
	bool has_summary;
	/* The summary table was read to its end (vmmap's TOTAL rows; 2.0's
	 * closing rule): a type it does not list has no memory. Without it
	 * (an excerpt, a cut table) an unlisted type is unknown, never 0. */
	bool summary_complete;
	/* iotally's JSON of types that leave the GPU types out (model/gpu.h
	 * gpu_types_selected()): a GPU type it does not list is unknown, not none. */
	bool gpu_left_out;
	bool finished;            /* vmmap_dump_finish() ran */
	/*
	 * The last region lines' histogram counts, oldest first. A dump of
	 * many sizes has its buckets out of cache, and a lookup is two
	 * dependent misses (slot, then bucket): a line's slot is prefetched
	 * when it comes, its bucket one line later, and it is counted
	 * VMMAP_HIST_LAG lines later, so the misses overlap the parse of
	 * the lines between. vmmap_dump_settle_hist() counts them.
	 */
	struct vmmap_hist_pending hist_pending[VMMAP_HIST_LAG];
	unsigned hist_npending;
	/*
	 * The histogram counts of types whose selection is pending, in line
	 * order: counted at the dump's end only for the types its full names
	 * select, and at once (all of them) when VMMAP_HIST_LOG_MAX lines
	 * wait. Until then those types' buckets are neither made nor touched.
	 */
	struct vmmap_hist_logged *hist_log;
	size_t hist_nlog;                /* room: VMMAP_HIST_LOG_MAX */
};

/* A summary-row name kept by the capture (vmmap_capture.row_names). */
struct vmmap_row_name {
	char *name;          /* NUL-terminated copy, name_len bytes */
	size_t name_len, text_len;
	bool selected, selected_whole, gpu;
};

/* Names a capture keeps; a row of any other name is copied into its dump. */
#define VMMAP_ROW_NAMES_MAX 4096

struct vmmap_capture {
	struct vmmap_filter filter;  /* owned */
	bool want_surfaces;
	bool want_purgeable;         /* keep purgeable regions by address (diff) */
	struct vmmap_dump **dumps;
	size_t ndumps, dumps_alloc;
	/*
	 * The summary-row names vmmap_capture_add_summary_row() has seen, up
	 * to VMMAP_ROW_NAMES_MAX, each with its facts for `filter` (set
	 * before the first dump is read): a file of many -summary captures
	 * repeats its type names in every dump, and each row copied its name
	 * and asked the filter and the GPU test again. Rows point to these
	 * names, which live as long as the capture (every dump is freed
	 * with it or before). row_name_index maps a name to its entry.
	 */
	struct vmmap_row_name *row_names;
	size_t nrow_names, row_names_alloc;
	struct strmap row_name_index;
	uint64_t lines;
	bool partial;                /* input ended in the middle of a line or a table */
	/*
	 * Optional: called for each dump once it is complete (its summary
	 * read, vmmap_dump_finish() done), in input order. A reader that
	 * writes each dump as it closes, then vmmap_capture_drop()s it,
	 * keeps memory flat in the number of dumps.
	 */
	void (*dump_closed)(void *ctx, struct vmmap_capture *cap, struct vmmap_dump *d);
	void *dump_closed_ctx;
};

void vmmap_capture_init(struct vmmap_capture *cap);
void vmmap_capture_release(struct vmmap_capture *cap);
struct vmmap_dump *vmmap_capture_new_dump(struct vmmap_capture *cap, uint64_t line);
/* Take a closed dump out of the capture and free it (see dump_closed). */
void vmmap_capture_drop(struct vmmap_capture *cap, struct vmmap_dump *d);

void vmmap_dump_free(struct vmmap_dump *d);
void vmmap_dump_set_field(struct vmmap_dump *d, const char *key, size_t klen,
			  const char *value, size_t vlen);
const char *vmmap_dump_field(const struct vmmap_dump *d, const char *key);

/*
 * Count one region line. Returns -1 with *err set when a sum would overflow
 * 64 bits (only hostile input gets there).
 */
int vmmap_dump_add_region(struct vmmap_capture *cap, struct vmmap_dump *d,
			  const struct vmmap_region *r, const char *path,
			  struct diag *err);
/*
 * Aggregates read back from iotally's own JSON report of a dump: add `a` to
 * the breakdown of one type and state, or `purge[]` regions of one size to
 * a type's histogram. -1 with *err set when a sum would pass
 * BYTES_MAX.
 */
int vmmap_dump_add_group(struct vmmap_capture *cap, struct vmmap_dump *d,
			 const char *type, size_t len, enum vmmap_purge p,
			 const struct vmmap_amounts *a, const char *path, struct diag *err);
int vmmap_dump_add_bucket(struct vmmap_capture *cap, struct vmmap_dump *d,
			  const char *type, size_t len, uint64_t vsize,
			  const uint64_t purge[VMMAP_PURGE_STATES], const char *path,
			  struct diag *err);
/*
 * The last region line's detail came on the next line (wrapped): its
 * SurfaceID, parsed into r->surface (r is that region again, its type as
 * printed). Groups the surface as if the line had not been wrapped.
 */
void vmmap_dump_add_wrapped_surface(struct vmmap_capture *cap, struct vmmap_dump *d,
				    const struct vmmap_region *r);
/* Takes ownership of row->name. */
/* Appends the row; its name is copied (row->name need not be NUL-terminated). */
void vmmap_dump_add_summary_row(struct vmmap_dump *d, const struct vmmap_summary_row *row);
/*
 * The same for a dump of cap: the row's name and its facts for cap's
 * filter taken from the names the capture keeps (the name kept there the
 * first time). Rows and answers are those of vmmap_dump_add_summary_row()
 * and vmmap_dump_finish(), which the unit tests compare it with.
 */
void vmmap_capture_add_summary_row(struct vmmap_capture *cap, struct vmmap_dump *d,
				   const struct vmmap_summary_row *row);

/*
 * Does f select the dump's row i, by its name as printed (text_len
 * bytes)? The answer vmmap_dump_finish() kept when f is the filter it
 * used, else worked out now.
 */
bool vmmap_dump_row_selected(const struct vmmap_dump *d, const struct vmmap_filter *f, size_t i);

/*
 * Region lines print type names cut to vmmap's 24-byte column
 * ("owned unmapped (graphics" for "owned unmapped (graphics)"); summary
 * tables print them whole. The full name of a cut one: the dump's summary
 * row it is the prefix of (one only), else an entry of the documented
 * list (docs/gpu.md), else NULL (the name stands as printed).
 */
#define VMMAP_TYPE_COLUMN 24
const char *vmmap_type_full_name(const struct vmmap_dump *d, const char *name, size_t len);
/*
 * The dump is complete (its summary table read): every cut type takes its
 * full name, a type met under both names is counted once under the full
 * one, and the selection is made on full names. Called by the parser at
 * the end of each dump, before anything reads it; a second call does
 * nothing.
 */
void vmmap_dump_finish(struct vmmap_capture *cap, struct vmmap_dump *d);

/*
 * Counts the region lines whose histogram count is still pending
 * (vmmap_dump.hist_pending and hist_log): the histogram is complete
 * after it.
 * vmmap_dump_finish() calls it; a reader of a dump it was not called on
 * (tests that add regions by hand) calls it before reading hist.
 */
void vmmap_dump_settle_hist(struct vmmap_dump *d);

/*
 * The script-compatible rule: a region counts in the breakdown unless it
 * is not purgeable (no PURGE= at all) and has no resident, dirty or
 * swapped memory. When the
 * dump did not print those columns nothing is known to be zero, so the
 * region counts.
 */
bool vmmap_region_counts(const struct vmmap_region *r);

/* Queries for reports; results are sorted deterministically. */

/* Selected types that have breakdown entries, sorted by name (byte order). */
size_t vmmap_dump_sorted_types(const struct vmmap_dump *d,
			       const struct vmmap_type_stats ***out);
/* The bucket of one type for vsize, or NULL. */
const struct vmmap_hist_bucket *vmmap_type_find_bucket(const struct vmmap_type_stats *t,
						       uint64_t vsize);
/* Buckets of one type sorted by vsize ascending (caller frees *out). */
size_t vmmap_type_sorted_hist(const struct vmmap_type_stats *t,
			      const struct vmmap_hist_bucket ***out);
/* Surface groups sorted by mapped bytes descending, then dimensions, format. */
size_t vmmap_dump_sorted_surfaces(const struct vmmap_dump *d,
				  const struct vmmap_surface_group ***out);
/* Sum of the breakdown over selected types. */
struct vmmap_amounts vmmap_dump_total(const struct vmmap_dump *d);
struct vmmap_amounts vmmap_dump_total_purge(const struct vmmap_dump *d,
					    enum vmmap_purge p);
bool vmmap_dump_has_entries(const struct vmmap_dump *d);

/*
 * GPU memory a selection leaves out: the types charged to the graphics
 * footprint ("owned unmapped (graphics)", "VM_ALLOCATE (graphics)"), with
 * what the dump holds of each.
 */
struct vmmap_left_out {
	const char *name;       /* points into the dump */
	uint64_t count;         /* region lines, or the summary row's REGION COUNT */
	uint64_t vsize;         /* exact sum of the lines, or the row's VIRTUAL */
	bool from_summary;      /* no region lines: the figures are the summary row's */
	bool has_count;
};

bool vmmap_type_is_gpu(const char *name, size_t len);
/* Sorted by name; the caller frees *out. */
size_t vmmap_dump_gpu_left_out(const struct vmmap_dump *d, const struct vmmap_filter *f,
			       struct vmmap_left_out **out);

/*
 * Compare the parsed region lines of the selected types with the dump's
 * own summary table and add a warning for each disagreement.
 */
void vmmap_dump_crosscheck(const struct vmmap_dump *d,
			   const struct vmmap_filter *f, const char *path,
			   struct diag_list *warnings);

#endif
