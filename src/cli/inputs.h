#ifndef IOTALLY_CLI_INPUTS_H
#define IOTALLY_CLI_INPUTS_H

/*
 * The operands of the commands that read captures: they become a list of
 * sources (app/sources.h), which app/sources_read.h reads; here what is
 * said about them (the bundles' warnings, a source's failure).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "app/sources.h"
#include "util/diag.h"

/*
 * Add one operand of command `kind` (app_sources_add_operand()) and say
 * on standard error what checking its bundle's captures found.
 */
void cli_sources_add_operand(struct app_sources *s, const char *kind, const char *operand);

/*
 * Say a source's failure: a usage error with the command's usage line, an
 * input the reader refused whole by what it is (cli_explain_input()) when
 * that says more, else the error. Returns the exit status (err->code).
 */
int cli_source_say_failure(const char *command, const struct app_source *src,
			   const struct diag *err);

/* -j N: from 1 to APP_PARALLEL_MAX_JOBS (app/parallel.h). 0, or -1 with a usage error. */
int cli_parse_jobs(const char *value, unsigned *jobs, struct diag *err);

/* Operands in command-line order, and whether each came after '--'. */
struct cli_operands {
	const char **v;
	bool *after_dashes;
	size_t n;
};

struct cli_parser;
void cli_operands_add(struct cli_operands *o, const struct cli_parser *p, const char *arg);
void cli_operands_release(struct cli_operands *o);

/*
 * Which operands are inputs. With `several` (--format ndjson) every one is,
 * added to `s`. Else the first is the one input (*path; a folder is a usage
 * error) and each other one a name of kind `what` (*names, *nnames; the
 * caller frees *names), refused when it names a file (options.h
 * cli_check_extra_operand(); what NULL: every second operand is refused).
 * 0, or -1 with *err set.
 */
int cli_operands_split(const struct cli_operands *o, struct cli_parser *p, const char *command,
		       const char *what, bool several, const char **path, const char ***names,
		       size_t *nnames, struct diag *err);

/* Every operand of `o` as sources of command `kind`. */
void cli_sources_add_operands(struct app_sources *s, const char *kind,
			      const struct cli_operands *o);

/* A folder given to a format that reads one input: the usage error. -1. */
int cli_folder_needs_ndjson(const char *path, struct diag *err);

#endif
