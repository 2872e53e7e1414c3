/*
 * iotally: offline analyzer for macOS memory diagnostics.
 * Dispatches subcommands from one sorted table and owns what every
 * command shares: printing diagnostics, usage errors and flushing output.
 */

#include "cli/commands.h"
#include "cli/dispatch.h"

#include "app/kind.h"
#include "app/kind_command.h"
#include "app/kind_text.h"
#include "cli/bundle_args.h"
#include "ingest/bundle.h"
#include "iotally-config.h"
#include "ingest/detect.h"
#include "ingest/session_read.h"
#include "util/array.h"
#include "util/diag.h"
#include "util/linereader.h"
#include "util/strbuf.h"
#include "util/suggest.h"
#include "util/xalloc.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The commands of no kind; the command of each kind comes from its row. */
static const struct command fixed_commands[] = {
	{ "capture", cmd_capture,
	  "run Apple's tools on this Mac and write one bundle every command reads",
	  cmd_capture_help },
	{ "diff", cmd_diff,
	  "what grew between two captures of the same kind, with CI gates",
	  cmd_diff_help },
	{ "rate", cmd_rate,
	  "change per iteration of a repeated action, with an interval: does it leak, how much",
	  cmd_rate_help },
	{ "redact", cmd_redact,
	  "a redacted copy of a capture bundle or file: no user names, serials, home paths",
	  cmd_redact_help },
	{ "report", cmd_report,
	  "one report to attach to a bug: GitHub Markdown or an HTML page with charts",
	  cmd_report_help },
	{ "signatures", cmd_signatures,
	  "many before/after pairs bucketed by what grew (leak signatures), like crash reports",
	  cmd_signatures_help },
	{ "trend", cmd_trend,
	  "leak, plateau, step or stable per metric over a series of captures, with CI gates",
	  cmd_trend_help },
};

static struct command commands[ARRAY_SIZE(fixed_commands) + KINDS_MAX];
static size_t ncommands;

static int
by_name(const void *a, const void *b)
{
	return strcmp(((const struct command *)a)->name, ((const struct command *)b)->name);
}

/* Every command, sorted by name: the fixed ones and one per kind of the registry. */
static void
load_commands(void)
{
	if (ncommands)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(fixed_commands); i++)
		commands[ncommands++] = fixed_commands[i];
	for (const struct kind *k = kind_first(); k; k = kind_next(k))
		if (k->command)
			commands[ncommands++] = (struct command){ k->name, cmd_kind,
								  k->command->summary,
								  k->command->help };
	qsort(commands, ncommands, sizeof(*commands), by_name);
}

const struct command *
cli_find_command(const char *name)
{
	load_commands();
	for (size_t i = 0; i < ncommands; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
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

/*
 * What people come for, a command line each, before the command list: the
 * tasks the documentation tells as stories. tools/helptext.py reads this
 * block for the man page; tests/examples-run.py checks that each line names
 * a command and options that exist.
 */
static void
print_common_tasks(FILE *out)
{
	fputs("Common tasks:\n"
	      "  Attach a before/after page to a bug report:\n"
	      "    iotally report --format html -o report.html BEFORE AFTER\n"
	      "  Gate CI: fail the build when memory grew past its budgets (exit 1):\n"
	      "    iotally diff --gates budgets.txt --junit junit.xml BASELINE/ CURRENT/\n"
	      "  Hunt a leak on a Mac: a series of captures, then 'iotally report SERIES'\n"
	      "  (a tracking session on a DEVELOPMENT kernel: 'capture --session'):\n"
	      "    sudo iotally capture --process APP --count 20 --interval 60 --archive\n"
	      "  Leak per operation: repeat an action N times, then 'iotally rate SERIES':\n"
	      "    sudo iotally capture --repeat 20 --process APP -- COMMAND\n"
	      "  Triage a fleet: many before/after pairs bucketed by what grew:\n"
	      "    iotally signatures BEFORE/ AFTER/\n"
	      "\n", out);
}

void
cli_print_help(FILE *out, const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	kind_text_expand(&sb, text);
	fwrite(sb.buf, 1, sb.len, out);
	strbuf_release(&sb);
}

static void
print_main_help(FILE *out)
{
	fputs("usage: iotally <command> [options] FILE|-\n"
	      "       iotally FILE|- [options]   (the command that reads its kind)\n"
	      "       iotally help <command>\n"
	      "       iotally --version\n"
	      "\n"
	      "Reads saved macOS memory diagnostics (vmmap, ioreg, ioclasscount,\n"
	      "footprint) on any machine and reports them as tables, histograms, JSON\n"
	      "or CSV.\n"
	      "\n", out);
	print_common_tasks(out);
	fputs("Commands:\n", out);
	load_commands();
	for (size_t i = 0; i < ncommands; i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	cli_print_help(out, "\n"
	      "Commands read FILE, or standard input when FILE is '-' (diff, report and\n"
	      "trend read several), and 'iotally -' recognises standard input. A second\n"
	      "file operand of the other commands is refused, not taken as a name; a\n"
	      "name that is also a file's name goes after '--'. A capture of another\n"
	      "kind is refused with the command that reads it; iotally's own JSON of\n"
	      "{read-back kinds and} is read by diff, report and trend ('iotally\n"
	      "FILE.json' runs report); footprint's text output is read by 'iotally\n"
	      "footprint', diff, report and trend, heap's reports by 'iotally heap',\n"
	      "diff, report and trend; reports of other tools (footprint's JSON,\n"
	      "leaks, malloc_history, System Profiler) are not read.\n"
	      "gzip-compressed captures are read as they are, and a capture bundle\n"
	      "(folder or .tar.gz) wherever a capture is read, by its name only (a tar\n"
	      "archive on standard input is refused). A file whose lines end in CR\n"
	      "alone (classic Mac OS line ends, which no Apple tool here writes) is\n"
	      "refused naming its line ends; CRLF files are read.\n"
	      "\n"
	      "The same rules in every command: --snapshot N picks the Nth capture of a\n"
	      "file that holds several (--dump N is the same; past the last is exit 64);\n"
	      "a capture cut short is read up to the cut with a warning and marked\n"
	      "partial, and is exit 65 with --strict; an empty input (no bytes, or only\n"
	      "blank lines and leading '#' comment lines) is exit 65.\n"
	      "\n"
	      "Environment: TMPDIR is where 'iotally -' keeps piped standard input while\n"
	      "it is read (default /tmp). Output does not depend on the locale or time zone.\n"
	      "\n"
	      "Exit status: 0 success, 1 a diff gate tripped, 64 usage error, 65 malformed\n"
	      "input, 66 input cannot be opened, 69 a library iotally loads when it is\n"
	      "first needed (libxml2, libarchive) cannot be loaded, 70 internal error, 74\n"
	      "output cannot be written ('iotally help diff' lists its causes).\n");
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
	struct suggest s;
	suggest_init(&s, name, strlen(name));
	load_commands();
	for (size_t i = 0; i < ncommands; i++)
		suggest_consider(&s, commands[i].name, strlen(commands[i].name));
	if (s.best)
		diag_set(d, DIAG_USAGE, NULL, 0, 0, "no such command '%s'%s; did you mean '%.*s'?",
			 name, tail, (int)s.best_len, s.best);
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
	if (!cmd && name[0] != '-' &&
	    (session_path_is_session(name) || session_path_is_session_archive(name)))
		return finish(cli_run_session(argc, argv));
	if (!cmd && name[0] != '-' && bundle_path_is_bundle(name))
		return finish(cli_run_bundle(argc, argv));
	if (!cmd && (strcmp(name, "-") == 0 ||
		     (name[0] != '-' && access(name, F_OK) == 0)))
		return finish(cli_run_for_input(argc, argv));
	if (!cmd) {
		struct diag d;
		if (name[0] == '-') {
			diag_set(&d, DIAG_USAGE, NULL, 0, 0, "unknown option '%s'", name);
		} else if (cli_looks_like_path(name)) {
			/* A file that is not there: what `iotally vmmap FILE` would say. */
			diag_set(&d, DIAG_NOINPUT, name, 0, 0, "cannot open input: no such file "
				 "(nor a command of that name)");
			cli_print_diag(&d);
			return DIAG_NOINPUT;
		} else {
			no_such_command(&d, name, " (nor a file of that name)");
		}
		return cli_usage_error(NULL, &d);
	}
	return finish(run_command(cmd, argc - 1, argv + 1));
}
