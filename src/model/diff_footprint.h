#ifndef IOTALLY_MODEL_DIFF_FOOTPRINT_H
#define IOTALLY_MODEL_DIFF_FOOTPRINT_H

/*
 * Two footprint processes compared (model/footprint.h): per category and
 * field the figure before and after and their change, and the gate metrics
 * of the kind ("footprint:<Category>.<field>", "footprint:gpu.dirty",
 * "footprint:phys_footprint", ...), and for captures of several processes
 * each process matched and compared on its own (their sums stay the
 * rows of the pair, which the gates read), with the gate metrics of one
 * process ("footprint:process:NAME:gpu.dirty").
 *
 * A figure one side lacks stays unknown: the row has no delta, and a gate
 * on it is not evaluable (never compared against an invented 0). A delta
 * of rounded figures is within the sum of both slacks.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/footprint.h"
#include "util/diag.h"

struct diff_footprint_row {
	const char *category;        /* borrowed from a side; NULL: process-wide */
	const char *metric;          /* process-wide: "phys_footprint", "gpu.dirty", ... */
	enum footprint_field field;  /* for a category */
	struct footprint_figure before, after;
	bool has_delta;              /* both known */
	int64_t delta;               /* after - before */
	uint64_t slack;              /* |true delta - delta| <= slack */
};

/*
 * How a process of one capture of a pair was matched in the other
 * (diff_footprint_compare_processes()): the same name and pid; the same
 * name under another pid (a relaunch: the program, not the pid, is what a
 * user follows); or held by one capture only. A process the capture does
 * not name is matched by its pid alone.
 */
enum diff_footprint_match {
	DIFF_FP_SAME,
	DIFF_FP_RELAUNCHED,
	DIFF_FP_REMOVED,      /* BEFORE only */
	DIFF_FP_ADDED,        /* AFTER only */
};

struct diff_footprint_proc;

struct diff_footprint {
	const struct footprint_process *before, *after;   /* borrowed */
	struct diff_footprint_row *rows;   /* process-wide first, then categories in
					    * BEFORE's order, then those only AFTER has */
	size_t nrows, alloc;
	/* Per process, when a capture holds several (the rows above are then
	 * their sums): BEFORE's processes in its order, then those only AFTER
	 * holds in its order. NULL and 0 for a pair of single processes. */
	struct diff_footprint_proc *procs;
	size_t nprocs;
};

struct diff_footprint_proc {
	enum diff_footprint_match match;
	/* borrowed; the side that does not hold the process is NULL */
	const struct footprint_process *before, *after;
	/* The process's own comparison; its side without the process has no
	 * figure at all (unknown, never 0), so it has no delta. */
	struct diff_footprint diff;
};

/* 0, or -1 with *err (DIAG_DATA) when a slack sum passes 2^63 - 1. */
int diff_footprint_compare(struct diff_footprint *d, const struct footprint_process *before,
			   const struct footprint_process *after, struct diag *err);
void diff_footprint_release(struct diff_footprint *d);

/*
 * The processes of two captures matched (enum diff_footprint_match, in
 * that order of preference: every same name and pid first, then a name
 * left over on both sides pairs in capture order), each pair compared as
 * diff_footprint_compare() does, into d->procs. 0, or -1 with *err as
 * diff_footprint_compare().
 */
int diff_footprint_compare_processes(struct diff_footprint *d,
				     const struct footprint_capture *before,
				     const struct footprint_capture *after, struct diag *err);
/*
 * "render [100]", a relaunch "helper [101 -> 205]": the process as tables
 * name it; caller frees.
 */
char *diff_footprint_proc_label(const struct diff_footprint_proc *p);
/*
 * The process-wide figures in the order a process's rows show them, GPU
 * memory first: gpu.dirty, footprint, phys_footprint, phys_footprint_peak.
 */
extern const char *const diff_footprint_proc_figures[4];
/* The row of a process-wide figure (NULL: none of that name). */
const struct diff_footprint_row *diff_footprint_figure_row(const struct diff_footprint *d,
							   const char *metric);
/*
 * A row's BEFORE, AFTER and DELTA as tables show them: "-" on a side
 * without the process (d->before or d->after NULL), apart from "?" for a
 * figure the capture did not print (model/footprint.h's text rule).
 */
void diff_footprint_cells(const struct diff_footprint *d, const struct diff_footprint_row *r,
			  bool count, char before[64], char after[64], char delta[64]);
/* "same", "relaunched", "removed", "added": the JSON's words. */
const char *diff_footprint_match_name(enum diff_footprint_match m);

/*
 * A gate's two figures for one process: `metric` is
 * "process:NAME:<figure>" (without "footprint:"; split at the last ':'),
 * NAME a process name as footprint prints it or its label "NAME [PID]",
 * <figure> as footprint_metric() takes it. 0 with both as
 * diff_footprint_metric() (*missing names a side without the figure, and
 * *no_process says whether that side holds no such process at all);
 * -1 with *err: DIAG_USAGE for a malformed name or figure,
 * DIAG_DATA when neither capture holds the process or one holds several
 * of that name (the label picks one).
 */
int diff_footprint_process_metric(const struct footprint_capture *before,
				  const struct footprint_capture *after, const char *metric,
				  struct footprint_figure *fb, struct footprint_figure *fa,
				  const char **missing, bool *no_process, struct diag *err);
/* Does `metric` (without "footprint:") name one process's figure? */
bool diff_footprint_metric_is_process(const char *metric);
/*
 * A gate metric in words (the rate report's labels): "phys_footprint" ->
 * "physical footprint", "gpu.dirty" -> "GPU dirty", "IOSurface.dirty" ->
 * "IOSurface dirty". `kind` is unused (rate_label_fn).
 */
void diff_footprint_metric_label(const char *kind, const char *metric, char *out, size_t size);

/*
 * The category row whose figure of a "<Category>.<field>" or "gpu.<field>"
 * metric grew most (a GPU category for the family): what a tripped gate
 * names. NULL when none grew, or for process-wide figures.
 */
const struct diff_footprint_row *diff_footprint_metric_grew_most(const struct diff_footprint *d,
								 const char *metric);
/*
 * A gate's two figures: `metric` without the "footprint:" prefix (names as
 * footprint_metric() takes them). 0 with both (each known or not: a gate
 * on an unknown one is not evaluable, and *missing names the side,
 * "BEFORE" or "AFTER", NULL when both are known); -1 with *err (DIAG_USAGE)
 * for a name no capture can have.
 */
int diff_footprint_metric(const struct diff_footprint *d, const char *metric,
			  struct footprint_figure *before, struct footprint_figure *after,
			  const char **missing, struct diag *err);

#endif
