/*
 * iotally trend: leak, plateau, step, no trend or stable, per metric, over
 * a series of captures of one kind; CI gates on the verdicts and the slopes.
 */

#include "cli/commands.h"
#include "cli/msgs.h"
#include "util/outfile.h"
#include "cli/report_series_run.h"
#include "cli/series_args.h"

#include "app/kind.h"
#include "app/series_gates.h"
#include "app/trend_run.h"
#include "model/signature.h"
#include "model/trend.h"
#include "model/trend_gate.h"
#include "report/trend_report.h"
#include "util/array.h"
#include "util/diag.h"
#include "util/size.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	OPT_MIN_GROWTH = SERIES_OPT_OWN,
	OPT_MIN_COUNT,
	OPT_FAIL_ON,
	OPT_FAIL_IF,
	OPT_JUNIT,
	OPT_OUTPUT,
};

/* trend's own options; those it shares with rate are cli/series_args.c's. */
static const struct cli_option trend_options[] = {
	{ "min-growth", 0, true, OPT_MIN_GROWTH },
	{ "min-count", 0, true, OPT_MIN_COUNT },
	{ "fail-on", 0, true, OPT_FAIL_ON },
	{ "fail-if", 0, true, OPT_FAIL_IF },
	{ "junit", 0, true, OPT_JUNIT },
	{ "output", 'o', true, OPT_OUTPUT },
};

/* The formats `iotally trend` writes. */
#define TREND_FORMATS (FORMAT_BIT(FORMAT_TEXT) | FORMAT_BIT(FORMAT_JSON) | \
		       FORMAT_BIT(FORMAT_MARKDOWN) | FORMAT_BIT(FORMAT_HTML))

struct trend_args {
	struct series_args s;
	struct trend_given given;
	const char *junit;
	const char *output;    /* -o: the HTML page's file; NULL: standard output */
	bool fail_on_leak;
	struct trend_gate *gates;
	size_t ngates, gates_alloc;
	struct signature *sigs;   /* per kind followed */
};

static void
args_release(struct trend_args *a)
{
	for (size_t i = 0; i < a->ngates; i++)
		trend_gate_release(&a->gates[i]);
	free(a->gates);
	series_args_release(&a->s);
}

/* One of trend's own options (series_command.take). */
static int
take_option(void *ctx, int id, const char *arg, struct diag *err)
{
	struct trend_args *a = ctx;
	switch (id) {
	case OPT_MIN_GROWTH:
		return series_parse_min_growth(arg, &a->given, err);
	case OPT_MIN_COUNT: {
		uint64_t n;
		if (cli_positive_count("--min-count", arg, &n, err) < 0)
			return -1;
		a->given.has_min_count = true;
		a->given.min_count = (double)n;
		return 0;
	}
	case OPT_FAIL_ON: {
		static const char *const names[] = { "leak" };
		if (cli_choice("fail-on", arg, names, ARRAY_SIZE(names), err) < 0)
			return -1;
		a->fail_on_leak = true;
		return 0;
	}
	case OPT_FAIL_IF:
		a->gates = xgrow(a->gates, &a->gates_alloc, a->ngates + 1, sizeof(*a->gates));
		if (trend_gate_parse(arg, &a->gates[a->ngates], err) < 0) {
			trend_gate_release(&a->gates[a->ngates]);
			return -1;
		}
		a->ngates++;
		return 0;
	case OPT_JUNIT:
		a->junit = arg;
		return 0;
	case OPT_OUTPUT:
		a->output = arg;
		return 0;
	default:
		return 0;
	}
}

static int
parse_args(int argc, char **argv, struct trend_args *a, struct diag *err)
{
	const struct series_command c = {
		.name = "trend", .own = trend_options, .nown = ARRAY_SIZE(trend_options),
		.formats = TREND_FORMATS, .given = &a->given, .take = take_option, .ctx = a,
		.no_inputs = "no inputs: a trend needs at least 3 captures of one kind",
	};
	if (series_args_parse(&c, argc, argv, &a->s, err) < 0 || a->s.help)
		return a->s.help ? 0 : -1;
	if (a->output && a->s.format != FORMAT_HTML)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"-o writes the HTML page: it goes with --format html");
	return 0;
}

/* Each tripped gate and --fail-on leak said in the report's words; how many tripped. */
static size_t
report_tripped(const struct trend_args *a, const struct trend_report *const *reps, size_t nreps)
{
	size_t n = 0;
	for (size_t i = 0; i < a->ngates; i++) {
		const struct trend_gate *g = &a->gates[i];
		char s[48];
		if (!g->tripped)
			continue;
		trend_gate_slope_text(g, s);
		cli_error(NULL, 0, "gate '%s' tripped: slope %s per %s", g->g.text, s,
			  g->rate == TREND_PER_HOUR ? "hour" : "sample");
		n++;
	}
	struct strbuf names = STRBUF_INIT;
	size_t leaks = trend_leak_names(reps, nreps, &names);
	if (a->fail_on_leak && leaks) {
		cli_error(NULL, 0, "--fail-on leak: %zu metric%s LEAK: %s", leaks,
			  leaks == 1 ? " is" : "s are", names.buf);
		n++;
	}
	strbuf_release(&names);
	return n;
}

static int
junit_write(FILE *out, const void *rep, struct diag *err)
{
	return trend_junit_write(out, rep, err);
}

static int
write_output(const struct trend_args *a, const struct trend_report *rep)
{
	if (a->s.format != FORMAT_JSON) {
		trend_text_write(stdout, rep, a->s.format == FORMAT_MARKDOWN);
	} else if (trend_json_write(stdout, rep) < 0) {
		cli_error(NULL, 0, "cannot write JSON output");
		return DIAG_IOERR;
	}
	return 0;
}

static int
write_all(struct trend_args *a, struct trend_kind_run *runs, size_t n)
{
	struct diag err;
	int status = 0;
	bool junit_only = a->junit && strcmp(a->junit, "-") == 0;   /* stdout: the XML alone */
	const struct trend_report **reps = xcalloc(n ? n : 1, sizeof(*reps));
	for (size_t i = 0; i < n; i++)
		reps[i] = &runs[i].rep;
	if (a->s.format == FORMAT_HTML && !junit_only) {
		if (cli_write_series_page(reps, n, NULL, (const char *const *)a->s.paths,
					  a->s.npaths, false, NULL, FORMAT_HTML, a->output, &err) < 0) {
			cli_print_diag(&err);
			status = err.code;
		}
	} else {
		for (size_t i = 0; i < n && status == 0 && !junit_only; i++) {
			if (i)
				fputc('\n', stdout);
			status = write_output(a, reps[i]);
		}
	}
	/* The JUnit file, replaced whole (temporary file + rename), or standard output. */
	if (status == 0 && a->junit && outfile_write(a->junit, junit_write, reps[0], &err) < 0) {
		cli_print_diag(&err);
		status = err.code;
	}
	if (report_tripped(a, reps, n) && status == 0)
		status = DIAG_GATE;
	free(reps);
	return status;
}

/*
 * A kind followed (series_follow.analyse): the gates checked on it (they
 * name one kind), its report's options and its leak signature set.
 */
static int
analyse_kind(void *ctx, struct trend_kind_run *t, size_t ok, struct diag *err)
{
	struct trend_args *a = ctx;
	if (trend_kind_run_gates(t, a->gates, a->ngates, err) < 0)
		return -1;
	t->rep.warmup_given = a->given.has_warmup;
	t->rep.fail_on_leak = a->fail_on_leak;
	struct diag e;
	diag_clear(&e);
	if (trend_kind_run_signature(t, &a->sigs[ok], &e) < 0)
		cli_warn(diag_path(&e), e.line, "the series has no leak signature: %s", e.msg);
	t->rep.sig = &a->sigs[ok];
	return 0;
}

static int
run(struct trend_args *a, struct app_bundles *bs)
{
	const char *kinds[KINDS_MAX];
	const char *const *paths = (const char *const *)a->s.paths;
	bool one = a->ngates || a->s.format == FORMAT_JSON || a->junit;
	size_t nk = trend_run_kinds_to_follow(a->s.kind, one, paths, a->s.npaths, bs, kinds), ok;
	struct trend_kind_run *runs = xcalloc(nk, sizeof(*runs));
	a->sigs = xcalloc(nk, sizeof(*a->sigs));
	const struct series_follow f = {
		.command = "trend", .params = trend_params_given, .params_ctx = &a->given,
		.analyse = analyse_kind, .ctx = a,
		.none = "no kind of capture in the inputs has 3 usable samples: a trend needs at "
			"least 3 captures",
	};
	int status = series_follow(&f, &a->s, paths, a->s.npaths, kinds, nk, bs, runs, &ok);
	if (status == 0)
		status = write_all(a, runs, ok);
	for (size_t i = 0; i < ok; i++) {
		trend_kind_run_release(&runs[i]);
		signature_release(&a->sigs[i]);
	}
	free(a->sigs);
	free(runs);
	return status;
}

int
cmd_trend(int argc, char **argv)
{
	struct trend_args a = { 0 };
	struct diag err;
	struct app_bundles bundles;
	int status = 0;

	diag_clear(&err);
	app_bundles_init(&bundles);
	if (parse_args(argc, argv, &a, &err) < 0)
		status = cli_usage_error(cli_find_command("trend"), &err);
	else if (a.s.help)
		cli_print_command_help("trend");
	else
		status = run(&a, &bundles);
	app_bundles_release(&bundles);
	args_release(&a);
	return status;
}
