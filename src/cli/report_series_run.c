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

int
cli_write_series_page(const struct trend_report *const *trends, size_t n,
		      const struct diag_list *notes, const char *const *paths, size_t npaths,
		      bool all, const char *lead, enum output_format format, const char *output,
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
cli_report_series(const char *const *paths, size_t n, bool all, unsigned jobs,
		  enum output_format format, const char *output, struct diag *err)
{
	struct app_bundles bs;
	struct diag_list notes;
	const char *kinds[KINDS_MAX];
	app_bundles_init(&bs);
	diag_list_init(&notes, 200);
	size_t nk = trend_run_bundle_kinds(paths, n, &bs, kinds, KINDS_MAX);
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
	if (nk == 0)
		kinds[nk++] = NULL;   /* captures: the first one's kind */
	struct trend_kind_run *runs = xcalloc(nk, sizeof(*runs));
	const struct trend_report **reps = xcalloc(nk, sizeof(*reps));
	size_t ok = 0;
	int rc = 0;
	for (size_t i = 0; i < nk; i++) {
		struct diag e;
		diag_clear(&e);
		if (trend_kind_run(&runs[i], paths, n, kinds[i], jobs ? jobs : app_parallel_default_jobs(),
				   &bs, NULL, NULL, &notes, &e) == 0) {
			reps[ok++] = &runs[i].rep;
			continue;
		}
		if (nk == 1 || e.code == DIAG_USAGE) {
			*err = e;
			rc = -1;
			break;
		}
		/* One kind of several that cannot be followed: said, the others reported. */
		diag_list_add(&notes, DIAG_WARNING, NULL, 0, "the %s captures are left out of the "
			      "report: %s", kinds[i], e.msg);
		*err = e;
	}
	cli_print_warnings(&notes);
	for (size_t i = 0; i < nk; i++)
		cli_print_warnings(&runs[i].warnings);
	if (rc == 0 && ok == 0)
		rc = -1;   /* every kind failed: the last one's error */
	if (rc == 0) {
		/* A series of iterations (capture --repeat) leads with its rate per iteration. */
		struct strbuf lead = STRBUF_INIT;
		if (bs.n == 1 && bs.v[0]->repeat)
			app_rate_summary(paths, n, kinds, nk, jobs ? jobs : app_parallel_default_jobs(),
					 &bs, &lead);
		rc = cli_write_series_page(reps, ok, &notes, paths, n, all, lead.buf, format, output,
					   err);
		strbuf_release(&lead);
	}
	for (size_t i = 0; i < nk; i++)
		trend_kind_run_release(&runs[i]);
	free(runs);
	free(reps);
	diag_list_release(&notes);
	app_bundles_release(&bs);
	return rc;
}
