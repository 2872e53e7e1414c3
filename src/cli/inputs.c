/*
 * Sources of a command that reads captures (app/sources.h), each opened,
 * looked at and read in turn, with what fails said on standard error.
 */

#include "cli/inputs.h"

#include "app/kind_command.h"
#include "app/parallel.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "util/outbuf.h"
#include "cli/dispatch.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
cli_folder_needs_ndjson(const char *path, struct diag *err)
{
	return diag_set(err, DIAG_USAGE, NULL, 0, 0,
			"'%s' is a folder: --format ndjson reads every capture in it (and "
			"several inputs); the other formats read one capture", path);
}

struct ndjson_source
cli_ndjson_source(const struct app_source *src)
{
	return kind_ndjson_source(src);
}

int
cli_source_say_failure(const char *command, const struct app_source *src, const struct diag *err)
{
	if (err->code == DIAG_USAGE)
		return cli_usage_error(cli_find_command(command), err);
	if (!src->refused || !cli_explain_input(command, src->path, &src->in, err))
		cli_print_diag(err);
	return err->code;
}

/* A source that failed: said, counted, its status kept when it is the first. */
static void
source_failed(struct app_sources *s, const char *command, const struct app_source *src,
	      const struct diag *err, bool printed, cli_error_row_fn error_row)
{
	if (!printed)
		cli_source_say_failure(command, src, err);
	s->nfailed++;
	if (!s->status)
		s->status = err->code ? err->code : DIAG_SOFTWARE;
	if (error_row) {
		char *line = cli_diag_line(err);
		struct ndjson_source origin = cli_ndjson_source(src);
		error_row(stdout, &origin, line);
		free(line);
	}
}

static void
say_run_summary(const struct app_sources *s, const char *command)
{
	if (s->nskipped_dirs)
		cli_note(NULL, 0, "%zu subfolder%s not read: a folder's captures are its files "
			 "and the capture bundles in it", s->nskipped_dirs,
			 s->nskipped_dirs == 1 ? "" : "s");
	size_t skipped = s->nother_kind + s->nnot_captured;
	if (skipped)
		cli_note(NULL, 0, "%zu file%s in folders hold%s no %s capture (captures of another "
			 "kind, bundles that did not capture one): not read", skipped,
			 skipped == 1 ? "" : "s", skipped == 1 ? "s" : "", command);
	size_t ninputs = s->n - s->nother_kind;   /* the inputs of this command's kind */
	if (s->nfailed && ninputs > 1)
		cli_warn(NULL, 0, "results are partial: %zu of %zu inputs could not be read "
			 "(see the errors above)", s->nfailed, ninputs);
}

/* One source's turn as the reading left it, for its turn to be said (in input order). */
struct read_turn {
	struct outbuf *printed_out;   /* what reading printed, kept (-j above 1) */
	int rc;
	bool skipped;                     /* of another command's kind, in a folder */
	bool printed;                     /* the error was printed by the reader */
	struct diag err;
};

struct read_run {
	struct app_sources *s;
	const char *command;
	size_t max_line;
	cli_source_read_fn read;
	cli_error_row_fn error_row;
	void *ctx;
	bool buffered;                    /* several sources at once: keep what each prints */
};

/*
 * Open, look at and read source i (on a worker thread with -j above 1):
 * touches source i only, and prints through outbuf_out()/outbuf_err() into the
 * turn's buffer.
 */
static void *
read_source(void *ctx, size_t i)
{
	const struct read_run *run = ctx;
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
	int rc = app_source_open(run->command, run->max_line, src, &t->err);
	if (rc == 1) {
		t->skipped = true;
		rc = 0;
	} else {
		if (rc < 0 && src->in.empty) {
			cli_refuse_empty(run->command, src->path, &src->in);
			diag_set(&t->err, DIAG_DATA, src->path, 0, 0, "the input is empty");
			t->printed = true;
		}
		if (rc == 0)
			rc = run->read(run->ctx, src, &t->err);
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
		source_failed(run->s, run->command, &run->s->v[i], &t->err, t->printed,
			      run->error_row);
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
cli_sources_read_each(struct app_sources *s, const char *command, size_t max_line,
		      cli_source_read_fn read, cli_error_row_fn error_row, void *ctx)
{
	unsigned jobs = s->jobs ? s->jobs : app_parallel_default_jobs();
	struct read_run run = {
		.s = s, .command = command, .max_line = max_line, .read = read,
		.error_row = error_row, .ctx = ctx, .buffered = jobs > 1 && s->n > 1,
	};
	struct app_parallel_opts opts = { .jobs = jobs, .window = app_parallel_window(jobs) };
	app_parallel_map(s->n, &opts, read_source, say_source, drop_turn, &run);
	say_run_summary(s, command);
	return s->status;
}

int
cli_parse_jobs(const char *value, unsigned *jobs, struct diag *err)
{
	uint64_t n;
	if (cli_positive_count("-j", value, &n, err) < 0 || n > APP_PARALLEL_MAX_JOBS)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0, "-j needs a number of jobs from 1 "
				"to %u, got '%s'", APP_PARALLEL_MAX_JOBS, value);
	*jobs = (unsigned)n;
	return 0;
}

void
cli_operands_add(struct cli_operands *o, const struct cli_parser *p, const char *arg)
{
	o->v = xrealloc(o->v, (o->n + 1) * sizeof(*o->v));
	o->after_dashes = xrealloc(o->after_dashes, (o->n + 1) * sizeof(*o->after_dashes));
	o->after_dashes[o->n] = p->only_operands;
	o->v[o->n++] = arg;
}

void
cli_operands_release(struct cli_operands *o)
{
	free(o->v);
	free(o->after_dashes);
	memset(o, 0, sizeof(*o));
}

int
cli_operands_split(const struct cli_operands *o, struct cli_parser *p, const char *command,
		   const char *what, bool several, const char **path, const char ***names,
		   size_t *nnames, struct diag *err)
{
	if (several || o->n == 0)
		return 0;
	*path = o->v[0];
	if (app_operand_is_folder(*path))
		return cli_folder_needs_ndjson(*path, err);
	for (size_t i = 1; i < o->n; i++) {
		p->only_operands = o->after_dashes[i];
		if (cli_check_extra_operand(p, command, what, *path, o->v[i], err) < 0) {
			size_t n = strlen(err->msg);
			snprintf(err->msg + n, sizeof(err->msg) - n,
				 "; --format ndjson reads several inputs in one run");
			return -1;
		}
		*names = xrealloc(*names, (*nnames + 1) * sizeof(**names));
		(*names)[(*nnames)++] = o->v[i];
	}
	return 0;
}

void
cli_sources_add_operand(struct app_sources *s, const char *kind, const char *operand)
{
	/* At most one warning per capture checked: bounded by the folder's bundles. */
	struct diag_list warnings;
	diag_list_init(&warnings, SIZE_MAX);
	app_sources_add_operand(s, kind, operand, &warnings);
	cli_print_warnings(&warnings);
	diag_list_release(&warnings);
}

void
cli_sources_add_operands(struct app_sources *s, const char *kind, const struct cli_operands *o)
{
	for (size_t i = 0; i < o->n; i++)
		cli_sources_add_operand(s, kind, o->v[i]);
}
