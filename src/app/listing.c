/*
 * The facts the listings lead with (app/listing.h).
 */

#include "app/listing.h"

#include "app/bundle_inputs.h"
#include "app/rate_run.h"
#include "app/report_bundles.h"
#include "app/report_series.h"
#include "app/series_run.h"
#include "app/session.h"
#include "ingest/bundle.h"
#include "model/report_session.h"
#include "report/bundle_listing_write.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

void
app_bundle_listing_read(const struct bundle *b, struct app_bundle_listing *l)
{
	size_t kinds = 0;
	for (const struct kind *k = kind_first(); k; k = kind_next(k))
		kinds++;
	memset(l, 0, sizeof(*l));
	l->caps = xcalloc(kinds + 1, sizeof(*l->caps));
	for (const struct kind *k = kind_first(); k; k = kind_next(k)) {
		const struct bundle_capture *c = bundle_capture_of_kind(b, k->name);
		if (!c)
			continue;
		struct app_listing_capture *x = &l->caps[l->n++];
		x->k = k;
		x->c = c;
		report_init(&x->r, k->name, false);
		diag_list_init(&x->notes, 50);
		diag_clear(&x->err);
		x->read = kind_report_capture(&x->r, c, &x->notes, &x->err) >= 0;
		if (!x->read && !l->status)
			l->status = x->err.code ? x->err.code : DIAG_SOFTWARE;
	}
}

void
app_bundle_listing_facts(const struct app_bundle_listing *l, struct summary_facts *f)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->caps[i].read)
			summary_facts_merge(f, &l->caps[i].r.facts);
}

void
app_bundle_listing_release(struct app_bundle_listing *l)
{
	for (size_t i = 0; i < l->n; i++) {
		report_release(&l->caps[i].r);
		diag_list_release(&l->caps[i].notes);
	}
	free(l->caps);
	memset(l, 0, sizeof(*l));
}

void
app_listing_bundle_view(const struct bundle *b, struct listing_bundle *v)
{
	memset(v, 0, sizeof(*v));
	v->path = b->path;
	v->complete = b->complete;
	v->target_name = b->target_name;
	v->started_utc = b->started_utc;
	v->captures = xcalloc(b->ncaptures + 1, sizeof(*v->captures));
	v->missed = xcalloc(b->nmissed + 1, sizeof(*v->missed));
	for (size_t i = 0; i < b->ncaptures; i++)
		v->captures[v->ncaptures++] = (struct listing_step){
			b->captures[i].kind, b->captures[i].member, b->captures[i].step, NULL };
	for (size_t i = 0; i < b->nmissed; i++)
		v->missed[v->nmissed++] = (struct listing_step){
			b->missed[i].kind, b->missed[i].step, b->missed[i].status,
			b->missed[i].reason };
}

void
app_listing_bundle_view_release(struct listing_bundle *v)
{
	free(v->captures);
	free(v->missed);
	memset(v, 0, sizeof(*v));
}

int
app_session_summary(const struct session_index *si, const struct session_growth *g,
		    struct summary_facts *f, struct diag_list *notes, struct diag *err)
{
	struct report r;
	int rc = 0;
	report_init(&r, "bundle", true);
	report_add_session_growth(&r, g);
	if (si->before && si->after) {
		struct report_bundles rb;
		rc = report_bundles_open(&rb, si->before, si->after, err);
		if (rc == 0)
			rc = report_bundles_build(&rb, &r, NULL, 0, notes, notes, err);
		report_bundles_release(&rb);
	}
	summary_facts_merge(f, &r.facts);
	f->pair = r.facts.pair;
	report_release(&r);
	return rc;
}

int
app_series_summary(const struct bundle *series, unsigned jobs, struct summary_facts *f,
		   struct diag_list *notes, struct diag *err)
{
	struct app_bundles bs;
	struct app_series_run s;
	const char *path = series->path;
	app_bundles_init(&bs);
	int rc = app_series_run(&s, &path, 1, jobs, &bs, notes, err);
	if (rc == 0) {
		struct report r;
		report_init(&r, "series", false);
		report_series_build(&r, s.reps, s.ok);
		/* A series of iterations is answered by its rate per iteration, as its page is. */
		struct strbuf lead = STRBUF_INIT;
		if (series->repeat)
			app_rate_summary(&path, 1, s.kinds, s.nk, jobs, &bs, &lead);
		if (lead.len)
			summary_note_verdict(f, lead.buf);
		else if (r.facts.verdict)
			summary_note_verdict(f, r.facts.verdict);
		strbuf_release(&lead);
		report_release(&r);
	}
	app_series_last_sample_facts(series, f, notes);
	app_series_run_release(&s);
	app_bundles_release(&bs);
	return rc;
}

void
app_series_listing_facts(const struct bundle *series, struct summary_facts *f,
			 struct diag_list *notes)
{
	struct diag err;
	if (series->nsamples < 3)
		app_series_last_sample_facts(series, f, notes);
	else if (app_series_summary(series, 0, f, notes, &err) < 0)
		diag_list_add(notes, DIAG_WARNING, diag_path(&err), err.line, "%s", err.msg);
}

void
app_session_listing_facts(const struct session_index *si, const struct session_growth *g,
			  struct summary_facts *f, struct diag_list *notes)
{
	struct diag err;
	struct session_growth none;
	session_growth_init(&none);
	if (app_session_summary(si, g ? g : &none, f, notes, &err) < 0 && si->before && si->after)
		diag_list_add(notes, DIAG_WARNING, diag_path(&err), err.line, "%s", err.msg);
	session_growth_release(&none);
}
