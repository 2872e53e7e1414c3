#ifndef IOTALLY_APP_SIGNATURE_INPUTS_H
#define IOTALLY_APP_SIGNATURE_INPUTS_H

/*
 * What `iotally signatures INPUT...` reads, as a list of independent
 * units of work: each before/after pair of two folders or two bundles
 * (paired as `diff` pairs them, app/diff_pairs.h), or two capture files
 * (one pair), each file of NDJSON rows written earlier
 * (ingest/signature_rows_read.h), and each series: a series bundle (folder
 * or archive) named, or each series bundle of a folder that holds only
 * series (a fleet's series, one per machine). signature_input_run() does one unit and
 * touches nothing another unit uses, so a parallel map can drive it; the
 * caller emits the results in input order.
 */

#include <stdbool.h>
#include <stddef.h>

#include "app/diff_pairs.h"
#include "model/signature_bucket.h"
#include "util/diag.h"

enum signature_input_type {
	SIGNATURE_INPUT_PAIR,
	SIGNATURE_INPUT_ROWS,
	SIGNATURE_INPUT_SERIES,
};

struct signature_input {
	enum signature_input_type type;
	const struct diff_pair *pair;   /* PAIR: one of `pairs` */
	const char *path;               /* ROWS, SERIES: the operand or the folder's entry */
};

struct signature_inputs {
	struct diff_pairs pairs;
	char **owned;                   /* series paths made from a folder's entries */
	size_t nowned, owned_alloc;
	struct signature_input *v;
	size_t n;
};

/*
 * The units of the operands: a file whose first line is a row of
 * SIGNATURES_NDJSON_SCHEMA or DIFF_NDJSON_SCHEMA (or "-") is rows; a
 * series bundle is a series, and so is each entry of a folder whose
 * entries are all series bundles (in name order); two other operands are
 * BEFORE and AFTER. 0, or -1 with *err (DIAG_USAGE for
 * operands that are neither, else as diff_pairs_build()).
 */
int signature_inputs_build(struct signature_inputs *in, char **operands, size_t n,
			   struct diag *err);
void signature_inputs_release(struct signature_inputs *in);
/*
 * May the units run on several threads (app/parallel.h)? Not when one is a
 * series: reading a series maps its bundle members as it goes
 * (util/linereader.h), which only one thread may do.
 */
bool signature_inputs_parallel(const struct signature_inputs *in);

struct kind;
struct signature;
/*
 * The finished signature of a kind's diff (the kind's `signature` hook, then
 * signature_finish()): what `diff`, `report` and `trend` show. `sig` is
 * initialised here; the caller releases it.
 */
void signature_of_diff(const struct kind *kind, const void *diff, struct signature *sig);

/*
 * The signature of a series (docs/signatures.md): only when `verdict` is
 * "LEAK", "GROWING" or "PLATEAU" (else nothing, 0), the first and last
 * samples compared as a pair, with a `trend:<verdict>` component so that
 * each verdict has buckets of its own; none when the pair shows no growth
 * past the rule's thresholds. 0, or -1 with *err when a sample cannot be
 * compared again.
 */
int signature_of_series(const char *first, const char *last, const char *verdict,
			struct signature *sig, struct diag_list *notes, struct diag *err);

/* What one unit gave: its records (a pair: one), notes, or an error. */
struct signature_result {
	struct signature_record *recs;
	size_t n, alloc;
	struct diag_list notes;
	bool failed;               /* rows: `err` stopped the read (records before it kept) */
	struct diag err;
};

void signature_result_init(struct signature_result *r);
void signature_result_release(struct signature_result *r);

/*
 * Do unit i: compare a pair and make its record (a pair that cannot be
 * compared is a record with its error), or read a rows file.
 */
void signature_input_run(const struct signature_inputs *in, size_t i,
			 struct signature_result *res);

#endif
