/*
 * `trend` and `rate` over the kinds they follow (app/series_follow.h).
 */

#include "app/series_follow.h"

#include "app/parallel.h"
#include "util/diag_write.h"
#include "util/outbuf.h"

int
app_series_follow(const struct series_follow *f, unsigned jobs, const char *const *paths,
		  size_t npaths, const char *const *kinds, size_t nk, struct app_bundles *bs,
		  struct trend_kind_run *runs, size_t *ok, struct diag *err)
{
	int rc = 0;
	*ok = 0;
	for (size_t i = 0; i < nk; i++) {
		struct diag_list notes;
		diag_clear(err);
		diag_list_init(&notes, 200);
		struct trend_kind_run *t = &runs[*ok];
		rc = trend_kind_run(t, paths, npaths, kinds[i],
				    jobs ? jobs : app_parallel_default_jobs(), bs, f->params,
				    f->params_ctx, &notes, err);
		diag_write_list(outbuf_err(), &notes);
		diag_list_release(&notes);
		diag_write_list(outbuf_err(), &t->warnings);
		if (rc == 0)
			rc = f->analyse(f->ctx, t, *ok, err);
		else if (trend_run_kind_left_out(nk, i, *ok, err))
			rc = 1;
		if (rc == 1)
			diag_write_msg(outbuf_err(), DIAG_WARNING, NULL, 0,
				       "the %s captures are not followed: %s", kinds[i], err->msg);
		if (rc == 0)
			(*ok)++;
		else
			trend_kind_run_release(t);
		if (rc < 0)
			return -1;
	}
	if (*ok == 0)
		return diag_set(err, DIAG_DATA, NULL, 0, 0, "%s", f->none);
	return 0;
}
