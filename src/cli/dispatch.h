#ifndef IOTALLY_CLI_DISPATCH_H
#define IOTALLY_CLI_DISPATCH_H

/*
 * `iotally FILE|- [options]`: the command that reads an input's kind,
 * chosen from its content (ingest/detect.h), never from its name.
 */

#include <stdbool.h>

#include "app/input.h"

/*
 * argv[1] is FILE or "-": recognise it and run its command with argv as
 * "COMMAND FILE options...". Standard input is kept (a pipe is copied to
 * an unlinked file in $TMPDIR) so that it can be read twice. Exit status.
 */
int cli_run_for_input(int argc, char **argv);

/* A word that names a file rather than a command: it holds '/' or '.'. */
bool cli_looks_like_path(const char *name);

/*
 * The one rule for an empty input (no bytes, or only blank lines and
 * leading comment lines: ingest/line_input.h), in every
 * command: exit 65 "the input is empty", since an empty file cannot be told
 * from a capture that failed before it wrote anything. Prints the error and
 * returns true when the input is empty.
 */
bool cli_refuse_empty(const char *command, const char *path, const struct app_input *in);

/*
 * After `command`'s parser refused a whole input (`err`: DIAG_DATA, no line
 * number; any DIAG_DATA error for another tool's report), say what the input is and what reads it when that is known:
 * another command's capture ("'iotally vmmap' reads it"), iotally JSON
 * (only 'iotally diff' reads it), another tool's report (iotally does not
 * read it). Prints that error and returns true; false when the parser's
 * own message says more.
 */
bool cli_explain_input(const char *command, const char *path, const struct app_input *in,
		       const struct diag *err);

#endif
