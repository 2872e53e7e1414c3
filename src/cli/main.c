/*
 * iotally: offline analyzer for macOS memory diagnostics.
 * Dispatches subcommands from one sorted table and owns what every
 * command shares: printing diagnostics, usage errors and flushing output.
 */

#include "cli/commands.h"
#include "cli/dispatch.h"

#include "app/command_help.h"
#include "app/kind.h"
#include "cli/bundle_args.h"
#include "iotally-config.h"
#include "util/array.h"
#include "util/diag.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What runs each command of the table (app/command_help.h), by its id. */
static int (*const runs[])(int argc, char **argv) = {
	[COMMAND_CAPTURE] = cmd_capture,
	[COMMAND_DIFF] = cmd_diff,
	[COMMAND_RATE] = cmd_rate,
	[COMMAND_REDACT] = cmd_redact,
	[COMMAND_REPORT] = cmd_report,
	[COMMAND_SIGNATURES] = cmd_signatures,
	[COMMAND_TREND] = cmd_trend,
	[COMMAND_KIND] = cmd_kind,
};

/* The table's rows with their run functions, in its order: filled by main()'s
 * first look-up, read only after it (on -j workers too). */
static struct command commands[COMMAND_KIND + KINDS_MAX];
static size_t ncommands;

const struct command *
cli_find_command(const char *name)
{
	const struct command_text *v, *t = command_find(name);
	size_t n = command_list(&v);
	for (; ncommands < n; ncommands++)
		commands[ncommands] = (struct command){ v[ncommands].name, runs[v[ncommands].id],
							v[ncommands].summary,
							v[ncommands].help };
	return t ? &commands[t - v] : NULL;
}

int
cli_usage_error(const struct command *cmd, const struct diag *d)
{
	cli_print_diag(d);
	if (cmd)
		fprintf(stderr, "Try 'iotally help %s'.\n", cmd->name);
	else
		fputs("Try 'iotally --help'.\n", stderr);
	return DIAG_USAGE;
}

int
cli_finish_output(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		int e = errno;
		cli_error(NULL, 0, "cannot write output: %s", e ? strerror(e) : "write error");
		return DIAG_IOERR;
	}
	return 0;
}

void
cli_print_help(FILE *out, const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	command_help_expand(&sb, text);
	fwrite(sb.buf, 1, sb.len, out);
	strbuf_release(&sb);
}

void
cli_print_command_help(const char *name)
{
	cli_print_help(stdout, cli_find_command(name)->help);
}

static void
print_main_help(FILE *out)
{
	struct strbuf sb = STRBUF_INIT;
	command_main_help(&sb);
	fwrite(sb.buf, 1, sb.len, out);
	strbuf_release(&sb);
}

static int
finish(int status)
{
	int out = cli_finish_output();
	if (fclose(stdout) != 0 && out == 0) {
		cli_error(NULL, 0, "cannot write output: %s", strerror(errno));
		out = DIAG_IOERR;
	}
	return status ? status : out;
}

/*
 * "no such command 'NAME'", with the nearest command's name when one is
 * close ("did you mean 'report'?"), and `tail` after it.
 */
static void
no_such_command(struct diag *d, const char *name, const char *tail)
{
	const struct command_text *near = command_nearest(name);
	if (near)
		diag_set(d, DIAG_USAGE, NULL, 0, 0, "no such command '%s'%s; did you mean '%s'?",
			 name, tail, near->name);
	else
		diag_set(d, DIAG_USAGE, NULL, 0, 0, "no such command '%s'%s", name, tail);
}

static int
run_help(int argc, char **argv)
{
	if (argc < 3) {
		print_main_help(stdout);
		return 0;
	}
	const struct command *cmd = cli_find_command(argv[2]);
	if (!cmd) {
		struct diag d;
		no_such_command(&d, argv[2], "");
		return cli_usage_error(NULL, &d);
	}
	cli_print_help(stdout, cmd->help);
	return 0;
}

/* A command whose operands may be capture bundles (cli/bundle_args.h). */
static int
run_command(const struct command *cmd, int argc, char **argv)
{
	if (!cli_command_reads_bundles(cmd->name))
		return cmd->run(argc, argv);
	struct app_bundles bundles;
	app_bundles_init(&bundles);
	int status = cli_bundle_operands(cmd->name, argc, argv, &bundles);
	if (!status)
		status = cmd->run(argc, argv);
	app_bundles_release(&bundles);
	return status;
}

int
main(int argc, char **argv)
{
	static char outbuf[1 << 16];
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	xalloc_keep_freed_memory();

	if (argc < 2) {
		print_main_help(stderr);
		return DIAG_USAGE;
	}
	const char *name = argv[1];
	if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0)
		return finish((print_main_help(stdout), 0));
	if (strcmp(name, "--version") == 0) {
		printf("iotally %s\n", IOTALLY_VERSION);
		return finish(0);
	}
	if (strcmp(name, "help") == 0)
		return finish(run_help(argc, argv));

	const struct command *cmd = cli_find_command(name);
	struct diag d;
	switch (command_route(name)) {
	case ROUTE_COMMAND:
		return finish(run_command(cmd, argc - 1, argv + 1));
	case ROUTE_SESSION:
		return finish(cli_run_session(argc, argv));
	case ROUTE_BUNDLE:
		return finish(cli_run_bundle(argc, argv));
	case ROUTE_INPUT:
		return finish(cli_run_for_input(argc, argv));
	case ROUTE_UNKNOWN_OPTION:
		diag_set(&d, DIAG_USAGE, NULL, 0, 0, "unknown option '%s'", name);
		break;
	case ROUTE_NO_FILE:
		/* A file that is not there: what `iotally vmmap FILE` would say. */
		diag_set(&d, DIAG_NOINPUT, name, 0, 0, "cannot open input: no such file "
			 "(nor a command of that name)");
		cli_print_diag(&d);
		return DIAG_NOINPUT;
	case ROUTE_NO_COMMAND:
	default:
		no_such_command(&d, name, " (nor a file of that name)");
		break;
	}
	return cli_usage_error(NULL, &d);
}
