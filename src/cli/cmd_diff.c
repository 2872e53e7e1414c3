/*
 * iotally diff: what grew between two captures of the same kind, and CI
 * gates on it.
 */

#include "cli/commands.h"
#include "cli/diff_kinds.h"
#include "cli/options.h"

#include "ingest/detect.h"
#include "model/diff.h"
#include "report/diff_report.h"
#include "util/array.h"
#include "util/diag.h"
#include "util/outfile.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char cmd_diff_help[] =
	"usage: iotally diff [options] BEFORE AFTER\n"
	"\n"
	"Compares two captures of the same kind, taken before and after an action,\n"
	"and says what grew and by how much. Both inputs are raw captures or\n"
	"iotally's own JSON report of the kind ('iotally vmmap --format json',\n"
	"'iotally track --format json', 'iotally classes --format json'), in any\n"
	"mix; the kind is found from the content.\n"
	"\n"
	"  classes IOKit instance counts (ioreg -l / -a, ioclasscount output):\n"
	"          per class before, after and delta, largest change first, classes\n"
	"          new in AFTER or gone from it marked; allocation totals\n"
	"  vmmap   per region type and purge state (N, V, E, -): count, virtual,\n"
	"          resident, dirty and swapped bytes before, after and delta; the\n"
	"          size buckets whose region count changed; purgeable bytes that\n"
	"          moved between states; the physical footprint header\n"
	"  track   call sites matched by their symbolicated frames (module and\n"
	"          symbol; addresses only where a frame has no symbol): new, grown,\n"
	"          shrunk and gone sites with byte and count deltas, per module;\n"
	"          sites charged to the same frame are told apart by the first\n"
	"          frame where their backtraces differ ('via frame N: ...')\n"
	"\n"
	"Options:\n"
	"  --fail-if 'METRIC OP VALUE'\n"
	"                     a CI gate, repeatable; exit status 1 when any trips\n"
	"  --junit FILE       also write the gates as JUnit XML (one test case each),\n"
	"                     replacing FILE whole; '-' writes the XML to standard\n"
	"                     output instead of the report\n"
	"  --format F         text (default), json or markdown\n"
	"  --dump N           compare dump (vmmap) or snapshot (classes) N of each\n"
	"                     file (default the first)\n"
	"  --direct           classes: direct instance counts (a count minus its\n"
	"                     direct subclasses with instances); needs a hierarchy\n"
	"                     in an input (ioreg -i, kext-info, classes --direct JSON)\n"
	"  --match-offsets    track: frames match only with the same offset\n"
	"  --folded           track: a differential folded file ('stack BEFORE AFTER',\n"
	"                     the difffolded.pl convention) instead of a report\n"
	"  -h, --help         show this help\n"
	"\n"
	"Gates: METRIC is one of\n"
	"  vmmap:<Type>[:<N|V|E|->].<count|vsize|resident|dirty|swapped>\n"
	"                     (Type exactly as vmmap prints it; quote it, it may\n"
	"                     hold spaces; without a state, all states)\n"
	"  track:total        bytes of every call site\n"
	"  track:sites        number of call sites\n"
	"  track:<module>     bytes attributed to one module (see 'track --by module')\n"
	"  classes:<Class>    instance count of a class (exact name; direct with\n"
	"                     --direct)\n"
	"  alloc:<instance|container|iomalloc|pageable>\n"
	"                     an allocation total in bytes (ioreg captures)\n"
	"OP is '>' or '>='. VALUE is a signed delta: a count or bytes with an\n"
	"optional binary unit (+5, +64K, +1MiB, +1.5G, 0x1000), or a percentage of\n"
	"BEFORE (+10%, +2.5%). A gate trips when AFTER - BEFORE compares true, so\n"
	"'> +5' passes at exactly +5. A percentage of a BEFORE of 0 has no base:\n"
	"any increase from 0 trips it, no change passes. Every tripped gate is\n"
	"printed on standard error with its figures.\n"
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
	"\n"
	"Exit status: 0 no gate tripped, 1 a gate tripped, 64 usage error, a\n"
	"malformed gate, an option the inputs' kind does not take or a --dump N\n"
	"past the last dump, 65 malformed input, inputs of different kinds, or a gate\n"
	"on something neither capture holds, 66 input cannot be opened, 74 output\n"
	"cannot be written.\n";

enum {
	OPT_FAIL_IF = 1,
	OPT_JUNIT,
	OPT_FORMAT,
	OPT_DUMP,
	OPT_MATCH_OFFSETS,
	OPT_FOLDED,
	OPT_DIRECT,
	OPT_HELP,
};

static const struct cli_option diff_options[] = {
	{ "fail-if", 0, true, OPT_FAIL_IF },
	{ "junit", 0, true, OPT_JUNIT },
	{ "format", 0, true, OPT_FORMAT },
	{ "dump", 0, true, OPT_DUMP },
	{ "match-offsets", 0, false, OPT_MATCH_OFFSETS },
	{ "folded", 0, false, OPT_FOLDED },
	{ "direct", 0, false, OPT_DIRECT },
	{ "help", 'h', false, OPT_HELP },
};

enum output_format {
	FORMAT_TEXT,
	FORMAT_JSON,
	FORMAT_MARKDOWN,
};

struct diff_args {
	const char *paths[2];
	size_t npaths;
	enum output_format format;
	const char *junit;
	struct diff_options opts;
	unsigned given;             /* enum diff_kind_option bits given */
	struct diff_gate *gates;
	size_t ngates, gates_alloc;
	bool help;
};

static void
args_release(struct diff_args *a)
{
	for (size_t i = 0; i < a->ngates; i++)
		diff_gate_release(&a->gates[i]);
	free(a->gates);
}

static int
handle_option(int id, const char *arg, struct diff_args *a, struct diag *err)
{
	switch (id) {
	case OPT_FAIL_IF:
		a->gates = xgrow(a->gates, &a->gates_alloc, a->ngates + 1, sizeof(*a->gates));
		if (diff_gate_parse(arg, &a->gates[a->ngates], err) < 0) {
			diff_gate_release(&a->gates[a->ngates]);
			return -1;
		}
		a->ngates++;
		return 0;
	case OPT_JUNIT:
		a->junit = arg;
		return 0;
	case OPT_FORMAT: {
		static const char *const names[] = { "text", "json", "markdown" };
		int f = cli_choice("format", arg, names, ARRAY_SIZE(names), err);
		if (f < 0)
			return -1;
		a->format = (enum output_format)f;
		return 0;
	}
	case OPT_DUMP:
		a->opts.has_dump = true;
		a->given |= DIFF_ACCEPTS_DUMP;
		return cli_positive_count("--dump", arg, &a->opts.dump, err);
	case OPT_MATCH_OFFSETS:
		a->opts.match_offsets = true;
		a->given |= DIFF_ACCEPTS_MATCH_OFFSETS;
		return 0;
	case OPT_FOLDED:
		a->opts.folded = true;
		a->given |= DIFF_ACCEPTS_FOLDED;
		return 0;
	case OPT_DIRECT:
		a->opts.direct = true;
		a->given |= DIFF_ACCEPTS_DIRECT;
		return 0;
	default:
		return 0;
	}
}

static int
parse_args(int argc, char **argv, struct diff_args *a, struct diag *err)
{
	struct cli_parser p;
	const char *arg;
	int id;

	cli_parser_init(&p, diff_options, ARRAY_SIZE(diff_options),
			argc, argv);
	while ((id = cli_next(&p, &arg, err)) != CLI_DONE) {
		if (id == CLI_ERROR)
			return -1;
		if (id == OPT_HELP) {
			a->help = true;
			return 0;
		}
		if (id == CLI_OPERAND) {
			if (a->npaths == 2)
				return diag_set(err, DIAG_USAGE, NULL, 0, 0,
						"two inputs expected (BEFORE AFTER), got a third: '%s'",
						arg);
			a->paths[a->npaths++] = arg;
			continue;
		}
		if (handle_option(id, arg, a, err) < 0)
			return -1;
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
	return 0;
}

static const char *
input_kind_name(enum input_kind k, const char *schema)
{
	const struct diff_kind *dk = diff_kind_for_input(k, schema);
	if (dk)
		return dk->name;
	return k == INPUT_IOTALLY_JSON ? schema : input_kind_describe(k);
}

static int
write_output(const struct diff_args *a, const struct diff_kind *kind, const void *diff,
	     const struct diff_report *rep)
{
	if (a->opts.folded) {
		kind->write_folded(stdout, diff);
		return 0;
	}
	if (a->format == FORMAT_JSON) {
		if (diff_json_write(stdout, rep, kind->json(diff)) < 0) {
			cli_error(NULL, 0, "cannot write JSON output");
			return DIAG_IOERR;
		}
		return 0;
	}
	bool md = a->format == FORMAT_MARKDOWN;
	diff_heading_write(stdout, rep, md);
	kind->write_text(stdout, diff, md);
	diff_gates_write_text(stdout, rep, md);
	return 0;
}

/* `--junit -`: standard output carries the JUnit XML only. */
static bool
junit_to_stdout(const struct diff_args *a)
{
	return a->junit && strcmp(a->junit, "-") == 0;
}

/* The JUnit file, replaced whole (temporary file + rename), or standard output. */
static int
write_junit(const char *path, const struct diff_report *rep, struct diag *err)
{
	struct outfile o;
	if (outfile_open(&o, path, err) < 0)
		return -1;
	if (diff_junit_write(o.fp, rep, err) < 0) {
		if (!err->path)
			err->path = path;
		outfile_abort(&o);
		return -1;
	}
	return outfile_commit(&o, err);
}

/* Open, recognise and compare; the kind and its diff on success. */
static int
compare_inputs(struct diff_args *a, struct diff_input in[2], const struct diff_kind **kind,
	       void **diff, struct diag_list *notes, struct diag *err)
{
	const struct diff_kind *k[2];
	char schema[2][64];
	enum input_kind raw[2];
	for (int i = 0; i < 2; i++)
		if (diff_kind_open(&in[i], a->paths[i], "diff", &k[i], schema[i],
				   sizeof(schema[i]), &raw[i], err) < 0)
			return -1;
	if (k[0] != k[1])
		return diag_set(err, DIAG_DATA, NULL, 0, 0,
				"BEFORE (%s) is of kind %s and AFTER (%s) of kind %s: a diff "
				"needs two captures of the same kind",
				diag_display_path(a->paths[0]), input_kind_name(raw[0], schema[0]),
				diag_display_path(a->paths[1]), input_kind_name(raw[1], schema[1]));
	*kind = k[0];
	if (diff_kind_check_gates(*kind, NULL, a->gates, a->ngates, err) < 0)
		return -1;
	const char *refused = diff_kind_refused_option(*kind, a->given);
	if (refused)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"%s does not apply to %s captures", refused, (*kind)->name);
	*diff = (*kind)->compare(&in[0], &in[1], &a->opts, notes, err);
	return *diff ? 0 : -1;
}

int
cmd_diff(int argc, char **argv)
{
	struct diff_args a = { 0 };
	struct diff_input in[2];
	struct diag_list notes, warnings;
	struct diag err;
	const struct diff_kind *kind = NULL;
	void *diff = NULL;
	int status = 0;

	memset(in, 0, sizeof(in));
	in[0].reader.fd = in[1].reader.fd = -1;
	diag_clear(&err);
	diag_list_init(&notes, 200);
	diag_list_init(&warnings, 50);
	if (parse_args(argc, argv, &a, &err) < 0) {
		status = cli_usage_error(cli_find_command("diff"), &err);
		goto out;
	}
	if (a.help) {
		fputs(cmd_diff_help, stdout);
		goto out;
	}
	int rc = compare_inputs(&a, in, &kind, &diff, &notes, &err);
	cli_print_warnings(&notes);
	if (rc < 0) {
		status = err.code == DIAG_USAGE ? cli_usage_error(cli_find_command("diff"), &err)
						: (cli_print_diag(&err), err.code);
		goto out;
	}
	kind->comparability(diff, a.paths[0], a.paths[1], &warnings);
	cli_print_warnings(&warnings);
	if (diff_kind_check_gates(kind, diff, a.gates, a.ngates, &err) < 0) {
		cli_print_diag(&err);
		status = err.code;
		goto out;
	}
	struct diff_report rep = {
		.kind = kind->name,
		.before_path = a.paths[0],
		.after_path = a.paths[1],
		.warnings = &warnings,
		.gates = a.gates,
		.ngates = a.ngates,
		.changed = kind->changed(diff),
	};
	if (!junit_to_stdout(&a))
		status = write_output(&a, kind, diff, &rep);
	if (status == 0 && a.junit && write_junit(a.junit, &rep, &err) < 0) {
		cli_print_diag(&err);
		status = err.code;
	}
	if (diff_gates_print_tripped(a.gates, a.ngates) && status == 0)
		status = DIAG_GATE;
out:
	for (int i = 0; i < 2; i++)
		if (in[i].path)
			line_reader_close(&in[i].reader);
	if (diff)
		kind->free(diff);
	diag_list_release(&notes);
	diag_list_release(&warnings);
	args_release(&a);
	return status;
}
