#ifndef IOTALLY_APP_SIGNATURE_RUN_H
#define IOTALLY_APP_SIGNATURE_RUN_H

/*
 * `iotally signatures` once its inputs are built (app/signature_inputs.h):
 * every unit run (pairs, series and files of rows, -j N at once), their
 * records gathered in input order, and the one bucket --bucket names.
 */

#include <stdbool.h>
#include <stddef.h>

#include "app/signature_inputs.h"
#include "model/signature_bucket.h"
#include "util/diag.h"

/*
 * Every unit of `in` run, up to `jobs` at once (0: one per processor; one
 * after the other when signature_inputs_parallel() says they cannot run
 * together): one result per unit, res[0..in->n) in input order. A result
 * is a unit's records and notes, not its captures, so keeping every one
 * until the buckets are made is bounded by the records the output needs.
 * The caller releases each (signature_result_release()) and frees res.
 */
struct signature_result *app_signatures_run(const struct signature_inputs *in, unsigned jobs);

/*
 * The records of res[0..nres) moved into one array in input order (*recs,
 * *n: the caller releases each and frees it); *partial set when a unit
 * failed. The first failed unit's status, or 0.
 */
int app_signatures_collect(struct signature_result *res, size_t nres,
			   struct signature_record **recs, size_t *n, bool *partial);

/*
 * The one bucket --bucket PREFIX names: 0 and *at, or -1 with a usage error
 * that says how many buckets there are, or names every one the prefix fits.
 */
int app_signature_bucket_pick(const struct signature_buckets *b, const char *prefix,
			      size_t *at, struct diag *err);

#endif
