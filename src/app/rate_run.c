/*
 * The rate summary of a series of iterations (app/rate_run.h).
 */

#include "app/rate_run.h"

#include "app/trend_run.h"
#include "model/rate.h"
#include "report/rate_write.h"
#include "util/xalloc.h"

#include <stdlib.h>

/* trend_params_fn: rate's defaults for the iteration count. */
static void
rate_defaults(void *ctx, size_t nsamples, struct trend_params *p)
{
	rate_trend_params(ctx, nsamples, p);
}

void
app_rate_summary(const char *const *paths, size_t n, const char *const *kinds, size_t nk,
		 unsigned jobs, struct app_bundles *bs, struct strbuf *out)
{
	struct rate_params rp;
	rate_params_default(&rp);
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
		int rc = trend_kind_run(t, paths, n, kinds[i], jobs, bs, rate_defaults, &rp, &notes,
					&err);
		diag_list_release(&notes);
		if (rc < 0) {
			trend_kind_run_release(t);
			continue;
		}
		rate_series_analyse(&t->s, &t->p, &rp, &rates[ok]);
		reps[ok] = (struct rate_kind_report){
			.kind = t->kind, .order_note = t->rep.order_note, .series = &t->s,
			.rates = &rates[ok], .params = &t->p, .inputs = t->rep.inputs,
			.ninputs = t->rep.ninputs, .warnings = &t->warnings,
		};
		ok++;
	}
	if (ok) {
		struct rate_report rep = { .kinds = reps, .nkinds = ok, .rparams = &rp };
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
