/*
 * `iotally report SERIES`: the page app/series_page.h builds, what reading
 * it said, and the page written (cli/report_series_run.h).
 */

#include "cli/report_series_run.h"

#include "app/series_page.h"
#include "cli/msgs.h"
#include "app/report_write.h"

int
cli_write_series_page(const struct trend_report *const *trends, size_t n,
		      const struct diag_list *notes, const char *const *paths, size_t npaths,
		      bool all, const char *lead, enum output_format format, const char *output,
		      struct diag *err)
{
	struct report r;
	app_series_page_build(&r, trends, n, notes, paths, npaths, all, lead, NULL);
	int rc = app_report_write(output, format, &r, err);
	report_release(&r);
	return rc;
}

int
cli_report_series(const char *const *paths, size_t n, bool all, unsigned jobs,
		  enum output_format format, const char *output, struct diag *err)
{
	struct app_series_page p;
	int rc = app_series_page(&p, paths, n, all, jobs, err);
	cli_print_warnings(&p.notes);
	for (size_t i = 0; p.ran && i < p.run.nk; i++)
		cli_print_warnings(&p.run.runs[i].warnings);
	if (rc == 0)
		rc = app_report_write(output, format, &p.report, err);
	app_series_page_release(&p);
	return rc;
}
