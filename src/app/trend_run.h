#ifndef IOTALLY_APP_TREND_RUN_H
#define IOTALLY_APP_TREND_RUN_H

/*
 * The steps of a trend that `iotally trend` and `iotally report SERIES`
 * share: read every input of one kind into a series, check that enough
 * are usable, put the samples in capture-time order (or argument order),
 * and list the inputs for the report. Nothing here prints: warnings go to
 * a diag_list, errors to a struct diag.
 */

#include <stdbool.h>
#include <stddef.h>

#include "app/bundle_inputs.h"
#include "app/trend_inputs.h"
#include "model/trend.h"
#include "report/trend_report.h"
#include "util/diag.h"

/* The order of the samples. */
struct trend_order {
	size_t *perm;          /* sample order -> index in the inputs */
	double *hours;         /* per sample, NULL without times */
	bool by_time;
	char note[160];        /* how the order was chosen */
	double span;           /* hours from the first sample to the last; NAN unknown */
};

/*
 * Read every input; *kind is `forced` (--kind) or the first input's. -1
 * with *err (DIAG_DATA) when an input is of another kind. `jobs` inputs
 * are read at once (app/parallel.h; 0 or 1: one after the other); the
 * series, `notes` and the inputs' fields are the same for every `jobs`.
 * Memory: besides the series, at most `jobs` captures being parsed and
 * the samples of a window of app_parallel_window(jobs) inputs, each
 * reduced to its metrics.
 */
int trend_run_read(struct trend_input *in, size_t n, const char *forced, unsigned jobs,
		   struct trend_series *s, const char **kind, struct diag_list *notes,
		   struct diag *err);

/* Left-out inputs as warnings; -1 with *err when fewer than 3 are usable. */
int trend_run_check_usable(const struct trend_input *in, size_t n, struct diag_list *w,
			   struct diag *err);

/*
 * Order the samples (capture times when every one has one), put the series
 * in that order and finish it (absent values filled, unchanged marked).
 * Equal or decreasing times are warnings.
 */
void trend_run_order(const struct trend_input *in, size_t n, struct trend_series *s,
		     struct trend_order *o, struct diag_list *w);
void trend_order_release(struct trend_order *o);

/* rows[0..n): the used inputs in sample order, then those left out. */
void trend_run_rows(const struct trend_input *in, size_t n, const struct trend_order *o,
		    size_t used, struct trend_input_row *rows);

/*
 * One kind's trend of a command line's operands, whole: the operands
 * expanded (a bundle or series stands for its captures of `kind`:
 * app/bundle_inputs.h), read, checked, ordered and analysed, and the
 * report's view of it in `rep`; `jobs` inputs read at once
 * (trend_run_read()). Everything stays valid until
 * trend_kind_run_release(); `bs` holds the bundles opened.
 */
struct app_bundles;
struct trend_kind_run {
	const char *kind;
	struct app_bundle_inputs bin;
	const char **paths;          /* one per input */
	struct trend_input *in;
	size_t n;
	struct trend_series s;
	struct trend_order o;
	struct trend_params p;
	struct trend_input_row *rows;
	struct diag_list warnings;   /* inputs left out, times out of order */
	struct trend_report rep;
};

/* Parameters for `nsamples` samples (NULL: trend_params_default()). */
typedef void (*trend_params_fn)(void *ctx, size_t nsamples, struct trend_params *p);

/*
 * 0; -1 with *err: an operand that cannot be opened as a bundle, inputs of
 * another kind, fewer than 3 usable inputs (the left-out ones are in
 * t->warnings then too), a warm-up that leaves nothing (DIAG_USAGE).
 * Bundle warnings (a partial capture, a changed file) go to `notes`.
 */
int trend_kind_run(struct trend_kind_run *t, const char *const *paths, size_t n,
		   const char *kind, unsigned jobs, struct app_bundles *bs, trend_params_fn params,
		   void *ctx, struct diag_list *notes, struct diag *err);
void trend_kind_run_release(struct trend_kind_run *t);

/*
 * What a command line set of the analysis (`trend`, `rate`); each unset
 * one is the default for the sample count.
 */
struct trend_given {
	bool has_warmup, has_alpha, has_min_bytes, has_min_count, has_min_percent;
	size_t warmup;
	double alpha, min_bytes, min_count, min_percent;
};

/* trend_params_fn of `trend` (ctx: a struct trend_given): the defaults, then what is given. */
void trend_params_given(void *ctx, size_t nsamples, struct trend_params *p);

/*
 * The kinds a command follows into kinds[0..KINDS_MAX): `forced` (--kind)
 * alone; one, as the inputs say (NULL), when `one` (gates, JSON or JUnit
 * follow one kind); else every kind the bundle operands hold
 * (trend_run_bundle_kinds()), or one as the inputs say when they are not
 * bundles. How many.
 */
size_t trend_run_kinds_to_follow(const char *forced, bool one, const char *const *paths,
				 size_t n, struct app_bundles *bs, const char **kinds);

/*
 * A kind of several that cannot be followed (`err`, the `i`th of `nk`,
 * after `ok` followed) is left out, said as a warning, when another kind
 * may still be followed and the error is not the command line's: true.
 * False: the command stops with `err`.
 */
bool trend_run_kind_left_out(size_t nk, size_t i, size_t ok, const struct diag *err);

/*
 * The series' leak signature (docs/signatures.md): its first and last
 * samples compared, when the verdict that names it
 * (model/signature_series.h) is LEAK, GROWING or PLATEAU; else, or when
 * a sample is standard input (it cannot be read a second time), none.
 * -1 with *err when a sample cannot be compared again: *sig is then
 * none, finished; the verdicts stand without it.
 */
struct signature;
int trend_kind_run_signature(const struct trend_kind_run *t, struct signature *sig,
			     struct diag *err);

/*
 * The kinds of the registry (app/kind.h), in its order, that any sample of
 * the bundle operands holds: at most `max` in kinds[]. 0 when an operand
 * is not a bundle (the captures' own kind decides) or none holds a capture.
 */
size_t trend_run_bundle_kinds(const char *const *paths, size_t n, struct app_bundles *bs,
			      const char **kinds, size_t max);

#endif
