#ifndef IOTALLY_CLI_COMMANDS_H
#define IOTALLY_CLI_COMMANDS_H

/*
 * The subcommand table. A subcommand is one cmd_<name>.c file with a run
 * function and a help text, plus one row in the table in main.c; the
 * command of each kind of capture comes from the kind's row instead
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

int cmd_capture(int argc, char **argv);
extern const char cmd_capture_help[];
/* The command of each kind of capture, run from the kind's row (argv[0] its name). */
int cmd_kind(int argc, char **argv);
int cmd_diff(int argc, char **argv);
extern const char cmd_diff_help[];
int cmd_rate(int argc, char **argv);
extern const char cmd_rate_help[];
int cmd_redact(int argc, char **argv);
extern const char cmd_redact_help[];
int cmd_report(int argc, char **argv);
extern const char cmd_report_help[];
int cmd_signatures(int argc, char **argv);
extern const char cmd_signatures_help[];
int cmd_trend(int argc, char **argv);
extern const char cmd_trend_help[];

#endif
