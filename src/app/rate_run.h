#ifndef IOTALLY_APP_RATE_RUN_H
#define IOTALLY_APP_RATE_RUN_H

/*
 * The rate summary of a series of iterations for another command's page
 * (`iotally report` of a `capture --repeat` series leads with it): each
 * kind read again through trend's steps (app/trend_run.h) with rate's
 * defaults, analysed per iteration (model/rate.h), and summed up in one
 * line (report/rate_write.h). Nothing here prints.
 */

#include <stddef.h>

#include "util/strbuf.h"

struct app_bundles;

/*
 * The summary line into `out` (kinds[0..nk): the kinds to follow, NULL:
 * the first input's); nothing when no kind has 3 usable iterations. The
 * inputs' warnings were the caller's to say: they are not said again.
 */
void app_rate_summary(const char *const *paths, size_t n, const char *const *kinds, size_t nk,
		      unsigned jobs, struct app_bundles *bs, struct strbuf *out);

#endif
