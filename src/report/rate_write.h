#ifndef IOTALLY_REPORT_RATE_WRITE_H
#define IOTALLY_REPORT_RATE_WRITE_H

/*
 * The rate report of `iotally rate`: the summary line, text and Markdown,
 * JSON (iotally.rate/1, docs/json/rate.md) and NDJSON rows (one per
 * metric, iotally.rate-ndjson/1). Writers read the analysed series; they
 * open no file.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "model/rate.h"
#include "model/rate_gate.h"
#include "report/trend_report.h"
#include "util/diag.h"
#include "util/strbuf.h"

/* One kind's rates: its series analysed per iteration. */
struct rate_kind_report {
	const char *kind;                      /* the kind's name in the registry (app/kind.h) */
	const char *order_note;                /* how the samples were ordered */
	const struct trend_series *series;
	const struct rate_series *rates;
	const struct trend_params *params;
	const struct trend_input_row *inputs;  /* in sample order, left-out last */
	size_t ninputs;
	const struct diag_list *warnings;
	/*
	 * The kind's words, from its registry row: its metrics' labels
	 * (NULL: the name after the kind), what its count metrics count (NULL:
	 * nothing said), and whether a metric's .dirty figure says what its
	 * .vsize and .resident would (the summary then names only the dirty).
	 */
	rate_label_fn *label;
	const char *count_noun;
	bool dirty_shadows;
};

/* A metric's label as kind `k` says it (rate_metric_label()), into out[size]. */
void rate_row_label(const struct rate_kind_report *k, const char *name, char *out, size_t size);
/* What a count metric `name` of kind `k` counts: its noun, or "". */
const char *rate_row_noun(const struct rate_kind_report *k, const char *name);

struct rate_report {
	const struct rate_kind_report *kinds;
	size_t nkinds;
	const struct rate_params *rparams;
	bool warmup_given;                     /* --warmup (else the default) */
	const char *source;                    /* the operand the NDJSON rows name */
	const struct rate_gate *gates;
	size_t ngates;
};

/* The sentence every report carries about the interval. */
extern const char rate_caveat[];

/*
 * A rate as text, the one place rate's outputs format figures:
 * rate_format_amount() for a table cell ("+48.00 MiB", "+12"), and
 * rate_format_pm() for the summary: the estimate and the interval's
 * larger half-width in one unit, "+48.0 ± 1.2 MiB", "+12.0 ± 0.4
 * instances" (`noun` after a count; "" none).
 */
void rate_format_amount(char out[48], double v, enum trend_unit unit, bool sign);
void rate_format_pm(char out[96], const struct rate_row *row, enum trend_unit unit,
		    const char *noun);

/*
 * The summary line, one sentence: the LEAKS PER OPERATION metrics with
 * their rates ("IOSurface +12.0 ± 0.4 instances and IOSurface non-volatile
 * dirty +48.0 ± 1.2 MiB per iteration (20 iterations after 2 warm-up)"),
 * else what warms up, is unsure or that nothing grows. Metric names are
 * input: the caller escapes the line for its output.
 */
void rate_summary(const struct rate_report *r, struct strbuf *out);

/* How many metrics are LEAKS PER OPERATION, every kind. */
size_t rate_report_leaks(const struct rate_report *r);

/* Text or Markdown. */
void rate_text_write(FILE *out, const struct rate_report *r, bool markdown);
/* 0, or -1 when the output cannot be written. */
int rate_json_write(FILE *out, const struct rate_report *r);
int rate_ndjson_write(FILE *out, const struct rate_report *r);

#endif
