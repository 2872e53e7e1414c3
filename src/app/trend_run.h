#ifndef IOTALLY_APP_TREND_RUN_H
#define IOTALLY_APP_TREND_RUN_H

/*
 * The steps of a trend that `iotally trend` and `iotally report SERIES`
 * share: read every input of one kind into a series, check that enough
 * are usable, put the samples in capture-time order (or argument order),
 * and list the inputs for the report. Nothing here prints: warnings go to
 * a diag_list, errors to a struct diag.
 */

#include <stdbool.h>
#include <stddef.h>

#include "app/trend_inputs.h"
#include "model/trend.h"
#include "report/trend_report.h"
#include "util/diag.h"

/* The order of the samples. */
struct trend_order {
	size_t *perm;          /* sample order -> index in the inputs */
	double *hours;         /* per sample, NULL without times */
	bool by_time;
	char note[160];        /* how the order was chosen */
	double span;           /* hours from the first sample to the last; NAN unknown */
};

/*
 * Read every input; *kind is `forced` (--kind) or the first input's. -1
 * with *err (DIAG_DATA) when an input is of another kind.
 */
int trend_run_read(struct trend_input *in, size_t n, const char *forced,
		   struct trend_series *s, const char **kind, struct diag_list *notes,
		   struct diag *err);

/* Left-out inputs as warnings; -1 with *err when fewer than 3 are usable. */
int trend_run_check_usable(const struct trend_input *in, size_t n, struct diag_list *w,
			   struct diag *err);

/*
 * Order the samples (capture times when every one has one), put the series
 * in that order and finish it (absent values filled, unchanged marked).
 * Equal or decreasing times are warnings.
 */
void trend_run_order(const struct trend_input *in, size_t n, struct trend_series *s,
		     struct trend_order *o, struct diag_list *w);
void trend_order_release(struct trend_order *o);

/* rows[0..n): the used inputs in sample order, then those left out. */
void trend_run_rows(const struct trend_input *in, size_t n, const struct trend_order *o,
		    size_t used, struct trend_input_row *rows);

#endif
