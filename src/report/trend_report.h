#ifndef IOTALLY_REPORT_TREND_REPORT_H
#define IOTALLY_REPORT_TREND_REPORT_H

/*
 * The trend report: text (a table with a sparkline per metric), Markdown,
 * JSON (schema iotally.trend/2, docs/json/trend.md) and JUnit XML for the
 * gates. Writers read the analysed series; they never open files except
 * the JUnit file they are asked to write.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "model/signature.h"
#include "model/trend.h"
#include "model/trend_gate.h"
#include "util/diag.h"
#include "util/strbuf.h"

#define TREND_JSON_SCHEMA "iotally.trend/2"

/* One input as given on the command line. */
struct trend_input_row {
	const char *path;
	const char *time_text;      /* the capture's own time, or NULL */
	bool used;
	size_t sample;              /* 0-based sample number, when used */
	const char *left_out;       /* why it is not used, when not used */
};

struct trend_report {
	const char *kind;                     /* the kind's name in the registry (app/kind.h) */
	bool by_time;                         /* ordered by capture time */
	const char *order_note;               /* how the order was chosen */
	double span_hours;                    /* NAN when the times are unknown */
	const struct trend_input_row *inputs; /* in the order of the samples, left-out last */
	size_t ninputs;
	const struct diag_list *warnings;
	const struct trend_series *series;
	const struct trend_params *params;
	bool warmup_given;                    /* --warmup (else the default) */
	const struct trend_gate *gates;
	size_t ngates;
	bool fail_on_leak;
	const struct signature *sig;          /* the series' leak signature; NULL: none */
};

/* The sentence every report carries about correlated samples. */
extern const char trend_caveat[];

/* Text or Markdown. */
void trend_text_write(FILE *out, const struct trend_report *r, bool markdown);
/* 0, or -1 when the output cannot be written. */
int trend_json_write(FILE *out, const struct trend_report *r);
/* One test case per gate and one for --fail-on leak. 0, or -1 with *err. */
int trend_junit_write(FILE *out, const struct trend_report *r, struct diag *err);

/* How many metrics are LEAK (what --fail-on leak checks). */
size_t trend_report_leaks(const struct trend_report *r);

/* A checked gate's slope as text: a percentage ("+2.50 %") or an amount ("~+1.5 MiB"). */
void trend_gate_slope_text(const struct trend_gate *g, char out[48]);

/*
 * The LEAK metrics of reps[0..n), in series order, named in the words of
 * diff's Summary line: up to three, then how many more ("vmmap:A.dirty;
 * vmmap:B.dirty; classes:C; and 4 more"). --fail-on leak's message and
 * its JUnit case say them. Names are input: the caller escapes them.
 * How many are LEAK.
 */
size_t trend_leak_names(const struct trend_report *const *reps, size_t n, struct strbuf *out);

/*
 * The metric's samples as at most 40 block characters, eight levels from
 * its lowest value to its highest, a blank where a sample has none (the
 * text report's SERIES column, the series report's Markdown timeline).
 */
void trend_sparkline(const struct trend_metric *m, size_t n, struct strbuf *out);

/*
 * A slope or a value as text: "~+1.5 MiB", "-3", "+0.25": bytes through
 * the one text formatter (util/size.h), "~" where cut or not whole bytes.
 */
void trend_format_amount(char out[48], double v, enum trend_unit unit, bool sign);

#endif
