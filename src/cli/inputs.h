#ifndef IOTALLY_CLI_INPUTS_H
#define IOTALLY_CLI_INPUTS_H

/*
 * The one input path of the commands that read a capture (vmmap, classes,
 * track): operands become a list of sources (app/sources.h), and every
 * source is opened, looked at (app/input.h), refused when empty and handed
 * to the command's reader the same way.
 *
 * Several sources are read one after the other: one that fails is said on
 * standard error (with its file and line) and the others are still read.
 * The exit status is the first error's (util/diag.h); when some of several
 * inputs failed, a closing warning says the results are partial.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "app/sources.h"
#include "report/ndjson.h"
#include "util/diag.h"

/*
 * Add one operand of command `kind` (app_sources_add_operand()) and say
 * on standard error what checking its bundle's captures found.
 */
void cli_sources_add_operand(struct app_sources *s, const char *kind, const char *operand);

/*
 * Read a source whose reader is open and not empty (the reader prints its
 * warnings). 0; -1 with *err set: cli_sources_read_each() prints it (with
 * the usage line for DIAG_USAGE), or says what the input is when the
 * reader set src->refused and the message can say more; or an exit status
 * above 0 when the reader has printed its error itself.
 */
typedef int (*cli_source_read_fn)(void *ctx, struct app_source *src, struct diag *err);
/* The row of a source that failed (--format ndjson): where it came from and the error as printed. */
typedef int (*cli_error_row_fn)(FILE *out, const struct ndjson_source *src, const char *error);

/*
 * Say a source's failure: a usage error with the command's usage line, an
 * input the reader refused whole by what it is (cli_explain_input()) when
 * that says more, else the error. Returns the exit status (err->code).
 */
int cli_source_say_failure(const char *command, const struct app_source *src,
			   const struct diag *err);

/* The source, side and pair of a source's rows (report/ndjson.h). */
struct ndjson_source cli_ndjson_source(const struct app_source *src);

/*
 * Read every source in order (max_line as line_reader_open() takes it);
 * each that fails gets its error row on standard output when error_row is
 * not NULL. Returns the first error's exit status, or 0.
 *
 * With s->jobs above 1 (or 0: one per processor) and several sources, up
 * to that many are read at once (app/parallel.h): `read` then runs on
 * worker threads, so it must not write to `ctx` (copy what it changes per
 * source) and prints only through outbuf_out()/outbuf_err() (util/outbuf.h) and
 * cli/msgs.h. What each source printed is kept and printed in its turn, so
 * standard output, standard error and the exit status are those of -j 1.
 */
int cli_sources_read_each(struct app_sources *s, const char *command, size_t max_line,
			  cli_source_read_fn read, cli_error_row_fn error_row, void *ctx);

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
