#ifndef IOTALLY_MODEL_FOOTPRINT_H
#define IOTALLY_MODEL_FOOTPRINT_H

/*
 * The footprint kind: what Apple's `footprint` printed of one or more
 * processes (docs/footprint.md). Per process its header (name, pid, the
 * footprint and page size), its category table (one row per VM category:
 * Dirty, Clean, Reclaimable, Regions, and (Swapped) / (Wired) when asked
 * for), its TOTAL row and its auxiliary data (phys_footprint and its peak).
 *
 * Every figure says whether the capture has it: a column the table lacks,
 * a table the capture lacks (--noCategories, an excerpt), or a row an
 * author elided is unknown, never 0. A figure footprint printed formatted
 * ("922 MB": base 1024, to the nearest unit) is within `slack` bytes of
 * the true value; `-f bytes` figures and region counts are exact.
 *
 * The metrics of the kind ("footprint:<Category>.<field>",
 * "footprint:gpu.dirty", "footprint:phys_footprint") are looked up here for
 * diff gates and trend; which categories are GPU memory is model/gpu.h's.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/gpu.h"
#include "util/diag.h"
#include "util/hashmap.h"

#define FOOTPRINT_SCHEMA "iotally.footprint/1"
/* The rows of --format ndjson (docs/json/footprint-ndjson.md). */
#define FOOTPRINT_NDJSON_SCHEMA "iotally.footprint-ndjson/1"

struct footprint_figure {
	uint64_t value;   /* bytes, or a count; 0 when unknown */
	uint64_t slack;   /* the true value is within value +- slack (0: exact) */
	bool known;
	bool at_least;    /* a lower bound: rows that may add to it were elided */
};

/* A figure footprint printed with `unit` bytes a unit, rounded to the nearest unit. */
struct footprint_figure footprint_figure_rounded(uint64_t value, uint64_t unit);
struct footprint_figure footprint_figure_exact(uint64_t value);
/* a += b: unknown when either is; false when the sum passes BYTES_MAX. */
bool footprint_figure_add(struct footprint_figure *a, const struct footprint_figure *b);

struct footprint_category {
	char *name;
	struct footprint_figure f[FOOTPRINT_FIELDS];
	uint64_t line;
};

struct footprint_process {
	char *name;               /* NULL: the capture does not name it */
	uint64_t pid;
	bool has_pid;
	unsigned bits;            /* 64 or 32; 0 when not printed */
	uint64_t page_size;       /* 0 when not printed */
	uint64_t first_line;
	struct footprint_figure footprint;           /* the header's "Footprint:" */
	struct footprint_figure phys_footprint;      /* Auxiliary data */
	struct footprint_figure phys_footprint_peak;
	bool has_table;           /* a category table (header or rows) was read */
	unsigned columns;         /* 1u << enum footprint_field: columns the table prints */
	bool elided;              /* the capture's author replaced rows with " ..." */
	bool grepped;             /* rows without a column header: a grep may skip some */
	bool rows_lost;           /* a line inside the table was not read */
	/*
	 * Fields (1u << enum footprint_field) in which a category the table
	 * does not list holds 0: the rule of docs/footprint.md, "Unknown is
	 * not 0", applied once by footprint_capture_finish.
	 */
	unsigned unlisted_zero;
	struct footprint_category *cats;   /* in the capture's order */
	size_t ncats, alloc;
	struct strmap index;      /* name -> index in cats */
	bool has_total;
	struct footprint_category total;   /* the TOTAL row */
	struct footprint_figure gpu_dirty; /* footprint:gpu.dirty, set by finish */
	/*
	 * "Shared with NAME [PID]:" tables under this process (several-process
	 * output): memory it shares with that process, kept apart from its own
	 * table, its figures and every sum. Each is a process of its own with
	 * `shared_with` set ("NAME [PID]") and `owner` this one.
	 */
	char *shared_with;
	struct footprint_process *owner;
	struct footprint_process **shared;
	size_t nshared, shared_alloc;
};

struct footprint_capture {
	struct footprint_process **procs;
	size_t nprocs, alloc;
	struct footprint_figure summary_footprint;   /* "Summary Footprint:" */
	uint64_t lookups_found;   /* "Found process ... from partial name ..." */
	uint64_t lookups_failed;  /* "footprint: Unable to find pid ..." */
	bool partial;             /* lines a table meant were not read */
	bool elided;              /* some process has elided rows */
	/* Every process summed (footprint_capture_finish; NULL for one process). */
	struct footprint_process *summed;
};

void footprint_capture_init(struct footprint_capture *cap);
void footprint_capture_release(struct footprint_capture *cap);
struct footprint_process *footprint_capture_add_process(struct footprint_capture *cap,
							uint64_t line);

/* A "Shared with WITH:" table under process p ("NAME [PID]", len bytes). */
struct footprint_process *footprint_process_add_shared(struct footprint_process *p,
						       const char *with, size_t len,
						       uint64_t line);

/* The row named so (NULL when the table has none). */
struct footprint_category *footprint_process_find(const struct footprint_process *p,
						  const char *name, size_t len);
/* A new row; NULL when the table already has one of that name. */
struct footprint_category *footprint_process_add(struct footprint_process *p,
						 const char *name, size_t len, uint64_t line);

/*
 * The figure of a category the process's table does not list: 0 (known)
 * when the table is shown complete, unknown otherwise (docs/footprint.md,
 * "Unknown is not 0"). The one rule every figure, sum, gate and trend reads.
 */
struct footprint_figure footprint_process_unlisted(const struct footprint_process *p,
						   enum footprint_field f);

/*
 * Do the listed rows' f figures add up to the TOTAL row's, within their
 * slack? *rows is their sum (unknown when a row's is). False without a
 * TOTAL row or the column.
 */
bool footprint_process_adds_up(const struct footprint_process *p, enum footprint_field f,
			       struct footprint_figure *rows);

/*
 * A figure of a category, as the capture has it: the row's; 0 (known) for a
 * category the complete table does not list; unknown for a column the table
 * lacks, a process without a table, or a row missing from an elided table.
 */
struct footprint_figure footprint_process_figure(const struct footprint_process *p,
						 const char *name, size_t len,
						 enum footprint_field f);

/*
 * After the last line: the gpu figures and, for several processes, their
 * sum (cap->summed). 0, or -1 with *err (DIAG_DATA) when a sum passes
 * 2^63 - 1.
 */
int footprint_capture_finish(struct footprint_capture *cap, const char *path,
			     struct diag *err);

/*
 * The figure a metric names, without the "footprint:" prefix:
 * "<Category>.<field>" (split at the last '.'), "gpu.dirty",
 * "phys_footprint", "phys_footprint_peak" or "footprint" (the header).
 * 0 with *out (known or not: a figure the capture lacks is unknown, not
 * an error); -1 with *err (DIAG_USAGE) for a name no capture can have.
 */
int footprint_metric(const struct footprint_process *p, const char *metric,
		     struct footprint_figure *out, struct diag *err);

/*
 * The unit of the figure a metric names, with or without a "process:NAME:"
 * part: a category field's from footprint_fields (regions are a count), the
 * process-wide figures bytes. The one answer gates and their pages use.
 */
enum metric_unit footprint_metric_unit(const char *metric);

/*
 * Every metric the process has a figure for, in a fixed order (the
 * process-wide ones, gpu.dirty, then each category's fields in table
 * order): fn(ctx, name, figure). Names are without the "footprint:"
 * prefix; `name` is valid during the call only.
 */
typedef void (*footprint_metric_fn)(void *ctx, const char *name,
				    const struct footprint_figure *fig);
void footprint_metric_each(const struct footprint_process *p, footprint_metric_fn fn,
			   void *ctx);

/*
 * A figure as text shows it ("?", "~5.19 MiB", "~922 MiB", ">=~817 MiB"):
 * through the one text formatter (util/size.h size_format_text: binary
 * units, "~" when cut or rounded by footprint), a lower bound (>=). Exact
 * bytes stay in the JSON, NDJSON and CSV. The one rule for the footprint
 * command's tables and the reports.
 */
void footprint_figure_text(const struct footprint_figure *fig, bool count, char out[64]);
/* A change as those tables show it: "+64 MiB", "-3", "~+1 MiB" (of rounded figures), "0 B". */
void footprint_delta_text(int64_t delta, uint64_t slack, bool count, char out[64]);

/* "ferryx [70940]", "[12761]", "(unnamed process)": for headings; caller frees. */
char *footprint_process_label(const struct footprint_process *p);

#endif
