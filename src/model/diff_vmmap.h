#ifndef IOTALLY_MODEL_DIFF_VMMAP_H
#define IOTALLY_MODEL_DIFF_VMMAP_H

/*
 * The vmmap kind of `iotally diff`: two dumps compared type by type.
 *
 * A type takes part when both captures selected it (a raw dump selects
 * every type; a JSON report only the types it was made for), so a report
 * of IOAccelerator and IOSurface compared with a whole dump never shows
 * the other types as gone.
 *
 * The diff borrows its dumps: they must outlive it. Its rows point at the
 * dumps' type names.
 *
 * Metrics (gates): "<Type>[:<N|V|E|->].<count|vsize|resident|dirty|swapped>"
 * without a state the figure covers every state. Type is a type name
 * (exact, it may hold spaces); else a glob (* ? [...]) over whole names or
 * a substring as `vmmap --types` takes it, the matching types summed; or
 * "gpu": IOAccelerator*, IOSurface* and "owned unmapped (graphics)"
 * together. "footprint" is the "Physical footprint" header, as vmmap
 * rounds it. Compared by summary tables, the fields are those of
 * diff_vmmap_summary_fields[] and there are no purge states.
 */

#include <stdbool.h>
#include <stdint.h>

#include "model/diff.h"
#include "model/gpu.h"
#include "model/vmmap.h"

/*
 * The metric of the "Physical footprint" header: vmmap's own metric, whose
 * name happens to be the footprint kind's (vmmap:footprint).
 */
#define DIFF_VMMAP_METRIC_FOOTPRINT "footprint"

/*
 * A gate metric in words (the rate report's labels): "IOSurface:N.dirty"
 * -> "IOSurface non-volatile dirty", "gpu.dirty" -> "GPU dirty (vmmap)",
 * "footprint" -> "physical footprint (vmmap)". `kind` is unused (rate_label_fn).
 */
void diff_vmmap_metric_label(const char *kind, const char *metric, char *out, size_t size);
#include "util/diag.h"

struct diff_vmmap_row {
	const char *type;
	enum vmmap_purge purge;
	struct vmmap_amounts before, after;
};

/* One size bucket of one type whose region count changed. */
struct diff_vmmap_bucket {
	const char *type;
	uint64_t vsize;
	uint64_t before, after;
};

/*
 * Purgeable bytes of one type by state, and the movement between states:
 * moved[from][to] in bytes, for N, V and E. When both captures kept their
 * purgeable regions (raw dumps), a region at the same start address in
 * both whose state changed moved its bytes; otherwise (a JSON report has no
 * addresses) the movement is inferred from the per-state totals.
 */
struct diff_vmmap_purgeable {
	const char *type;
	uint64_t before[VMMAP_PURGEABLE_STATES], after[VMMAP_PURGEABLE_STATES];
	uint64_t moved[VMMAP_PURGEABLE_STATES][VMMAP_PURGEABLE_STATES];
};

/*
 * Summary-only dumps (vmmap -summary, crash-report summaries) have no
 * region lines: they are compared through their summary tables, row by
 * row, with the figures as printed (rounded by vmmap). Fields, in order:
 * count, vsize, resident, dirty, swapped, volatile, nonvolatile, empty.
 */
#define DIFF_VMMAP_SUMMARY_FIELDS VMMAP_FIELDS
/* The fields' names: vmmap_fields[f].name (model/gpu.h). */
const char *diff_vmmap_summary_field(size_t f);

struct diff_vmmap_summary_row {
	const char *type;        /* as printed, TOTAL rows included */
	bool in_before, in_after;
	uint64_t before[DIFF_VMMAP_SUMMARY_FIELDS], after[DIFF_VMMAP_SUMMARY_FIELDS];
	/* Bit f: the side has field f (the row prints it; a row the table lacks
	 * is known 0 in the columns the table has). An unknown figure is never
	 * taken for 0: writers show '?' and null, gates are not evaluable. */
	unsigned known_before, known_after;
};

/* Is field f of the row known on both sides? */
bool diff_vmmap_summary_known(const struct diff_vmmap_summary_row *r, size_t f);

struct diff_vmmap {
	const struct vmmap_dump *before, *after;
	struct diff_vmmap_row *rows;           /* by type name, then N V E - */
	size_t nrows;
	struct diff_vmmap_bucket *buckets;     /* by type name, then vsize */
	size_t nbuckets;
	struct diff_vmmap_purgeable *purgeable;/* types with purgeable bytes */
	size_t npurgeable;
	bool movement_by_address;              /* else inferred from the totals */
	const char **types;                    /* every type taking part, sorted */
	size_t ntypes;
	bool has_footprint;                    /* both dumps print one */
	bool by_summary;                       /* a dump has no region lines */
	struct diff_vmmap_summary_row *srows;  /* BEFORE's order, then AFTER's new rows */
	size_t nsrows;
	uint64_t footprint_before, footprint_after;
	/* The captures' names (owned; NULL when not given), so that a gate's
	 * reason names the file as well as its side. */
	char *paths[2];
};

/*
 * One side of a vmmap diff: the capture as read (a file may hold several
 * dumps) and the dump compared. The side owns its capture.
 */
struct diff_vmmap_side {
	struct vmmap_capture cap;
	const struct vmmap_dump *dump;
};

void diff_vmmap_side_init(struct diff_vmmap_side *s);
void diff_vmmap_side_release(struct diff_vmmap_side *s);

/*
 * Choose the dump to compare: the first, or --dump N (capture_pick_nth());
 * a note names the dump when the file holds several.
 */
int diff_vmmap_side_pick(struct diff_vmmap_side *s, const char *path,
			 const struct diff_options *opts, struct diag_list *notes,
			 struct diag *err);

/* Both sides read and their diff: what the diff command keeps of a vmmap pair. */
struct diff_vmmap_pair {
	struct diff_vmmap_side before, after;
	struct diff_vmmap diff;
};

void diff_vmmap_pair_init(struct diff_vmmap_pair *p);
void diff_vmmap_pair_release(struct diff_vmmap_pair *p);
/* Pick each side's dump and compare them (both sides read). */
int diff_vmmap_pair_compare(struct diff_vmmap_pair *p, const char *before_path,
			    const char *after_path, const struct diff_options *opts,
			    struct diag_list *notes, struct diag *err);

/* Compare two dumps of two captures (their filters say what they selected). */
void diff_vmmap_compute(struct diff_vmmap *d, const struct vmmap_capture *bcap,
			const struct vmmap_dump *before, const struct vmmap_capture *acap,
			const struct vmmap_dump *after);
void diff_vmmap_release(struct diff_vmmap *d);

/* A row changed when any of its five figures did. */
bool diff_vmmap_row_changed(const struct diff_vmmap_row *r);
bool diff_vmmap_changed(const struct diff_vmmap *d);
bool diff_vmmap_summary_row_changed(const struct diff_vmmap_summary_row *r);

/*
 * Resolve a metric (the part after "vmmap:"). 0 with the figures; -1 with
 * DIAG_USAGE when it is malformed, DIAG_DATA when neither capture has the
 * type; 1 (DIAG_OK, *err says why, naming the capture and the column) when
 * a capture does not have the field: the gate cannot be evaluated.
 */
int diff_vmmap_metric(const struct diff_vmmap *d, const char *metric,
		      int64_t *before, int64_t *after, struct diag *err);
/*
 * The row (type x purge state) among those a metric of region lines
 * selects whose figure of the metric's field grew most, with that field
 * (enum vmmap_metric_field) in *field: what a tripped gate names. NULL
 * when none grew, for summary-only dumps, "footprint" and a malformed metric.
 */
const struct diff_vmmap_row *diff_vmmap_metric_grew_most(const struct diff_vmmap *d,
							 const char *metric, int *field);
/* Is the metric in bytes? Its field's unit in vmmap_fields (model/gpu.h); the
 * footprint is bytes. */
bool diff_vmmap_metric_is_bytes(const char *metric);

/*
 * Warnings when the dumps are hard to compare: another process, OS version,
 * kernel build or page size, or an AFTER dated before BEFORE.
 */
void diff_vmmap_comparability(const struct diff_vmmap *d, const char *before_path,
			      const char *after_path, struct diag_list *warnings);

#endif
