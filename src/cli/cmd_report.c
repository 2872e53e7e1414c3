/*
 * iotally report: one attachable report of a capture, or of a before/after
 * pair, as GitHub Markdown or one self-contained HTML page.
 */

#include "cli/commands.h"
#include "cli/formats.h"
#include "cli/inputs.h"
#include "app/report_inputs.h"
#include "app/report_run.h"
#include "cli/options.h"
#include "app/report_write.h"
#include "cli/report_series_run.h"

#include "model/diff.h"
#include "report/diff_report.h"
#include "util/diag.h"
#include "util/array.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_FORMAT = 1, OPT_OUTPUT, OPT_FAIL_IF, OPT_ALL, OPT_JOBS, OPT_HELP };

static const struct cli_option report_options[] = {
	{ "format", 0, true, OPT_FORMAT },
	{ "output", 'o', true, OPT_OUTPUT },
	{ "fail-if", 0, true, OPT_FAIL_IF },
	{ "all", 0, false, OPT_ALL },
	{ "jobs", 'j', true, OPT_JOBS },
	{ "help", 'h', false, OPT_HELP },
};

/* The formats `iotally report` writes. */
#define REPORT_FORMATS (FORMAT_BIT(FORMAT_MARKDOWN) | FORMAT_BIT(FORMAT_HTML))

struct report_args {
	const char **paths;         /* three or more: a series */
	size_t npaths, paths_alloc;
	enum output_format format;
	const char *output;
	struct diff_gate *gates;
	size_t ngates, gates_alloc;
	bool all;                   /* --all: nothing folded */
	unsigned jobs;              /* -j N: samples of a series read at once; 0: one per processor */
	bool help;
};

static void
args_release(struct report_args *a)
{
	for (size_t i = 0; i < a->ngates; i++)
		diff_gate_release(&a->gates[i]);
	free(a->gates);
	free(a->paths);
}

static int
handle_option(int id, const char *arg, struct report_args *a, struct diag *err)
{
	switch (id) {
	case OPT_FORMAT:
		return cli_parse_format(arg, REPORT_FORMATS, &a->format, err);
	case OPT_OUTPUT:
		a->output = arg;
		return 0;
	case OPT_FAIL_IF:
		return diff_gate_list_add(&a->gates, &a->ngates, &a->gates_alloc, arg, err);
	case OPT_ALL:
		a->all = true;
		return 0;
	case OPT_JOBS:
		return cli_parse_jobs(arg, &a->jobs, err);
	default:
		return 0;
	}
}

/* One option or operand (cli_take_fn). */
static int
take_arg(void *ctx, struct cli_parser *p, int id, const char *arg, struct diag *err)
{
	struct report_args *a = ctx;
	(void)p;
	if (id != CLI_OPERAND)
		return handle_option(id, arg, a, err);
	a->paths = xgrow(a->paths, &a->paths_alloc, a->npaths + 1, sizeof(*a->paths));
	a->paths[a->npaths++] = arg;
	return 0;
}

static int
parse_args(int argc, char **argv, struct report_args *a, struct diag *err)
{
	struct cli_parser p;
	if (cli_parse(&p, report_options, ARRAY_SIZE(report_options), argc, argv, OPT_HELP,
		      &a->help, take_arg, a, err) < 0)
		return -1;
	if (a->help)
		return 0;
	return report_operands_check(a->paths, a->npaths, a->ngates, err);
}

/* The report of the operands (app/report_run.h), what it gathered said, the page written. */
static int
run(struct report_args *a, struct diag_list *notes, struct diag *err)
{
	struct report_run rr;
	int rc = app_report_run(&rr, a->paths, a->npaths, a->all, a->gates, a->ngates, notes,
				err);
	for (size_t i = 0; i < rr.nsay; i++)
		cli_print_warnings(rr.say[i]);
	if (rc == 0 && rr.series)
		rc = cli_report_series(rr.paths, rr.npaths, a->all, a->jobs, a->format, a->output,
				       err);
	else if (rc == 0)
		rc = app_report_write(a->output, a->format, &rr.report, err);
	app_report_run_release(&rr);
	return rc;
}

/* Say each tripped gate on standard error with its figures, and each gate a
 * capture could not evaluate with why (as diff does); how many tripped. */
static size_t
diff_gates_print_tripped(const struct diff_gate *gates, size_t n)
{
	size_t tripped = 0;
	for (size_t i = 0; i < n; i++) {
		const struct diff_gate *g = &gates[i];
		if (g->unevaluable)
			cli_note(NULL, 0, "gate '%s' not evaluable: %s", g->text, g->reason);
		if (!g->tripped)
			continue;
		struct strbuf sb = STRBUF_INIT;
		diff_gate_describe(g, &sb);
		cli_error(NULL, 0, "gate '%s' tripped: %s", g->text, sb.buf);
		strbuf_release(&sb);
		tripped++;
	}
	return tripped;
}

int
cmd_report(int argc, char **argv)
{
	struct report_args a = { 0 };
	struct diag_list notes;
	struct diag err;
	int status = 0;

	diag_clear(&err);
	diag_list_init(&notes, 200);
	if (parse_args(argc, argv, &a, &err) < 0) {
		status = cli_usage_error(cli_find_command("report"), &err);
		goto out;
	}
	if (a.help) {
		cli_print_command_help("report");
		goto out;
	}
	if (run(&a, &notes, &err) < 0) {
		status = err.code == DIAG_USAGE ? cli_usage_error(cli_find_command("report"), &err)
						: (cli_print_diag(&err), err.code);
		goto out;
	}
	if (diff_gates_print_tripped(a.gates, a.ngates))
		status = DIAG_GATE;
out:
	diag_list_release(&notes);
	args_release(&a);
	return status;
}
