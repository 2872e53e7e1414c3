#ifndef IOTALLY_MODEL_DIFF_H
#define IOTALLY_MODEL_DIFF_H

/*
 * What every kind of before/after diff shares: CI gates and the figures a
 * gate is checked against.
 *
 * A gate is "METRIC OP VALUE": METRIC is "<kind>:<name>" and only the
 * kind's own module knows what <name> means (model/diff_<kind>.h), so a new
 * kind brings its metrics with it (class names may hold '<' and '>': the
 * operator is the last '>' followed by a value). OP is '>' or '>='. VALUE is a signed
 * delta (a count or bytes with a binary unit: +5, +64K, +1MiB, +1.5G) or a
 * percentage of BEFORE (+10%, +2.5%). A gate trips when AFTER - BEFORE
 * compares true against VALUE, so "> +5" passes at exactly +5.
 *
 * Percentages are exact: the comparison is delta * 10000 OP before * p,
 * with p in hundredths of a percent. A BEFORE of 0 has no share to take:
 * a percentage gate then trips on any increase (AFTER > 0), whatever its
 * operator and value, and passes when the figure stays 0.
 *
 * A gate owns its strings; diff_gate_release() frees them.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/diag.h"

/* The id of the JSON report of `iotally diff` (docs/json/diff.*). */
#define DIFF_SCHEMA "iotally.diff/1"
/* The id of the rows of `iotally diff --format ndjson` (docs/json/diff-ndjson.*). */
#define DIFF_NDJSON_SCHEMA "iotally.diff-ndjson/1"

/* The options of one comparison; which kinds accept which is cli/'s table. */
struct diff_options {
	bool has_dump;
	uint64_t dump;              /* 1-based --dump N */
	bool match_offsets;         /* track: frames keep their offsets */
	bool folded;                /* track: differential folded output */
	bool direct;                /* classes: direct instance counts */
};


enum diff_op {
	DIFF_OP_GT,
	DIFF_OP_GE,
};

struct diff_gate {
	char *text;          /* the expression as given */
	char *kind;          /* "vmmap", "track", ... */
	char *metric;        /* what follows "<kind>:" */
	char *value_text;    /* VALUE as given, trimmed */
	enum diff_op op;
	bool percent;
	int64_t value;       /* delta, or hundredths of a percent */

	/* Filled by diff_gate_check(), and `subject` by the caller when the metric
	 * picks what it measures (classes:*: the class that grew most). */
	char *subject;
	bool bytes;          /* the figures are bytes (else a count): set by the kind */
	bool checked;
	bool tripped;
	/* A capture lacks the figure (a column it did not print): neither
	 * passed nor tripped; `reason` says which capture and column. */
	bool unevaluable;
	char *reason;
	int64_t before, after, delta;
	/* A tripped gate's growth in the summary block's words ("IOAccelerator
	 * (graphics), non-volatile: +3 × 128 MiB": model/summary.h), set by the
	 * kind that checked it; NULL: its figures say all there is. */
	char *phrase;
};

/*
 * The one word each output gives a gate's result, tables, Markdown and
 * HTML alike: "TRIPPED", "passed", or "not evaluable".
 */
const char *diff_gate_result_word(bool tripped, bool unevaluable);

/*
 * Parse one expression. 0, or -1 with a DIAG_USAGE *err naming the part
 * that is wrong (the metric, the operator or the value).
 */
int diff_gate_parse(const char *text, struct diff_gate *g, struct diag *err);
/*
 * Parse one expression onto the end of a growing list (*n used of *alloc):
 * 0, or -1 as diff_gate_parse() with the list unchanged.
 */
int diff_gate_list_add(struct diff_gate **gates, size_t *n, size_t *alloc, const char *text,
		       struct diag *err);
void diff_gate_release(struct diff_gate *g);
/* A copy of a parsed gate, unchecked (each compared pair checks its own). */
void diff_gate_copy(struct diff_gate *to, const struct diff_gate *from);

/*
 * A count metric's gate whose value carries a size unit ('> 5MB' on a
 * region count) is refused: the unit would be read as a count of 5 Mi.
 * Call once g->bytes is set. 0, or -1 with a DIAG_USAGE *err.
 */
int diff_gate_check_unit(const struct diff_gate *g, struct diag *err);

/*
 * Check the gate against BEFORE and AFTER: 0 with g->tripped set, or -1
 * with a DIAG_DATA *err when AFTER - BEFORE does not fit 64 bits.
 */
int diff_gate_check(struct diff_gate *g, int64_t before, int64_t after,
		    struct diag *err);

/* ">" or ">=". */
const char *diff_op_text(enum diff_op op);

struct strbuf;
/*
 * A gate's limit for people: the one form that report's Gates table and
 * diff's text table, JUnit messages and standard-error lines all print.
 * The operator and VALUE as typed and, for a gate on bytes (g->bytes, set
 * from the metric's descriptor by its kind), its other form beside it, so
 * that a delta shown in exact bytes can be compared with it digit by digit:
 * a value typed with a unit gets its exact bytes ("> +256M (+268435456
 * bytes)"), one typed as plain digits its binary size (">= +407896064
 * (+389 MiB)"). Counts, percentages and zero stay as typed ("> +5",
 * "> +10%", "> +0"). Appended to `out`.
 */
void diff_gate_limit_text(const struct diff_gate *g, struct strbuf *out);

/*
 * What a checked gate measured, in words before its figures: a tripped
 * gate's phrase (what grew, as the summary says it), then its subject
 * (what its metric picked or where its figures came from) unless the
 * phrase already names it; nothing when it has neither. Appended to `out`;
 * true when anything was.
 */
bool diff_gate_words(const struct diff_gate *g, struct strbuf *out);

struct suggest;
/*
 * Add "; did you mean 'NAME'?" to a metric's error when `s` (util/suggest.h)
 * found a name near the one the gate gave among those the captures hold;
 * the name is quoted (diag_quote: no control byte of a capture is printed).
 */
void diff_diag_add_suggestion(struct diag *err, const struct suggest *s);

/* AFTER - BEFORE of unsigned model figures; -1 when it does not fit int64_t. */
int diff_delta_u64(uint64_t before, uint64_t after, int64_t *delta);

#endif
