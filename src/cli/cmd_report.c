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

const char cmd_report_help[] =
	"usage: iotally report [options] INPUT [AFTER]\n"
	"       iotally report [options] BUNDLE [AFTER_BUNDLE]\n"
	"       iotally report [options] SERIES | INPUT INPUT INPUT...\n"
	"\n"
	"One report to attach to a bug: a vmmap dump, IOKit class counts (ioreg,\n"
	"ioclasscount), an ioclasscount --track capture or footprint output, or\n"
	"iotally's JSON of one. With two inputs of the same kind it reports what changed between\n"
	"them (the figures of 'iotally diff').\n"
	"\n"
	"A capture bundle of 'iotally capture' (a folder or its .tar.gz) gives one\n"
	"report of every capture it holds ({kinds}), each\n"
	"file checked against its manifest's sha256 first, with what the manifest\n"
	"says about the capture: target, host, kernel, when and by which iotally,\n"
	"whether it was redacted, and every step that failed, was denied or was\n"
	"skipped (with the tool's own message).\n"
	"\n"
	"A series (a folder or .tar.gz of 'iotally capture --count', three or\n"
	"more captures, or a list of bundles) gives one report over time: every\n"
	"kind it holds is followed as 'iotally trend' follows it, with trend's\n"
	"verdicts. First a headline of the verdicts that matter (LEAK, GROWING,\n"
	"PLATEAU, STEP: how many, the first metric of each with its first and\n"
	"last figures and its slope), then per kind each metric that changed,\n"
	"ranked as trend ranks them, with a timeline of its samples, the fitted\n"
	"slope and the verdict as a badge (HTML; the Markdown page gives a\n"
	"sparkline), the metrics the same in every sample counted and folded, and\n"
	"the samples with their capture times, used or left out and why. A\n"
	"sample of a series archive is named ARCHIVE:NNN (as 'iotally SERIES'\n"
	"lists them), of a series folder SERIES/NNN.\n"
	"\n"
	"Two bundles (BEFORE AFTER, folders or .tar.gz) give one before/after report\n"
	"of every kind both hold, under one headline (GPU memory and what grew most,\n"
	"IOKit classes, tracked kernel memory and new call sites, footprint), with\n"
	"both manifests' provenance. The kernel view is one section whatever files\n"
	"it came from: the ioreg plist is the reference, ioclasscount and\n"
	"ioalloccount are named and not shown again (without the plist, ioclasscount\n"
	"gives the counts and ioalloccount the totals), and where a bundle's sources\n"
	"disagree both figures are shown with the time each was taken. IOSurface\n"
	"and IOAccelerator instances are shown beside their vmmap regions.\n"
	"\n"
	"In order, leaving out what the input does not hold: the summary block\n"
	"(at most four lines: the cost, what the process pays for GPU memory,\n"
	"with its source; what grew; where, the call site with its module; a\n"
	"series' verdict: docs/gpu.md); every change in one line; warnings, in\n"
	"one block; a tracking session's classes and their sites; GPU memory by\n"
	"type (IOAccelerator, IOSurface, owned unmapped) and purgeable state, and\n"
	"where two sources measure one thing, their figures side by side; log2\n"
	"size histograms and IOSurfaces by dimensions; IOKit classes by count\n"
	"(or by change, new and gone classes marked) and allocation totals; call\n"
	"sites and modules (new and grown sites with their backtrace); the gates;\n"
	"provenance (process, OS version, capture time, page size, inputs, the\n"
	"iotally version, partial inputs), folded.\n"
	"\n"
	"Options:\n"
	"  --format F         markdown (default: GitHub-flavoured, under " REPORT_MD_LIMIT_SHOWN "\n"
	"                     characters, long tables folded) or html (one\n"
	"                     self-contained page: inline CSS and SVG charts with\n"
	"                     their tables, no script, no external request, light\n"
	"                     and dark, printable; the data as JSON inside)\n"
	"  -o, --output FILE  write FILE (whole or not at all) instead of standard\n"
	"                     output\n"
	"  --fail-if 'METRIC OP VALUE'\n"
	"                     a gate, as 'iotally diff' takes them (two inputs; of\n"
	"                     two bundles, checked on the pair of the gate's kind;\n"
	"                     'iotally trend --fail-if' gates a series);\n"
	"                     repeatable; exit status 1 when any trips\n"
	"  --all              every row: by default rows that did not change (and\n"
	"                     empty histogram buckets) are counted and folded, and\n"
	"                     the provenance shows its first rows\n"
	"  -j, --jobs N       read N samples of a series at once (default: one per\n"
	"                     processor, 1: one after the other); the output is the\n"
	"                     same\n"
	"  -h, --help         show this help\n"
	"\n"
	"A pair's headline ends with its leak signature (docs/signatures.md) when\n"
	"something grew past the rule's thresholds.\n"
	"\n"
	"Sizes are shown in binary units (KiB, MiB, GiB); the HTML page keeps every\n"
	"exact byte count (cell tooltips, and the embedded JSON). A gate's byte\n"
	"figures show their exact count beside the units on both pages (a limit\n"
	"given in a unit too: '> +256M (+268435456 bytes)'; one in plain digits\n"
	"its size: '>= +407896064 (+389 MiB)', as diff says it), so that a delta\n"
	"equal to its limit is seen to be; a count gate's are plain integers; a\n"
	"gate a capture cannot evaluate is 'not evaluable', with the reason.\n"
	"\n"
	"Examples (the files are iotally's test fixtures):\n"
	"  iotally report fixtures/vmmap/synthetic-gpu-purge-states.txt\n"
	"  iotally report fixtures/diff/vmmap-before.txt fixtures/diff/vmmap-after.txt\n"
	"  iotally report --format html fixtures/diff/track-before.txt fixtures/diff/track-after.txt > /tmp/iotally-report.html && echo written\n"
	"  iotally report --fail-if 'classes:IOSurface > +10' fixtures/diff/classes-before.txt fixtures/diff/classes-after.txt\n"
	"  iotally report fixtures/bundle/partial\n"
	"  iotally report fixtures/bundle-pair/before fixtures/bundle-pair/after.tar.gz\n"
	"  iotally report fixtures/series-bundle/leak.tar.gz\n"
	"  iotally report fixtures/series-bundle/leak.tar.gz:003\n"
	"\n"
	"Exit status: 0 success, 1 a gate tripped, 64 usage error (a bundle with a\n"
	"file, --fail-if with a series), 65 malformed input (a bundle manifest\n"
	"included), inputs of different kinds or a series of fewer than 3 usable\n"
	"samples, 66 input cannot be opened (a bundle without a capture iotally\n"
	"reads, two bundles without a kind in common, a sample a series does not\n"
	"hold), 74 output cannot be written.\n";

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
		cli_print_help(stdout, cmd_report_help);
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
