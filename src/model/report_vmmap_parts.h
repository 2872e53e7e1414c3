#ifndef IOTALLY_MODEL_REPORT_VMMAP_PARTS_H
#define IOTALLY_MODEL_REPORT_VMMAP_PARTS_H

/*
 * What the report of one vmmap dump (model/report_vmmap.c) and the report
 * of a pair (model/report_vmmap_diff.c) build alike: provenance, purgeable
 * states' labels, log2 size histograms, IOSurfaces. Internal to the two.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/report.h"
#include "model/vmmap.h"

/* The breakdown's order: N, V, E, then not purgeable. */
extern const enum vmmap_purge report_vmmap_purge_order[4];
/* "non-volatile", "volatile", "empty", "not purgeable", by state. */
extern const char *const report_vmmap_purge_names[VMMAP_PURGE_STATES];
/* A stacked chart's series, in report_vmmap_purge_order. */
extern const char *const report_vmmap_purge_series[4];

/* "N non-volatile": a state as a table's cell shows it. */
void report_vmmap_purge_label(enum vmmap_purge p, char out[32]);

const struct vmmap_type_stats *report_vmmap_type_in(const struct vmmap_dump *d,
						    const char *name);

/*
 * Process, OS, capture time, page size and report format of one dump
 * (before NULL) or a pair; the "Physical footprint" header too when
 * `footprint` (a pair that says it elsewhere leaves it out).
 */
void report_vmmap_add_provenance(struct report *r, const struct vmmap_dump *b,
				 const struct vmmap_dump *a, bool footprint);

/* The log2 histograms span at most this many buckets (2^0 to 2^63). */
#define LOG2_BUCKETS 64

struct log2_hist {
	uint64_t count[2][LOG2_BUCKETS];
	uint64_t bytes[2][LOG2_BUCKETS];   /* saturated at UINT64_MAX (never in a real dump) */
	uint64_t purge[LOG2_BUCKETS][VMMAP_PURGE_STATES];
	unsigned lo, hi;       /* occupied bucket range; lo > hi when empty */
};

void report_vmmap_log2_hist_init(struct log2_hist *h);
/* Count type `t`'s regions into side 0 (before) or 1 (after, or the one dump). */
void report_vmmap_hist_add_type(struct log2_hist *h, int side, const struct vmmap_type_stats *t);
/* Type `type`'s histogram table "sizes-<index>" (and its chart where it says something). */
void report_vmmap_add_histogram(struct report_section *s, const char *type, size_t index,
				const struct log2_hist *h, bool pair);

/* The dump's IOSurfaces grouped by dimensions and pixel format (none: no table). */
void report_vmmap_add_surfaces(struct report_section *s, const struct vmmap_dump *d,
			       const char *title);

/* A GPU figure of a summary-only dump: its size into out, or "?" when not printed. */
void report_vmmap_summary_figure(const struct vmmap_dump *d, enum vmmap_metric_field f,
				 char *out, size_t n, uint64_t *v);

#endif
