#ifndef IOTALLY_REPORT_SERIES_JSON_WRITE_H
#define IOTALLY_REPORT_SERIES_JSON_WRITE_H

/*
 * The JSON both series reports are made of (`iotally trend`,
 * iotally.trend/2, report/trend_json_write.c; `iotally rate`,
 * iotally.rate/1, report/rate_json_write.c): figures, the inputs list,
 * the warnings, a gate's expression and metric, and the document written
 * out. What differs between the two is a parameter: the name of a
 * sample's number ("sample", "iteration"), whether capture times are
 * listed.
 */

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "model/diff.h"
#include "model/trend.h"
#include "report/trend_report.h"
#include "util/diag.h"

/* A number: an exact integer when it is one (below 2^53), null when none. */
json_t *series_json_num(double v);

/*
 * rows[0..n) (used in sample order, then those left out): path, the
 * 1-based sample number under `number_key`, with `timed` (the series
 * whose hours are listed) its capture time and hours, then its status
 * ("used", "warm-up" below `warmup`, "left-out") and why it was left out.
 */
json_t *series_json_inputs(const struct trend_input_row *rows, size_t n, const char *number_key,
			   const struct trend_series *timed, size_t warmup);

/* The messages of `w` (NULL: none), as text. */
json_t *series_json_warnings(const struct diag_list *w);

/* A gate's object begun: its expression as given and its metric's name. */
json_t *series_json_gate(const struct diff_gate *g, const char *name);

/* `root` written indented, keys in order, then a newline; freed. 0, or -1. */
int series_json_dump(FILE *out, json_t *root);

#endif
