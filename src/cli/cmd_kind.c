/*
 * `iotally KIND FILE`: the command of each kind of capture (vmmap,
 * classes, ...), run from the kind's row (app/kind_command.h). Here only
 * what every such command shares: the option loop over the row's table,
 * --format, -j and --help, the operands (one input and the names after
 * it, or with --format ndjson every operand an input), and the reading of
 * each input through the row's `read`.
 */

#include "cli/commands.h"

#include "app/kind.h"
#include "app/kind_command.h"
#include "app/sources_read.h"
#include "cli/formats.h"
#include "cli/inputs.h"
#include "cli/options.h"
#include "util/outbuf.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>

struct kind_run {
	const struct kind *kind;
	const struct kind_command *cmd;
	void *opts;                       /* the row's options */
	struct kind_command_args args;
	struct cli_operands operands;
	unsigned jobs;                    /* -j N: inputs read at once; 0: one per processor */
	bool help;
};

static int
take_arg(void *ctx, struct cli_parser *p, int id, const char *arg, struct diag *err)
{
	struct kind_run *run = ctx;
	switch (id) {
	case CLI_OPERAND:
		cli_operands_add(&run->operands, p, arg);
		return 0;
	case KIND_OPT_FORMAT:
		return cli_parse_format(arg, run->cmd->formats, &run->args.format, err);
	case KIND_OPT_JOBS:
		return cli_parse_jobs(arg, &run->jobs, err);
	default:
		return run->cmd->take(run->opts, id, arg, err);
	}
}

static int
parse_args(struct kind_run *run, int argc, char **argv, struct diag *err)
{
	const struct kind_command *c = run->cmd;
	struct cli_option *opts = xcalloc(c->noptions, sizeof(*opts));
	struct cli_parser p;
	int rc = -1;

	for (size_t i = 0; i < c->noptions; i++)
		opts[i] = (struct cli_option){ c->options[i].long_name, c->options[i].short_name,
					       c->options[i].has_arg, c->options[i].id };
	if (cli_parse(&p, opts, c->noptions, argc, argv, KIND_OPT_HELP, &run->help, take_arg,
		      run, err) < 0)
		goto out;
	rc = 0;
	if (run->help)
		goto out;
	rc = -1;
	if (!run->operands.n) {
		diag_set(err, DIAG_USAGE, NULL, 0, 0, "no input given (%s)", c->no_input);
		goto out;
	}
	if (cli_operands_split(&run->operands, &p, run->kind->name, c->names_what,
			       run->args.format == FORMAT_NDJSON, &run->args.path,
			       &run->args.names, &run->args.nnames, err) < 0)
		goto out;
	rc = c->check ? c->check(run->opts, &run->args, err) : 0;
out:
	free(opts);
	return rc;
}

static int
read_one(void *ctx, struct app_source *src, struct diag *err)
{
	const struct kind_run *run = ctx;
	struct kind_io io = { .out = outbuf_out(), .err = outbuf_err(), .say_failure = cli_source_say_failure };
	return run->cmd->read(run->opts, &run->args, src, &io, err);
}

/* Read every input of the run; the exit status. */
static int
read_inputs(struct kind_run *run)
{
	const char *name = run->kind->name;
	bool several = run->args.format == FORMAT_NDJSON;
	struct app_sources sources;
	app_sources_init(&sources);
	if (several)
		cli_sources_add_operands(&sources, name, &run->operands);
	else
		cli_sources_add_operand(&sources, name, run->args.path);
	sources.jobs = run->jobs;
	const struct app_sources_reading r = {
		.command = name, .read = read_one, .say_failure = cli_source_say_failure,
		.error_row = several ? run->cmd->error_row : NULL, .ctx = run,
	};
	int status = app_sources_read_each(&sources, &r);
	app_sources_release(&sources);
	return status;
}

int
cmd_kind(int argc, char **argv)
{
	struct kind_run run = { .kind = kind_by_name(argv[0]) };
	const struct command *self = cli_find_command(argv[0]);
	struct diag err;
	int status = 0;

	run.cmd = run.kind->command;
	run.opts = xcalloc(1, run.cmd->opts_size ? run.cmd->opts_size : 1);
	if (run.cmd->init)
		run.cmd->init(run.opts);
	diag_clear(&err);
	if (parse_args(&run, argc, argv, &err) < 0) {
		status = cli_usage_error(self, &err);
	} else if (run.help) {
		cli_print_help(stdout, run.cmd->help);
	} else if (run.cmd->prepare && run.cmd->prepare(run.opts, &run.args, &err) < 0) {
		if (err.code == DIAG_USAGE) {
			status = cli_usage_error(self, &err);
		} else {
			cli_print_diag(&err);
			status = err.code;
		}
	} else {
		status = read_inputs(&run);
	}
	if (run.cmd->release)
		run.cmd->release(run.opts);
	free(run.opts);
	free(run.args.names);
	cli_operands_release(&run.operands);
	return status;
}
