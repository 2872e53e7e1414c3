#ifndef IOTALLY_MODEL_SUMMARY_H
#define IOTALLY_MODEL_SUMMARY_H

/*
 * The summary block: what a reader came for, first, in at most four lines,
 * each one figure with its meaning (docs/gpu.md, "The summary block"):
 *
 *   cost   what the process pays for GPU memory, one figure and its source
 *          (the rule of summary_cost_source(): footprint's dirty + swapped
 *          of the GPU categories, else vmmap's dirty + swapped of the GPU
 *          types, else vmmap's resident; virtual size is never the cost)
 *   grew   what grew: type, purgeable state, count and size
 *          ("IOAccelerator (graphics), non-volatile: +3 × 128 MiB"); with
 *          no GPU figure, footprint's categories, else the malloc heap's
 *          classes
 *   where  the call sites that grew most, with their module, and the
 *          IOKit classes whose counts grew beside them
 *   verdict  for a series: the verdict and its rate
 *
 * Builders of a report (model/report_<kind>.c, app/report_series.c) note
 * what they see in a struct summary_facts as they go (summary_note_*),
 * since a kind's capture is released once its sections are built; the
 * lines are composed from the facts alone (summary_build()), so every
 * writer (the report's pages and text, `iotally BUNDLE`) prints the same
 * lines, and a CI message names a growth in the same words
 * (summary_growth_phrase()).
 *
 * Facts own their strings. Figures are exact integers; a figure from
 * rounded inputs is marked and printed with "~".
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

/* The sources of the cost, in the order the rule prefers them. */
enum summary_source {
	SUMMARY_SRC_FOOTPRINT,   /* footprint: Dirty + (Swapped) of the GPU categories */
	SUMMARY_SRC_VMMAP,       /* vmmap: dirty + swapped of the GPU types */
	SUMMARY_SRC_RESIDENT,    /* vmmap: resident of the GPU types */
	SUMMARY_SOURCES,
};

/* "footprint", "vmmap": the word printed beside the cost figure. */
const char *summary_source_name(enum summary_source s);
/* "GPU dirty + swapped", "GPU resident": what the figure measures. */
const char *summary_source_meaning(enum summary_source s);

/* One side's figure of a source: unknown is never 0. */
struct summary_amount {
	bool known;
	uint64_t value;
	bool rounded;     /* from rounded inputs (vmmap's summary table, footprint's units) */
	bool at_least;    /* a lower bound (footprint rows elided) */
};

/*
 * One growth, as the summary, the diff's Summary line, a JUnit failure and
 * `trend --fail-on` name it. `what` is a vmmap type, a footprint category,
 * an IOKit class, a call site or a metric; `state` a purgeable state or
 * NULL; `count` the change in regions, instances or allocations (when
 * has_count), `bytes` the change in bytes (when has_bytes).
 */
struct summary_growth {
	const char *what;
	const char *state;
	bool has_count;
	int64_t count;
	bool has_bytes;
	int64_t bytes;
	bool rounded;
	const char *count_noun;  /* "region", "allocation"; NULL: a bare "+N" */
	/* The counted items are whole regions: equal sizes read "+3 × 128 MiB". */
	bool regions;
	/* What the bytes measure when it is not the size of the items
	 * ("dirty": "+5 MiB dirty (+5 regions)"); NULL: their size. */
	const char *measure;
};

/*
 * Append one growth in the summary's words:
 *   "IOAccelerator (graphics), non-volatile: +3 × 128 MiB"  (regions, the
 *                                                           bytes a whole
 *                                                           multiple of them)
 *   "IOSurface, non-volatile: +5 MiB (+3 regions)"           (not a multiple)
 *   "IOSurface (footprint dirty): +64 MiB"                    (bytes only)
 *   "OSDictionary: +100"                                       (a count only)
 * Bytes through size_format_text() (util/size.h): binary units, "~" when
 * rounded. The one phrasing of a growth; callers add no words of their own.
 */
void summary_growth_phrase(const struct summary_growth *g, struct strbuf *out);

#define SUMMARY_ITEMS_MAX 3

/* A growth kept by the facts: the item with its strings owned. */
struct summary_item {
	struct summary_growth g;
	char *what, *state;      /* what g.what and g.state point to */
	char **detail;           /* a call site's backtrace, NULL-ended; or NULL */
	size_t ndetail;
};

struct summary_list {
	struct summary_item items[SUMMARY_ITEMS_MAX];
	size_t n;
	uint64_t more;           /* growths not kept (smaller) */
};

struct summary_facts {
	bool pair;
	/* Each source's figure per side ([1]: AFTER, or the only capture). */
	bool seen[SUMMARY_SOURCES];
	struct summary_amount cost[SUMMARY_SOURCES][2];
	/* vmmap's virtual size of the GPU types per side: the cost line's second
	 * figure, never its first (what is mapped, not what is paid). */
	bool virt_seen;
	struct summary_amount virt[2];
	struct summary_list grew_regions;     /* vmmap: type x purgeable state */
	struct summary_list grew_categories;  /* footprint categories (no vmmap growth) */
	struct summary_list grew_heap;        /* malloc heap classes (neither of those) */
	struct summary_list sites;            /* call sites, new and grown */
	struct summary_list classes;          /* IOKit classes whose counts grew */
	/* A tracking session's tracked class that grew ("IOSurface +120"), or NULL. */
	char *tracked_class;
	char *verdict;           /* a series: "LEAK: vmmap:gpu.dirty +96 MiB/h", or NULL */
};

void summary_facts_init(struct summary_facts *f, bool pair);
void summary_facts_release(struct summary_facts *f);

/* A source's figure of one side (0 BEFORE, 1 AFTER; 1 for a single capture). */
void summary_note_cost(struct summary_facts *f, enum summary_source s, int side,
		       struct summary_amount a);
/*
 * Offer a growth to a list: kept when it is among the SUMMARY_ITEMS_MAX
 * largest (|bytes|, then |count|, then name); strings and detail copied.
 * Only growths (a positive count or bytes) are kept.
 */
void summary_offer(struct summary_list *l, const struct summary_growth *g,
		   const char *const *detail, size_t ndetail);
/* The GPU types' virtual size of one side: the cost line's second figure. */
void summary_note_virtual(struct summary_facts *f, int side, struct summary_amount a);
struct footprint_process;
struct vmmap_dump;
struct diff_vmmap;
struct diff_footprint;
struct diff_track;
/*
 * The facts of the captures themselves, the one place each source's figure
 * is taken: footprint's Dirty + (Swapped) over footprint_gpu_categories
 * (known only when both columns are: model/footprint.h's rule); vmmap's
 * dirty + swapped, its resident and its virtual size over the GPU types
 * (vmmap_dump_gpu_figure(): unknown where the dump lacks the column).
 */
void summary_note_footprint(struct summary_facts *f, int side,
			    const struct footprint_process *p);
void summary_note_vmmap(struct summary_facts *f, int side, const struct vmmap_dump *d);
/* What grew between two dumps: each GPU type and purgeable state (regions, virtual size). */
void summary_note_vmmap_growth(struct summary_facts *f, const struct diff_vmmap *d);
/*
 * A vmmap row's growth in one field (enum vmmap_metric_field), as the
 * grew line says a type and purge state: its region count and the field's
 * bytes (virtual size: whole regions, "+3 × 128 MiB"; another byte field
 * named after its bytes, "+5 MiB dirty (+5 regions)"; the count field
 * the count alone). A CI message names a tripped vmmap gate by it.
 */
struct diff_vmmap_row;
void summary_growth_of_vmmap_row(const struct diff_vmmap_row *row, int field,
				 struct summary_growth *out);
/* A category row's growth ("IOSurface (footprint dirty): +64 MiB"), its name built in `what`. */
struct diff_footprint_row;
void summary_growth_of_footprint_row(const struct diff_footprint_row *row, struct strbuf *what,
				     struct summary_growth *out);
/* What grew between two footprint captures: each category's dirty figure. */
void summary_note_footprint_growth(struct summary_facts *f, const struct diff_footprint *d);
/*
 * A malloc heap row's growth ("Swift._ContiguousArrayStorage<Ferryx.Frame>
 * (Ferryx): ~+10.95 MiB (+400 instances)"), its name and binary built in
 * `what`; `rounded` when a capture printed its sizes human-readable.
 */
struct heap_diff_row;
void summary_growth_of_heap_row(const struct heap_diff_row *row, bool rounded,
				struct strbuf *what, struct summary_growth *out);
/* What grew between two heap reports: each class row's bytes and instances. */
struct heap_diff;
void summary_note_heap_growth(struct summary_facts *f, const struct heap_diff *d);
/* Where: the new and grown call sites, with their module and backtrace. */
void summary_note_track_growth(struct summary_facts *f, const struct diff_track *d);
/* A call site's growth as the where line says it, its label built in `label`. */
struct diff_track_site;
void summary_growth_of_track_site(const struct diff_track *d, const struct diff_track_site *site,
				  struct strbuf *label, struct summary_growth *out);
/* An IOKit class whose instance count changed by `delta`. */
void summary_note_class(struct summary_facts *f, const char *cls, int64_t delta);
/* Add what `src` noted to `dst` (a bundle's kinds, each read into a report of its own). */
void summary_facts_merge(struct summary_facts *dst, const struct summary_facts *src);
void summary_note_tracked_class(struct summary_facts *f, const char *cls);
void summary_note_verdict(struct summary_facts *f, const char *verdict);

/*
 * The source the cost uses: the first of enum summary_source whose figure
 * is known on every side the facts have (both sides of a pair), or
 * SUMMARY_SOURCES when none is.
 */
enum summary_source summary_cost_source(const struct summary_facts *f);

enum summary_line_kind {
	SUMMARY_LINE_COST,
	SUMMARY_LINE_GREW,
	SUMMARY_LINE_WHERE,
	SUMMARY_LINE_VERDICT,
};

#define SUMMARY_LINES_MAX 4

struct summary_line {
	enum summary_line_kind kind;
	char *text;              /* the whole line, as every output prints it */
	bool has_bytes;          /* the line's figure in exact bytes (tooltips, JSON) */
	int64_t bytes;
	/* The backtrace of the site the line leads with (a `where` line), or NULL. */
	const char *const *detail;
	size_t ndetail;
};

struct summary {
	struct summary_line lines[SUMMARY_LINES_MAX];
	size_t n;
};

/* "cost", "grew", "where", "verdict": the JSON's names of the lines. */
const char *summary_line_name(enum summary_line_kind k);

/*
 * The block from the facts: the verdict of a series first, then the cost,
 * what grew and where (for a tracking session, where first), each line
 * only when the facts have it. The lines
 * borrow the facts' details; summary_release() frees the texts.
 */
void summary_build(const struct summary_facts *f, struct summary *out);
void summary_release(struct summary *s);

#endif
