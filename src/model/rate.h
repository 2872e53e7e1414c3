#ifndef IOTALLY_MODEL_RATE_H
#define IOTALLY_MODEL_RATE_H

/*
 * The change per iteration of each metric of a series whose samples are
 * iterations of one action (open and close a document, reload a level):
 * the Theil-Sen slope against the iteration number with its 95 %
 * interval, and a verdict (docs/rate.md: estimator, interval, references).
 *
 * Nothing is estimated here that trend does not estimate: the series is
 * analysed by trend's model (model/trend.h) on the sample axis, with the
 * same warm-up, correlated-sample correction and Benjamini-Hochberg family,
 * and each metric's trend verdict and interval are read as a rate.
 */

#include <stdbool.h>
#include <stddef.h>

#include "model/trend.h"

/* The JSON document and the NDJSON rows of `iotally rate` (docs/json/rate.md). */
#define RATE_SCHEMA "iotally.rate/1"
#define RATE_NDJSON_SCHEMA "iotally.rate-ndjson/1"

enum rate_verdict {
	RATE_LEAKS,          /* grows by about the same amount every iteration */
	RATE_WARMS_UP,       /* rose over the first iterations (or once), then stopped */
	RATE_UNSURE,         /* cannot tell at this noise: the iterations it needs */
	RATE_NONE,           /* no growth per iteration */
	RATE_VERDICTS,
};

/* "LEAKS PER OPERATION", "WARMS UP THEN STOPS", "UNSURE", "NONE" */
const char *rate_verdict_name(enum rate_verdict v);

/* The least growth per iteration a leak must show (the interval's lower bound above it). */
struct rate_params {
	double floor_bytes;     /* bytes per iteration (default 0) */
	double floor_count;     /* counts per iteration (default 0) */
};

void rate_params_default(struct rate_params *rp);

/*
 * The trend parameters a rate of `nsamples` iterations analyses with:
 * trend's defaults (warm-up included), the growth over the window set to
 * the per-iteration floor times the analysed span (so a leak too small for
 * trend's 1 MiB over the window is still a leak per operation), no
 * percentage of the start level. The caller may set the warm-up after.
 */
void rate_trend_params(const struct rate_params *rp, size_t nsamples, struct trend_params *p);

/* One metric's rate. */
struct rate_row {
	const struct trend_metric *m;   /* name, unit, values; result on the sample axis */
	enum rate_verdict verdict;
	const char *why;                /* one line: what decided the verdict */
	bool has_rate;
	double rate, lo, hi;            /* per iteration; 95 % interval */
	size_t rate_from;               /* the first iteration (1-based) the rate is fitted from:
					 * after the warm-up, or WARMS UP's first flat one */
	size_t more;                    /* UNSURE: iterations more the noise needs; 0 none known */
	size_t warm_until;              /* WARMS UP: the first iteration (1-based) after the rise */
};

/*
 * The rate's reading of a metric's trend result (pure; docs/rate.md §3):
 * LEAK whose interval's lower bound is above the floor: LEAKS; PLATEAU or
 * STEP: WARMS UP; STABLE: NONE; the rest UNSURE with the iterations more
 * the noise needs when it can be said.
 */
void rate_decide(const struct trend_result *r, enum trend_unit unit,
		 const struct trend_params *p, const struct rate_params *rp,
		 struct rate_row *row);

/*
 * WARMS UP: the rate over the flat stretch, from row->warm_until on (not
 * before the warm-up's end), so the figure says what each iteration costs
 * once the cache is full; Theil-Sen with Sen's interval widened for the
 * metric's rho, as the rate after the warm-up is. Left as it is when the
 * stretch has fewer than 3 values.
 */
void rate_flat_tail(const double *v, size_t nsamples, size_t warmup, double rho,
		    struct rate_row *row);

/*
 * One series of values outside a trend_series (the simulation, a gate's
 * summed metric): v[0..nsamples) per iteration, NAN missing.
 */
void rate_analyse_values(const double *v, size_t nsamples, enum trend_unit unit,
			 double resolution, bool leak_exempt, const struct trend_params *p,
			 const struct rate_params *rp, struct trend_result *r,
			 struct rate_row *row);

struct rate_series {
	struct rate_row *rows;          /* changing metrics, in report order */
	size_t nrows;
	size_t unchanged;               /* metrics with the same value every iteration */
	size_t iterations;              /* samples of the series */
	size_t warmup;                  /* iterations left out first */
	size_t count[RATE_VERDICTS];
};

/*
 * Analyse `s` (finished: trend_series_finish()) per iteration: the sample
 * number is the axis whatever the capture times, so `s` is analysed again
 * by trend_series_analyse() without them, and left so (has_times false;
 * its hours are kept). Rows are ranked by rate verdict (LEAKS first), then
 * as trend ranks metrics.
 */
void rate_series_analyse(struct trend_series *s, const struct trend_params *p,
			 const struct rate_params *rp, struct rate_series *out);
void rate_series_release(struct rate_series *r);

/*
 * A metric's words in a label, as its kind says them (a hook of the kind's
 * registry row, app/kind.h): `kind` is the metric kind before the ':' and
 * `metric` what follows it. Into out[size] (size > 0).
 */
typedef void rate_label_fn(const char *kind, const char *metric, char *out, size_t size);

/*
 * A metric's name as the summary says it, without its kind: the words of
 * `label` ("vmmap:IOSurface:N.dirty" -> "IOSurface non-volatile dirty"),
 * the name after its kind when `label` is NULL, the name itself when it
 * has no kind. Into out[size].
 */
void rate_metric_label(const char *name, rate_label_fn *label, char *out, size_t size);

#endif
