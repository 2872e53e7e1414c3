#ifndef IOTALLY_MODEL_REPORT_H
#define IOTALLY_MODEL_REPORT_H

/*
 * The report model: one document that the Markdown and the HTML writers
 * (report/report_md.c, report/report_html.c) render, and that the HTML
 * embeds as JSON. Builders (model/report_<kind>.c) fill it from the vmmap,
 * classes and track models and from their diffs; writers only read it.
 *
 * A report is a verdict (one line), provenance (key, value pairs),
 * warnings, and sections in a fixed order (enum report_section_id); a
 * section holds tables and charts. Every figure is kept as an exact
 * integer with its meaning (count, bytes, signed delta), so each writer
 * chooses how to show it and the JSON carries it exactly.
 *
 * The report owns every string in it (copied on the way in); strings come
 * from captures and may hold any byte but NUL: writers escape them.
 * A table keeps at most REPORT_ROWS_MAX rows and counts the rest in
 * `omitted`, so a report stays small whatever the input; a report with
 * `every_changed_row` (diff's tables) keeps every changed row and drops
 * only unchanged ones past the cap.
 *
 * Only what changed, by default: a builder marks the rows that say nothing
 * new (an unchanged row of a pair, an empty histogram bucket, a class whose
 * count did not move) with report_table_unchanged(); the writers fold them
 * (HTML: a <details> whose summary counts them; Markdown: one line saying
 * how many were left out and that `--all` shows them) unless `all` is set.
 * The JSON holds every row, each unchanged one marked. Provenance is shown
 * the same way: the rows report_provenance_rank() ranks first, the rest
 * folded.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/summary.h"
#include "util/capture_kinds.h"

#define REPORT_ROWS_MAX 1000
#define REPORT_CHART_ITEMS_MAX 600

enum report_cell_kind {
	REPORT_CELL_TEXT,
	REPORT_CELL_CODE,      /* a name from a capture, shown as code */
	REPORT_CELL_COUNT,     /* signed count */
	REPORT_CELL_BYTES,     /* bytes, 0..INT64_MAX */
	REPORT_CELL_DCOUNT,    /* signed count delta ("+3") */
	REPORT_CELL_DBYTES,    /* signed byte delta */
	REPORT_CELL_EMPTY,
};

struct report_cell {
	enum report_cell_kind kind;
	char *text;            /* TEXT and CODE */
	int64_t value;         /* the figures */
};

struct report_table {
	char *id;              /* unique in the report: "gpu-types", "classes" */
	char *title;
	size_t ncols;
	char **cols;
	struct report_cell *cells;   /* row-major, ncols a row */
	size_t nrows, cells_alloc;
	size_t fill;           /* cells set in the last row */
	uint64_t omitted;      /* rows left out of the model */
	char *note;            /* a line under the table, or NULL */
	/* Optional: the detail of each row (a backtrace), one entry per row. */
	char ***details;       /* NULL, or details[row] = NULL-ended lines */
	/* Rows that say nothing new (folded unless report.all), one flag a row. */
	bool *unchanged;       /* NULL, or unchanged[row] */
	size_t nunchanged;     /* rows marked */
	uint64_t omitted_unchanged;  /* of `omitted`, the rows that were unchanged */
	/* Byte figures are shown with their exact count beside them, not only in
	 * binary units: a table whose verdicts rest on exact bytes (the gates). */
	bool exact_beside;
	/* Its byte figures were rounded by the tool that printed them (heap -H,
	 * vmmap's "18.5M"): the text outputs mark each "~" (util/size.h). */
	bool rounded;
	/* Columns (bit 1 << col) of figures kept as the text their tool's rounding
	 * needs (footprint's "~922 MiB", ">=0 B", "?"): aligned as figures. */
	uint32_t text_figures;	/* Past REPORT_ROWS_MAX, every changed row is kept and only unchanged
	 * ones are dropped (counted): set from report.every_changed_row. */
	bool every_changed_row;
	bool last_dropped;     /* the last row added was dropped (its cells too) */
};

enum report_chart_kind {
	REPORT_CHART_STACKED,    /* horizontal bars of stacked segments, v[0..nseries) */
	REPORT_CHART_HISTOGRAM,  /* vertical bars per bucket; 1 or 2 series side by side */
	REPORT_CHART_DIVERGING,  /* horizontal bars of a signed v[0] around an axis */
	REPORT_CHART_ICICLE,     /* nodes at depth, from start, width v[0]; v[1] delta */
	REPORT_CHART_TIMELINE,   /* one metric over a series: v[0] per sample, a fitted line, a badge */
};

#define REPORT_SERIES_MAX 4

struct report_chart_item {
	char *label;
	uint32_t depth;          /* icicle */
	int64_t start;           /* icicle: offset from the left, in v[0] units */
	int64_t v[REPORT_SERIES_MAX];
	/* With report_chart.counts: how many regions make each byte figure v[k]. */
	int64_t counts[REPORT_SERIES_MAX];
	bool absent;             /* timeline: the sample has no value (v[0] is meaningless) */
};

/*
 * A timeline's fitted line: the slope the verdict rests on, drawn from item
 * `from` to item `to` (the analysed window) through its values there.
 */
struct report_chart_fit {
	size_t from, to;
	int64_t first, last;
};

struct report_chart {
	enum report_chart_kind kind;
	char *title;
	char *table_id;          /* the table that holds the same figures */
	bool bytes;              /* values are bytes (else counts) */
	bool differential;       /* icicle: colour by v[1] (the delta) */
	bool counts;             /* items carry counts[] beside the bytes (histograms) */
	size_t nseries;
	char *series[REPORT_SERIES_MAX];
	struct report_chart_item *items;
	size_t nitems, items_alloc;
	int64_t total;           /* icicle: the width of the root */
	uint64_t omitted;        /* items left out */
	/* Timeline: the verdict (badge), what decided it (note) and the fitted line. */
	char *badge;
	char *note;
	bool has_fit;
	struct report_chart_fit fit;
};

/*
 * In the order the report shows them. Each kind of capture has a section of
 * its own, REPORT_SEC_<KIND> (util/capture_kinds.h), named by the kind, in
 * the kinds' order; a kind whose figures go to the shared sections (GPU
 * memory, sizes) leaves its own absent.
 */
#define REPORT_SEC_KIND_ENUM(id, name) REPORT_SEC_##id,
enum report_section_id {
	REPORT_SEC_SESSION,      /* a tracking session: the tracked classes and their call sites */
	REPORT_SEC_GPU,          /* GPU memory by type and purgeable state */
	REPORT_SEC_SIZES,        /* size histograms, IOSurfaces by dimensions */
	CAPTURE_KINDS(REPORT_SEC_KIND_ENUM)  /* IOKit classes, call sites, the malloc heap, ... */
	REPORT_SEC_GATES,
	REPORT_SEC_TIMELINES,    /* a series: each metric that changed over time */
	REPORT_SEC_SAMPLES,      /* a series: its samples, used and left out */
	REPORT_SECTIONS,
};
#undef REPORT_SEC_KIND_ENUM

/*
 * "gpu", "sizes", "classes", ...: a section's id in the JSON report and the
 * HTML page's anchors; "?" before the section is given its title.
 */
struct report;
const char *report_section_name(const struct report *r, enum report_section_id id);

struct report_section {
	const char *name;        /* its id (static), report_section_name() */
	char *title;             /* NULL: the section is absent */
	char **paragraphs;       /* plain text lines under the title */
	size_t nparagraphs;
	struct report_table **tables;
	size_t ntables;
	struct report_chart **charts;
	size_t ncharts;
	bool every_changed_row;  /* given to its tables (report.every_changed_row) */
};

struct report_kv {
	char *key;
	char *value;
};

struct report {
	char *kind;              /* "vmmap", "classes", "track" */
	bool pair;               /* a before/after report */
	bool all;                /* show unchanged rows too (`--all`); false folds them */
	/* Tables keep every changed row, past REPORT_ROWS_MAX too: diff's text
	 * and Markdown, which list each changed row as its JSON does (a page
	 * keeps the cap). Unchanged rows past the cap are only counted. */
	bool every_changed_row;
	char *verdict;
	struct report_kv *provenance;
	size_t nprovenance, provenance_alloc;
	char **warnings;
	size_t nwarnings;
	struct report_section sections[REPORT_SECTIONS];
	/* What the builders noted for the summary block (model/summary.h). */
	struct summary_facts facts;
};

void report_init(struct report *r, const char *kind, bool pair);
void report_release(struct report *r);

/* The verdict is built from parts joined by "; ". */
void report_add_verdict(struct report *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void report_add_provenance(struct report *r, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * Provenance of a report on one capture (before NULL) or on a pair: the
 * after side's value, or "BEFORE → AFTER" when the two differ.
 */
void report_add_provenance_pair(struct report *r, const char *key, const char *before,
				const char *after);
/*
 * Where a provenance key goes: its place among the few rows shown first
 * (process or target, when captured, OS version, input), or -1 for a row
 * that is folded with the rest. One list, read by every writer.
 */
#define REPORT_PROVENANCE_FIRST 8
int report_provenance_rank(const char *key);
void report_add_warning(struct report *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Give a section its title (it is present from then on). */
struct report_section *report_section(struct report *r, enum report_section_id id,
				      const char *title);
/* A section named `name` (static) by its builder, not by its id. */
struct report_section *report_section_named(struct report *r, enum report_section_id id,
					    const char *name, const char *title);
void report_section_add_paragraph(struct report_section *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* `cols` has `ncols` entries. The table belongs to the section. */
struct report_table *report_section_add_table(struct report_section *s, const char *id,
					      const char *title, size_t ncols,
					      const char *const *cols);
/*
 * Start a row: false when the table is full (the row is counted in
 * `omitted` and the cells that follow are dropped by the add functions).
 */
bool report_table_row(struct report_table *t);
void report_table_text(struct report_table *t, const char *s);
void report_table_code(struct report_table *t, const char *s);
void report_table_textf(struct report_table *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void report_table_figure(struct report_table *t, enum report_cell_kind kind, int64_t v);
void report_table_empty(struct report_table *t);
/*
 * Mark the last row as saying nothing new (folded unless report.all); call
 * it after report_table_row() even when that dropped the row, so that the
 * rows left out are told apart too.
 */
void report_table_unchanged(struct report_table *t);
/* Is `row` folded in a report whose `all` is `all`? */
bool report_table_row_folded(const struct report_table *t, size_t row, bool all);
/* Rows folded (kept or left out of the model) in a report whose `all` is `all`. */
uint64_t report_table_folded(const struct report_table *t, bool all);
/* Rows left out of the model that are not counted as folded. */
uint64_t report_table_omitted_open(const struct report_table *t, bool all);
/* Detail lines (copied) of the last row. */
void report_table_detail(struct report_table *t, const char *const *lines, size_t n);
const struct report_cell *report_table_cell(const struct report_table *t, size_t row,
					    size_t col);

struct report_chart *report_section_add_chart(struct report_section *s,
					      enum report_chart_kind kind, const char *title,
					      const char *table_id, bool bytes);
void report_chart_series(struct report_chart *c, const char *name);
/* NULL when the chart is full (counted in `omitted`). */
struct report_chart_item *report_chart_add(struct report_chart *c, const char *label);
/* A timeline's verdict badge and the line saying why (copied; either may be NULL). */
void report_chart_badge(struct report_chart *c, const char *badge, const char *note);

/* Signed figure of a model value that is at most INT64_MAX. */
static inline int64_t
report_i64(uint64_t v)
{
	return v > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)v;
}

/* AFTER - BEFORE of model figures (each at most INT64_MAX): cannot overflow. */
static inline int64_t
report_delta(uint64_t before, uint64_t after)
{
	return report_i64(after) - report_i64(before);
}

struct diff_gate;
/* The gates section: each checked gate with its figures and result. */
void report_add_gates(struct report *r, const struct diff_gate *gates, size_t n);

/* The log2 bucket of a size: floor(log2(v)), 0 for 0 and 1. */
unsigned report_log2(uint64_t v);

#endif
