#ifndef IOTALLY_APP_RATE_RUN_H
#define IOTALLY_APP_RATE_RUN_H

/*
 * A rate's run: rate's parameters from what the command line gave, each
 * kind's trend (app/trend_run.h) analysed per iteration (model/rate.h)
 * into the report's view (report/rate_write.h), and the rate summary of
 * a series of iterations for another command's page (`iotally report` of
 * a `capture --repeat` series leads with it), each kind read again with
 * rate's defaults. Nothing here prints.
 */

#include <stddef.h>

#include "app/trend_run.h"
#include "model/rate.h"
#include "report/rate_write.h"
#include "util/strbuf.h"

struct app_bundles;

/* What a command line set of a rate's analysis; unset: rate's defaults. */
struct rate_given {
	struct rate_params rp;       /* --min-rate, --min-count */
	struct trend_given t;        /* --warmup, --alpha (the rest of it is not a rate's) */
};

void rate_given_default(struct rate_given *g);

/*
 * trend_params_fn of `rate` (ctx: a struct rate_given): rate's parameters
 * for the iteration count (rate_trend_params()), then the warm-up given,
 * which the floor over the analysed window follows, and alpha.
 */
void rate_params_given(void *ctx, size_t nsamples, struct trend_params *p);

/*
 * One kind's trend (trend_kind_run()) analysed per iteration into *rs,
 * and the rate report's view of both into *rep (valid while both are).
 */
void rate_kind_run_analyse(struct trend_kind_run *t, const struct rate_params *rp,
			   struct rate_series *rs, struct rate_kind_report *rep);

/*
 * The summary line into `out` (kinds[0..nk): the kinds to follow, NULL:
 * the first input's); nothing when no kind has 3 usable iterations. The
 * inputs' warnings were the caller's to say: they are not said again.
 */
void app_rate_summary(const char *const *paths, size_t n, const char *const *kinds, size_t nk,
		      unsigned jobs, struct app_bundles *bs, struct strbuf *out);

#endif
