/*
 * iotally report: one attachable report of a capture, or of a before/after
 * pair, as GitHub Markdown or one self-contained HTML page.
 */

#include "cli/bundle_args.h"
#include "cli/commands.h"
#include "cli/formats.h"
#include "cli/inputs.h"
#include "app/kind.h"
#include "app/pair_open.h"
#include "app/report_inputs.h"
#include "app/report_bundles.h"
#include "cli/options.h"
#include "cli/report_out.h"
#include "cli/report_series_run.h"

#include "ingest/bundle.h"
#include "model/diff.h"
#include "model/report.h"
#include "report/diff_report.h"
#include "report/report_md_write.h"
#include "util/diag.h"
#include "util/array.h"
#include "util/linereader.h"
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
	char *routed[2];            /* a tracking session's before/ and after/ */
	const char *session;        /* the tracking session they came from, or NULL */
};

static void
args_release(struct report_args *a)
{
	for (size_t i = 0; i < a->ngates; i++)
		diff_gate_release(&a->gates[i]);
	free(a->gates);
	free(a->routed[0]);
	free(a->routed[1]);
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

/* ---- a pair ---------------------------------------------------------------- */

/* The compared pair's report; its comparability warnings said first. */
static int
build_pair(struct report *r, struct report_args *a, const struct pair_open *p,
	   struct diag *err)
{
	struct diag_list w;
	diag_list_init(&w, 50);
	int rc = report_pair_build(r, p, a->paths, a->gates, a->ngates, &w, err);
	cli_print_warnings(&w);
	diag_list_release(&w);
	return rc;
}

/* ---- capture bundles -------------------------------------------------------- */

/* `iotally report BUNDLE`: one report of every capture the bundle holds. */
static int
run_bundle(struct report_args *a, struct diag_list *notes, struct diag *err)
{
	struct bundle b;
	struct report r;
	if (bundle_open(a->paths[0], &b, err) < 0) {
		bundle_release(&b);
		return -1;
	}
	if (b.series) {
		/* A series: its report over time (cli/report_series_run.c). */
		bundle_release(&b);
		return cli_report_series(a->paths, 1, a->all, a->jobs, a->format, a->output, err);
	}
	int rc = bundle_report_build(&r, &b, a->all, notes, err);
	cli_print_warnings(notes);
	if (rc == 0) {
		cli_report_provenance(&r, a->paths, 1);
		rc = cli_write_report(a->output, a->format, &r, err);
	}
	report_release(&r);
	bundle_release(&b);
	line_reader_unmap_all();
	return rc;
}

/* `iotally report BEFORE_BUNDLE AFTER_BUNDLE` (or SESSION): every kind both hold. */
static int
run_bundles(struct report_args *a, struct diag_list *notes, struct diag *err)
{
	struct report_bundles rb;
	struct report r;
	struct diag_list w, sn;
	diag_list_init(&w, 50);
	diag_list_init(&sn, 20);
	int rc = bundle_report_pair(&r, &rb, a->paths, a->all, a->gates, a->ngates, a->session,
				    notes, &w, &sn, err);
	cli_print_warnings(notes);
	cli_print_warnings(&w);
	cli_print_warnings(&sn);
	if (rc == 0) {
		cli_report_provenance(&r, a->paths, 2);
		rc = cli_write_report(a->output, a->format, &r, err);
	}
	report_release(&r);
	diag_list_release(&w);
	diag_list_release(&sn);
	report_bundles_release(&rb);
	line_reader_unmap_all();
	return rc;
}

static int
run(struct report_args *a, struct diag_list *notes, struct diag *err)
{
	struct pair_open pair;
	struct kind_input one;
	const struct kind *k = NULL;
	struct report r;
	int rc = 0;

	pair_open_init(&pair);
	memset(&one, 0, sizeof(one));
	one.reader.fd = -1;
	/* `report SESSION` is `report BEFORE AFTER` of its two bundles. */
	int routed = a->npaths == 1 ? cli_session_operand(a->paths[0], a->routed, err) : 0;
	if (routed < 0)
		return -1;
	if (routed) {
		a->paths = xgrow(a->paths, &a->paths_alloc, 2, sizeof(*a->paths));
		a->session = a->paths[0];
		a->paths[0] = a->routed[0];
		a->paths[a->npaths++] = a->routed[1];
	}
	enum report_shape shape;
	if (report_shape_of(a->paths, a->npaths, &shape, err) < 0)
		return -1;
	if (shape == REPORT_SHAPE_SERIES)
		return cli_report_series(a->paths, a->npaths, a->all, a->jobs, a->format, a->output,
					 err);
	if (shape == REPORT_SHAPE_BUNDLE)
		return run_bundle(a, notes, err);
	if (shape == REPORT_SHAPE_BUNDLES)
		return run_bundles(a, notes, err);
	/* One capture (kind_open()), or a pair opened and compared (pair_open_compare()). */
	if (a->npaths == 2) {
		const struct pair_open_opts po = { .command = "report", .needs = "a report compares" };
		rc = pair_open_compare(&pair, a->paths[0], a->paths[1], &po, notes, err);
		k = pair.kind;
	} else {
		char schema[64];
		enum input_kind raw;
		rc = kind_open(&one, a->paths[0], "report", &k, schema, sizeof(schema), &raw, err);
	}
	if (rc == 0) {
		report_init(&r, k->name, a->npaths == 2);
		r.all = a->all;
		rc = a->npaths == 2 ? build_pair(&r, a, &pair, err)
				    : k->single_report(&r, &one, notes, err);
		cli_print_warnings(notes);
		app_report_add_notes(&r, notes);
		if (rc == 0) {
			cli_report_provenance(&r, a->paths, a->npaths);
			rc = cli_write_report(a->output, a->format, &r, err);
		}
		report_release(&r);
	} else {
		cli_print_warnings(notes);
	}
	pair_open_close(&pair);
	if (one.path)
		line_reader_close(&one.reader);
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
