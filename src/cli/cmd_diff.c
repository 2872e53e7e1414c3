/*
 * iotally diff: what grew between two captures of the same kind, and CI
 * gates on it. The run is app/diff_run.h's, its pairs compared and written
 * by app/diff_pairs_run.h (with -j N, in pair order): here the options are
 * parsed, and what the run says, its Summary line and its JUnit file written.
 */

#include "app/session.h"
#include "cli/commands.h"
#include "cli/formats.h"
#include "cli/inputs.h"
#include "app/diff_pairs_run.h"
#include "cli/msgs.h"
#include "cli/options.h"
#include "util/outfile.h"

#include "ingest/diff_read.h"
#include "util/array.h"
#include "util/diag.h"
#include "util/spill.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	OPT_FAIL_IF = 1,
	OPT_GATES,
	OPT_JUNIT,
	OPT_FORMAT,
	OPT_DUMP,
	OPT_MATCH_OFFSETS,
	OPT_FOLDED,
	OPT_DIRECT,
	OPT_STRICT,
	OPT_JOBS,
	OPT_HELP,
};

static const struct cli_option diff_options[] = {
	{ "fail-if", 0, true, OPT_FAIL_IF },
	{ "gates", 0, true, OPT_GATES },
	{ "junit", 0, true, OPT_JUNIT },
	{ "format", 0, true, OPT_FORMAT },
	{ "snapshot", 0, true, OPT_DUMP },
	{ "dump", 0, true, OPT_DUMP },
	{ "match-offsets", 0, false, OPT_MATCH_OFFSETS },
	{ "folded", 0, false, OPT_FOLDED },
	{ "direct", 0, false, OPT_DIRECT },
	{ "strict", 0, false, OPT_STRICT },
	{ "jobs", 'j', true, OPT_JOBS },
	{ "help", 'h', false, OPT_HELP },
};

/* The formats `iotally diff` writes. */
#define DIFF_FORMATS (FORMAT_BIT(FORMAT_TEXT) | FORMAT_BIT(FORMAT_JSON) | \
		      FORMAT_BIT(FORMAT_MARKDOWN) | FORMAT_BIT(FORMAT_NDJSON))

struct diff_args {
	const char *paths[2];
	size_t npaths;
	enum output_format format;
	const char *junit;
	unsigned jobs;              /* -j N: pairs compared at once; 0: one per processor */
	struct diff_run_opts run;   /* what the run takes: options, gates, --strict */
	struct diff_gate *gates;    /* as parsed: every kind's (run.gates once parsed) */
	size_t ngates, gates_alloc;
	bool help;
	/* Where the pairs' reports go: standard output, or the held body of a
	 * Markdown diff of folders, written after its summary. */
	FILE *out;
	char *routed[2];            /* a tracking session's before/ and after/ */
};


static void
args_release(struct diff_args *a)
{
	for (size_t i = 0; i < a->ngates; i++)
		diff_gate_release(&a->gates[i]);
	free(a->gates);
	free(a->routed[0]);
	free(a->routed[1]);
}

static int
handle_option(int id, const char *arg, struct diff_args *a, struct diag *err)
{
	switch (id) {
	case OPT_FAIL_IF:
		return diff_gate_list_add(&a->gates, &a->ngates, &a->gates_alloc, arg, err);
	case OPT_GATES:
		return diff_gates_read_file(arg, &a->gates, &a->ngates, &a->gates_alloc, err);
	case OPT_JUNIT:
		a->junit = arg;
		return 0;
	case OPT_FORMAT: {
		return cli_parse_format(arg, DIFF_FORMATS, &a->format, err);
	}
	case OPT_DUMP:
		a->run.opts.has_dump = true;
		a->run.given |= KIND_ACCEPTS_DUMP;
		return cli_positive_count("--dump", arg, &a->run.opts.dump, err);
	case OPT_MATCH_OFFSETS:
		a->run.opts.match_offsets = true;
		a->run.given |= KIND_ACCEPTS_MATCH_OFFSETS;
		return 0;
	case OPT_FOLDED:
		a->run.opts.folded = true;
		a->run.given |= KIND_ACCEPTS_FOLDED;
		return 0;
	case OPT_DIRECT:
		a->run.opts.direct = true;
		a->run.given |= KIND_ACCEPTS_DIRECT;
		return 0;
	case OPT_STRICT:
		a->run.strict = true;
		return 0;
	case OPT_JOBS:
		return cli_parse_jobs(arg, &a->jobs, err);
	default:
		return 0;
	}
}

static int
take_arg(void *ctx, struct cli_parser *p, int id, const char *arg, struct diag *err)
{
	struct diff_args *a = ctx;
	(void)p;
	if (id != CLI_OPERAND)
		return handle_option(id, arg, a, err);
	if (a->npaths == 2)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"two inputs expected (BEFORE AFTER), got a third: '%s'", arg);
	a->paths[a->npaths++] = arg;
	return 0;
}

static int
parse_args(int argc, char **argv, struct diff_args *a, struct diag *err)
{
	struct cli_parser p;

	if (cli_parse(&p, diff_options, ARRAY_SIZE(diff_options), argc, argv, OPT_HELP,
		      &a->help, take_arg, a, err) < 0)
		return -1;
	if (a->help)
		return 0;
	/* `diff SESSION`: its before/ and after/ bundles. */
	int routed = a->npaths == 1 ? app_session_operand(a->paths[0], a->routed, err) : 0;
	if (routed < 0)
		return -1;
	if (routed) {
		a->paths[0] = a->routed[0];
		a->paths[a->npaths++] = a->routed[1];
	}
	if (a->npaths < 2)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"two inputs expected: BEFORE AFTER");
	if (strcmp(a->paths[0], "-") == 0 && strcmp(a->paths[1], "-") == 0)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"only one of BEFORE and AFTER can be standard input");
	if (a->run.opts.folded && (a->format != FORMAT_TEXT || a->junit))
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"--folded is an output of its own: it does not combine with "
				"--format or --junit");
	return diff_run_check_gate_kinds(a->gates, a->ngates, err);
}

/* `--junit -`: standard output carries the JUnit XML only. */
static bool
junit_to_stdout(const struct diff_args *a)
{
	return a->junit && strcmp(a->junit, "-") == 0;
}

/* Compare and write every pair (app/diff_pairs_run.h), in pair order at any -j. */
static void
run_pairs(const struct diff_args *a, struct diff_run *run)
{
	const struct diff_pairs_output o = {
		.out = a->out,
		.write = { a->format == FORMAT_NDJSON, a->format == FORMAT_JSON,
			   a->format == FORMAT_MARKDOWN, a->run.opts.folded },
		.reports = !junit_to_stdout(a),
		.jobs = a->jobs,
	};
	/* An output that cannot be written is said where it is closed: main()
	 * for standard output, the held body's copy (temp_stream_copy) for it. */
	(void)diff_run_pairs(run, &o);
}

/* What the run says, on standard error (a pair's buffer on a -j worker). */
static void
say_diag(void *ctx, const struct diag *d, bool usage)
{
	(void)ctx;
	if (usage)
		cli_usage_error(cli_find_command("diff"), d);
	else
		cli_print_diag(d);
}

static void
say_msg(void *ctx, enum diag_severity sev, const char *path, const char *text)
{
	(void)ctx;
	cli_msg(sev, path, 0, "%s", text);
}

/* Folders: one closing line with the count of each outcome. */
static void
write_summary(const struct diff_args *a, const struct diff_run *run)
{
	if (!run->pairs.folders || junit_to_stdout(a) || a->format == FORMAT_JSON ||
	    a->format == FORMAT_NDJSON)
		return;
	struct diff_summary s;
	diff_run_summary(run, &s);
	diff_summary_write(stdout, &s, a->format == FORMAT_MARKDOWN);
	diff_summary_release(&s);
}


/*
 * A Markdown diff of folders is read top down (a pull request comment):
 * its summary goes first, so the pairs' sections are held in an unlinked
 * temporary file until every pair is compared. 0, or -1 with *err.
 */
static int
hold_body(struct diff_args *a, const struct diff_run *run, struct diag *err)
{
	a->out = stdout;
	if (!run->pairs.folders || a->format != FORMAT_MARKDOWN || junit_to_stdout(a))
		return 0;
	a->out = temp_stream_open("diff", err);
	return a->out ? 0 : -1;
}

int
cmd_diff(int argc, char **argv)
{
	struct diff_args a = { 0 };
	const struct diff_run_say say = { NULL, say_diag, say_msg };
	struct diff_run run;
	struct diag err;

	diff_run_init(&run, &a.run, &say);
	diag_clear(&err);
	if (parse_args(argc, argv, &a, &err) < 0) {
		if (!a.junit)
			/* The JUnit file is written on every exit, usage errors included,
			 * so a CI job never reads yesterday's. */
			a.junit = cli_find_value(diff_options, ARRAY_SIZE(diff_options), argc,
						 argv, OPT_JUNIT);
		diff_run_error(&run, "arguments", &err, err.code == DIAG_USAGE);
		goto junit;
	}
	if (a.help) {
		cli_print_command_help("diff");
		goto out;
	}
	a.run.gates = a.gates;
	a.run.ngates = a.ngates;
	a.run.paths[0] = a.paths[0];
	a.run.paths[1] = a.paths[1];
	if (diff_pairs_build(&run.pairs, a.paths[0], a.paths[1], &err) < 0 ||
	    diff_run_check_folder_output(&run, a.format == FORMAT_JSON, a.run.opts.folded,
					 &err) < 0) {
		diff_run_error(&run, "inputs", &err, err.code == DIAG_USAGE);
		goto junit;
	}
	if (hold_body(&a, &run, &err) < 0) {
		diff_run_error(&run, "output", &err, false);
		goto junit;
	}
	diff_run_check_bundles(&run);
	run_pairs(&a, &run);
	diff_run_check_gate_errors(&run);
	diff_run_check_unpaired(&run);
	diff_run_check_skipped_gates(&run);
	diff_run_check_unevaluable(&run);
	diff_run_check_tripped(&run);
	diff_run_check_nothing_evaluated(&run);
	write_summary(&a, &run);
	if (a.out != stdout) {
		FILE *held = a.out;
		a.out = stdout;   /* the copy closes the held body */
		if (temp_stream_copy(held, stdout, &err) < 0)
			diff_run_error(&run, "output", &err, false);
	}
junit:
	if (a.junit && outfile_write(a.junit, diff_run_junit_write, &run, &err) < 0) {
		cli_print_diag(&err);
		if (!run.status)
			run.status = err.code;
	}
out:
	if (a.out && a.out != stdout)
		fclose(a.out);
	int status = diff_run_status(&run);
	diff_run_release(&run);
	args_release(&a);
	return status;
}
