/*
 * `iotally signatures`' units run and gathered (app/signature_run.h).
 */

#include "app/signature_run.h"

#include "app/parallel.h"
#include "util/array.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdlib.h>

/* The units of one run, for the parallel map: each writes only its own result. */
struct run_units {
	const struct signature_inputs *in;
	struct signature_result *res;
};

static void *
run_unit(void *ctx, size_t i)
{
	struct run_units *u = ctx;
	signature_input_run(u->in, i, &u->res[i]);
	return &u->res[i];
}

/* The results are read in input order once every unit is done (app_signatures_collect()). */
static int
emit_unit(void *ctx, size_t i, void *result)
{
	(void)ctx;
	(void)i;
	(void)result;
	return 0;
}

static void
drop_unit(void *ctx, size_t i, void *result)
{
	(void)ctx;
	(void)i;
	(void)result;
}

struct signature_result *
app_signatures_run(const struct signature_inputs *in, unsigned jobs)
{
	struct signature_result *res = xcalloc(in->n ? in->n : 1, sizeof(*res));
	for (size_t i = 0; i < in->n; i++)
		signature_result_init(&res[i]);
	struct run_units units = { in, res };
	if (!signature_inputs_parallel(in))
		jobs = 1;
	else if (!jobs)
		jobs = app_parallel_default_jobs();
	struct app_parallel_opts opts = { .jobs = jobs, .window = app_parallel_window(jobs) };
	(void)app_parallel_map(in->n, &opts, run_unit, emit_unit, drop_unit, &units);
	return res;
}

int
app_signatures_collect(struct signature_result *res, size_t nres,
		       struct signature_record **recs, size_t *n, bool *partial)
{
	int status = 0;
	size_t total = 0;
	for (size_t i = 0; i < nres; i++)
		total += res[i].n;
	*recs = xcalloc(total ? total : 1, sizeof(**recs));
	*n = 0;
	for (size_t i = 0; i < nres; i++) {
		struct signature_result *r = &res[i];
		*partial |= r->failed;
		if ((r->failed || r->err.code) && !status)
			status = r->err.code ? r->err.code : DIAG_SOFTWARE;
		/* The records move to the run: the result keeps none. */
		array_copy(&(*recs)[*n], r->recs, r->n, sizeof(*r->recs));   /* NULL when none */
		*n += r->n;
		r->n = 0;
	}
	return status;
}

int
app_signature_bucket_pick(const struct signature_buckets *b, const char *prefix, size_t *at,
			  struct diag *err)
{
	size_t *found;
	size_t n = signature_buckets_find(b, prefix, &found);
	if (n == 1) {
		*at = found[0];
		free(found);
		return 0;
	}
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", b->b[found[i]].first_record->id);
	if (n == 0)
		diag_set(err, DIAG_USAGE, NULL, 0, 0, "--bucket %s: no bucket's id starts with it "
			 "(%zu bucket%s)", prefix, b->n, b->n == 1 ? "" : "s");
	else
		diag_set(err, DIAG_USAGE, NULL, 0, 0, "--bucket %s: %zu buckets' ids start with it: "
			 "%s; give more digits", prefix, n, sb.buf);
	strbuf_release(&sb);
	free(found);
	return -1;
}
