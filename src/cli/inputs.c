/*
 * Sources of a command that reads captures (app/sources.h), each opened,
 * looked at and read in turn, with what fails said on standard error.
 */

#include "cli/inputs.h"

#include "cli/commands.h"
#include "cli/options.h"
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

/* A source that failed: said, counted, its status kept when it is the first. */
static void
source_failed(struct app_sources *s, const char *command, const struct app_source *src,
	      const struct diag *err, bool printed, cli_error_row_fn error_row)
{
	if (!printed) {
		if (err->code == DIAG_USAGE)
			cli_usage_error(cli_find_command(command), err);
		else if (!src->refused || !cli_explain_input(command, src->path, &src->in, err))
			cli_print_diag(err);
	}
	s->nfailed++;
	if (!s->status)
		s->status = err->code ? err->code : DIAG_SOFTWARE;
	if (error_row) {
		char *line = cli_diag_line(err);
		error_row(stdout, src->path, line);
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

int
cli_sources_read_each(struct app_sources *s, const char *command, size_t max_line,
		      cli_source_read_fn read, cli_error_row_fn error_row, void *ctx)
{
	for (size_t i = 0; i < s->n; i++) {
		struct app_source *src = &s->v[i];
		struct diag err;
		diag_clear(&err);
		if (src->failed_early) {
			source_failed(s, command, src, &src->error, false, error_row);
			continue;
		}
		int rc = app_source_open(s, command, max_line, src, &err);
		bool printed = false;
		if (rc == 1) {
			line_reader_close(&src->reader);
			continue;
		}
		if (rc < 0 && src->in.empty) {
			cli_refuse_empty(command, src->path, &src->in);
			diag_set(&err, DIAG_DATA, src->path, 0, 0, "the input is empty");
			printed = true;
		}
		if (rc == 0)
			rc = read(ctx, src, &err);
		if (rc > 0) {
			if (!err.code)
				diag_set(&err, rc, src->path, 0, 0, "could not be reported");
			printed = true;
		}
		line_reader_close(&src->reader);
		if (rc != 0)
			source_failed(s, command, src, &err, printed, error_row);
	}
	say_run_summary(s, command);
	return s->status;
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
