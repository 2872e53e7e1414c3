/*
 * Sources of a command that reads captures: operands expanded (folders,
 * bundle archives in them), then each opened, looked at and read in turn.
 */

#include "cli/inputs.h"

#include "cli/commands.h"
#include "cli/options.h"
#include "ingest/bundle.h"
#include "ingest/capture_dir.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
cli_sources_init(struct cli_sources *s)
{
	memset(s, 0, sizeof(*s));
}

void
cli_sources_release(struct cli_sources *s)
{
	for (size_t i = 0; i < s->nowned; i++)
		free(s->owned[i]);
	free(s->owned);
	for (size_t i = 0; i < s->nbundles; i++) {
		bundle_release(s->bundles[i]);
		free(s->bundles[i]);
	}
	free(s->bundles);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

bool
cli_operand_is_folder(const char *path)
{
	return strcmp(path, "-") != 0 && capture_dir_is_dir(path);
}

int
cli_folder_needs_ndjson(const char *path, struct diag *err)
{
	return diag_set(err, DIAG_USAGE, NULL, 0, 0,
			"'%s' is a folder: --format ndjson reads every capture in it (and "
			"several inputs); the other formats read one capture", path);
}

static struct cli_source *
add_source(struct cli_sources *s, const char *path, bool in_folder)
{
	s->v = xgrow(s->v, &s->alloc, s->n + 1, sizeof(*s->v));
	struct cli_source *src = &s->v[s->n++];
	memset(src, 0, sizeof(*src));
	src->path = path;
	src->in_folder = in_folder;
	src->reader.fd = -1;
	diag_clear(&src->error);
	return src;
}

static const char *
keep_path(struct cli_sources *s, char *path)
{
	s->owned = xgrow(s->owned, &s->owned_alloc, s->nowned + 1, sizeof(*s->owned));
	s->owned[s->nowned++] = path;
	return path;
}

/* Print what checking an archived capture against its manifest found. */
static int
verify_capture(const struct bundle_capture *c, struct diag *err)
{
	struct diag_list warnings;
	diag_list_init(&warnings, 20);
	int rc = bundle_verify_capture(c, &warnings, err);
	cli_print_warnings(&warnings);
	diag_list_release(&warnings);
	return rc;
}

/* A bundle (archive or folder) in a folder: its capture of `kind`, or why there is none. */
static void
add_archive(struct cli_sources *s, const char *kind, const char *path)
{
	struct bundle *b = xcalloc(1, sizeof(*b));
	struct diag err;
	if (bundle_open(path, b, &err) < 0) {
		bundle_release(b);
		free(b);
		struct cli_source *src = add_source(s, path, true);
		src->failed_early = true;
		src->error = err;
		return;
	}
	s->bundles = xgrow(s->bundles, &s->bundles_alloc, s->nbundles + 1, sizeof(*s->bundles));
	s->bundles[s->nbundles++] = b;
	const struct bundle_capture *c = b->series ? NULL : bundle_capture_of_kind(b, kind);
	const struct bundle_step_note *m = b->series || c ? NULL : bundle_missed_of_kind(b, kind);
	if (!b->series && !c && (!m || strcmp(m->status, "skipped") == 0)) {
		/* Not captured by choice: like a capture of another kind, not an error. */
		s->nnot_captured++;
		return;
	}
	if (c && verify_capture(c, &err) == 0) {
		add_source(s, c->path, true);
		return;
	}
	struct cli_source *src = add_source(s, path, true);
	src->failed_early = true;
	if (c)
		src->error = err;
	else if (b->series)
		diag_set(&src->error, DIAG_USAGE, path, 0, 0, "is a series of %zu samples: "
			 "name its sample folders", b->nsamples);
	else
		diag_set(&src->error, DIAG_NOINPUT, path, 0, 0, "the bundle holds no %s capture: "
			 "its step %s was %s%s%s", kind, m->step, m->status, m->reason ? ": " : "",
			 m->reason ? m->reason : "");
}

static const char *
folder_path(struct cli_sources *s, const char *dir, const char *name)
{
	struct strbuf full = STRBUF_INIT;
	size_t len = strlen(dir);
	strbuf_addf(&full, "%s%s%s", dir, len && dir[len - 1] == '/' ? "" : "/", name);
	return keep_path(s, strbuf_detach(&full, NULL));
}

/*
 * A folder's files and its subfolders that are capture bundles, merged in
 * name order; other subfolders are not read (counted).
 */
static void
add_folder(struct cli_sources *s, const char *kind, const char *dir)
{
	struct capture_dir d;
	struct diag err;
	size_t i = 0, j = 0, n = s->n;
	if (capture_dir_list(dir, &d, &err) < 0) {
		struct cli_source *src = add_source(s, dir, false);
		src->failed_early = true;
		src->error = err;
		return;
	}
	while (i < d.n || j < d.nskipped_dirs) {
		bool file = j == d.nskipped_dirs ||
			    (i < d.n && strcmp(d.names[i], d.subdirs[j]) < 0);
		const char *path = folder_path(s, dir, file ? d.names[i++] : d.subdirs[j++]);
		if (bundle_path_is_bundle(path))
			add_archive(s, kind, path);
		else if (file)
			add_source(s, path, true);
		else
			s->nskipped_dirs++;
	}
	if (s->n == n && d.n == 0) {
		struct cli_source *src = add_source(s, dir, false);
		src->failed_early = true;
		diag_set(&src->error, DIAG_NOINPUT, dir, 0, 0, "the folder holds no capture "
			 "files%s", d.nskipped_dirs ? " (its subfolders are not read)" : "");
	}
	capture_dir_release(&d);
}

void
cli_sources_add_operand(struct cli_sources *s, const char *kind, const char *operand)
{
	if (cli_operand_is_folder(operand))
		add_folder(s, kind, operand);
	else
		add_source(s, operand, false);
}

/* A source that failed: said, counted, its status kept when it is the first. */
static void
source_failed(struct cli_sources *s, const char *command, const struct cli_source *src,
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

/* Open and look at a source. 0; 1 when it is to be skipped; -1 with *err set. */
static int
open_source(struct cli_sources *s, const char *command, size_t max_line,
	    struct cli_source *src, struct diag *err)
{
	if (line_reader_open(&src->reader, src->path, max_line, err) < 0)
		return -1;
	if (cli_input_peek(&src->reader, &src->in, err) < 0)
		return -1;
	if (src->in.empty)
		return -1;
	const char *reader = cli_command_for_kind(src->in.kind);
	if (src->in_folder && reader && strcmp(reader, command) != 0) {
		s->nother_kind++;
		return 1;
	}
	return 0;
}

static void
say_run_summary(const struct cli_sources *s, const char *command)
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
cli_sources_read_each(struct cli_sources *s, const char *command, size_t max_line,
		      cli_source_read_fn read, cli_error_row_fn error_row, void *ctx)
{
	for (size_t i = 0; i < s->n; i++) {
		struct cli_source *src = &s->v[i];
		struct diag err;
		diag_clear(&err);
		if (src->failed_early) {
			source_failed(s, command, src, &src->error, false, error_row);
			continue;
		}
		int rc = open_source(s, command, max_line, src, &err);
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
	if (cli_operand_is_folder(*path))
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
cli_sources_add_operands(struct cli_sources *s, const char *kind, const struct cli_operands *o)
{
	for (size_t i = 0; i < o->n; i++)
		cli_sources_add_operand(s, kind, o->v[i]);
}
