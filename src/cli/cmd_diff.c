/*
 * iotally diff: what grew between two captures of the same kind, and CI
 * gates on it.
 */

#include "cli/bundle_args.h"
#include "cli/commands.h"
#include "cli/formats.h"
#include "app/kind.h"
#include "app/kind_classes.h"
#include "app/diff_pairs.h"
#include "app/pair_open.h"
#include "app/signature_inputs.h"
#include "app/parallel.h"
#include "cli/inputs.h"
#include "cli/outbuf.h"
#include "cli/msgs.h"
#include "cli/options.h"
#include "cli/report_out.h"

#include "ingest/bundle.h"
#include "ingest/detect.h"
#include "ingest/diff_read.h"
#include "model/diff.h"
#include "model/signature.h"
#include "report/diff_ndjson_write.h"
#include "report/diff_report.h"
#include "report/report_md_write.h"
#include "util/array.h"
#include "util/diag.h"
#include "util/escape.h"
#include "util/spill.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char cmd_diff_help[] =
	"usage: iotally diff [options] BEFORE AFTER\n"
	"\n"
	"Compares captures taken before and after an action, and says what grew\n"
	"and by how much. BEFORE and AFTER are two files, or two folders of\n"
	"captures (a nightly job's output and its baseline). Files are raw\n"
	"captures or iotally's own JSON report of the kind ('iotally vmmap\n"
	"--format json', 'iotally track --format json', 'iotally classes\n"
	"--format json'), in any mix; the kind is found from the content.\n"
	"\n"
	"Folders: files are paired by name and every pair is compared (its two\n"
	"files must be of one kind). A file without a counterpart of its name is\n"
	"listed on standard error (an error with --strict); subfolders and hidden\n"
	"files are not read. Two bundles of 'iotally capture' (folders or\n"
	".tar.gz) are paired capture by capture (the files their manifests name),\n"
	"each checked first against the sha256 and size its manifest records: a\n"
	"file changed after the capture is a warning naming it (an error with\n"
	"--strict). A bundle's kernel view is compared once: its ioreg plist is\n"
	"the reference, and the ioclasscount and ioalloccount files it covers are\n"
	"named in a note (a figure they say otherwise is a warning giving both,\n"
	"with the time each was taken). Without the plist, ioclasscount is the\n"
	"reference and ioalloccount's totals join it; the two references are one\n"
	"pair even when only one bundle holds the plist, each side's allocation\n"
	"totals (and alloc: gates) from its own source, named in a note and in\n"
	"the gates' results. A series is compared sample by sample:\n"
	"name two of its numbered folders. A closing line counts the pairs, the\n"
	"files without a counterpart and the tripped gates (with --format\n"
	"markdown it comes first, before the pairs' sections).\n"
	"\n"
	"  classes IOKit instance counts (ioreg -l / -a, ioclasscount output):\n"
	"          per class before, after and delta, largest change first, classes\n"
	"          new in AFTER or gone from it marked; allocation totals\n"
	"  vmmap   per region type and purge state (N, V, E, -): count, virtual,\n"
	"          resident, dirty and swapped bytes before, after and delta; the\n"
	"          size buckets whose region count changed; purgeable bytes that\n"
	"          moved between states; the physical footprint header. Summary-only\n"
	"          dumps (vmmap -summary, crash-report summaries) are compared\n"
	"          through their summary tables: count, virtual, resident, dirty,\n"
	"          swapped, volatile, non-volatile and empty as printed (rounded;\n"
	"          gate fields vsize .. empty, no purge states)\n"
	"  track   call sites matched by their symbolicated frames (module and\n"
	"          symbol; addresses only where a frame has no symbol): new, grown,\n"
	"          shrunk and gone sites with byte and count deltas, per module;\n"
	"          sites charged to the same frame are told apart by the first\n"
	"          frame where their backtraces differ ('via frame N: ...')\n"
	"  footprint  footprint's text output (footprint -p PID, several processes\n"
	"          summed): footprint, phys_footprint, its peak and gpu.dirty, and\n"
	"          per category every column either capture prints, before, after\n"
	"          and delta; figures footprint printed formatted are rounded (~);\n"
	"          with several processes also each process, matched by name and\n"
	"          pid (a name under another pid: relaunched), added or removed\n"
	"\n"
	"Options:\n"
	"  --fail-if 'METRIC OP VALUE'\n"
	"                     a CI gate, repeatable; exit status 1 when any trips\n"
	"  --gates FILE       gates from a file: one a line, the --fail-if grammar;\n"
	"                     blank lines, lines starting with '#' and trailing\n"
	"                     comments (a '#' after a blank) are skipped\n"
	"  --junit FILE       also write the gates as JUnit XML: one test suite per\n"
	"                     pair, one test case per gate (named after its pair in\n"
	"                     folders: 'app-vmmap.txt: GATE'), errors as <error> and\n"
	"                     skipped gates as <skipped> cases. Written on every\n"
	"                     run, errors included, replacing FILE whole; '-'\n"
	"                     writes the XML to standard output instead of the report\n"
	"  --strict           files without a counterpart, gates that no pair\n"
	"                     answers or a capture cannot evaluate, and bundle files\n"
	"                     that do not match their manifest are errors (exit\n"
	"                     65), not notes\n"
	"  --format F         text (default), json (two files only), markdown or\n"
	"                     ndjson (one row per changed figure of each pair, for\n"
	"                     DuckDB, Spark or BigQuery: docs/json/diff-ndjson.md)\n"
	"  --snapshot N       compare dump (vmmap) or snapshot (classes) N of each\n"
	"                     file (default the first); --dump N is the same\n"
	"  --direct           classes: direct instance counts (a count minus its\n"
	"                     direct subclasses with instances); needs a hierarchy\n"
	"                     in an input (ioreg -i, kext-info, classes --direct JSON)\n"
	"  --match-offsets    track: frames match only with the same offset\n"
	"  --folded           track, two files: a differential folded file ('stack\n"
	"                     BEFORE AFTER', the difffolded.pl convention) instead of\n"
	"                     a report\n"
	"  -j, --jobs N       compare N pairs at once (folders and bundles; default:\n"
	"                     one per processor, 1: one after the other); the output\n"
	"                     is the same\n"
	"  -h, --help         show this help\n"
	"With two files, an option the kind does not take is a usage error; in\n"
	"folders it applies to the kinds that take it.\n"
	"\n"
	"Gates: METRIC is one of\n"
	"  vmmap:<Type>[:<N|V|E|->].<count|vsize|resident|dirty|swapped>\n"
	"                     Type by its full name (region lines cut names to 24\n"
	"                     characters; quote it, it may hold spaces), else a\n"
	"                     glob (* ? [..]) or a substring of type names as\n"
	"                     --types takes them, the types summed; without a\n"
	"                     state, all states\n"
	"  vmmap:gpu[:<N|V|E|->].<field>\n"
	"                     every GPU type together: IOAccelerator*, IOSurface*\n"
	"                     and 'owned unmapped (graphics)' (docs/gpu.md)\n"
	"  vmmap:footprint    the Physical footprint header (rounded by vmmap)\n"
	"  track:total        bytes of every call site\n"
	"  track:sites        number of call sites (net: a new and a gone site cancel)\n"
	"  track:new-sites    call sites only AFTER has (0 before)\n"
	"  track:new-bytes    bytes of those new sites\n"
	"  track:<module>     bytes attributed to one module (see 'track --by module')\n"
	"  classes:<Class>    instance count of a class (exact name; direct with\n"
	"                     --direct)\n"
	"  classes:*          the class that grew most (named in the result)\n"
	"  alloc:<instance|container|iomalloc|pageable>\n"
	"                     an allocation total in bytes (ioreg captures)\n"
	"  footprint:<Category>.<dirty|clean|reclaimable|swapped|wired|regions>\n"
	"                     a footprint category's column (exact name)\n"
	"  footprint:gpu.dirty  the GPU categories' Dirty summed (docs/gpu.md)\n"
	"  footprint:phys_footprint\n"
	"                     bytes; not evaluable when a capture lacks the figure\n"	"  footprint:process:NAME:<figure>\n"
	"                     one process's figure (NAME or 'NAME [PID]')\n"
	"OP is '>' or '>='. VALUE is a signed delta: a count or bytes with an\n"
	"optional binary unit (+5, +64K, +1MiB, +1.5G, 0x1000), or a percentage of\n"
	"BEFORE (+10%, +2.5%); a count metric takes no size unit ('> 5MB' on a\n"
	"count is refused). A gate trips when AFTER - BEFORE compares true, so\n"
	"'> +5' passes at exactly +5. A percentage of a BEFORE of 0 has no base:\n"
	"any increase from 0 trips it, no change passes. A gate is checked on every\n"
	"pair of its kind; a gate of a kind no pair has is skipped (a note; an\n"
	"error with --strict). Gates given and not one evaluated (no pair\n"
	"compared, or no capture holds a figure they read) fail the run (65),\n"
	"--strict or not. --junit FILE is written on every exit, usage errors\n"
	"included. A gate on a figure a capture does not have (a\n"
	"summary table without that column, region lines without RSDNT..SWAP) is\n"
	"not evaluable: said once, a JUnit <skipped/> case, the exit status\n"
	"unchanged (an error with --strict); such figures show as '?' (null in\n"
	"JSON and NDJSON), never 0. Every tripped gate is printed on standard\n"
	"error with its figures. A byte gate's limit is shown as typed with its\n"
	"other form beside it, as report's Gates table shows it: the exact bytes\n"
	"of a unit ('> +256M (+268435456 bytes)'), the size of plain digits\n"
	"('>= +407896064 (+389 MiB)'), in the LIMIT column, the JUnit messages\n"
	"and on standard error; a count's limit stays as typed. A pair where\n"
	"nothing changed and every gate passed is one line: 'Unchanged; N gates\n"
	"passed.'\n"
	"\n"
	"Each pair's leak signature (docs/signatures.md) says what grew in a form\n"
	"that is the same on every machine: a 'Signature:' line under the heading\n"
	"(id, label, rule), a signature member in JSON and signature columns on\n"
	"the NDJSON rows; none when nothing grew past the rule's thresholds.\n"
	"'iotally signatures' buckets many pairs by it.\n"
	"\n"
	"vmmap purge-state movement follows regions by start address (inferred\n"
	"from the per-state totals when an input is JSON, which has no addresses).\n"
	"Warnings say when the captures are hard to compare: another process, OS\n"
	"version, kernel build, page size or command, or an AFTER dated before\n"
	"BEFORE.\n"
	"\n"
	"Examples (the files are iotally's test fixtures):\n"
	"  iotally diff fixtures/diff/vmmap-before.txt fixtures/diff/vmmap-after.txt\n"
	"  iotally diff --fail-if 'vmmap:IOAccelerator (graphics):N.vsize > +384M' fixtures/diff/vmmap-before.txt fixtures/diff/vmmap-after.txt\n"
	"  iotally diff --format markdown --fail-if 'vmmap:IOSurface.count > +40%' fixtures/diff/vmmap-before.txt fixtures/diff/vmmap-after.txt\n"
	"  iotally diff --fail-if 'track:total > +1M' --fail-if 'track:sites > +0' fixtures/diff/track-before.txt fixtures/diff/track-after.txt\n"
	"  iotally diff --folded fixtures/diff/track-before.txt fixtures/diff/track-after.txt\n"
	"  iotally track --format json fixtures/diff/track-after.txt | iotally diff fixtures/diff/track-before.txt -\n"
	"  iotally diff --fail-if 'classes:IOSurface > +5' --fail-if 'alloc:instance > +1MiB' fixtures/diff/classes-before.txt fixtures/diff/classes-after.txt\n"
	"  iotally diff --direct --format json fixtures/diff/classes-before.txt fixtures/diff/classes-after.txt\n"
	"  iotally diff --gates fixtures/diff-folders/gates-at-boundary.txt fixtures/diff-folders/before fixtures/diff-folders/after\n"
	"  iotally diff --junit - --gates fixtures/diff-folders/gates-at-boundary.txt fixtures/diff-folders/before fixtures/diff-folders/after\n"
	"  iotally diff --fail-if 'vmmap:gpu.dirty > +256M' --fail-if 'classes:* > +100' --fail-if 'track:new-bytes > +2M' fixtures/diff-folders/before fixtures/diff-folders/after\n"	"  iotally diff --format ndjson --gates fixtures/diff-folders/gates-at-boundary.txt fixtures/diff-folders/before fixtures/diff-folders/after\n"
	"\n"
	"Exit status (the first error's, when there are several; an error wins\n"
	"over a tripped gate):\n"
	"  0   no gate tripped (with gates given, at least one evaluated)\n"
	"  1   a gate tripped\n"
	"  64  usage error: an unknown option, a malformed gate (on the command\n"
	"      line or in a gates file), a gate of an unknown kind, an option the\n"
	"      kind does not take, a --dump N past the last dump, a folder\n"
	"      compared with a file, a bundle with something else; a gate that\n"
	"      cannot be checked (a misspelt type or class, a figure neither\n"
	"      capture holds): the pairs are still compared and written, and the\n"
	"      gate is named once\n"
	"  65  malformed input (a bundle manifest included), two files of\n"
	"      different kinds, gates given and not one evaluated; with --strict,\n"
	"      files without a counterpart, skipped gates and bundle files that\n"
	"      do not match their manifest\n"
	"  66  an input, a folder or a gates file cannot be opened\n"
	"  74  output or the JUnit file cannot be written\n";

enum {
	OPT_FAIL_IF = 1,
	OPT_GATES,
	OPT_JUNIT,
	OPT_FORMAT,
	OPT_DUMP,
	OPT_MATCH_OFFSETS,
	OPT_FOLDED,
	OPT_DIRECT,
	OPT_STRICT,
	OPT_JOBS,
	OPT_HELP,
};

static const struct cli_option diff_options[] = {
	{ "fail-if", 0, true, OPT_FAIL_IF },
	{ "gates", 0, true, OPT_GATES },
	{ "junit", 0, true, OPT_JUNIT },
	{ "format", 0, true, OPT_FORMAT },
	{ "snapshot", 0, true, OPT_DUMP },
	{ "dump", 0, true, OPT_DUMP },
	{ "match-offsets", 0, false, OPT_MATCH_OFFSETS },
	{ "folded", 0, false, OPT_FOLDED },
	{ "direct", 0, false, OPT_DIRECT },
	{ "strict", 0, false, OPT_STRICT },
	{ "jobs", 'j', true, OPT_JOBS },
	{ "help", 'h', false, OPT_HELP },
};

/* The formats `iotally diff` writes. */
#define DIFF_FORMATS (FORMAT_BIT(FORMAT_TEXT) | FORMAT_BIT(FORMAT_JSON) | \
		      FORMAT_BIT(FORMAT_MARKDOWN) | FORMAT_BIT(FORMAT_NDJSON))

struct diff_args {
	const char *paths[2];
	size_t npaths;
	enum output_format format;
	const char *junit;
	bool strict;
	unsigned jobs;              /* -j N: pairs compared at once; 0: one per processor */
	struct diff_options opts;
	unsigned given;             /* enum kind_option bits given */
	struct diff_gate *gates;    /* as parsed: every kind's */
	size_t ngates, gates_alloc;
	bool help;
	/* Where the pairs' reports go: standard output, or the held body of a
	 * Markdown diff of folders, written after its summary. */
	FILE *out;
	char *routed[2];            /* a tracking session's before/ and after/ */
};

/* What became of one pair. */
struct pair_result {
	const struct kind *kind;   /* NULL: not recognised */
	struct diff_gate *gates;        /* copies of the gates of its kind, checked */
	size_t ngates;
	bool compared;
	int status;                     /* 0, or the error's exit status */
	char *error;                    /* the error as printed, without "iotally: " */
	/* The first gate that could not be checked against this pair (a
	 * misspelt type, a malformed metric): the pair is still compared and
	 * written; the gate is an error of the run (64), said once. */
	char *gate_error;
	char *gate_error_text;          /* that gate's expression */
};

/* A run: its pairs, their results, and what belongs to no pair. */
struct diff_run {
	struct diff_pairs pairs;
	struct pair_result *results;
	struct diff_junit_case *cases;  /* owned names and messages */
	size_t ncases, cases_alloc;
	int status;                     /* the first error's exit status */
	size_t tripped;
};

static void
args_release(struct diff_args *a)
{
	for (size_t i = 0; i < a->ngates; i++)
		diff_gate_release(&a->gates[i]);
	free(a->gates);
	free(a->routed[0]);
	free(a->routed[1]);
}

static int
read_gates_file(struct diff_args *a, const char *path, struct diag *err)
{
	struct line_reader r;
	if (line_reader_open(&r, path, 0, err) < 0)
		return -1;
	int rc = diff_gates_read(&r, &a->gates, &a->ngates, &a->gates_alloc, err);
	line_reader_close(&r);
	return rc;
}

static int
handle_option(int id, const char *arg, struct diff_args *a, struct diag *err)
{
	switch (id) {
	case OPT_FAIL_IF:
		return diff_gate_list_add(&a->gates, &a->ngates, &a->gates_alloc, arg, err);
	case OPT_GATES:
		return read_gates_file(a, arg, err);
	case OPT_JUNIT:
		a->junit = arg;
		return 0;
	case OPT_FORMAT: {
		return cli_parse_format(arg, DIFF_FORMATS, &a->format, err);
	}
	case OPT_DUMP:
		a->opts.has_dump = true;
		a->given |= KIND_ACCEPTS_DUMP;
		return cli_positive_count("--dump", arg, &a->opts.dump, err);
	case OPT_MATCH_OFFSETS:
		a->opts.match_offsets = true;
		a->given |= KIND_ACCEPTS_MATCH_OFFSETS;
		return 0;
	case OPT_FOLDED:
		a->opts.folded = true;
		a->given |= KIND_ACCEPTS_FOLDED;
		return 0;
	case OPT_DIRECT:
		a->opts.direct = true;
		a->given |= KIND_ACCEPTS_DIRECT;
		return 0;
	case OPT_STRICT:
		a->strict = true;
		return 0;
	case OPT_JOBS:
		return cli_parse_jobs(arg, &a->jobs, err);
	default:
		return 0;
	}
}

/* Every gate names a kind some diff compares; said before any input is read. */
static int
check_gate_kinds(const struct diff_args *a, struct diag *err)
{
	for (size_t i = 0; i < a->ngates; i++)
		if (!kind_for_metric(a->gates[i].kind))
			return diag_set(err, DIAG_USAGE, NULL, 0, 0,
					"gate '%s': unknown metric kind '%s' (vmmap, track, "
					"classes or alloc)", a->gates[i].text, a->gates[i].kind);
	return 0;
}

static int
take_arg(void *ctx, struct cli_parser *p, int id, const char *arg, struct diag *err)
{
	struct diff_args *a = ctx;
	(void)p;
	if (id != CLI_OPERAND)
		return handle_option(id, arg, a, err);
	if (a->npaths == 2)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"two inputs expected (BEFORE AFTER), got a third: '%s'", arg);
	a->paths[a->npaths++] = arg;
	return 0;
}

static int
parse_args(int argc, char **argv, struct diff_args *a, struct diag *err)
{
	struct cli_parser p;

	if (cli_parse(&p, diff_options, ARRAY_SIZE(diff_options), argc, argv, OPT_HELP,
		      &a->help, take_arg, a, err) < 0)
		return -1;
	if (a->help)
		return 0;
	/* `diff SESSION`: its before/ and after/ bundles. */
	int routed = a->npaths == 1 ? cli_session_operand(a->paths[0], a->routed, err) : 0;
	if (routed < 0)
		return -1;
	if (routed) {
		a->paths[0] = a->routed[0];
		a->paths[a->npaths++] = a->routed[1];
	}
	if (a->npaths < 2)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"two inputs expected: BEFORE AFTER");
	if (strcmp(a->paths[0], "-") == 0 && strcmp(a->paths[1], "-") == 0)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"only one of BEFORE and AFTER can be standard input");
	if (a->opts.folded && (a->format != FORMAT_TEXT || a->junit))
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"--folded is an output of its own: it does not combine with "
				"--format or --junit");
	return check_gate_kinds(a, err);
}

/*
 * The --junit value of a command line that did not parse (an unknown option,
 * a bad gate, a missing gates file): the JUnit file is written on every
 * exit, usage errors included, so a CI job never reads yesterday's. Every
 * token is read past the errors; the walk is bounded, since an error need
 * not move it on.
 */
static const char *
find_junit(int argc, char **argv)
{
	struct cli_parser p;
	struct diag ignored;
	const char *arg, *junit = NULL;
	int id;

	cli_parser_init(&p, diff_options, ARRAY_SIZE(diff_options), argc, argv);
	for (int steps = 0; steps < 2 * argc + 2; steps++) {
		if ((id = cli_next(&p, &arg, &ignored)) == CLI_DONE)
			break;
		if (id == OPT_JUNIT)
			junit = arg;
	}
	return junit;
}

/*
 * The pair's copies of the gates of its kind, checked against its figures.
 * A gate that cannot be checked is left out of the pair's gates and kept as
 * its gate error: a wrong gate is the gates' fault, not the captures', so
 * the pair is still compared and its tables written.
 */
static void
resolve_gates(const struct diff_args *a, struct pair_result *res, const void *diff)
{
	const struct kind *kind = res->kind;
	res->gates = xcalloc(a->ngates ? a->ngates : 1, sizeof(*res->gates));
	for (size_t i = 0; i < a->ngates; i++) {
		if (!kind_has_metric(kind, a->gates[i].kind))
			continue;
		struct diff_gate *g = &res->gates[res->ngates++];
		struct diag err;
		diag_clear(&err);
		diff_gate_copy(g, &a->gates[i]);
		if (kind_resolve_gate(kind, diff, g, &err) == 0)
			continue;
		if (!res->gate_error) {
			/* Said as the gate's error: the severity goes in front of that. */
			char *line = cli_diag_line(&err);
			const char *sev = "error: ";
			size_t skip = strncmp(line, sev, strlen(sev)) == 0 ? strlen(sev) : 0;
			struct strbuf sb = STRBUF_INIT;
			strbuf_addf(&sb, "gate '%s' cannot be checked: %s", g->text, line + skip);
			res->gate_error = strbuf_detach(&sb, NULL);
			res->gate_error_text = xstrdup(g->text);
			free(line);
		}
		diff_gate_release(g);
		res->ngates--;
	}
}

/* `--junit -`: standard output carries the JUnit XML only. */
static bool
junit_to_stdout(const struct diff_args *a)
{
	return a->junit && strcmp(a->junit, "-") == 0;
}

static int
write_output(const struct diff_args *a, const struct kind *kind, const void *diff,
	     const struct diff_report *rep, const char *name, struct diag *err)
{
	if (junit_to_stdout(a))
		return 0;
	FILE *out = cli_out_or(a->out);   /* the pair's buffer with -j N */
	if (a->format == FORMAT_NDJSON) {
		if (diff_ndjson_write(out, rep, name, kind->json(diff)) < 0)
			return diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot write output");
		return 0;
	}
	if (a->opts.folded) {
		kind->write_folded(out, diff);
		return 0;
	}
	if (a->format == FORMAT_JSON) {
		if (diff_json_write(out, rep, kind->json(diff)) < 0)
			return diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot write JSON output");
		return 0;
	}
	bool md = a->format == FORMAT_MARKDOWN;
	if (diff_unchanged_write(out, rep, md))
		return 0;
	diff_heading_write(out, rep, md);
	kind->write_text(out, diff, md);
	diff_gates_write_text(out, rep, md);
	return 0;
}

/*
 * Bundles: each side's allocation totals from its own source of totals
 * (kernel_view_pair_totals, as `report` of the bundles), joined to the
 * kernel view's pair. One that cannot be read is a warning: the pair keeps
 * its references' own totals.
 */
static void
join_kernel_totals(const struct diff_pair *pair, void *diff, struct diag_list *notes,
		   struct diag_list *warnings)
{
	struct diag err;
	diag_clear(&err);
	if (kind_classes_join_totals(diff, pair->counts, pair->totals, notes, &err) < 0)
		diag_list_add(warnings, DIAG_WARNING, diag_path(&err), err.line, "its allocation "
			      "totals are left out of the kernel view: %s", err.msg);
}

/* Compare one pair, write its report; the outcome in *res. */
static int
run_pair(const struct diff_args *a, bool folders, const struct diff_pair *pair,
	 struct pair_result *res, struct diag *err)
{
	struct pair_open p;
	struct diag_list notes, warnings;
	const struct pair_open_opts o = { .command = "diff", .needs = "a diff needs",
					  .opts = a->opts, .given = a->given, .lenient = folders };
	int rc;

	pair_open_init(&p);
	diag_list_init(&notes, 200);
	diag_list_init(&warnings, 50);
	rc = pair_open_compare(&p, pair->before, pair->after, &o, &notes, err);
	const struct kind *kind = p.kind;
	void *diff = p.diff;
	if (rc == 0 && pair->totals[0] && strcmp(kind->name, "classes") == 0)
		join_kernel_totals(pair, diff, &notes, &warnings);
	cli_print_warnings(&notes);
	if (rc < 0)
		goto out;
	res->kind = kind;
	kind->comparability(diff, pair->before, pair->after, &warnings);
	/* In folders, a warning about the pair (another kernel build, another
	 * process) says which pair: its name stands where a file would. */
	diag_list_set_path_if_unset(&warnings, pair->name);
	cli_print_warnings(&warnings);
	resolve_gates(a, res, diff);
	struct signature sig;
	signature_of_diff(kind, diff, &sig);
	struct diff_report rep = {
		.kind = kind->name,
		.before_path = pair->before,
		.after_path = pair->after,
		.warnings = &warnings,
		.gates = res->gates,
		.ngates = res->ngates,
		.changed = kind->changed(diff),
		.sig = &sig,
	};
	/* A bundle side's allocation totals joined from another file: their rows name it. */
	const char *paths[2] = { pair->before, pair->after };
	if (pair->totals[0] && strcmp(kind->name, "classes") == 0)
		kind_classes_totals_files(diff, paths, &rep.files);
	if ((rc = write_output(a, kind, diff, &rep, pair->name, err)) == 0)
		res->compared = true;
	signature_release(&sig);
out:
	pair_open_close(&p);
	diag_list_release(&notes);
	diag_list_release(&warnings);
	return rc;
}

static void
run_add_case(struct diff_run *run, const char *name, enum diff_junit_outcome outcome,
	     const char *message)
{
	run->cases = xgrow(run->cases, &run->cases_alloc, run->ncases + 1, sizeof(*run->cases));
	run->cases[run->ncases].name = xstrdup(name);
	run->cases[run->ncases].outcome = outcome;
	run->cases[run->ncases].message = xstrdup(message);
	run->ncases++;
}

/* An error of the run: printed, its status kept when it is the first. */
static void
run_error(struct diff_run *run, const char *name, const struct diag *err, bool usage)
{
	if (usage)
		cli_usage_error(cli_find_command("diff"), err);
	else
		cli_print_diag(err);
	char *line = cli_diag_line(err);
	run_add_case(run, name, DIFF_JUNIT_ERROR, line);
	free(line);
	if (!run->status)
		run->status = err->code ? err->code : DIAG_SOFTWARE;
}

/*
 * A gate that cannot be checked (a misspelt type, a class no capture has)
 * stops nothing but itself: the pairs are compared and written, and the
 * gate's error is said once, after the pairs, with the pairs it concerns.
 */
static void
print_gate_errors(const struct diff_run *run)
{
	enum { NAMES_SHOWN = 5 };
	bool folders = run->pairs.folders;
	for (size_t i = 0; i < run->pairs.npairs; i++) {
		const struct pair_result *res = &run->results[i];
		bool first = res->gate_error != NULL;
		for (size_t j = 0; first && j < i; j++)
			first = !(run->results[j].gate_error &&
				  strcmp(run->results[j].gate_error, res->gate_error) == 0);
		if (!first)
			continue;
		struct strbuf sb = STRBUF_INIT;
		size_t n = 0;
		for (size_t j = i; j < run->pairs.npairs; j++) {
			const struct pair_result *o = &run->results[j];
			if (!o->gate_error || strcmp(o->gate_error, res->gate_error) != 0)
				continue;
			if (n < NAMES_SHOWN)
				strbuf_addf(&sb, "%s%s", n ? ", " : "", run->pairs.pairs[j].name);
			n++;
		}
		if (n > NAMES_SHOWN)
			strbuf_addf(&sb, " and %zu more", n - NAMES_SHOWN);
		/* The pairs are file names from the folders: escaped like every message. */
		if (folders)
			cli_out_line(stderr, "iotally: error: %s (%s %s)", res->gate_error,
				     n == 1 ? "pair" : "pairs", sb.buf);
		else
			cli_out_line(stderr, "iotally: error: %s", res->gate_error);
		strbuf_release(&sb);
	}
}

/* A wrong gate fails the run as a usage error, after the pairs are written. */
static void
check_gate_errors(struct diff_run *run)
{
	for (size_t i = 0; run->results && i < run->pairs.npairs; i++) {
		if (!run->results[i].gate_error)
			continue;
		print_gate_errors(run);
		if (!run->status)
			run->status = DIAG_USAGE;
		return;
	}
}

static void
pair_result_release(struct pair_result *res)
{
	for (size_t j = 0; j < res->ngates; j++)
		diff_gate_release(&res->gates[j]);
	free(res->gates);
	free(res->error);
	free(res->gate_error);
	free(res->gate_error_text);
}

/* One pair's turn as comparing it left it, for its turn to be said. */
struct pair_turn {
	struct cli_outbuf *printed;   /* what comparing printed, kept (-j above 1) */
	int rc;
	struct diag err;
};

struct pairs_job {
	const struct diff_args *a;
	struct diff_run *run;
	bool buffered;                /* several pairs at once: keep what each prints */
};

/* Compare pair i (on a worker thread with -j above 1): writes results[i] only. */
static void *
compare_pair(void *ctx, size_t i)
{
	const struct pairs_job *job = ctx;
	struct pair_turn *t = xcalloc(1, sizeof(*t));
	diag_clear(&t->err);
	if (job->buffered)
		t->printed = cli_outbuf_start();
	t->rc = run_pair(job->a, job->run->pairs.folders, &job->run->pairs.pairs[i],
			 &job->run->results[i], &t->err);
	if (t->printed)
		cli_outbuf_stop(t->printed);
	return t;
}

/* Pair i's turn, in pair order: its report and warnings, then its error. */
static int
say_pair(void *ctx, size_t i, void *result)
{
	const struct pairs_job *job = ctx;
	const struct diff_args *a = job->a;
	struct diff_run *run = job->run;
	struct pair_turn *t = result;
	bool folders = run->pairs.folders;
	struct pair_result *res = &run->results[i];
	if (t->printed) {
		cli_outbuf_replay(t->printed, a->out, stderr);
		/* What the rows' writer says when it writes to the output itself. */
		if (t->rc == 0 && a->format == FORMAT_NDJSON && ferror(a->out)) {
			t->rc = -1;
			diag_set(&t->err, DIAG_IOERR, NULL, 0, 0, "cannot write output");
			res->compared = false;
		}
	}
	if (t->rc != 0) {
		res->error = cli_diag_line(&t->err);
		res->status = t->err.code ? t->err.code : DIAG_SOFTWARE;
		if (a->format == FORMAT_NDJSON && !junit_to_stdout(a))
			diff_ndjson_write_error(a->out, run->pairs.pairs[i].name,
						run->pairs.pairs[i].before, run->pairs.pairs[i].after,
						res->kind ? res->kind->name : NULL, res->error);
		if (t->err.code == DIAG_USAGE && !folders)
			cli_usage_error(cli_find_command("diff"), &t->err);
		else
			cli_print_diag(&t->err);
		if (!run->status)
			run->status = res->status;
	}
	free(t);
	/* The output cannot be written (a full disk, a closed pipe): compare no
	 * more pairs, at any -j. */
	return ferror(a->out) ? DIAG_IOERR : 0;
}

/* A pair compared ahead of a stop: as if never compared, as with -j 1. */
static void
drop_pair(void *ctx, size_t i, void *result)
{
	const struct pairs_job *job = ctx;
	struct pair_result *res = &job->run->results[i];
	struct pair_turn *t = result;
	pair_result_release(res);
	memset(res, 0, sizeof(*res));
	cli_outbuf_free(t->printed);
	free(t);
}

static void
run_pairs(const struct diff_args *a, struct diff_run *run)
{
	size_t n = run->pairs.npairs;
	unsigned jobs = a->jobs ? a->jobs : app_parallel_default_jobs();
	run->results = xcalloc(n ? n : 1, sizeof(*run->results));
	struct pairs_job job = { .a = a, .run = run, .buffered = jobs > 1 && n > 1 };
	struct app_parallel_opts opts = { .jobs = jobs, .window = app_parallel_window(jobs) };
	app_parallel_map(n, &opts, compare_pair, say_pair, drop_pair, &job);
}

/* Gates no compared pair could answer: skipped (an error with --strict). */
static void
check_skipped_gates(const struct diff_args *a, struct diff_run *run)
{
	for (size_t i = 0; i < a->ngates; i++) {
		const struct diff_gate *g = &a->gates[i];
		bool used = false;
		for (size_t j = 0; j < run->pairs.npairs && !used; j++)
			used = run->results[j].kind &&
			       kind_has_metric(run->results[j].kind, g->kind);
		if (used)
			continue;
		const struct kind *k = kind_for_metric(g->kind);
		struct diag d;
		diag_set(&d, a->strict ? DIAG_DATA : DIAG_OK, NULL, 0, 0,
			 "gate '%s' skipped: no %s captures were compared%s", g->text, k->name,
			 a->strict ? " (--strict)" : "");
		d.severity = a->strict ? DIAG_ERROR : DIAG_NOTE;
		if (a->strict) {
			run_error(run, g->text, &d, false);
		} else {
			cli_print_diag(&d);
			run_add_case(run, g->text, DIFF_JUNIT_SKIPPED, d.msg);
		}
	}
}

/*
 * Bundles: the kernel view is compared once (app/kernel_view.h); the
 * sources its reference covers are named, and where one says another
 * figure than the reference, both are said with the time each was taken.
 */
static void
note_kernel_views(const struct diff_args *a, const struct diff_run *run)
{
	enum { SAID = 5 };
	for (int side = 0; side < 2 && run->pairs.bundles[0]; side++) {
		const struct kernel_view *v = &run->pairs.kernel[side];
		if (!v->ncovered)
			continue;
		struct strbuf sb = STRBUF_INIT;
		kernel_view_covered_list(v, &sb);
		cli_note(a->paths[side], 0, "%s hold%s the kernel view of %s (the reference): "
			 "compared once", sb.buf, v->ncovered == 1 ? "s" : "",
			 v->reference->member);
		for (size_t i = 0; i < v->ndisagree && i < SAID; i++) {
			strbuf_reset(&sb);
			kernel_disagreement_describe(v, &v->disagree[i], &sb);
			cli_warn(a->paths[side], 0, "%s", sb.buf);
		}
		uint64_t more = v->disagree_more + (v->ndisagree > SAID ? v->ndisagree - SAID : 0);
		if (more)
			cli_warn(a->paths[side], 0, "%" PRIu64 " more figures of the kernel "
				    "sources disagree with the reference", more);
		strbuf_release(&sb);
	}
}

/*
 * Bundles: each capture checked against the sha256 and size its manifest
 * records; a mismatch is a warning naming the file (an error with --strict).
 */
static void
check_bundles(const struct diff_args *a, struct diff_run *run)
{
	note_kernel_views(a, run);
	for (int side = 0; side < 2; side++) {
		const struct bundle *b = run->pairs.bundles[side];
		for (size_t i = 0; b && i < b->ncaptures; i++) {
			struct diag_list w;
			struct diag err;
			diag_list_init(&w, 20);
			if (bundle_verify_capture(&b->captures[i], &w, &err) < 0)
				run_error(run, b->captures[i].path, &err, false);
			for (size_t j = 0; j < w.len; j++) {
				struct diag d;
				diag_list_get(&w, j, &d);
				if (!a->strict) {
					cli_print_diag(&d);
					continue;
				}
				d.code = DIAG_DATA;
				d.severity = DIAG_ERROR;
				size_t len = strlen(d.msg);
				snprintf(d.msg + len, sizeof(d.msg) - len, " (--strict)");
				run_error(run, diag_path(&d), &d, false);
			}
			diag_list_release(&w);
		}
	}
}

/* Files on one side only: listed (an error with --strict). */
static void
check_unpaired(const struct diff_args *a, struct diff_run *run)
{
	for (size_t i = 0; i < run->pairs.nunpaired; i++) {
		const struct diff_unpaired *u = &run->pairs.unpaired[i];
		struct diag d;
		diag_set(&d, a->strict ? DIAG_DATA : DIAG_OK, u->path, 0, 0,
			 "has no counterpart of that name in %s: not compared",
			 u->in_before ? "AFTER" : "BEFORE");
		d.severity = a->strict ? DIAG_ERROR : DIAG_WARNING;
		if (a->strict) {
			run_error(run, u->path, &d, false);
		} else {
			cli_print_diag(&d);
			run_add_case(run, u->path, DIFF_JUNIT_SKIPPED, d.msg);
		}
	}
	if (run->pairs.nskipped_dirs)
		cli_note(NULL, 0, "%zu subfolder%s not read: a folder's captures are its files",
			 run->pairs.nskipped_dirs, run->pairs.nskipped_dirs == 1 ? "" : "s");
}

/*
 * Gates a capture could not evaluate (it lacks the column): said once per
 * gate and pair; the exit status is unchanged, except with --strict (65).
 */
static void
report_unevaluable(const struct diff_args *a, struct diff_run *run)
{
	for (size_t i = 0; i < run->pairs.npairs; i++) {
		const struct pair_result *res = &run->results[i];
		const char *name = run->pairs.pairs[i].name;
		for (size_t j = 0; !res->error && j < res->ngates; j++) {
			const struct diff_gate *g = &res->gates[j];
			if (!g->unevaluable)
				continue;
			struct diag d;
			diag_set(&d, a->strict ? DIAG_DATA : DIAG_OK, NULL, 0, 0,
				 "gate '%s' not evaluable%s%s: %s%s", g->text, name ? " on " : "",
				 name ? name : "", g->reason, a->strict ? " (--strict)" : "");
			d.severity = a->strict ? DIAG_ERROR : DIAG_NOTE;
			if (a->strict)
				run_error(run, g->text, &d, false);
			else
				cli_print_diag(&d);
		}
	}
}

static void
report_tripped(struct diff_run *run)
{
	for (size_t i = 0; i < run->pairs.npairs; i++) {
		const struct pair_result *res = &run->results[i];
		const char *name = run->pairs.pairs[i].name;
		for (size_t j = 0; !res->error && j < res->ngates; j++) {
			const struct diff_gate *g = &res->gates[j];
			struct strbuf sb = STRBUF_INIT;
			if (!g->tripped)
				continue;
			diff_gate_describe(g, &sb);
			cli_error(NULL, 0, "gate '%s' tripped%s%s: %s", g->text, name ? " on " : "",
				  name ? name : "", sb.buf);
			strbuf_release(&sb);
			run->tripped++;
		}
	}
}

/* How many of the pairs' gates were evaluated (neither skipped nor unevaluable). */
static size_t
count_evaluated(const struct diff_run *run)
{
	size_t n = 0;
	for (size_t i = 0; i < run->pairs.npairs; i++) {
		const struct pair_result *res = &run->results[i];
		for (size_t j = 0; !res->error && j < res->ngates; j++)
			n += !res->gates[j].unevaluable;
	}
	return n;
}

/*
 * Gates given and not one evaluated is a failure, --strict or not: a CI job
 * whose artifact folder came down empty, or whose captures hold none of the
 * figures its gates read, has checked nothing, and must not go green. A run
 * that already failed says why itself.
 */
static void
check_nothing_evaluated(const struct diff_args *a, struct diff_run *run)
{
	if (!a->ngates || run->status || count_evaluated(run))
		return;
	struct diag d;
	size_t compared = 0;
	for (size_t i = 0; i < run->pairs.npairs; i++)
		compared += run->results[i].compared;
	if (compared)
		diag_set(&d, DIAG_DATA, NULL, 0, 0,
			 "no gate was evaluated: the %zu pair%s compared hold%s none of the "
			 "figures the gates read", compared, compared == 1 ? "" : "s",
			 compared == 1 ? "s" : "");
	else if (run->pairs.nunpaired)
		diag_set(&d, DIAG_DATA, NULL, 0, 0,
			 "no gate was evaluated: no pair of captures to compare (%zu file%s "
			 "without a counterpart)", run->pairs.nunpaired,
			 run->pairs.nunpaired == 1 ? "" : "s");
	else
		diag_set(&d, DIAG_DATA, NULL, 0, 0,
			 "no gate was evaluated: no pair of captures to compare (BEFORE and "
			 "AFTER hold no captures)");
	run_error(run, "gates", &d, false);
}

/* How many distinct gates could not be checked (each said once). */
static size_t
count_gate_errors(const struct diff_run *run)
{
	size_t n = 0;
	for (size_t i = 0; run->results && i < run->pairs.npairs; i++) {
		const char *text = run->results[i].gate_error_text;
		bool first = text != NULL;
		for (size_t j = 0; first && j < i; j++)
			first = !run->results[j].gate_error_text ||
				strcmp(run->results[j].gate_error_text, text) != 0;
		n += first;
	}
	return n;
}

/*
 * The tripped gates, named where a CI log and a pull request comment are
 * read first (the Summary line; in Markdown, the first line): up to three,
 * each with its pair and what grew, then how many more.
 */
static void
write_tripped_names(const struct diff_run *run, bool markdown)
{
	enum { NAMED = 3 };
	size_t n = 0;
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < run->pairs.npairs; i++) {
		const struct pair_result *res = &run->results[i];
		for (size_t j = 0; !res->error && j < res->ngates; j++) {
			const struct diff_gate *g = &res->gates[j];
			if (!g->tripped || n++ >= NAMED)
				continue;
			char b[GATE_FIGURE_SIZE], af[GATE_FIGURE_SIZE], d[GATE_FIGURE_SIZE];
			diff_gate_figures(g, b, af, d);
			/* A glob's gate picks what it measures: its subject names it
			 * ("classes:* > +100": OSDictionary). */
			const char *what = strchr(g->metric, '*') ? g->subject : NULL;
			strbuf_addstr(&sb, n > 1 ? "; " : ": ");
			strbuf_addf(&sb, "'%s' on %s: %s%s%s", g->text, run->pairs.pairs[i].name,
				    what ? what : "", what ? " " : "", d);
		}
	}
	if (n > NAMED)
		strbuf_addf(&sb, "; and %zu more", n - NAMED);
	if (sb.len) {
		/* Gate texts and pair names come from the user and the folders. */
		struct strbuf out = STRBUF_INIT;
		if (markdown)
			report_md_escape(sb.buf, 0, &out);
		else
			escape_addstr(&out, sb.buf);
		fputs(out.buf, stdout);
		strbuf_release(&out);
	}
	strbuf_release(&sb);
}

/* Folders: one closing line with the count of each outcome. */
static void
write_summary(const struct diff_args *a, const struct diff_run *run)
{
	size_t compared = 0, failed = 0;
	if (!run->pairs.folders || junit_to_stdout(a) || a->format == FORMAT_JSON ||
	    a->format == FORMAT_NDJSON)
		return;
	for (size_t i = 0; i < run->pairs.npairs; i++) {
		compared += run->results[i].compared;
		failed += run->results[i].status != 0;
	}
	size_t wrong = count_gate_errors(run);
	fprintf(stdout, "%s%zu pair%s compared, %zu could not be, %zu file%s without a "
		"counterpart; %zu gate%s tripped",
		a->format == FORMAT_MARKDOWN ? "**Summary:** " : "Summary: ", compared,
		compared == 1 ? "" : "s", failed, run->pairs.nunpaired,
		run->pairs.nunpaired == 1 ? "" : "s", run->tripped, run->tripped == 1 ? "" : "s");
	if (wrong)
		fprintf(stdout, ", %zu cannot be checked", wrong);
	write_tripped_names(run, a->format == FORMAT_MARKDOWN);
	fputs(a->format == FORMAT_MARKDOWN ? "\n\n" : "\n", stdout);
}

/*
 * A Markdown diff of folders is read top down (a pull request comment):
 * its summary goes first, so the pairs' sections are held in an unlinked
 * temporary file until every pair is compared. 0, or -1 with *err.
 */
static int
hold_body(struct diff_args *a, const struct diff_run *run, struct diag *err)
{
	a->out = stdout;
	if (!run->pairs.folders || a->format != FORMAT_MARKDOWN || junit_to_stdout(a))
		return 0;
	int fd = temp_file_open("diff");
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w+");
	if (!f) {
		if (fd >= 0)
			close(fd);
		return diag_set(err, DIAG_IOERR, NULL, 0, 0,
				"cannot make a temporary file in %s: %s", temp_dir(),
				strerror(errno));
	}
	a->out = f;
	return 0;
}

/* The held body after the summary; closes it. 0, or -1 with *err. */
static int
write_held_body(struct diff_args *a, struct diag *err)
{
	if (a->out == stdout || !a->out)
		return 0;
	FILE *f = a->out;
	char buf[65536];
	size_t n;
	int rc = 0;
	a->out = stdout;
	if (fflush(f) != 0 || fseek(f, 0, SEEK_SET) != 0)
		rc = -1;
	while (rc == 0 && (n = fread(buf, 1, sizeof(buf), f)) > 0)
		if (fwrite(buf, 1, n, stdout) != n)
			rc = -1;
	if (rc == 0 && ferror(f))
		rc = -1;
	fclose(f);
	if (rc < 0)
		return diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot write output");
	return 0;
}

static char *
suite_name(const struct diff_pair *p)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "iotally diff %s %s", p->before, p->after);
	return strbuf_detach(&sb, NULL);
}

struct junit_suites {
	const struct diff_junit_suite *v;
	size_t n;
};

static int
junit_write(FILE *out, const void *ctx, struct diag *err)
{
	const struct junit_suites *s = ctx;
	return diff_junit_write(out, s->v, s->n, err);
}

/* The JUnit XML of the whole run, replaced whole (or standard output). */
static int
write_junit(const char *path, const struct diff_run *run, struct diag *err)
{
	/* A run stopped before comparing (a usage error found after pairing) has
	 * no results: its suites are its own errors only. */
	size_t n = run->results ? run->pairs.npairs : 0, ns = 0;
	struct diff_junit_suite *suites = xcalloc(n + 1, sizeof(*suites));
	struct diff_junit_case *errs = xcalloc(n ? n : 1, sizeof(*errs));
	for (size_t i = 0; i < n; i++) {
		const struct pair_result *res = &run->results[i];
		struct diff_junit_suite *su = &suites[ns++];
		su->name = suite_name(&run->pairs.pairs[i]);
		su->pair = run->pairs.pairs[i].name;
		su->kind = res->kind ? res->kind->name : NULL;
		if (res->error) {
			errs[i] = (struct diff_junit_case){ "compare", DIFF_JUNIT_ERROR, res->error };
			su->cases = &errs[i];
			su->ncases = 1;
		} else {
			su->gates = res->gates;
			su->ngates = res->ngates;
			if (res->gate_error) {
				errs[i] = (struct diff_junit_case){ res->gate_error_text,
					DIFF_JUNIT_ERROR, res->gate_error };
				su->cases = &errs[i];
				su->ncases = 1;
			}
		}
	}
	if (run->ncases)
		suites[ns++] = (struct diff_junit_suite){ .name = "iotally diff",
			.cases = run->cases, .ncases = run->ncases };
	struct junit_suites all = { suites, ns };
	int rc = cli_write_output(path, junit_write, &all, err);
	for (size_t i = 0; i < n; i++)
		free((char *)suites[i].name);
	free(suites);
	free(errs);
	return rc;
}

static void
run_release(struct diff_run *run)
{
	for (size_t i = 0; run->results && i < run->pairs.npairs; i++)
		pair_result_release(&run->results[i]);
	free(run->results);
	for (size_t i = 0; i < run->ncases; i++) {
		free((char *)run->cases[i].name);
		free((char *)run->cases[i].message);
	}
	free(run->cases);
	diff_pairs_release(&run->pairs);
}

/* Folders bring output choices of their own. */
static int
check_folder_args(const struct diff_args *a, const struct diff_run *run, struct diag *err)
{
	if (!run->pairs.folders)
		return 0;
	if (a->format == FORMAT_JSON)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"--format json describes one pair: with folders, use text or "
				"markdown (and --junit for the gates)");
	if (a->opts.folded)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"--folded describes one pair of track captures: give two files");
	return 0;
}

int
cmd_diff(int argc, char **argv)
{
	struct diff_args a = { 0 };
	struct diff_run run;
	struct diag err;

	memset(&run, 0, sizeof(run));
	diag_clear(&err);
	if (parse_args(argc, argv, &a, &err) < 0) {
		if (!a.junit)
			a.junit = find_junit(argc, argv);
		run_error(&run, "arguments", &err, err.code == DIAG_USAGE);
		goto junit;
	}
	if (a.help) {
		fputs(cmd_diff_help, stdout);
		goto out;
	}
	if (diff_pairs_build(&run.pairs, a.paths[0], a.paths[1], &err) < 0 ||
	    check_folder_args(&a, &run, &err) < 0) {
		run_error(&run, "inputs", &err, err.code == DIAG_USAGE);
		goto junit;
	}
	if (hold_body(&a, &run, &err) < 0) {
		run_error(&run, "output", &err, false);
		goto junit;
	}
	check_bundles(&a, &run);
	run_pairs(&a, &run);
	check_gate_errors(&run);
	check_unpaired(&a, &run);
	check_skipped_gates(&a, &run);
	report_unevaluable(&a, &run);
	report_tripped(&run);
	check_nothing_evaluated(&a, &run);
	write_summary(&a, &run);
	if (write_held_body(&a, &err) < 0)
		run_error(&run, "output", &err, false);
junit:
	if (a.junit && write_junit(a.junit, &run, &err) < 0) {
		cli_print_diag(&err);
		if (!run.status)
			run.status = err.code;
	}
out:
	if (a.out && a.out != stdout)
		fclose(a.out);
	if (!run.status && run.tripped)
		run.status = DIAG_GATE;
	run_release(&run);
	args_release(&a);
	return run.status;
}
