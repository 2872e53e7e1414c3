#ifndef IOTALLY_CLI_DISPATCH_H
#define IOTALLY_CLI_DISPATCH_H

/*
 * `iotally FILE|- [options]`: the command that reads an input's kind,
 * chosen from its content (ingest/detect.h), never from its name.
 */

#include <stdbool.h>

#include "app/input.h"

/*
 * argv[1] is FILE or "-": recognise it (app_input_detect()) and run its
 * command with argv as "COMMAND FILE options...". Exit status.
 */
int cli_run_for_input(int argc, char **argv);

/* An empty input refused by the one rule (app_say_empty(), exit 65): true when it is empty. */
bool cli_refuse_empty(const char *command, const char *path, const struct app_input *in);

/*
 * After `command`'s parser refused a whole input, say what the input is
 * (app_input_explain()) and return true; false when the parser's own
 * message says more.
 */
bool cli_explain_input(const char *command, const char *path, const struct app_input *in,
		       const struct diag *err);

#endif
