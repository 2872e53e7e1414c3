#ifndef IOTALLY_APP_SERIES_FOLLOW_H
#define IOTALLY_APP_SERIES_FOLLOW_H

/*
 * The loop `trend` and `rate` run over the kinds they follow
 * (app/trend_run.h): each kind read through trend_kind_run(), what its
 * reading warned of said (on util/outbuf.h's standard error, in order), a
 * kind that cannot be followed left out with a warning or the end of the
 * command (trend_run_kind_left_out()), and the command's `analyse` run on
 * each followed.
 */

#include <stddef.h>

#include "app/bundle_inputs.h"
#include "app/trend_run.h"
#include "util/diag.h"

struct series_follow {
	const char *command;        /* "trend": its usage errors, said by cli/ */
	const char *none;           /* the error when no kind is followed */
	trend_params_fn params;
	void *params_ctx;
	/* After a kind is read (the `ok`th followed): 0, or -1 with *err, which ends the command. */
	int (*analyse)(void *ctx, struct trend_kind_run *t, size_t ok, struct diag *err);
	void *ctx;
};

/*
 * Each of kinds[0..nk) followed over paths[0..npaths), `jobs` samples read
 * at once (0: one per processor), into runs[0..*ok). 0; -1 with *err, the
 * error that ends the command (not said). The caller releases runs[0..*ok).
 */
int app_series_follow(const struct series_follow *f, unsigned jobs, const char *const *paths,
		      size_t npaths, const char *const *kinds, size_t nk, struct app_bundles *bs,
		      struct trend_kind_run *runs, size_t *ok, struct diag *err);

#endif
