/*
 * The operands of a command that reads captures (app/sources.h) and the
 * way a source's failure is said (app/sources_read.h reads them).
 */

#include "cli/inputs.h"

#include "app/kind_command.h"
#include "app/parallel.h"
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

int
cli_source_say_failure(const char *command, const struct app_source *src, const struct diag *err)
{
	if (err->code == DIAG_USAGE)
		return cli_usage_error(cli_find_command(command), err);
	if (!src->refused || !cli_explain_input(command, src->path, &src->in, err))
		cli_print_diag(err);
	return err->code;
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
