#ifndef IOTALLY_APP_TREND_INPUTS_H
#define IOTALLY_APP_TREND_INPUTS_H

/*
 * The inputs of `iotally trend`: each is opened, recognised (the kinds of
 * `iotally diff`: vmmap, classes, track, raw or iotally's JSON of them) and
 * read into one sample of a trend_series, with its capture time when the
 * capture records one (vmmap's "Date/Time:").
 *
 * An input that cannot be opened or read, or that ends in the middle
 * (partial), is left out with the reason kept; the others become samples.
 *
 * A capture of a bundle (app/bundle_inputs.h) comes with its manifest's
 * start time, which is then its capture time; one that a sample does not
 * hold comes already left out, with the reason.
 */

#include <stdbool.h>
#include <stdint.h>

#include "model/trend.h"
#include "model/trend_sample.h"
#include "util/diag.h"

struct trend_input {
	const char *path;
	const char *kind;           /* its kind's name in the registry (app/kind.h); NULL: none */
	bool used;
	size_t sample;              /* its sample in the series, when used */
	char *left_out;             /* why it is not used (owned), when not */
	int left_out_code;          /* DIAG_NOINPUT or DIAG_DATA */
	const char *manifest_time;  /* a bundle's start time: the capture time, when set */
	bool has_time;
	int64_t ms;                 /* capture time, ms since 1970 UTC */
	char *time_text;            /* as the capture prints it (owned) */
};

void trend_input_release(struct trend_input *in);

/*
 * Open and recognise `in->path`; when its kind is `want` (or `want` is
 * NULL), read it into `out` (trend_sample_init()ed; an input already left
 * out is not read). Sets in->kind (even when it is not `want`, so the
 * caller can name mixed kinds), in->used or in->left_out, and the capture
 * time. Notes about the input (several dumps, lines not understood) go to
 * `notes`. Writes nothing but `in`, `out` and `notes`: with -j N inputs are
 * read on worker threads (app/trend_run.c), then added in input order by
 * trend_input_add().
 */
void trend_input_read(struct trend_input *in, const char *want, struct trend_sample *out,
		      struct diag_list *notes);

/* A used input's sample added to the series (in->sample); nothing for one left out. */
void trend_input_add(struct trend_input *in, struct trend_series *s, const struct trend_sample *smp);

/*
 * An input read as any kind (want NULL), found not to be `want` once the
 * inputs before it named the trend's kind: left out as trend_input_read()
 * with `want` leaves it out, without the capture time it read.
 */
void trend_input_refuse_kind(struct trend_input *in, const char *want);

/*
 * For the kinds' trend_read hooks (app/kind.h): leave the input out with
 * the reason (a parser's stopping error: its line and message), and set
 * metric NAME (a printf format) of the sample read.
 */
void trend_input_leave_out(struct trend_input *in, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void trend_input_leave_out_diag(struct trend_input *in, const struct diag *err);
void trend_input_metric(struct trend_sample *out, enum trend_unit unit, bool zero_fill,
			bool exempt, double v, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

#endif
