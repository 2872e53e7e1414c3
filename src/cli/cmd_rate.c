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

const char cmd_rate_help[] =
	"usage: iotally rate [options] SERIES|FOLDER|INPUT...\n"
	"\n"
	"Does an action leak, and how much each time? Over a series whose samples\n"
	"are iterations of one action (open and close a document, reload a level),\n"
	"gives each metric its change per iteration with a 95 % interval, and a\n"
	"verdict:\n"
	"\n"
	"  LEAKS PER OPERATION  grows by about the same amount every iteration:\n"
	"                       the interval is above the floor (--min-rate)\n"
	"  WARMS UP THEN STOPS  rose over the first iterations (or once), then\n"
	"                       stayed flat: a cache that fills, not a leak\n"
	"  UNSURE               cannot tell at this noise; the notes say about how\n"
	"                       many more iterations would\n"
	"  NONE                 no growth per iteration\n"
	"\n"
	"The first line sums it up: 'IOSurface +12.0 ± 0.4 instances and IOSurface\n"
	"non-volatile dirty +48.0 ± 1.2 MiB per iteration (20 iterations after 2\n"
	"warm-up)'.\n"
	"\n"
	"INPUT: a capture series ('iotally capture --count N', its folder or\n"
	".tar.gz), a folder of captures, or at least 3 captures of one kind in\n"
	"iteration order (vmmap, classes, track, footprint, heap; the metrics of\n"
	"'iotally trend'). Sample k is iteration k, whatever the capture times.\n"
	"Every kind a series holds is followed, in the registry's order; --kind\n"
	"narrows to one. Inputs that cannot be read, or end in the middle, are\n"
	"left out and listed; a figure a capture does not give is missing, never 0.\n"
	"\n"
	"Method (docs/rate.md): trend's analysis (docs/trend.md) on the iteration\n"
	"axis. The first --warmup iterations are left out; the rate is the\n"
	"Theil-Sen slope against the iteration number, its 95 % interval Sen's,\n"
	"widened for a lag-1 correlation of at least 0.5 between iterations (more\n"
	"when they show it). LEAKS PER OPERATION is trend's LEAK with the interval\n"
	"above the floor; WARMS UP THEN STOPS is trend's PLATEAU or STEP.\n"
	"\n"
	"Options:\n"
	"  --warmup K         iterations to leave out first (default max(2, 20 % of\n"
	"                     them))\n"
	"  --min-rate SIZE    least growth per iteration of a leak, bytes (default\n"
	"                     0: any growth the interval shows)\n"
	"  --min-count N      the same for counts (default 0)\n"
	"  --alpha P          the trend test's adjusted p must be below P (default\n"
	"                     0.01)\n"
	"  --fail-if 'rate:METRIC OP VALUE'\n"
	"                     a CI gate on the rate per iteration, repeatable: it\n"
	"                     trips when the interval's lower bound compares true\n"
	"  --format F         text (default), json, markdown, ndjson or html (the\n"
	"                     page of 'iotally report SERIES', led by the summary:\n"
	"                     each metric's iterations with the fitted line)\n"
	"  --kind K           follow only the vmmap, classes, track, footprint or\n"
	"                     heap captures (default: every kind the series holds)\n"
	"  -j, --jobs N       read N inputs at once (default: one per processor,\n"
	"                     1: one after the other); the output is the same\n"
	"  -h, --help         show this help\n"
	"\n"
	"Gates: METRIC names a metric as the report does (footprint:gpu.dirty,\n"
	"classes:IOSurface, vmmap:IOSurface:N.dirty, track:total). OP is '>' or\n"
	"'>='. VALUE is a count or bytes with an optional binary unit (1MiB), per\n"
	"iteration ('/iteration' may follow). The lower bound of the rate's 95 %\n"
	"interval is compared, so a gate trips only on growth the iterations show.\n"
	"\n"
	"Examples (the files are iotally's test fixtures):\n"
	"  iotally rate fixtures/trend/classes/*.txt\n"
	"  iotally rate fixtures/series-bundle/leak.tar.gz\n"
	"  iotally rate --format json fixtures/trend/plateau/*.txt\n"
	"  iotally rate --fail-if 'rate:classes:IOSurface > 5' fixtures/trend/classes/*.txt\n"
	"\n"
	"Exit status: 0 every gate passed (or none given), 1 a gate tripped, 64\n"
	"usage error or a malformed gate, 65 inputs of different kinds, fewer\n"
	"than 3 usable inputs, or a gate on something no capture holds, 66 no\n"
	"input can be opened, 74 output cannot be written.\n";

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
		fputs(cmd_rate_help, stdout);
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
