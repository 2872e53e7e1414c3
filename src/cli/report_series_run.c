/*
 * `iotally report SERIES`: each kind of the series through trend's model,
 * then one page (cli/report_series_run.h).
 */

#include "cli/report_series_run.h"

#include "app/bundle_inputs.h"
#include "app/kind.h"
#include "app/parallel.h"
#include "app/rate_run.h"
#include "app/report_series.h"
#include "app/series_run.h"
#include "app/trend_run.h"
#include "cli/msgs.h"
#include "cli/report_out.h"
#include "ingest/bundle.h"
#include "iotally-config.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static void
add_warnings(struct report *r, const struct diag_list *w)
{
	for (size_t i = 0; w && i < w->len; i++) {
		const char *path = diag_list_path(w, i), *msg = diag_list_msg(w, i);
		if (path)
			report_add_warning(r, "%s: %s", diag_display_path(path), msg);
		else
			report_add_warning(r, "%s", msg);
	}
	if (w && w->dropped)
		report_add_warning(r, "%" PRIu64 " more warnings not shown", w->dropped);
}

/* The page, with `more` (a series' last sample: its cost) added to the summary's facts. */
static int
write_page(const struct trend_report *const *trends, size_t n, const struct diag_list *notes,
	   const char *const *paths, size_t npaths, bool all, const char *lead,
	   const struct summary_facts *more, enum output_format format, const char *output,
	   struct diag *err)
{
	struct report r;
	report_init(&r, "series", false);
	r.all = all;
	if (lead && *lead)
		report_add_verdict(&r, "%s", lead);
	report_series_build(&r, trends, n);
	/* A series of iterations is answered by its rate per iteration: the
	 * summary block's verdict says it, not the time-based trend's. */
	if (lead && *lead)
		summary_note_verdict(&r.facts, lead);
	if (more)
		summary_facts_merge(&r.facts, more);
	for (size_t i = 0; i < n; i++)
		add_warnings(&r, trends[i]->warnings);
	add_warnings(&r, notes);
	if (npaths == 1)
		report_add_provenance(&r, "Input", "%s", diag_display_path(paths[0]));
	else if (npaths == 2)
		report_add_provenance(&r, "Inputs", "%s, %s", diag_display_path(paths[0]),
				      diag_display_path(paths[1]));
	else
		report_add_provenance(&r, "Inputs", "%s, %s and %zu more",
				      diag_display_path(paths[0]), diag_display_path(paths[1]),
				      npaths - 2);
	report_add_provenance(&r, "iotally", "%s", IOTALLY_VERSION);
	int rc = cli_write_report(output, format, &r, err);
	report_release(&r);
	return rc;
}

int
cli_write_series_page(const struct trend_report *const *trends, size_t n,
		      const struct diag_list *notes, const char *const *paths, size_t npaths,
		      bool all, const char *lead, enum output_format format, const char *output,
		      struct diag *err)
{
	return write_page(trends, n, notes, paths, npaths, all, lead, NULL, format, output, err);
}

int
cli_report_series(const char *const *paths, size_t n, bool all, unsigned jobs,
		  enum output_format format, const char *output, struct diag *err)
{
	struct app_bundles bs;
	struct diag_list notes;
	app_bundles_init(&bs);
	diag_list_init(&notes, 200);
	/* The bundle operands opened (read once: app_series_run() finds them in bs). */
	const char *kinds[KINDS_MAX];
	trend_run_bundle_kinds(paths, n, &bs, kinds, KINDS_MAX);
	if (n == 1 && bs.n == 1 && bs.v[0]->series && bs.v[0]->nsamples < 3) {
		const struct bundle *b = bs.v[0];
		if (b->nsamples == 2)
			diag_set(err, DIAG_DATA, paths[0], 0, 0, "is a series of 2 samples: a report "
				 "over time needs at least 3; 'iotally diff %s %s' compares the two",
				 b->samples[0].path, b->samples[1].path);
		else
			diag_set(err, DIAG_DATA, paths[0], 0, 0, "is a series of %zu sample%s: a "
				 "report over time needs at least 3", b->nsamples,
				 b->nsamples == 1 ? "" : "s");
		diag_list_release(&notes);
		app_bundles_release(&bs);
		return -1;
	}
	struct app_series_run run;
	int rc = app_series_run(&run, paths, n, jobs, &bs, &notes, err);
	cli_print_warnings(&notes);
	for (size_t i = 0; i < run.nk; i++)
		cli_print_warnings(&run.runs[i].warnings);
	if (rc == 0) {
		/* A series of iterations (capture --repeat) leads with its rate per iteration. */
		struct strbuf lead = STRBUF_INIT;
		struct summary_facts last;
		struct diag_list lnotes;
		summary_facts_init(&last, false);
		diag_list_init(&lnotes, 20);
		if (bs.n == 1 && bs.v[0]->repeat)
			app_rate_summary(paths, n, run.kinds, run.nk,
					 jobs ? jobs : app_parallel_default_jobs(), &bs, &lead);
		/* One series: its cost is its last sample's (the summary's rule). */
		if (n == 1 && bs.n == 1 && bs.v[0]->series)
			app_series_last_sample_facts(bs.v[0], &last, &lnotes);
		rc = write_page(run.reps, run.ok, &notes, paths, n, all, lead.buf, &last, format,
				output, err);
		summary_facts_release(&last);
		diag_list_release(&lnotes);
		strbuf_release(&lead);
	}
	app_series_run_release(&run);
	diag_list_release(&notes);
	app_bundles_release(&bs);
	return rc;
}
