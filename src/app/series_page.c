/*
 * `iotally report SERIES`: each kind of the series through trend's model,
 * then one page (app/series_page.h).
 */

#include "app/series_page.h"

#include "app/kind.h"
#include "app/parallel.h"
#include "app/rate_run.h"
#include "app/report_series.h"
#include "app/trend_run.h"
#include "ingest/bundle.h"
#include "iotally-config.h"
#include "util/strbuf.h"

#include <inttypes.h>
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

void
app_series_page_build(struct report *r, const struct trend_report *const *trends, size_t n,
		      const struct diag_list *notes, const char *const *paths, size_t npaths,
		      bool all, const char *lead, const struct summary_facts *more)
{
	report_init(r, "series", false);
	r->all = all;
	if (lead && *lead)
		report_add_verdict(r, "%s", lead);
	report_series_build(r, trends, n);
	/* A series of iterations is answered by its rate per iteration: the
	 * summary block's verdict says it, not the time-based trend's. */
	if (lead && *lead)
		summary_note_verdict(&r->facts, lead);
	if (more)
		summary_facts_merge(&r->facts, more);
	for (size_t i = 0; i < n; i++)
		add_warnings(r, trends[i]->warnings);
	add_warnings(r, notes);
	if (npaths == 1)
		report_add_provenance(r, "Input", "%s", diag_display_path(paths[0]));
	else if (npaths == 2)
		report_add_provenance(r, "Inputs", "%s, %s", diag_display_path(paths[0]),
				      diag_display_path(paths[1]));
	else
		report_add_provenance(r, "Inputs", "%s, %s and %zu more",
				      diag_display_path(paths[0]), diag_display_path(paths[1]),
				      npaths - 2);
	report_add_provenance(r, "iotally", "%s", IOTALLY_VERSION);
}

/* One series operand of fewer than 3 samples: -1 with the error that says so; else 0. */
static int
long_enough(const char *const *paths, size_t n, const struct app_bundles *bs, struct diag *err)
{
	if (n != 1 || bs->n != 1 || !bs->v[0]->series || bs->v[0]->nsamples >= 3)
		return 0;
	const struct bundle *b = bs->v[0];
	if (b->nsamples == 2)
		return diag_set(err, DIAG_DATA, paths[0], 0, 0, "is a series of 2 samples: a "
				"report over time needs at least 3; 'iotally diff %s %s' compares "
				"the two", b->samples[0].path, b->samples[1].path);
	return diag_set(err, DIAG_DATA, paths[0], 0, 0, "is a series of %zu sample%s: a report "
			"over time needs at least 3", b->nsamples, b->nsamples == 1 ? "" : "s");
}

int
app_series_page(struct app_series_page *p, const char *const *paths, size_t n, bool all,
		unsigned jobs, struct diag *err)
{
	memset(p, 0, sizeof(*p));
	app_bundles_init(&p->bundles);
	diag_list_init(&p->notes, 200);
	/* The bundle operands opened (read once: app_series_run() finds them in bundles). */
	const char *kinds[KINDS_MAX];
	struct app_bundles *bs = &p->bundles;
	trend_run_bundle_kinds(paths, n, bs, kinds, KINDS_MAX);
	if (long_enough(paths, n, bs, err) < 0)
		return -1;
	p->ran = true;
	if (app_series_run(&p->run, paths, n, jobs, bs, &p->notes, err) < 0)
		return -1;
	/* A series of iterations (capture --repeat) leads with its rate per iteration. */
	struct strbuf lead = STRBUF_INIT;
	struct summary_facts last;
	struct diag_list lnotes;
	summary_facts_init(&last, false);
	diag_list_init(&lnotes, 20);
	if (bs->n == 1 && bs->v[0]->repeat)
		app_rate_summary(paths, n, p->run.kinds, p->run.nk,
				 jobs ? jobs : app_parallel_default_jobs(), bs, &lead);
	/* One series: its cost is its last sample's (the summary's rule). */
	if (n == 1 && bs->n == 1 && bs->v[0]->series)
		app_series_last_sample_facts(bs->v[0], &last, &lnotes);
	app_series_page_build(&p->report, p->run.reps, p->run.ok, &p->notes, paths, n, all,
			      lead.buf, &last);
	p->built = true;
	summary_facts_release(&last);
	diag_list_release(&lnotes);
	strbuf_release(&lead);
	return 0;
}

void
app_series_page_release(struct app_series_page *p)
{
	if (p->built)
		report_release(&p->report);
	if (p->ran)
		app_series_run_release(&p->run);
	diag_list_release(&p->notes);
	app_bundles_release(&p->bundles);
}
