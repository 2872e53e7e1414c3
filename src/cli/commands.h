#ifndef IOTALLY_CLI_COMMANDS_H
#define IOTALLY_CLI_COMMANDS_H

/*
 * The commands as cli/ runs them: a row of the command table
 * (app/command_help.h: name, summary, help) with the run function of its
 * id (main.c). A command of no kind is one cmd_<name>.c file with a run
 * function; the command of each kind of capture comes from the kind's row
 * (app/kind_command.h, run by cmd_kind.c).
 * Run functions return an exit status (sysexits codes, see util/diag.h).
 */

#include <stdio.h>

#include "cli/msgs.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;   /* one line for `iotally --help` */
	const char *help;      /* full text for `iotally help NAME` */
};

/* A usage error: the message, the command's usage line, exit status 64. */
struct diag;
int cli_usage_error(const struct command *cmd, const struct diag *d);
/* Flush standard output; 0, or 74 after saying why output was lost. */
int cli_finish_output(void);
const struct command *cli_find_command(const char *name);
/*
 * A help text to `out`, its lists of kinds ("{kinds or}") said from the
 * registry rows (app/kind_text.h).
 */
void cli_print_help(FILE *out, const char *text);
/* `iotally NAME --help`: command NAME's help text on standard output. */
void cli_print_command_help(const char *name);

int cmd_capture(int argc, char **argv);
/* The command of each kind of capture, run from the kind's row (argv[0] its name). */
int cmd_kind(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_rate(int argc, char **argv);
int cmd_redact(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_signatures(int argc, char **argv);
int cmd_trend(int argc, char **argv);

#endif
