#ifndef IOTALLY_CLI_REPORT_SERIES_RUN_H
#define IOTALLY_CLI_REPORT_SERIES_RUN_H

/*
 * `iotally report SERIES`: the page of the series (app/series_page.h)
 * written in Markdown or HTML. `iotally trend --format html` writes its
 * analysed trend through the same page.
 */

#include <stdbool.h>
#include <stddef.h>

#include "cli/formats.h"
#include "model/report.h"
#include "report/trend_report.h"
#include "util/diag.h"

/*
 * The report of operands paths[0..n) as a series: 0, or -1 with *err.
 * Said on standard error: the bundles' warnings, the inputs left out, a
 * kind of a several-kind series that could not be followed (fewer than 3
 * usable samples of it). `jobs` samples are read at once (-j; 0: one per
 * processor): the page and what is said are the same for every `jobs`.
 */
int cli_report_series(const char *const *paths, size_t n, bool all, unsigned jobs,
		      enum output_format format, const char *output, struct diag *err);

/*
 * The page of already analysed trends (one per kind), with `notes` (NULL
 * or warnings) among its warnings: Markdown or HTML into `output` (NULL:
 * standard output). `lead` (NULL: none) is the headline's first part: the
 * rate summary of a series of iterations. 0, or -1 with *err.
 */
int cli_write_series_page(const struct trend_report *const *trends, size_t n,
			  const struct diag_list *notes, const char *const *paths, size_t npaths,
			  bool all, const char *lead,
			  enum output_format format, const char *output, struct diag *err);

#endif
