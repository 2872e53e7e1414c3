/*
 * iotally: offline analyzer for macOS memory diagnostics.
 * Dispatches subcommands from one sorted table and owns what every
 * command shares: printing diagnostics, usage errors and flushing output.
 */

#include "cli/commands.h"

#include "iotally-config.h"
#include "ingest/detect.h"
#include "util/diag.h"
#include "util/linereader.h"
#include "util/strbuf.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Sorted by name. */
static const struct command commands[] = {
	{ "classes", cmd_classes,
	  "IOKit instance counts as ioclasscount prints them (ioreg, ioclasscount captures)",
	  cmd_classes_help },
	{ "diff", cmd_diff,
	  "what grew between two captures of the same kind, with CI gates",
	  cmd_diff_help },
	{ "track", cmd_track,
	  "kernel allocation call sites of ioclasscount --track/--leaks/--maps captures",
	  cmd_track_help },
	{ "vmmap", cmd_vmmap,
	  "IOAccelerator/IOSurface memory by purgeable state and size (vmmap dumps)",
	  cmd_vmmap_help },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

const struct command *
cli_find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

void
cli_print_diag(const struct diag *d)
{
	struct strbuf sb = STRBUF_INIT;
	diag_format(d, &sb);
	fwrite(sb.buf, 1, sb.len, stderr);
	strbuf_release(&sb);
}

void
cli_print_warnings(const struct diag_list *w)
{
	for (size_t i = 0; i < w->len; i++)
		cli_print_diag(&w->items[i]);
	if (w->dropped)
		fprintf(stderr, "iotally: note: %" PRIu64 " more warnings not shown\n",
			w->dropped);
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
		fprintf(stderr, "iotally: error: cannot write output: %s\n",
			e ? strerror(e) : "write error");
		return DIAG_IOERR;
	}
	return 0;
}

static void
print_main_help(FILE *out)
{
	fputs("usage: iotally <command> [options] FILE|-\n"
	      "       iotally FILE [options]   (the command that reads FILE's kind)\n"
	      "       iotally help <command>\n"
	      "       iotally --version\n"
	      "\n"
	      "Reads saved macOS memory diagnostics (vmmap, ioreg, ioclasscount) on any\n"
	      "machine and reports them as tables, histograms, JSON or CSV.\n"
	      "\n"
	      "Commands:\n", out);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fputs("\n"
	      "Every command reads FILE, or standard input when FILE is '-'.\n"
	      "Exit status: 0 success, 1 a diff gate tripped, 64 usage error, 65 malformed\n"
	      "input, 66 input cannot be opened, 70 internal error, 74 output cannot be\n"
	      "written ('iotally help diff' lists its causes).\n",
	      out);
}

static int
finish(int status)
{
	int out = cli_finish_output();
	if (fclose(stdout) != 0 && out == 0) {
		fprintf(stderr, "iotally: error: cannot write output: %s\n", strerror(errno));
		out = DIAG_IOERR;
	}
	return status ? status : out;
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
		diag_set(&d, DIAG_USAGE, NULL, 0, 0, "no such command '%s'", argv[2]);
		return cli_usage_error(NULL, &d);
	}
	fputs(cmd->help, stdout);
	return 0;
}

/* Which command reads each kind of capture, for `iotally FILE [options]`. */
static const struct {
	enum input_kind kind;
	const char *command;
} command_for_kind[] = {
	{ INPUT_VMMAP, "vmmap" },
	{ INPUT_IOREG_TEXT, "classes" },
	{ INPUT_XML_PLIST, "classes" },
	{ INPUT_BPLIST, "classes" },
	{ INPUT_IOCLASSCOUNT, "classes" },
	{ INPUT_TRACK, "track" },
};

/*
 * `iotally FILE [options]`: recognise the capture from its first bytes and
 * run the command that reads it, as if it had been named. (Standard input
 * cannot be looked at twice, so it needs the command named.)
 */
static int
run_for_file(int argc, char **argv)
{
	struct line_reader r;
	struct diag err;
	enum input_kind kind;

	if (line_reader_open(&r, argv[1], 0, &err) < 0) {
		cli_print_diag(&err);
		return err.code;
	}
	int rc = input_detect_reader(&r, &kind, &err);
	line_reader_close(&r);
	if (rc < 0) {
		cli_print_diag(&err);
		return err.code;
	}
	for (size_t i = 0; i < sizeof(command_for_kind) / sizeof(command_for_kind[0]); i++) {
		if (command_for_kind[i].kind != kind)
			continue;
		const struct command *cmd = cli_find_command(command_for_kind[i].command);
		/* argv becomes "COMMAND FILE options...": operands may come first. */
		argv[0] = (char *)cmd->name;
		return cmd->run(argc, argv);
	}
	diag_set(&err, DIAG_DATA, argv[1], 0, 0,
		 "cannot tell which command reads this file: it looks like %s; name "
		 "the command (iotally --help lists them)", input_kind_describe(kind));
	cli_print_diag(&err);
	return DIAG_DATA;
}

int
main(int argc, char **argv)
{
	static char outbuf[1 << 16];
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));

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
	if (!cmd && name[0] != '-' && access(name, F_OK) == 0)
		return finish(run_for_file(argc, argv));
	if (!cmd) {
		struct diag d;
		if (name[0] == '-')
			diag_set(&d, DIAG_USAGE, NULL, 0, 0, "unknown option '%s'", name);
		else
			diag_set(&d, DIAG_USAGE, NULL, 0, 0, "no such command '%s'", name);
		return cli_usage_error(NULL, &d);
	}
	return finish(cmd->run(argc - 1, argv + 1));
}
