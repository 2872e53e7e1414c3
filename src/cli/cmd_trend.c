/*
 * iotally trend: leak, plateau, step, no trend or stable, per metric, over
 * a series of captures of one kind; CI gates on the verdicts and the slopes.
 */

#include "cli/bundle_args.h"
#include "cli/commands.h"
#include "app/signature_inputs.h"
#include "model/signature.h"
#include "model/signature_series.h"
#include "cli/formats.h"
#include "app/kind.h"
#include "app/parallel.h"
#include "cli/inputs.h"
#include "cli/msgs.h"
#include "cli/options.h"
#include "cli/report_out.h"
#include "app/trend_inputs.h"
#include "app/trend_run.h"
#include "cli/report_series_run.h"

#include "model/trend.h"
#include "model/trend_gate.h"
#include "report/trend_report.h"
#include "util/array.h"
#include "util/diag.h"
#include "util/size.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <math.h>
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
	"Samples are ordered by the captures' own times (vmmap 'Date/Time:') when\n"
	"every capture has one, else by argument order; the report says which.\n"
	"A capture series of 'iotally capture --count N' (its folder or .tar.gz)\n"
	"gives its samples in time order, each timed by its manifest's start time\n"
	"and checked against its sha256. Every kind it holds is followed, one\n"
	"report after the other in the registry's order (vmmap, classes, track,\n"
	"footprint; one page with --format html); --kind narrows to one. JSON,\n"
	"JUnit and gates follow one kind: --kind's, else the first the first\n"
	"sample holds. A sample without the kind is left out with its step's\n"
	"reason. A single bundle gives its capture.\n"
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
	"  --kind K           follow only the vmmap, classes, track or footprint\n"
	"                     captures of a series (default: every kind it\n"
	"                     holds); inputs of another kind are an error\n"
	"  -j, --jobs N       read N inputs at once (default: one per processor,\n"
	"                     1: one after the other); the output is the same\n"
	"  -h, --help         show this help\n"
	"\n"
	"Gates: METRIC names a metric as the report does, or as 'iotally diff'\n"
	"gates do: vmmap:<Type>[:<N|V|E|->].<vsize|resident|dirty> (without a\n"
	"state, all states summed), vmmap:footprint, classes:<Class>,\n"
	"alloc:<instance|container|iomalloc|pageable>, track:total,\n"
	"footprint:gpu.dirty, footprint:phys_footprint, footprint:<Category>.dirty,\n"
	"track:<module>. OP is '>' or '>='. VALUE is a count or bytes with an\n"
	"optional binary unit (10MiB), or a percentage of the start level (5%),\n"
	"per hour ('/h', needs capture times) or per sample ('/sample', the\n"
	"default). The gate trips when the Theil-Sen slope compares true.\n"
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
	OPT_WARMUP = 1,
	OPT_MIN_GROWTH,
	OPT_MIN_COUNT,
	OPT_ALPHA,
	OPT_FAIL_ON,
	OPT_FAIL_IF,
	OPT_JUNIT,
	OPT_FORMAT,
	OPT_KIND,
	OPT_JOBS,
	OPT_OUTPUT,
	OPT_HELP,
};

static const struct cli_option trend_options[] = {
	{ "warmup", 0, true, OPT_WARMUP },
	{ "min-growth", 0, true, OPT_MIN_GROWTH },
	{ "min-count", 0, true, OPT_MIN_COUNT },
	{ "alpha", 0, true, OPT_ALPHA },
	{ "fail-on", 0, true, OPT_FAIL_ON },
	{ "fail-if", 0, true, OPT_FAIL_IF },
	{ "junit", 0, true, OPT_JUNIT },
	{ "format", 0, true, OPT_FORMAT },
	{ "kind", 0, true, OPT_KIND },
	{ "jobs", 'j', true, OPT_JOBS },
	{ "output", 'o', true, OPT_OUTPUT },
	{ "help", 'h', false, OPT_HELP },
};

/* The formats `iotally trend` writes. */
#define TREND_FORMATS (FORMAT_BIT(FORMAT_TEXT) | FORMAT_BIT(FORMAT_JSON) | \
		       FORMAT_BIT(FORMAT_MARKDOWN) | FORMAT_BIT(FORMAT_HTML))

struct trend_args {
	const char **paths;
	size_t npaths;
	enum output_format format;
	const char *kind;      /* --kind, NULL: the first input's */
	const char *junit;
	const char *output;    /* -o: the HTML page's file; NULL: standard output */
	bool has_warmup;
	uint64_t warmup;
	bool has_min_bytes, has_min_count, has_min_percent, has_alpha;
	double min_bytes, min_count, min_percent, alpha;
	bool fail_on_leak;
	unsigned jobs;         /* -j N: inputs read at once; 0: one per processor */
	struct trend_gate *gates;
	size_t ngates, gates_alloc;
	bool help;
};

static void
args_release(struct trend_args *a)
{
	for (size_t i = 0; i < a->ngates; i++)
		trend_gate_release(&a->gates[i]);
	free(a->gates);
	free(a->paths);
}

/* "1MiB", "512K" (bytes) or "10%", "2.5%" (of the start level). */
static int
parse_min_growth(const char *arg, struct trend_args *a, struct diag *err)
{
	size_t n = strlen(arg);
	if (n && arg[n - 1] == '%') {
		char *end;
		double p = strtod(arg, &end);
		if (end != arg + n - 1 || !(p >= 0) || p > 1e6)
			goto bad;
		a->has_min_percent = true;
		a->min_percent = p;
		return 0;
	}
	uint64_t v;
	if (size_parse_user(arg, &v) != SIZE_OK)
		goto bad;
	a->has_min_bytes = true;
	a->min_bytes = (double)v;
	return 0;
bad:
	return diag_set(err, DIAG_USAGE, NULL, 0, 0,
			"--min-growth '%s' is not a size (1MiB, 512K) or a percentage (10%%)",
			arg);
}

static int
parse_alpha(const char *arg, struct trend_args *a, struct diag *err)
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
handle_option(int id, const char *arg, struct trend_args *a, struct diag *err)
{
	switch (id) {
	case OPT_WARMUP:
		a->has_warmup = true;
		if (strcmp(arg, "0") == 0) {
			a->warmup = 0;
			return 0;
		}
		return cli_positive_count("--warmup", arg, &a->warmup, err);
	case OPT_MIN_GROWTH:
		return parse_min_growth(arg, a, err);
	case OPT_MIN_COUNT: {
		uint64_t n;
		if (cli_positive_count("--min-count", arg, &n, err) < 0)
			return -1;
		a->has_min_count = true;
		a->min_count = (double)n;
		return 0;
	}
	case OPT_ALPHA:
		return parse_alpha(arg, a, err);
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
	case OPT_KIND: {
		const char *names[KINDS_MAX];
		int k = cli_choice("kind", arg, names, kind_names(names, KINDS_MAX), err);
		if (k < 0)
			return -1;
		a->kind = names[k];
		return 0;
	}
	case OPT_FORMAT: {
		return cli_parse_format(arg, TREND_FORMATS, &a->format, err);
	}
	case OPT_JOBS:
		return cli_parse_jobs(arg, &a->jobs, err);
	case OPT_OUTPUT:
		a->output = arg;
		return 0;
	default:
		return 0;
	}
}

struct trend_parse {
	struct trend_args *a;
	size_t alloc;        /* of a->paths */
	size_t stdin_uses;   /* operands "-" */
};

/* One option or operand (cli_take_fn). */
static int
take_arg(void *ctx, struct cli_parser *p, int id, const char *arg, struct diag *err)
{
	struct trend_parse *t = ctx;
	struct trend_args *a = t->a;
	(void)p;
	if (id != CLI_OPERAND)
		return handle_option(id, arg, a, err);
	a->paths = xgrow(a->paths, &t->alloc, a->npaths + 1, sizeof(*a->paths));
	a->paths[a->npaths++] = arg;
	t->stdin_uses += strcmp(arg, "-") == 0;
	return 0;
}

static int
parse_args(int argc, char **argv, struct trend_args *a, struct diag *err)
{
	struct cli_parser p;
	struct trend_parse t = { .a = a };
	if (cli_parse(&p, trend_options, ARRAY_SIZE(trend_options), argc, argv, OPT_HELP,
		      &a->help, take_arg, &t, err) < 0)
		return -1;
	if (a->help)
		return 0;
	if (a->npaths == 0)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"no inputs: a trend needs at least 3 captures of one kind");
	if (t.stdin_uses > 1)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"only one input can be standard input");
	if (a->output && a->format != FORMAT_HTML)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"-o writes the HTML page: it goes with --format html");
	return 0;
}

/* ---- reading and ordering ------------------------------------------------ */

/* ---- gates ----------------------------------------------------------------- */

static int
check_gate_kinds(const struct trend_args *a, const char *kind, struct diag *err)
{
	const struct kind *k = NULL;
	for (size_t i = 0; i < a->ngates; i++) {
		const struct trend_gate *g = &a->gates[i];
		k = kind_for_metric(g->g.kind);
		if (k && strcmp(k->name, kind) == 0)
			continue;
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				k ? "gate '%s': '%s:' metrics do not apply to %s captures"
				  : "gate '%s': unknown metric kind '%s' (this trend reads %s "
				    "captures)", g->g.text, g->g.kind, kind);
	}
	return 0;
}

/*
 * "vmmap:<Type>.<field>" without a state: the sum over the states of
 * "vmmap:<Type>:<c>.<field>". Values into v; false when no state exists.
 */
static bool
sum_states(const struct trend_series *s, const char *name, double *v)
{
	const char *dot = strrchr(name, '.');
	if (strncmp(name, "vmmap:", 6) != 0 || !dot)
		return false;
	bool found = false;
	for (size_t k = 0; k < s->nsamples; k++)
		v[k] = NAN;
	for (const char *st = "NVE-"; *st; st++) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "%.*s:%c%s", (int)(dot - name), name, *st, dot);
		const struct trend_metric *m = trend_series_find(s, sb.buf);
		strbuf_release(&sb);
		if (!m)
			continue;
		found = true;
		for (size_t k = 0; k < s->nsamples; k++)
			if (!isnan(m->v[k]))
				v[k] = isnan(v[k]) ? m->v[k] : v[k] + m->v[k];
	}
	return found;
}

static int
resolve_gates(struct trend_args *a, const struct trend_series *s,
	      const struct trend_params *p, struct diag *err)
{
	double *v = xmalloc((s->nsamples ? s->nsamples : 1) * sizeof(*v));
	int rc = 0;
	for (size_t i = 0; i < a->ngates && rc == 0; i++) {
		struct trend_gate *g = &a->gates[i];
		const struct trend_metric *m = trend_series_find(s, g->name);
		enum trend_unit unit = TREND_BYTES;
		if (m) {
			memcpy(v, m->v, s->nsamples * sizeof(*v));
			unit = m->unit;
		} else if (!sum_states(s, g->name, v)) {
			rc = diag_set(err, DIAG_DATA, NULL, 0, 0,
				      "gate '%s': no capture holds '%s'", g->g.text, g->name);
			break;
		}
		struct trend_result r;
		trend_analyse_values(v, s->has_times ? s->hours : NULL, s->nsamples, unit,
				     m ? m->resolution : 0, false,
				     p, &r);
		rc = trend_gate_check(g, &r, unit, err);
	}
	free(v);
	return rc;
}

enum { LEAKS_NAMED = 3 };   /* --fail-on leak names this many metrics, then "and N more" */

/* The LEAK metrics of `reps`, named: "vmmap:IOSurface:N.dirty, ... and 4 more". */
static void
name_leaks(const struct trend_report *const *reps, size_t nreps, struct strbuf *sb)
{
	size_t named = 0, more = 0;
	for (size_t i = 0; i < nreps; i++) {
		const struct trend_series *s = reps[i]->series;
		for (size_t j = 0; j < s->nmetrics; j++) {
			const struct trend_metric *m = &s->metrics[j];
			if (m->unchanged || m->r.verdict != TREND_LEAK)
				continue;
			if (named == LEAKS_NAMED) {
				more++;
				continue;
			}
			strbuf_addf(sb, "%s%s", named ? ", " : "", m->name);
			named++;
		}
	}
	if (more)
		strbuf_addf(sb, " and %zu more", more);
}

static size_t
report_tripped(const struct trend_args *a, size_t leaks, const struct trend_report *const *reps,
	       size_t nreps)
{
	size_t n = 0;
	for (size_t i = 0; i < a->ngates; i++) {
		const struct trend_gate *g = &a->gates[i];
		char s[48];
		if (!g->tripped)
			continue;
		if (g->g.percent)
			snprintf(s, sizeof(s), "%+.2f %%", g->slope);
		else
			trend_format_amount(s, g->slope, g->unit, true);
		cli_error(NULL, 0, "gate '%s' tripped: slope %s per %s", g->g.text, s,
			  g->rate == TREND_PER_HOUR ? "hour" : "sample");
		n++;
	}
	if (a->fail_on_leak && leaks) {
		struct strbuf names = STRBUF_INIT;
		name_leaks(reps, nreps, &names);
		cli_error(NULL, 0, "--fail-on leak: %zu metric%s LEAK: %s", leaks,
			  leaks == 1 ? " is" : "s are", names.buf);
		strbuf_release(&names);
		n++;
	}
	return n;
}

/* ---- the command ------------------------------------------------------------ */

static void
set_params(const struct trend_args *a, size_t nsamples, struct trend_params *p)
{
	trend_params_default(p, nsamples);
	if (a->has_warmup)
		p->warmup = (size_t)a->warmup;
	if (a->has_min_bytes)
		p->min_bytes = a->min_bytes;
	if (a->has_min_count)
		p->min_count = a->min_count;
	if (a->has_min_percent)
		p->min_percent = a->min_percent;
	if (a->has_alpha)
		p->alpha = a->alpha;
}

static int
junit_write(FILE *out, const void *rep, struct diag *err)
{
	return trend_junit_write(out, rep, err);
}

/* The JUnit file, replaced whole (temporary file + rename), or standard output. */
static int
write_junit(const char *path, const struct trend_report *rep, struct diag *err)
{
	return cli_write_output(path, junit_write, rep, err);
}

static int
write_output(const struct trend_args *a, const struct trend_report *rep)
{
	if (a->junit && strcmp(a->junit, "-") == 0)
		return 0;   /* standard output carries the JUnit XML only */
	if (a->format == FORMAT_JSON) {
		if (trend_json_write(stdout, rep) < 0) {
			cli_error(NULL, 0, "cannot write JSON output");
			return DIAG_IOERR;
		}
		return 0;
	}
	trend_text_write(stdout, rep, a->format == FORMAT_MARKDOWN);
	return 0;
}

/* trend_params_fn: the defaults for the sample count, then the options. */
static void
params_of_args(void *ctx, size_t nsamples, struct trend_params *p)
{
	set_params(ctx, nsamples, p);
}

/*
 * The kinds to follow: --kind's; with gates (of one kind), for JSON and for
 * JUnit, one kind, the first (NULL: as the inputs say); else every kind the
 * bundle operands hold (app/trend_run.h).
 */
static size_t
kinds_to_follow(const struct trend_args *a, struct app_bundles *bs, const char **kinds)
{
	kinds[0] = a->kind;
	if (a->kind)
		return 1;
	if (a->ngates || a->format == FORMAT_JSON || a->junit)
		return 1;
	size_t n = trend_run_bundle_kinds(a->paths, a->npaths, bs, kinds, KINDS_MAX);
	if (n == 0)
		kinds[n++] = NULL;
	return n;
}

/* The error of a trend that cannot be made: its exit status after saying it. */
static int
say_error(struct diag *err)
{
	return err->code == DIAG_USAGE ? cli_usage_error(cli_find_command("trend"), err)
				       : (cli_print_diag(err), err->code);
}

static int
write_all(struct trend_args *a, struct trend_kind_run *runs, size_t n)
{
	struct diag err;
	int status = 0;
	const struct trend_report **reps = xcalloc(n ? n : 1, sizeof(*reps));
	for (size_t i = 0; i < n; i++)
		reps[i] = &runs[i].rep;
	if (a->format == FORMAT_HTML && !(a->junit && strcmp(a->junit, "-") == 0)) {
		if (cli_write_series_page(reps, n, NULL, (const char *const *)a->paths, a->npaths,
					  false, NULL, FORMAT_HTML, a->output, &err) < 0) {
			cli_print_diag(&err);
			status = err.code;
		}
	} else {
		for (size_t i = 0; i < n && status == 0; i++) {
			if (i)
				fputc('\n', stdout);
			status = write_output(a, reps[i]);
		}
	}
	if (status == 0 && a->junit && write_junit(a->junit, reps[0], &err) < 0) {
		cli_print_diag(&err);
		status = err.code;
	}
	size_t leaks = 0;
	for (size_t i = 0; i < n; i++)
		leaks += trend_report_leaks(reps[i]);
	if (report_tripped(a, leaks, reps, n) && status == 0)
		status = DIAG_GATE;
	free(reps);
	return status;
}

/*
 * Each kind followed (a kind of several that cannot be followed is said
 * and left out), the gates checked on the one they name, then the output.
 */
/*
 * The series' leak signature: its first and last samples compared, when the
 * verdict that names it (model/signature_series.h: the strongest of the GPU,
 * class or call-site metrics) is LEAK, GROWING or PLATEAU.
 */
static int
series_signature(const struct trend_kind_run *t, struct signature *sig, struct diag *err)
{
	const struct trend_series *s = &t->s;
	enum trend_verdict best = signature_series_verdict(s);
	struct diag_list notes;
	diag_list_init(&notes, 20);
	const char *first = s->nsamples >= 2 ? t->in[t->o.perm[0]].path : NULL;
	const char *last = s->nsamples >= 2 ? t->in[t->o.perm[s->nsamples - 1]].path : NULL;
	/* Standard input cannot be read a second time: no signature then. */
	int rc = !first || best == TREND_VERDICTS || strcmp(first, "-") == 0 ||
		 strcmp(last, "-") == 0
		 ? (signature_init(sig), signature_finish(sig), 0)
		 : signature_of_series(first, last, trend_verdict_name(best), sig, &notes, err);
	diag_list_release(&notes);   /* said once already, when the samples were read */
	return rc;
}

/* A kind's signature, or none with a warning: the verdicts stand without it. */
static void
kind_signature(const struct trend_kind_run *t, struct signature *sig)
{
	struct diag err;
	diag_clear(&err);
	if (series_signature(t, sig, &err) < 0) {
		cli_warn(diag_path(&err), err.line, "the series has no leak signature: %s", err.msg);
		signature_release(sig);
		signature_init(sig);
		signature_finish(sig);
	}
}

static int
run(struct trend_args *a, struct app_bundles *bs)
{
	const char *kinds[KINDS_MAX];
	size_t nk = kinds_to_follow(a, bs, kinds), ok = 0;
	struct trend_kind_run *runs = xcalloc(nk, sizeof(*runs));
	struct signature *sigs = xcalloc(nk, sizeof(*sigs));
	int status = 0;
	for (size_t i = 0; i < nk && status == 0; i++) {
		struct diag_list notes;
		struct diag err;
		diag_clear(&err);
		diag_list_init(&notes, 200);
		struct trend_kind_run *t = &runs[ok];
		int rc = trend_kind_run(t, (const char *const *)a->paths, a->npaths, kinds[i],
					a->jobs ? a->jobs : app_parallel_default_jobs(), bs,
					params_of_args, a, &notes, &err);
		cli_print_warnings(&notes);
		diag_list_release(&notes);
		if (rc == 0 && t->kind)
			rc = check_gate_kinds(a, t->kind, &err);
		cli_print_warnings(&t->warnings);
		if (rc == 0 && resolve_gates(a, &t->s, &t->p, &err) < 0) {
			cli_print_diag(&err);
			status = err.code;
		} else if (rc < 0 && nk > 1 && err.code != DIAG_USAGE && (ok || i + 1 < nk)) {
			cli_warn(NULL, 0, "the %s captures are not followed: %s", kinds[i], err.msg);
		} else if (rc < 0) {
			status = say_error(&err);
		}
		if (rc == 0 && status == 0) {
			t->rep.warmup_given = a->has_warmup;
			t->rep.gates = a->gates;
			t->rep.ngates = a->ngates;
			t->rep.fail_on_leak = a->fail_on_leak;
			kind_signature(t, &sigs[ok]);
			t->rep.sig = &sigs[ok];
			ok++;
		} else {
			trend_kind_run_release(t);
		}
	}
	if (status == 0 && ok == 0) {
		struct diag err;
		diag_set(&err, DIAG_DATA, NULL, 0, 0, "no kind of capture in the inputs has 3 "
			 "usable samples: a trend needs at least 3 captures");
		status = say_error(&err);
	}
	if (status == 0)
		status = write_all(a, runs, ok);
	for (size_t i = 0; i < nk; i++)
		trend_kind_run_release(&runs[i]);
	for (size_t i = 0; i < ok; i++)
		signature_release(&sigs[i]);
	free(sigs);
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
	if (parse_args(argc, argv, &a, &err) < 0) {
		status = cli_usage_error(cli_find_command("trend"), &err);
		goto out;
	}
	if (a.help) {
		fputs(cmd_trend_help, stdout);
		goto out;
	}
	status = run(&a, &bundles);
out:
	app_bundles_release(&bundles);
	args_release(&a);
	return status;
}
