/*
 * iotally rate: the change per iteration of each metric of a series whose
 * samples are iterations of one action, with its 95 % interval and a
 * verdict; CI gates on the interval's lower bound. Parses options, runs
 * each kind through app/trend_run.c and model/rate.c, prints.
 */

#include "cli/commands.h"
#include "cli/msgs.h"
#include "cli/report_series_run.h"
#include "cli/series_args.h"

#include "app/kind.h"
#include "app/rate_inputs.h"
#include "app/rate_run.h"
#include "app/series_gates.h"
#include "model/rate.h"
#include "model/rate_gate.h"
#include "report/rate_write.h"
#include "util/array.h"
#include "util/diag.h"
#include "util/size.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	OPT_MIN_RATE = SERIES_OPT_OWN,
	OPT_MIN_COUNT,
	OPT_FAIL_IF,
};

/* rate's own options; those it shares with trend are cli/series_args.c's. */
static const struct cli_option rate_options[] = {
	{ "min-rate", 0, true, OPT_MIN_RATE },
	{ "min-count", 0, true, OPT_MIN_COUNT },
	{ "fail-if", 0, true, OPT_FAIL_IF },
};

/* The formats `iotally rate` writes. */
#define RATE_FORMATS (FORMAT_BIT(FORMAT_TEXT) | FORMAT_BIT(FORMAT_JSON) | \
		      FORMAT_BIT(FORMAT_MARKDOWN) | FORMAT_BIT(FORMAT_NDJSON) | \
		      FORMAT_BIT(FORMAT_HTML))

struct rate_args {
	struct series_args s;
	struct rate_given given;
	struct rate_gate *gates;
	size_t ngates, gates_alloc;
	struct rate_operands ops;    /* the operands, folders listed */
	struct rate_series *rates;   /* per kind followed */
	struct rate_kind_report *reps;
};

static void
args_release(struct rate_args *a)
{
	for (size_t i = 0; i < a->ngates; i++)
		rate_gate_release(&a->gates[i]);
	free(a->gates);
	series_args_release(&a->s);
	rate_operands_release(&a->ops);
}

/* One of rate's own options (series_command.take). */
static int
take_option(void *ctx, int id, const char *arg, struct diag *err)
{
	struct rate_args *a = ctx;
	uint64_t v;
	switch (id) {
	case OPT_MIN_RATE:
		if (size_parse_user(arg, &v) != SIZE_OK)
			return diag_set(err, DIAG_USAGE, NULL, 0, 0,
					"--min-rate '%s' is not a size (1MiB, 512K)", arg);
		a->given.rp.floor_bytes = (double)v;
		return 0;
	case OPT_MIN_COUNT:
		if (strcmp(arg, "0") == 0) {
			a->given.rp.floor_count = 0;
			return 0;
		}
		if (cli_positive_count("--min-count", arg, &v, err) < 0)
			return -1;
		a->given.rp.floor_count = (double)v;
		return 0;
	case OPT_FAIL_IF:
		a->gates = xgrow(a->gates, &a->gates_alloc, a->ngates + 1, sizeof(*a->gates));
		if (rate_gate_parse(arg, &a->gates[a->ngates], err) < 0) {
			rate_gate_release(&a->gates[a->ngates]);
			return -1;
		}
		a->ngates++;
		return 0;
	default:
		return 0;
	}
}

static int
parse_args(int argc, char **argv, struct rate_args *a, struct diag *err)
{
	const struct series_command c = {
		.name = "rate", .own = rate_options, .nown = ARRAY_SIZE(rate_options),
		.formats = RATE_FORMATS, .given = &a->given.t, .take = take_option, .ctx = a,
		.no_inputs = "no inputs: a rate needs a series or at least 3 captures of one "
			     "kind, one per iteration",
	};
	return series_args_parse(&c, argc, argv, &a->s, err);
}

/* Each tripped gate said in the report's words; how many tripped. */
static size_t
report_tripped(const struct rate_args *a)
{
	size_t n = 0;
	for (size_t i = 0; i < a->ngates; i++) {
		const struct rate_gate *g = &a->gates[i];
		if (!g->tripped)
			continue;
		char low[48], rate[48];
		rate_format_amount(low, g->low, g->unit, true);
		rate_format_amount(rate, g->rate, g->unit, true);
		cli_error(NULL, 0, "gate '%s' tripped: per iteration, the 95 %% interval's "
			  "lower bound %s is %s %s (rate %s)", g->g.text, low,
			  diff_op_text(g->g.op), g->g.value_text, rate);
		n++;
	}
	return n;
}

/* The series page (cli/report_series_run.h) of the kinds' trends, on the iteration axis, led by the summary. */
static int
write_page(const struct rate_args *a, const struct rate_report *rep,
	   const struct trend_kind_run *runs)
{
	struct diag err;
	struct strbuf lead = STRBUF_INIT;
	const struct trend_report **reps = xcalloc(rep->nkinds ? rep->nkinds : 1, sizeof(*reps));
	for (size_t i = 0; i < rep->nkinds; i++)
		reps[i] = &runs[i].rep;
	rate_summary(rep, &lead);
	int rc = cli_write_series_page(reps, rep->nkinds, NULL, (const char *const *)a->s.paths,
				       a->s.npaths, false, lead.buf, FORMAT_HTML, NULL, &err);
	strbuf_release(&lead);
	free(reps);
	if (rc < 0) {
		cli_print_diag(&err);
		return err.code;
	}
	return 0;
}

static int
write_output(const struct rate_args *a, const struct rate_report *rep)
{
	int rc = 0;
	if (a->s.format == FORMAT_JSON)
		rc = rate_json_write(stdout, rep);
	else if (a->s.format == FORMAT_NDJSON)
		rc = rate_ndjson_write(stdout, rep);
	else
		rate_text_write(stdout, rep, a->s.format == FORMAT_MARKDOWN);
	if (rc < 0) {
		cli_error(NULL, 0, "cannot write output");
		return DIAG_IOERR;
	}
	return 0;
}

/* A kind followed (series_follow.analyse): analysed per iteration. */
static int
analyse_kind(void *ctx, struct trend_kind_run *t, size_t ok, struct diag *err)
{
	struct rate_args *a = ctx;
	(void)err;
	rate_kind_run_analyse(t, &a->given.rp, &a->rates[ok], &a->reps[ok]);
	return 0;
}

static int
run(struct rate_args *a, struct app_bundles *bs)
{
	const char *kinds[KINDS_MAX];
	size_t nk = trend_run_kinds_to_follow(a->s.kind, false, a->ops.paths, a->ops.n, bs, kinds);
	size_t ok;
	struct trend_kind_run *runs = xcalloc(nk, sizeof(*runs));
	a->rates = xcalloc(nk, sizeof(*a->rates));
	a->reps = xcalloc(nk, sizeof(*a->reps));
	const struct series_follow f = {
		.command = "rate", .params = rate_params_given, .params_ctx = &a->given,
		.analyse = analyse_kind, .ctx = a,
		.none = "no kind of capture in the inputs has 3 usable iterations: a rate needs at "
			"least 3 captures",
	};
	int status = series_follow(&f, &a->s, a->ops.paths, a->ops.n, kinds, nk, bs, runs, &ok);
	struct diag err;
	if (status == 0 && rate_gates_check(a->gates, a->ngates, a->reps, ok, &err) < 0)
		status = series_say_error("rate", &err);
	if (status == 0) {
		struct rate_report rep = {
			.kinds = a->reps, .nkinds = ok, .rparams = &a->given.rp,
			.warmup_given = a->given.t.has_warmup, .source = a->s.paths[0],
			.gates = a->gates, .ngates = a->ngates,
		};
		status = a->s.format == FORMAT_HTML ? write_page(a, &rep, runs) : write_output(a, &rep);
		if (report_tripped(a) && status == 0)
			status = DIAG_GATE;
	}
	for (size_t i = 0; i < ok; i++) {
		rate_series_release(&a->rates[i]);
		trend_kind_run_release(&runs[i]);
	}
	free(a->reps);
	free(a->rates);
	free(runs);
	return status;
}

int
cmd_rate(int argc, char **argv)
{
	struct rate_args a = { 0 };
	struct diag err;
	struct app_bundles bundles;
	int status = 0;

	diag_clear(&err);
	rate_given_default(&a.given);
	app_bundles_init(&bundles);
	if (parse_args(argc, argv, &a, &err) < 0) {
		status = cli_usage_error(cli_find_command("rate"), &err);
	} else if (a.s.help) {
		cli_print_command_help("rate");
	} else if (rate_operands_expand((const char *const *)a.s.paths, a.s.npaths, &a.ops,
					&err) < 0) {
		cli_print_diag(&err);
		status = err.code;
	} else {
		status = run(&a, &bundles);
	}
	app_bundles_release(&bundles);
	args_release(&a);
	return status;
}
