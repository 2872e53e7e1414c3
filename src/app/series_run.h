#ifndef IOTALLY_APP_SERIES_RUN_H
#define IOTALLY_APP_SERIES_RUN_H

/*
 * A series' trend, every kind its samples hold: what `iotally report
 * SERIES` draws and what `iotally SERIES` summarises, run once here.
 */

#include <stddef.h>

#include "app/kind.h"
#include "app/trend_run.h"

struct app_bundles;

struct app_series_run {
	const char *kinds[KINDS_MAX];
	size_t nk;
	struct trend_kind_run *runs;        /* nk */
	const struct trend_report **reps;   /* the kinds that could be followed */
	size_t ok;
};

/*
 * Run the trend of each kind. 0 when at least one kind could be followed
 * (a kind that cannot is a warning in `notes`, and its error in *err);
 * -1 with *err otherwise, or on a usage error. Each run's own warnings are
 * in runs[i].warnings.
 */
int app_series_run(struct app_series_run *s, const char *const *paths, size_t n,
		   unsigned jobs, struct app_bundles *bs, struct diag_list *notes,
		   struct diag *err);
void app_series_run_release(struct app_series_run *s);

struct bundle;
struct summary_facts;
/*
 * The facts of a series' last sample that has a cost (by the summary's
 * rule, virtual size second), each of its captures read as `iotally
 * report` reads it; a capture that cannot be read is a note. The cost of
 * a series is what the process pays at its end.
 */
void app_series_last_sample_facts(const struct bundle *series, struct summary_facts *f,
				  struct diag_list *notes);

#endif
