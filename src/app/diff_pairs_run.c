/*
 * A diff run's pairs compared (on worker threads with -j above 1) and
 * said in pair order (app/diff_pairs_run.h).
 */

#include "app/diff_pairs_run.h"

#include "app/parallel.h"
#include "report/diff_ndjson_write.h"
#include "util/diag_write.h"
#include "util/outbuf.h"
#include "util/xalloc.h"

#include <stdlib.h>

/* Compare pair i and write its report; what it says goes to outbuf_err(). */
static int
write_pair(const struct diff_run *run, const struct diff_pairs_output *o, size_t i,
	   struct diag *err)
{
	struct diff_pair_out po;
	int rc = diff_run_compare_pair(run, i, &po, err);
	diag_write_list(outbuf_err(), &po.notes);
	if (rc == 0) {
		diag_write_list(outbuf_err(), &po.warnings);
		/* With -j N, the pair's buffer. */
		if (o->reports)
			rc = diff_pair_write(outbuf_out_or(o->out), &po, run->pairs.pairs[i].name,
					     &o->write, err);
		run->results[i].compared = rc == 0;
	}
	diff_pair_out_release(&po);
	return rc;
}

/* One pair's turn as comparing it left it, for its turn to be said. */
struct pair_turn {
	struct outbuf *printed;   /* what comparing printed, kept (-j above 1) */
	int rc;
	struct diag err;
};

struct pairs_job {
	struct diff_run *run;
	const struct diff_pairs_output *o;
	bool buffered;            /* several pairs at once: keep what each prints */
};

/* Compare pair i (on a worker thread with -j above 1): writes results[i] only. */
static void *
compare_pair(void *ctx, size_t i)
{
	const struct pairs_job *job = ctx;
	struct pair_turn *t = xcalloc(1, sizeof(*t));
	diag_clear(&t->err);
	if (job->buffered)
		t->printed = outbuf_start();
	t->rc = write_pair(job->run, job->o, i, &t->err);
	if (t->printed)
		outbuf_stop(t->printed);
	return t;
}

/* A pair that could not be compared or written: kept, its row, then said. */
static void
pair_failed(struct diff_run *run, const struct diff_pairs_output *o, size_t i,
	    const struct diag *err)
{
	const struct diff_pair *pair = &run->pairs.pairs[i];
	const struct diff_pair_result *res = &run->results[i];
	diff_run_pair_failed(run, i, err);
	if (o->write.ndjson && o->reports)
		diff_ndjson_write_error(o->out, pair->name, pair->before, pair->after,
					res->kind ? res->kind->name : NULL, res->error);
	run->say.diag(run->say.ctx, err, err->code == DIAG_USAGE && !run->pairs.folders);
}

/* Pair i's turn, in pair order: its report and warnings, then its error. */
static int
say_pair(void *ctx, size_t i, void *result)
{
	const struct pairs_job *job = ctx;
	const struct diff_pairs_output *o = job->o;
	struct pair_turn *t = result;
	if (t->printed) {
		outbuf_replay(t->printed, o->out, stderr);
		/* What the rows' writer says when it writes to the output itself. */
		if (t->rc == 0 && o->write.ndjson && ferror(o->out)) {
			t->rc = -1;
			diag_set(&t->err, DIAG_IOERR, NULL, 0, 0, "cannot write output");
		}
	}
	if (t->rc != 0)
		pair_failed(job->run, o, i, &t->err);
	free(t);
	/* The output cannot be written (a full disk, a closed pipe): compare no
	 * more pairs, at any -j. */
	return ferror(o->out) ? DIAG_IOERR : 0;
}

/* A pair compared ahead of a stop: as if never compared, as with -j 1. */
static void
drop_pair(void *ctx, size_t i, void *result)
{
	const struct pairs_job *job = ctx;
	struct pair_turn *t = result;
	diff_pair_result_release(&job->run->results[i]);
	outbuf_free(t->printed);
	free(t);
}

int
diff_run_pairs(struct diff_run *run, const struct diff_pairs_output *o)
{
	size_t n = run->pairs.npairs;
	unsigned jobs = o->jobs ? o->jobs : app_parallel_default_jobs();
	diff_run_start_pairs(run);
	struct pairs_job job = { .run = run, .o = o, .buffered = jobs > 1 && n > 1 };
	struct app_parallel_opts opts = { .jobs = jobs, .window = app_parallel_window(jobs) };
	return app_parallel_map(n, &opts, compare_pair, say_pair, drop_pair, &job);
}
