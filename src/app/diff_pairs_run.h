#ifndef IOTALLY_APP_DIFF_PAIRS_RUN_H
#define IOTALLY_APP_DIFF_PAIRS_RUN_H

/*
 * The pairs of a diff run (app/diff_run.h) compared and written in pair
 * order, up to `jobs` at once (app/parallel.h), printing exactly what one
 * at a time prints. Each pair's turn: its inputs' notes and comparability
 * warnings on standard error, its report on the output; a pair that fails
 * is kept in its result (the run keeps the first error's status), given
 * its row in NDJSON, and said through the run's say.diag, as a usage
 * error when the run compares two files. What a -j worker prints is kept
 * in its pair's buffer (util/outbuf.h) and written in the pair's turn.
 */

#include <stdbool.h>
#include <stdio.h>

#include "app/diff_run.h"

/* Where and how the pairs' reports are written. */
struct diff_pairs_output {
	FILE *out;                      /* standard output, or a held body */
	struct diff_write_opts write;   /* the reports' format */
	/* false: no report and no error row is written (`--junit -`: standard
	 * output carries the JUnit XML only); the pairs are still compared. */
	bool reports;
	unsigned jobs;                  /* pairs compared at once; 0: one per processor */
};

/*
 * Start the run's pairs (diff_run_start_pairs()) and compare and write
 * each in turn. 0; or DIAG_IOERR when `out` could not be written, after
 * which no more pairs are compared (their results left empty, at any -j).
 */
int diff_run_pairs(struct diff_run *run, const struct diff_pairs_output *o);

#endif
