#ifndef IOTALLY_APP_SERIES_PAGE_H
#define IOTALLY_APP_SERIES_PAGE_H

/*
 * `iotally report SERIES` (a series folder or archive, three or more
 * captures, or a list of bundles): every kind the series holds followed by
 * trend's model (app/series_run.h), built into one page
 * (app/report_series.h) that cli/ writes in Markdown or HTML. `iotally
 * trend --format html` and `rate --format html` build their analysed
 * trends into the same page.
 */

#include <stdbool.h>
#include <stddef.h>

#include "app/bundle_inputs.h"
#include "app/series_run.h"
#include "model/report.h"
#include "report/trend_report.h"
#include "util/diag.h"

/*
 * The page of already analysed trends (one per kind), with `notes` (NULL
 * or warnings) among its warnings and the inputs in its provenance.
 * `lead` (NULL or "": none) is the headline's first part: the rate summary
 * of a series of iterations; `more` (NULL: none) is added to the summary's
 * facts. The caller releases *r.
 */
void app_series_page_build(struct report *r, const struct trend_report *const *trends, size_t n,
			   const struct diag_list *notes, const char *const *paths,
			   size_t npaths, bool all, const char *lead,
			   const struct summary_facts *more);

/* The series' page and what reading it said. */
struct app_series_page {
	struct report report;       /* built when app_series_page() returned 0 */
	bool built;
	struct app_bundles bundles;
	struct diag_list notes;     /* the bundles' warnings, the inputs left out */
	struct app_series_run run;  /* each kind's run: run.runs[i].warnings */
	bool ran;
};

/*
 * The page of operands paths[0..n) as a series, `jobs` samples read at once
 * (-j; 0: one per processor): the page and what is said are the same for
 * every `jobs`. 0; -1 with *err (one series of fewer than 3 samples, no
 * kind that can be followed). What to say is in p->notes and each run's
 * warnings either way; the caller releases *p.
 */
int app_series_page(struct app_series_page *p, const char *const *paths, size_t n, bool all,
		    unsigned jobs, struct diag *err);
void app_series_page_release(struct app_series_page *p);

#endif
