#ifndef IOTALLY_APP_REPORT_SERIES_H
#define IOTALLY_APP_REPORT_SERIES_H

/*
 * The report of a series (`iotally report SERIES`, `iotally trend --format
 * html|markdown` through the report writers): one document (model/report.h)
 * built from the trends already analysed, one per kind the series holds.
 * The verdicts, their reasons and their ranking are trend's
 * (model/trend.h: trend_series_ranked()); nothing here decides a verdict.
 *
 * The page: a headline of the verdicts that matter (LEAK, GROWING,
 * PLATEAU, STEP: how many, the first metric of each with its figures), then
 * per kind a table of the metrics that changed, ranked, each with a
 * timeline chart (its samples, the fitted slope over the analysed window,
 * its verdict as a badge) and a sparkline; the metrics the same in every
 * sample counted and folded; then the samples, used and left out with why.
 */

#include <stddef.h>

#include "model/report.h"
#include "report/trend_report.h"

/* Timelines drawn in one page (the table lists every metric). */
#define REPORT_SERIES_TIMELINES_MAX 40

/* `trends[0..n)`: one analysed trend per kind, in the registry's kind order. */
void report_series_build(struct report *r, const struct trend_report *const *trends, size_t n);

#endif
