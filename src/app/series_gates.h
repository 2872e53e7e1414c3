#ifndef IOTALLY_APP_SERIES_GATES_H
#define IOTALLY_APP_SERIES_GATES_H

/*
 * The gates of a series checked against what it holds: `trend --fail-if`
 * on a kind's analysed series (model/trend_gate.h), `rate --fail-if` on
 * the rates of the kinds followed (model/rate_gate.h). Which metric a gate
 * names, and how a metric the series holds only in parts is summed, is the
 * kind registry's (app/kind.h). Nothing here prints.
 */

#include <stddef.h>

#include "model/rate_gate.h"
#include "model/trend.h"
#include "model/trend_gate.h"
#include "report/rate_write.h"
#include "util/diag.h"

/*
 * Each gate names a metric of `kind` ("vmmap"); else -1 with a DIAG_USAGE
 * *err: a metric kind of another kind, or one no kind has.
 */
int trend_gates_check_kind(const struct trend_gate *gates, size_t n, const char *kind,
			   struct diag *err);

/*
 * Each gate's slope from the series analysed with `p`: the metric it
 * names, or the sum of its parts (the kind's series_sum_part hook: a
 * vmmap type's field without a purge state sums its states). -1 with
 * *err (DIAG_DATA) when no sample holds the metric or the gate cannot be
 * evaluated (model/trend_gate.h).
 */
int trend_gates_resolve(struct trend_gate *gates, size_t n, const struct trend_series *s,
			const struct trend_params *p, struct diag *err);

/*
 * The gates of a kind's trend (app/trend_run.h): checked to name its
 * kind, resolved on its series and given to its report. 0, or -1 with
 * *err as trend_gates_check_kind() and trend_gates_resolve() say.
 */
struct trend_kind_run;
int trend_kind_run_gates(struct trend_kind_run *t, struct trend_gate *gates, size_t n,
			 struct diag *err);

/*
 * Each gate's rate from the kinds followed: the metric's row, or, for a
 * metric with the same value in every iteration, exactly no growth. -1
 * with *err (DIAG_DATA) when no kind holds the metric.
 */
int rate_gates_check(struct rate_gate *gates, size_t n, const struct rate_kind_report *kinds,
		     size_t nk, struct diag *err);

#endif
