#ifndef IOTALLY_MODEL_TREND_H
#define IOTALLY_MODEL_TREND_H

/*
 * A series of captures of one kind, as one value per metric per sample,
 * and the verdict on each metric (docs/trend.md: method and references).
 *
 * Samples are added in any order and put in their final order with
 * trend_series_reorder(); a metric's values follow its samples. A value
 * not recorded for a sample is NAN ("not in this capture") until
 * trend_series_finish() fills it: with 0 when the sample is complete and
 * the metric counts absence as zero (a class with no instances, a region
 * type with no regions), else it stays missing.
 *
 * The series owns its metrics and their names.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/trend_fit.h"
#include "model/trend_stats.h"
#include "util/hashmap.h"

enum trend_verdict {
	TREND_LEAK,          /* grows steadily and still grows at the end */
	TREND_GROWING,       /* would be LEAK, but the kernel may discard it (V, E) */
	TREND_PLATEAU,       /* a significant rise, then growth stopped */
	TREND_STEP,          /* one jump between two flat stretches */
	TREND_NO_TREND,      /* rises, but the tests cannot confirm it */
	TREND_STABLE,        /* no rise */
	TREND_INSUFFICIENT,  /* too few usable samples to say */
	TREND_VERDICTS,
};

/* "LEAK", "GROWING", ..., "NO TREND" */
const char *trend_verdict_name(enum trend_verdict v);

enum trend_unit {
	TREND_BYTES,
	TREND_COUNT,
};

struct trend_params {
	size_t warmup;          /* samples dropped from the start */
	size_t min_samples;     /* fewer analysed samples: INSUFFICIENT (default 5) */
	double max_missing;     /* a larger share missing: INSUFFICIENT (0.2) */
	double alpha;           /* BH-adjusted Mann-Kendall p below this (0.01) */
	double min_bytes;       /* growth over the window, bytes metrics (1 MiB) */
	double min_count;       /* growth over the window, count metrics (4) */
	double min_percent;     /* and at least this % of the start level (0 = off) */
};

/*
 * Fixed parts of the rules (docs/trend.md §5; the rates they give are
 * measured by tools/trend-rates): the least lag-1 correlation assumed
 * between samples, the rise's t a plateau needs, and the power asked of
 * the sample-size advice.
 */
#define TREND_RHO_FLOOR 0.5
#define TREND_RHO_CAP 0.8         /* the most the trend test assumes */
#define TREND_RHO_UPPER_SE 1.0    /* standard errors added to the estimate */
#define TREND_RHO_MIN_N 14        /* fewer analysed samples: the floor alone */
#define TREND_LINE_T 4.0          /* a least-squares slope this clear is LEAK (with a hint) */
#define TREND_HINT_ALPHA 0.05     /* the hint: the rank test at 5 %, one-sided */
#define TREND_PLATEAU_T 3.0       /* a step's jump, a staircase's jumps */
#define TREND_RISE_T 2.5          /* a plateau's rise */
#define TREND_LEAK_BEND_BIC 0.5   /* times ln n: a stopped tail this bent is no LEAK */
#define TREND_STAIR_FLAT 0.75     /* a staircase's first two levels grow less than this x jump */
#define TREND_BEND_BIC 1.5        /* times ln n: a plateau must beat the line by this */
#define TREND_TAIL_RATIO 0.5      /* the tail grows at most this share as fast as the rise */
#define TREND_TAIL_Z 1.2815515655446004  /* and its own test stays under 10 % one-sided */
#define TREND_STEP_FIT 0.75       /* two flat runs: at most this share of the line's deviation */
#define TREND_POWER_Z 0.8416212335729143   /* 80 % power: the normal 0.8 quantile */

/* The defaults above, with the default warm-up for `nsamples`. */
void trend_params_default(struct trend_params *p, size_t nsamples);
/* max(2, ceil(20 % of nsamples)). */
size_t trend_default_warmup(size_t nsamples);

struct trend_result {
	enum trend_verdict verdict;
	const char *why;            /* one line: what decided the verdict */
	size_t n;                   /* analysed samples */
	size_t missing;             /* samples after the warm-up without a value */
	bool has_mk;
	struct trend_mk mk;
	double q;                   /* BH-adjusted p (NAN without a test) */
	bool has_slope;
	struct trend_ts per_sample; /* x = sample number */
	bool has_hour;
	struct trend_ts per_hour;   /* x = hours since the first sample */
	bool has_half;
	struct trend_ts half;       /* second half, on the verdict's axis */
	bool has_first_half;
	struct trend_ts first_half; /* first half, on the verdict's axis */
	double growth;              /* slope x span of the window (verdict axis) */
	double start;               /* fitted level at the first analysed sample */
	double growth_pct;          /* 100 growth / start; NAN when start <= 0 */
	double shift;               /* median of the last third - median of the first */
	double shift_sigma;         /* robust sigma of the second half (1.4826 MAD) */
	bool thirds_rise;           /* the thirds' medians never fall, and the last is higher */
	double range;               /* largest - smallest value, every sample */
	bool level_stopped;         /* rounded values: the level's last rise is older than any earlier level lasted */
	bool rounding_dominates;    /* the noise is under half a rounding step (or 0) */
	bool step;
	size_t step_at;             /* first sample (whole series) after the jump */
	double step_size;           /* median after - median before */
	double resolution;          /* the metric's rounding step (0: exact) */
	double noise;               /* 1.4826 MAD about the Theil-Sen line (>= step / sqrt 12) */
	double rho;                 /* lag-1 correlation used for the test (>= the floor) */
	double line_t;              /* least-squares slope / its standard error, AR(1) allowed for */
	bool has_plateau;
	struct trend_plateau plateau;  /* over every sample, the warm-up included */
	size_t plateau_points;      /* samples with a value in that fit */
	size_t plateau_end;         /* first sample (whole series) of the flat tail */
	double plateau_t;           /* rise / its standard error, correlation allowed for */
	double tail_slope;          /* Theil-Sen slope of the flat tail */
	bool tail_flat;             /* the tail's growth shown slower than the rise's (10 %) */
	double bend;                /* (RSS_line - RSS_plateau) / (sigma^2 F2) / ln n */
	bool stairs;                /* rose in two steps and kept rising (not a plateau) */
	size_t more_samples;        /* NO TREND, INSUFFICIENT: samples the noise needs; 0 none */
};

struct trend_metric {
	char *name;                 /* "vmmap:IOSurface:N.dirty", "classes:IOSurface" */
	enum trend_unit unit;
	bool leak_exempt;           /* volatile or empty purgeable memory */
	bool zero_fill;             /* absent from a complete sample = 0 */
	double *v;                  /* nsamples values, NAN = missing */
	bool unchanged;             /* the same value in every sample (no NAN) */
	double resolution;          /* rounding step of the values (0: exact; counts: 1) */
	struct trend_result r;
};

struct trend_series {
	size_t nsamples, samples_alloc;
	bool *complete;             /* per sample: absence means 0 */
	double *hours;              /* per sample: hours since the earliest; NAN unknown */
	bool has_times;             /* every sample has a time */
	struct trend_metric *metrics;
	size_t nmetrics, metrics_alloc;
	struct strmap index;        /* name -> index in metrics */
};

void trend_series_init(struct trend_series *s);
void trend_series_release(struct trend_series *s);

/* A new sample; its index. */
size_t trend_series_add_sample(struct trend_series *s, bool complete);
/*
 * Record a metric's value in a sample (the metric is created on first use
 * with the unit and flags given). A second value for the same metric and
 * sample is added to the first.
 */
void trend_series_set(struct trend_series *s, size_t sample, const char *name,
		      enum trend_unit unit, bool zero_fill, bool leak_exempt, double value);
/*
 * The metric's values are rounded to multiples of `q` (vmmap's "26.3G":
 * 0.1 GiB); the largest step given wins. Counts are always rounded to 1.
 */
void trend_series_set_resolution(struct trend_series *s, const char *name, double q);
/* The metric called `name`, or NULL. */
const struct trend_metric *trend_series_find(const struct trend_series *s, const char *name);

/*
 * Put the samples in a new order: sample perm[i] becomes sample i. `hours`
 * (in the new order, NAN unknown) gives each sample's time; NULL: none.
 */
void trend_series_reorder(struct trend_series *s, const size_t *perm, const double *hours);

/*
 * The metric's first (or, with `last`, last) value that is not absent,
 * among its n samples; NAN when every one is.
 */
double trend_metric_end_value(const struct trend_metric *m, size_t n, bool last);

/* Fill absent values and mark unchanged metrics. */
void trend_series_finish(struct trend_series *s);

/*
 * Analyse every changing metric, adjust the p-values across them
 * (Benjamini-Hochberg) and give each its verdict.
 */
void trend_series_analyse(struct trend_series *s, const struct trend_params *p);

/*
 * Analyse one series of values outside a trend_series (a gate's derived
 * metric): v[0..nsamples), hours NULL or per sample. The q-value is the
 * metric's own p (no family to adjust over).
 */
void trend_analyse_values(const double *v, const double *hours, size_t nsamples,
			  enum trend_unit unit, double resolution, bool leak_exempt,
			  const struct trend_params *p, struct trend_result *r);

/*
 * Metrics in report order: verdict (LEAK first), then effect size (growth
 * as a share of the start level, largest first), then name. Unchanged
 * metrics are left out. Caller frees *out.
 */
size_t trend_series_ranked(const struct trend_series *s, const struct trend_metric ***out);

/*
 * Pure pieces, exposed for tests. trend_step_find: the single split of
 * y[0..n) (each side at least `min_seg` long) that best fits two flat
 * levels, and whether it is a step by the rules of docs/trend.md.
 */
bool trend_step_find(const double *x, const double *y, size_t n, double min_growth,
		     double resolution, size_t *at, double *size);

/*
 * Analysed samples a test at this noise needs to confirm a rise of `rate`
 * per sample: the smallest n with rate sqrt(n^3 / 12) / sigma >= (z_a +
 * z_power) sqrt(factor), the least-squares slope's standard error for n
 * equally spaced samples, inflated for correlated samples; z_a the
 * two-sided normal quantile of `alpha`. 0 when rate <= 0 or sigma is not
 * a number.
 */
size_t trend_samples_needed(double rate, double sigma, double factor, double alpha);

#endif
