#ifndef IOTALLY_CLI_DISPATCH_H
#define IOTALLY_CLI_DISPATCH_H

/*
 * `iotally FILE|- [options]`: the command that reads an input's kind,
 * chosen from its content (ingest/detect.h), never from its name.
 */

#include <stdbool.h>

#include "ingest/detect.h"

/* "vmmap", "classes", "track": the command that reads `kind`, or NULL. */
const char *cli_command_for_kind(enum input_kind kind);

/*
 * argv[1] is FILE or "-": recognise it and run its command with argv as
 * "COMMAND FILE options...". Standard input is kept (a pipe is copied to
 * an unlinked file in $TMPDIR) so that it can be read twice. Exit status.
 */
int cli_run_for_input(int argc, char **argv);

/* A word that names a file rather than a command: it holds '/' or '.'. */
bool cli_looks_like_path(const char *name);

#endif
