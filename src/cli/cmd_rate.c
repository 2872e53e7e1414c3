/*
 * iotally rate: the change per iteration of each metric of a series whose
 * samples are iterations of one action, with its 95 % interval and a
 * verdict; CI gates on the interval's lower bound. Parses options, runs
 * each kind through app/trend_run.c and model/rate.c, prints.
 */

#include "cli/bundle_args.h"
#include "cli/commands.h"
#include "cli/formats.h"
#include "cli/inputs.h"
#include "cli/msgs.h"
#include "cli/options.h"
#include "cli/report_series_run.h"

#include "app/kind.h"
#include "app/parallel.h"
#include "app/rate_inputs.h"
#include "app/trend_run.h"
#include "model/rate.h"
#include "model/rate_gate.h"
#include "report/rate_write.h"
#include "util/array.h"
#include "util/diag.h"
#include "util/size.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <math.h>
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
	"iteration order (vmmap, classes, track, footprint; the metrics of\n"
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
	"  --kind K           follow only the vmmap, classes, track or footprint\n"
	"                     captures (default: every kind the series holds)\n"
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
	OPT_WARMUP = 1,
	OPT_MIN_RATE,
	OPT_MIN_COUNT,
	OPT_ALPHA,
	OPT_FAIL_IF,
	OPT_FORMAT,
	OPT_KIND,
	OPT_JOBS,
	OPT_HELP,
};

static const struct cli_option rate_options[] = {
	{ "warmup", 0, true, OPT_WARMUP },
	{ "min-rate", 0, true, OPT_MIN_RATE },
	{ "min-count", 0, true, OPT_MIN_COUNT },
	{ "alpha", 0, true, OPT_ALPHA },
	{ "fail-if", 0, true, OPT_FAIL_IF },
	{ "format", 0, true, OPT_FORMAT },
	{ "kind", 0, true, OPT_KIND },
	{ "jobs", 'j', true, OPT_JOBS },
	{ "help", 'h', false, OPT_HELP },
};

/* The formats `iotally rate` writes. */
#define RATE_FORMATS (FORMAT_BIT(FORMAT_TEXT) | FORMAT_BIT(FORMAT_JSON) | \
		      FORMAT_BIT(FORMAT_MARKDOWN) | FORMAT_BIT(FORMAT_NDJSON) | \
		      FORMAT_BIT(FORMAT_HTML))

struct rate_args {
	const char **paths;
	size_t npaths, paths_alloc;
	enum output_format format;
	const char *kind;
	bool has_warmup, has_alpha;
	uint64_t warmup;
	double alpha;
	struct rate_params rp;
	unsigned jobs;
	struct rate_gate *gates;
	size_t ngates, gates_alloc;
	size_t stdin_uses;
	struct rate_operands ops;    /* the operands, folders listed */
	bool help;
};

static void
args_release(struct rate_args *a)
{
	for (size_t i = 0; i < a->ngates; i++)
		rate_gate_release(&a->gates[i]);
	free(a->gates);
	free(a->paths);
	rate_operands_release(&a->ops);
}

static int
parse_alpha(const char *arg, struct rate_args *a, struct diag *err)
{
	char *end;
	double p = strtod(arg, &end);
	if (*arg == '\0' || *end != '\0' || !(p > 0 && p < 1))
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"--alpha '%s' is not a probability between 0 and 1", arg);
	a->has_alpha = true;
	a->alpha = p;
	return 0;
}

static int
handle_option(int id, const char *arg, struct rate_args *a, struct diag *err)
{
	uint64_t v;
	switch (id) {
	case OPT_WARMUP:
		a->has_warmup = true;
		if (strcmp(arg, "0") == 0) {
			a->warmup = 0;
			return 0;
		}
		return cli_positive_count("--warmup", arg, &a->warmup, err);
	case OPT_MIN_RATE:
		if (size_parse_user(arg, &v) != SIZE_OK)
			return diag_set(err, DIAG_USAGE, NULL, 0, 0,
					"--min-rate '%s' is not a size (1MiB, 512K)", arg);
		a->rp.floor_bytes = (double)v;
		return 0;
	case OPT_MIN_COUNT:
		if (strcmp(arg, "0") == 0) {
			a->rp.floor_count = 0;
			return 0;
		}
		if (cli_positive_count("--min-count", arg, &v, err) < 0)
			return -1;
		a->rp.floor_count = (double)v;
		return 0;
	case OPT_ALPHA:
		return parse_alpha(arg, a, err);
	case OPT_FAIL_IF:
		a->gates = xgrow(a->gates, &a->gates_alloc, a->ngates + 1, sizeof(*a->gates));
		if (rate_gate_parse(arg, &a->gates[a->ngates], err) < 0) {
			rate_gate_release(&a->gates[a->ngates]);
			return -1;
		}
		a->ngates++;
		return 0;
	case OPT_KIND: {
		const char *names[KINDS_MAX];
		int k = cli_choice("kind", arg, names, kind_names(names, KINDS_MAX), err);
		if (k < 0)
			return -1;
		a->kind = names[k];
		return 0;
	}
	case OPT_FORMAT:
		return cli_parse_format(arg, RATE_FORMATS, &a->format, err);
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
	struct rate_args *a = ctx;
	(void)p;
	if (id != CLI_OPERAND)
		return handle_option(id, arg, a, err);
	a->paths = xgrow(a->paths, &a->paths_alloc, a->npaths + 1, sizeof(*a->paths));
	a->paths[a->npaths++] = arg;
	a->stdin_uses += strcmp(arg, "-") == 0;
	return 0;
}

static int
parse_args(int argc, char **argv, struct rate_args *a, struct diag *err)
{
	struct cli_parser p;
	if (cli_parse(&p, rate_options, ARRAY_SIZE(rate_options), argc, argv, OPT_HELP,
		      &a->help, take_arg, a, err) < 0)
		return -1;
	if (a->help)
		return 0;
	if (a->npaths == 0)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"no inputs: a rate needs a series or at least 3 captures of one "
				"kind, one per iteration");
	if (a->stdin_uses > 1)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"only one input can be standard input");
	return 0;
}

/* trend_params_fn: rate's parameters for the iteration count, then the options. */
static void
params_of_args(void *ctx, size_t nsamples, struct trend_params *p)
{
	const struct rate_args *a = ctx;
	rate_trend_params(&a->rp, nsamples, p);
	if (a->has_warmup) {
		/* The floor over the window follows the warm-up given. */
		p->warmup = (size_t)a->warmup;
		size_t span = nsamples > p->warmup + 1 ? nsamples - p->warmup - 1 : 1;
		p->min_bytes = a->rp.floor_bytes * (double)span;
		p->min_count = a->rp.floor_count * (double)span;
	}
	if (a->has_alpha)
		p->alpha = a->alpha;
}

/* The kinds to follow: --kind's, else every kind the bundle operands hold. */
static size_t
kinds_to_follow(const struct rate_args *a, struct app_bundles *bs, const char **kinds)
{
	kinds[0] = a->kind;
	if (a->kind)
		return 1;
	size_t n = trend_run_bundle_kinds(a->ops.paths, a->ops.n, bs, kinds, KINDS_MAX);
	if (n == 0)
		kinds[n++] = NULL;
	return n;
}

static int
say_error(struct diag *err)
{
	return err->code == DIAG_USAGE ? cli_usage_error(cli_find_command("rate"), err)
				       : (cli_print_diag(err), err->code);
}

/* The gate's metric among the kinds: its row, or an unchanged metric's rate of 0. */
static int
check_gate(struct rate_gate *g, const struct rate_kind_report *kinds, size_t nk,
	   struct diag *err)
{
	for (size_t k = 0; k < nk; k++) {
		const struct trend_metric *m = trend_series_find(kinds[k].series, g->name);
		if (!m)
			continue;
		for (size_t i = 0; i < kinds[k].rates->nrows; i++)
			if (kinds[k].rates->rows[i].m == m)
				return rate_gate_check(g, &kinds[k].rates->rows[i], m->unit, err);
		/* The same value in every iteration: exactly no growth. */
		struct rate_row still = { .m = m, .has_rate = true };
		return rate_gate_check(g, &still, m->unit, err);
	}
	return diag_set(err, DIAG_DATA, NULL, 0, 0, "gate '%s': no capture holds '%s'",
			g->g.text, g->name);
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
	int rc = cli_write_series_page(reps, rep->nkinds, NULL, (const char *const *)a->paths,
				       a->npaths, false, lead.buf, FORMAT_HTML, NULL, &err);
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
	if (a->format == FORMAT_JSON)
		rc = rate_json_write(stdout, rep);
	else if (a->format == FORMAT_NDJSON)
		rc = rate_ndjson_write(stdout, rep);
	else
		rate_text_write(stdout, rep, a->format == FORMAT_MARKDOWN);
	if (rc < 0) {
		cli_error(NULL, 0, "cannot write output");
		return DIAG_IOERR;
	}
	return 0;
}

/* One kind read, ordered and analysed per iteration; -1 with *err. */
static int
run_kind(struct rate_args *a, const char *kind, struct app_bundles *bs,
	 struct trend_kind_run *t, struct rate_series *rs, struct diag *err)
{
	struct diag_list notes;
	diag_list_init(&notes, 200);
	int rc = trend_kind_run(t, a->ops.paths, a->ops.n, kind,
				a->jobs ? a->jobs : app_parallel_default_jobs(), bs, params_of_args,
				a, &notes, err);
	cli_print_warnings(&notes);
	diag_list_release(&notes);
	cli_print_warnings(&t->warnings);
	if (rc == 0)
		rate_series_analyse(&t->s, &t->p, &a->rp, rs);
	return rc;
}

static int
run(struct rate_args *a, struct app_bundles *bs)
{
	const char *kinds[KINDS_MAX];
	size_t nk = kinds_to_follow(a, bs, kinds), ok = 0;
	struct trend_kind_run *runs = xcalloc(nk, sizeof(*runs));
	struct rate_series *rates = xcalloc(nk, sizeof(*rates));
	struct rate_kind_report *reps = xcalloc(nk, sizeof(*reps));
	int status = 0;
	for (size_t i = 0; i < nk && status == 0; i++) {
		struct diag err;
		diag_clear(&err);
		struct trend_kind_run *t = &runs[ok];
		int rc = run_kind(a, kinds[i], bs, t, &rates[ok], &err);
		if (rc < 0 && nk > 1 && err.code != DIAG_USAGE && (ok || i + 1 < nk)) {
			cli_warn(NULL, 0, "the %s captures are not followed: %s", kinds[i], err.msg);
			trend_kind_run_release(t);
		} else if (rc < 0) {
			status = say_error(&err);
			trend_kind_run_release(t);
		} else {
			reps[ok] = (struct rate_kind_report){
				.kind = t->kind, .order_note = t->rep.order_note, .series = &t->s,
				.rates = &rates[ok], .params = &t->p, .inputs = t->rep.inputs,
				.ninputs = t->rep.ninputs, .warnings = &t->warnings,
			};
			ok++;
		}
	}
	if (status == 0 && ok == 0) {
		struct diag err;
		diag_set(&err, DIAG_DATA, NULL, 0, 0, "no kind of capture in the inputs has 3 "
			 "usable iterations: a rate needs at least 3 captures");
		status = say_error(&err);
	}
	for (size_t i = 0; i < a->ngates && status == 0; i++) {
		struct diag err;
		if (check_gate(&a->gates[i], reps, ok, &err) < 0)
			status = say_error(&err);
	}
	if (status == 0) {
		struct rate_report rep = {
			.kinds = reps, .nkinds = ok, .rparams = &a->rp,
			.warmup_given = a->has_warmup, .source = a->paths[0],
			.gates = a->gates, .ngates = a->ngates,
		};
		status = a->format == FORMAT_HTML ? write_page(a, &rep, runs) : write_output(a, &rep);
		if (report_tripped(a) && status == 0)
			status = DIAG_GATE;
	}
	for (size_t i = 0; i < ok; i++) {
		rate_series_release(&rates[i]);
		trend_kind_run_release(&runs[i]);
	}
	free(reps);
	free(rates);
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
	rate_params_default(&a.rp);
	app_bundles_init(&bundles);
	if (parse_args(argc, argv, &a, &err) < 0) {
		status = cli_usage_error(cli_find_command("rate"), &err);
		goto out;
	}
	if (a.help) {
		fputs(cmd_rate_help, stdout);
		goto out;
	}
	if (rate_operands_expand((const char *const *)a.paths, a.npaths, &a.ops, &err) < 0) {
		cli_print_diag(&err);
		status = err.code;
		goto out;
	}
	status = run(&a, &bundles);
out:
	app_bundles_release(&bundles);
	args_release(&a);
	return status;
}
