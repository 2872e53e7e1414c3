/*
 * A rate's parameters, a kind analysed per iteration, and the rate
 * summary of a series of iterations (app/rate_run.h).
 */

#include "app/rate_run.h"

#include "app/kind.h"
#include "app/trend_run.h"
#include "model/rate.h"
#include "report/rate_write.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

void
rate_given_default(struct rate_given *g)
{
	memset(g, 0, sizeof(*g));
	rate_params_default(&g->rp);
}

void
rate_params_given(void *ctx, size_t nsamples, struct trend_params *p)
{
	const struct rate_given *g = ctx;
	rate_trend_params(&g->rp, nsamples, p);
	if (g->t.has_warmup) {
		/* The floor over the window follows the warm-up given. */
		p->warmup = g->t.warmup;
		size_t span = nsamples > p->warmup + 1 ? nsamples - p->warmup - 1 : 1;
		p->min_bytes = g->rp.floor_bytes * (double)span;
		p->min_count = g->rp.floor_count * (double)span;
	}
	if (g->t.has_alpha)
		p->alpha = g->t.alpha;
}

void
rate_kind_run_analyse(struct trend_kind_run *t, const struct rate_params *rp,
		      struct rate_series *rs, struct rate_kind_report *rep)
{
	rate_series_analyse(&t->s, &t->p, rp, rs);
	*rep = (struct rate_kind_report){
		.kind = t->kind, .order_note = t->rep.order_note, .series = &t->s,
		.rates = rs, .params = &t->p, .inputs = t->rep.inputs,
		.ninputs = t->rep.ninputs, .warnings = &t->warnings,
	};
	const struct kind *k = kind_by_name(t->kind);
	if (k) {
		rep->label = k->metric_label;
		rep->count_noun = k->count_noun;
		rep->dirty_shadows = k->dirty_shadows;
	}
}

void
app_rate_summary(const char *const *paths, size_t n, const char *const *kinds, size_t nk,
		 unsigned jobs, struct app_bundles *bs, struct strbuf *out)
{
	struct rate_given given;
	rate_given_default(&given);
	struct trend_kind_run *runs = xcalloc(nk ? nk : 1, sizeof(*runs));
	struct rate_series *rates = xcalloc(nk ? nk : 1, sizeof(*rates));
	struct rate_kind_report *reps = xcalloc(nk ? nk : 1, sizeof(*reps));
	size_t ok = 0;
	for (size_t i = 0; i < nk; i++) {
		struct diag_list notes;
		struct diag err;
		diag_clear(&err);
		diag_list_init(&notes, 1);
		struct trend_kind_run *t = &runs[ok];
		int rc = trend_kind_run(t, paths, n, kinds[i], jobs, bs, rate_params_given, &given,
					&notes, &err);
		diag_list_release(&notes);
		if (rc < 0) {
			trend_kind_run_release(t);
			continue;
		}
		rate_kind_run_analyse(t, &given.rp, &rates[ok], &reps[ok]);
		ok++;
	}
	if (ok) {
		struct rate_report rep = { .kinds = reps, .nkinds = ok, .rparams = &given.rp };
		rate_summary(&rep, out);
	}
	for (size_t i = 0; i < ok; i++) {
		rate_series_release(&rates[i]);
		trend_kind_run_release(&runs[i]);
	}
	free(reps);
	free(rates);
	free(runs);
}
