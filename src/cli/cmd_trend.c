/*
 * iotally trend: leak, plateau, step, no trend or stable, per metric, over
 * a series of captures of one kind; CI gates on the verdicts and the slopes.
 */

#include "cli/commands.h"
#include "cli/msgs.h"
#include "cli/report_out.h"
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

const char cmd_trend_help[] =
	"usage: iotally trend [options] INPUT...\n"
	"\n"
	"Tells a leak from a cache warming up: over a series of captures of one\n"
	"kind, taken while an action repeats, gives each metric a verdict from\n"
	"its slope and a trend test:\n"
	"\n"
	"  LEAK          grows steadily and has not stopped, or rose in steps and\n"
	"                kept rising\n"
	"  GROWING       the same, in volatile or empty purgeable memory, which\n"
	"                the kernel may discard: not called a leak\n"
	"  PLATEAU       a significant rise, then growth stopped (the warm-up\n"
	"                included: a rise during the warm-up is a plateau too)\n"
	"  STEP          one jump between two flat stretches\n"
	"  NO TREND      rises, but not significantly at this noise; the notes say\n"
	"                about how many more samples would tell\n"
	"  STABLE        no rise above the minimum growth (flat, falling, or one\n"
	"                rounding step of a rounded figure)\n"
	"  INSUFFICIENT  too few samples after the warm-up (the notes say how many\n"
	"                more)\n"
	"\n"
	"INPUT: at least 3 captures of one kind, raw or iotally's JSON of them:\n"
	"  vmmap   IOAccelerator and IOSurface regions per type and purge state\n"
	"          (vsize, resident, dirty bytes) and the physical footprint\n"
	"  classes every IOKit class count (ioreg, ioclasscount) and the four\n"
	"          allocation totals (ioreg)\n"
	"  track   the total and the bytes charged to each module\n"
	"  footprint  footprint:gpu.dirty, footprint:phys_footprint and each\n"
	"          category's dirty bytes (rounded figures quantised to their unit)\n"
	"  heap    heap:nodes and heap:bytes (a heap report's All zones)\n"
	"Samples are ordered by the captures' own times (vmmap 'Date/Time:') when\n"
	"every capture has one, else by argument order; the report says which.\n"
	"A capture series of 'iotally capture --count N' (its folder or .tar.gz)\n"
	"gives its samples in time order, each timed by its manifest's start time\n"
	"and checked against its sha256. Every kind it holds is followed, one\n"
	"report after the other in the registry's order\n"
	"({kinds}; one page with --format html); --kind\n"
	"narrows to one. JSON, JUnit and gates follow one kind: --kind's, else the\n"
	"first the first sample holds. A sample without the kind is left out with\n"
	"its step's reason. A single bundle gives its capture.\n"
	"Inputs that cannot be read, or end in the middle, are left out and\n"
	"listed. Metrics with the same value in every sample are counted, not shown.\n"
	"\n"
	"Method (docs/trend.md): a plateau is a rise-then-flat fit over every\n"
	"sample; the first --warmup samples are dropped from the rest: a\n"
	"Theil-Sen slope with a 95 % interval (per hour when the times are\n"
	"known) and a tie-corrected Mann-Kendall test with p-values adjusted\n"
	"across metrics (Benjamini-Hochberg). Samples close in time are\n"
	"correlated: the test and the interval allow for a lag-1 correlation of\n"
	"at least 0.5, more when the samples show it (up to 0.8); from 14\n"
	"samples a clear least-squares slope (t >= 4) is also a leak when the\n"
	"rank test is at 5 %. Figures vmmap rounds (the\n"
	"physical footprint) and counts move by whole steps, and one step is not\n"
	"a rise.\n"
	"\n"
	"Options:\n"
	"  --warmup K         samples to drop first (default max(2, 20 % of them))\n"
	"  --min-growth V     least growth over the analysed window for LEAK and\n"
	"                     PLATEAU: bytes (default 1MiB) or a percentage of the\n"
	"                     start level (10%; default none); repeatable, both apply\n"
	"  --min-count N      the same for counts (default 4)\n"
	"  --alpha P          adjusted Mann-Kendall p must be below P (default 0.01)\n"
	"  --fail-on leak     exit status 1 when any metric is LEAK\n"
	"  --fail-if 'METRIC slope OP VALUE[/h|/sample]'\n"
	"                     a CI gate on a slope, repeatable; exit status 1 when\n"
	"                     any trips\n"
	"  --junit FILE       also write the gates as JUnit XML (one test case each,\n"
	"                     and one for --fail-on); '-': only the XML, on standard\n"
	"                     output\n"
	"  --format F         text (default), json, markdown or html (the page of\n"
	"                     'iotally report SERIES': timelines with the fitted\n"
	"                     slopes and verdict badges)\n"
	"  -o, --output FILE  with --format html: write the page to FILE (whole or\n"
	"                     not at all) instead of standard output\n"
	"  --kind K           follow only the {kinds or}\n"
	"                     captures of a series (default: every kind it\n"
	"                     holds); inputs of another kind are an error\n"
	"  -j, --jobs N       read N inputs at once (default: one per processor,\n"
	"                     1: one after the other); the output is the same\n"
	"  -h, --help         show this help\n"
	"\n"
	"Gates: METRIC names a metric as the report does, or as 'iotally diff'\n"
	"gates do:\n"
	"{gate grammar}"
	"OP is '>' or '>='. VALUE is a count or bytes with an optional binary unit\n"
	"(10MiB), or a percentage of the start level (5%), per hour ('/h', needs\n"
	"capture times) or per sample ('/sample', the default). The gate trips when\n"
	"the Theil-Sen slope compares true.\n"
	"\n"
	"When a metric is LEAK, GROWING or PLATEAU, the series' leak signature\n"
	"(docs/signatures.md: its first and last samples compared, and the\n"
	"verdict) follows the heading, and is the signature member of the JSON.\n"
	"\n"
	"Examples (the files are iotally's test fixtures):\n"
	"  iotally trend fixtures/trend/leak/*.txt\n"
	"  iotally trend --fail-on leak --fail-if 'vmmap:IOSurface.dirty slope > 20MiB/h' fixtures/trend/plateau/*.txt\n"
	"  iotally trend --format markdown fixtures/trend/plateau/*.txt\n"
	"  iotally trend --format json --warmup 3 fixtures/trend/step/*.txt\n"
	"  iotally trend --min-count 10 fixtures/trend/classes/*.txt\n"
	"  iotally trend --format html fixtures/series-bundle/leak.tar.gz > /tmp/iotally-trend.html && echo written\n"
	"\n"
	"Exit status: 0 no gate tripped, 1 a gate tripped (or a LEAK with\n"
	"--fail-on leak), 64 usage error or a malformed gate, 65 inputs of\n"
	"different kinds, fewer than 3 usable inputs, or a gate on something no\n"
	"capture holds, 66 no input can be opened, 74 output cannot be written.\n";

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
	if (status == 0 && a->junit && cli_write_output(a->junit, junit_write, reps[0], &err) < 0) {
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
		cli_print_help(stdout, cmd_trend_help);
	else
		status = run(&a, &bundles);
	app_bundles_release(&bundles);
	args_release(&a);
	return status;
}
