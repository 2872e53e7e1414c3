/*
 * Sources of a command that reads captures (app/sources_read.h), each
 * opened, looked at and read in turn, with what fails said on standard
 * error.
 */

#include "app/sources_read.h"

#include "app/kind.h"
#include "app/parallel.h"
#include "util/diag_write.h"
#include "util/outbuf.h"
#include "util/xalloc.h"

#include <stdlib.h>

void
app_say_empty(FILE *f, const char *command, const char *path)
{
	const struct kind *k = command ? kind_by_name(command) : NULL;
	const char *why = k && k->command ? k->command->empty_why : NULL;
	diag_write_msg(f, DIAG_ERROR, path, 0, "the input is empty%s", why ? why : "");
}

/* A source that failed: said, counted, its status kept when it is the first. */
static void
source_failed(struct app_sources *s, const struct app_sources_reading *r,
	      const struct app_source *src, const struct diag *err, bool printed)
{
	if (!printed)
		r->say_failure(r->command, src, err);
	s->nfailed++;
	if (!s->status)
		s->status = err->code ? err->code : DIAG_SOFTWARE;
	if (r->error_row) {
		char *line = diag_line(err);
		struct ndjson_source origin = kind_ndjson_source(src);
		r->error_row(stdout, &origin, line);
		free(line);
	}
}

static void
say_run_summary(const struct app_sources *s, const char *command)
{
	FILE *f = outbuf_err();
	if (s->nskipped_dirs)
		diag_write_msg(f, DIAG_NOTE, NULL, 0, "%zu subfolder%s not read: a folder's "
			       "captures are its files and the capture bundles in it",
			       s->nskipped_dirs, s->nskipped_dirs == 1 ? "" : "s");
	size_t skipped = s->nother_kind + s->nnot_captured;
	if (skipped)
		diag_write_msg(f, DIAG_NOTE, NULL, 0, "%zu file%s in folders hold%s no %s capture "
			       "(captures of another kind, bundles that did not capture one): "
			       "not read", skipped, skipped == 1 ? "" : "s",
			       skipped == 1 ? "s" : "", command);
	size_t ninputs = s->n - s->nother_kind;   /* the inputs of this command's kind */
	if (s->nfailed && ninputs > 1)
		diag_write_msg(f, DIAG_WARNING, NULL, 0, "results are partial: %zu of %zu inputs "
			       "could not be read (see the errors above)", s->nfailed, ninputs);
}

/* One source's turn as the reading left it, for its turn to be said (in input order). */
struct read_turn {
	struct outbuf *printed_out;       /* what reading printed, kept (-j above 1) */
	int rc;
	bool skipped;                     /* of another command's kind, in a folder */
	bool printed;                     /* the error was printed by the reader */
	struct diag err;
};

struct read_run {
	struct app_sources *s;
	const struct app_sources_reading *r;
	bool buffered;                    /* several sources at once: keep what each prints */
};

/*
 * Open, look at and read source i (on a worker thread with -j above 1):
 * touches source i only, and prints through outbuf_out()/outbuf_err() into
 * the turn's buffer.
 */
static void *
read_source(void *ctx, size_t i)
{
	const struct read_run *run = ctx;
	const struct app_sources_reading *r = run->r;
	struct app_source *src = &run->s->v[i];
	struct read_turn *t = xcalloc(1, sizeof(*t));
	diag_clear(&t->err);
	if (src->failed_early) {
		t->rc = -1;
		t->err = src->error;
		return t;
	}
	if (run->buffered)
		t->printed_out = outbuf_start();
	int rc = app_source_open(r->command, r->max_line, src, &t->err);
	if (rc == 1) {
		t->skipped = true;
		rc = 0;
	} else {
		if (rc < 0 && src->in.empty) {
			app_say_empty(outbuf_err(), r->command, src->path);
			diag_set(&t->err, DIAG_DATA, src->path, 0, 0, "the input is empty");
			t->printed = true;
		}
		if (rc == 0)
			rc = r->read(r->ctx, src, &t->err);
		if (rc > 0) {
			if (!t->err.code)
				diag_set(&t->err, rc, src->path, 0, 0, "could not be reported");
			t->printed = true;
		}
	}
	line_reader_close(&src->reader);
	if (t->printed_out)
		outbuf_stop(t->printed_out);
	t->rc = rc;
	return t;
}

/* Source i's turn, on the calling thread in input order: what it printed, then its failure. */
static int
say_source(void *ctx, size_t i, void *result)
{
	const struct read_run *run = ctx;
	struct read_turn *t = result;
	if (t->printed_out) {
		outbuf_replay(t->printed_out, stdout, stderr);
		/* What the rows' writer says when it writes to standard output itself. */
		if (t->rc == 0 && !t->skipped && ferror(stdout)) {
			t->rc = -1;
			diag_set(&t->err, DIAG_IOERR, NULL, 0, 0, "cannot write output");
		}
	}
	if (t->skipped)
		run->s->nother_kind++;
	else if (t->rc != 0)
		source_failed(run->s, run->r, &run->s->v[i], &t->err, t->printed);
	free(t);
	/* Standard output cannot be written (a full disk, a closed pipe): read no
	 * more inputs, at any -j; main() says why (exit 74 unless an input
	 * failed first). */
	return ferror(stdout) ? DIAG_IOERR : 0;
}

static void
drop_turn(void *ctx, size_t i, void *result)
{
	(void)ctx;
	(void)i;
	struct read_turn *t = result;
	outbuf_free(t->printed_out);
	free(t);
}

int
app_sources_read_each(struct app_sources *s, const struct app_sources_reading *r)
{
	unsigned jobs = s->jobs ? s->jobs : app_parallel_default_jobs();
	struct read_run run = { .s = s, .r = r, .buffered = jobs > 1 && s->n > 1 };
	struct app_parallel_opts opts = { .jobs = jobs, .window = app_parallel_window(jobs) };
	app_parallel_map(s->n, &opts, read_source, say_source, drop_turn, &run);
	say_run_summary(s, r->command);
	return s->status;
}
