#ifndef IOTALLY_MODEL_SERIES_GATE_H
#define IOTALLY_MODEL_SERIES_GATE_H

/*
 * The one grammar and the one comparison of a series' gates (`trend
 * --fail-if`, model/trend_gate.h; `rate --fail-if`, model/rate_gate.h).
 * Both are diff's gate (model/diff.h, diff_gate_parse) with words around
 * it; what each command adds is data, a struct series_gate_form: a prefix
 * before METRIC ("rate:"), a word after it (" slope"), the rate suffixes
 * of VALUE ("/h", "/sample", "/iteration"), whether a percentage means
 * anything, and the sentences that say so.
 */

#include <stdbool.h>
#include <stddef.h>

#include "model/diff.h"
#include "util/diag.h"

/* A suffix of VALUE and the rate it names (the command's own enum). */
struct series_gate_per {
	const char *suffix;          /* "/h" */
	int per;
};

struct series_gate_form {
	const char *prefix;          /* before METRIC ("rate:"); "" none */
	const char *word;            /* after METRIC (" slope"); NULL none */
	const struct series_gate_per *pers;   /* tried in order; none matched: per_default */
	size_t npers;
	int per_default;
	/* The gate's shape, said when the prefix or the word is missing:
	 * "'METRIC slope OP VALUE' (e.g. '...')". */
	const char *expected;
	/* NULL: a percentage of the start level is allowed; else why not. */
	const char *no_percent;
};

/*
 * `text` read as the form says into *g (g->text: the expression as given,
 * g->metric without the word), *name ("<kind>:<metric>", owned) and *per.
 * 0, or -1 with a DIAG_USAGE *err naming what is wrong; *g and *name are
 * released by the caller either way.
 */
int series_gate_parse(const struct series_gate_form *f, const char *text, struct diff_gate *g,
		      char **name, int *per, struct diag *err);

/* Does `figure` pass the gate's limit `limit` by its operator ('>' or '>=')? */
bool series_gate_trips(const struct diff_gate *g, double figure, double limit);

#endif
