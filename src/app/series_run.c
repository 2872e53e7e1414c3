/*
 * A series' trend over its kinds, and its last sample's facts
 * (app/series_run.h).
 */

#include "app/series_run.h"

#include "app/bundle_inputs.h"
#include "app/parallel.h"
#include "ingest/bundle.h"
#include "model/report.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

int
app_series_run(struct app_series_run *s, const char *const *paths, size_t n, unsigned jobs,
	       struct app_bundles *bs, struct diag_list *notes, struct diag *err)
{
	memset(s, 0, sizeof(*s));
	s->nk = trend_run_bundle_kinds(paths, n, bs, s->kinds, KINDS_MAX);
	if (s->nk == 0)
		s->kinds[s->nk++] = NULL;   /* captures: the first one's kind */
	s->runs = xcalloc(s->nk, sizeof(*s->runs));
	s->reps = xcalloc(s->nk, sizeof(*s->reps));
	for (size_t i = 0; i < s->nk; i++) {
		struct diag e;
		diag_clear(&e);
		if (trend_kind_run(&s->runs[i], paths, n, s->kinds[i],
				   jobs ? jobs : app_parallel_default_jobs(), bs, NULL, NULL, notes,
				   &e) == 0) {
			s->reps[s->ok++] = &s->runs[i].rep;
			continue;
		}
		if (s->nk == 1 || e.code == DIAG_USAGE) {
			*err = e;
			s->ok = 0;
			return -1;
		}
		/* One kind of several that cannot be followed: said, the others reported. */
		diag_list_add(notes, DIAG_WARNING, NULL, 0, "the %s captures are left out of the "
			      "report: %s", s->kinds[i], e.msg);
		*err = e;
	}
	return s->ok ? 0 : -1;   /* every kind failed: the last one's error */
}

void
app_series_run_release(struct app_series_run *s)
{
	for (size_t i = 0; s->runs && i < s->nk; i++)
		trend_kind_run_release(&s->runs[i]);
	free(s->runs);
	free(s->reps);
	memset(s, 0, sizeof(*s));
}

/* The facts of one sample: each capture read as `iotally report` reads it. */
static void
sample_facts(const struct bundle *sample, struct summary_facts *f, struct diag_list *notes)
{
	for (const struct kind *k = kind_first(); k; k = kind_next(k)) {
		const struct bundle_capture *c = bundle_capture_of_kind(sample, k->name);
		if (!c)
			continue;
		struct report r;
		struct diag err;
		report_init(&r, k->name, false);
		if (kind_report_capture(&r, c, notes, &err) < 0)
			diag_list_add(notes, DIAG_WARNING, diag_path(&err), err.line, "%s", err.msg);
		else
			summary_facts_merge(f, &r.facts);
		report_release(&r);
	}
}

void
app_series_last_sample_facts(const struct bundle *series, struct summary_facts *f,
			     struct diag_list *notes)
{
	if (!series->series)
		return;
	/* A last sample cut short (no capture, or none with a cost) says nothing
	 * of the end: the latest sample that has a cost does. */
	for (size_t i = series->nsamples; i-- > 0;) {
		struct summary_facts one;
		summary_facts_init(&one, false);
		sample_facts(&series->samples[i], &one, notes);
		bool found = summary_cost_source(&one) != SUMMARY_SOURCES;
		if (found)
			summary_facts_merge(f, &one);
		summary_facts_release(&one);
		if (found)
			return;
	}
}
