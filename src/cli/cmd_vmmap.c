/*
 * iotally vmmap: IOAccelerator / IOSurface memory of saved vmmap dumps,
 * grouped by purgeable state and by virtual size.
 */

#include "cli/commands.h"
#include "cli/formats.h"
#include "cli/dispatch.h"
#include "cli/inputs.h"
#include "cli/outbuf.h"
#include "cli/options.h"
#include "cli/report_out.h"
#include "model/report_vmmap.h"

#include "ingest/vmmap_read.h"
#include "model/pick.h"
#include "model/vmmap.h"
#include "report/vmmap_csv.h"
#include "report/vmmap_json_write.h"
#include "report/vmmap_ndjson_write.h"
#include "report/vmmap_text.h"
#include "util/array.h"
#include "util/diag.h"
#include "util/escape.h"
#include "util/linereader.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char cmd_vmmap_help[] =
	"usage: iotally vmmap [options] FILE|-\n"
	"       iotally vmmap --format ndjson [options] FILE|FOLDER|BUNDLE|-...\n"
	"\n"
	"Groups the IOAccelerator and IOSurface regions of a saved vmmap dump\n"
	"(vmmap -noCoalesce, -v, -w, -interleaved, -summary, -pages; every layout\n"
	"since report format 2.0) by purgeable state (N non-volatile, V volatile,\n"
	"E empty, - not purgeable) and by virtual size. Sizes come from region\n"
	"addresses (exact bytes), not from vmmap's rounded figures.\n"
	"\n"
	"Options:\n"
	"  --types T[,T...]   region types to report, matched as substrings of the\n"
	"                     type name; repeatable (default: IOAccelerator,IOSurface)\n"
	"  --all-types        report every region type\n"
	"  --format F         text (default), json, csv (a name starting with\n"
	"                     = + - @ gets a leading ', so spreadsheets do not\n"
	"                     evaluate it), markdown (GitHub tables, as\n"
	"                     'iotally report' writes them) or ndjson (rows for\n"
	"                     DuckDB, Spark or BigQuery: docs/json/vmmap-ndjson.md)\n"
	"  --surfaces         also group IOSurface regions by dimensions and pixel\n"
	"                     format, with page-rounding waste\n"
	"  --snapshot N       only the Nth dump of a file holding several (default:\n"
	"                     every dump, one report each); --dump N is the same\n"
	"  --strict           a line that looks like a region but does not parse is\n"
	"                     an error (exit 65) instead of a warning\n"
	"  -j, --jobs N       read N inputs at once (--format ndjson; default: one\n"
	"                     per processor, 1: one after the other); the output is\n"
	"                     the same\n"
	"  -h, --help         show this help\n"
	"\n"
	"A file holding several dumps gets one report per dump, each headed\n"
	"'=== Process: NAME [PID] ==='. Summary tables are read under either\n"
	"header layout, indented or '> '-quoted, and as bare 8-figure rows; a\n"
	"table cut before its TOTAL rows makes the result partial. When the\n"
	"default types leave out GPU memory of a dump ('owned unmapped\n"
	"(graphics)'), a note names it; --types 'IOAccelerator,IOSurface,(graphics)'\n"
	"shows it. Input that is no vmmap capture (vmmap's failure message, a\n"
	"leaks report) is refused with what it is. On a Mac, a live process can be\n"
	"piped in: 'vmmap -noCoalesce Safari | iotally vmmap -'.\n"
	"\n"
	"Several inputs: --format ndjson takes any number of files, folders of\n"
	"captures (read in name order; captures of other kinds in them are\n"
	"skipped with a note) and capture bundles (folders or archives, also\n"
	"inside a folder), and writes one row per line: an 'input' row per\n"
	"input, then per dump a 'dump' row (totals of the selected types), its\n"
	"'group' rows (type and purge state) and its 'summary' rows (vmmap's\n"
	"rounded summary table). An input that cannot be read is said on\n"
	"standard error and gets an 'input' row with status 'error'; the others\n"
	"are still read, and the exit status is the first error's. The other\n"
	"formats read one input (a folder is a usage error).\n"
	"\n"
	"Examples (the files are iotally's test fixtures):\n"
	"  iotally vmmap fixtures/vmmap/synthetic-gpu-purge-states.txt\n"
	"  iotally vmmap --types 'IOAccelerator (graphics)' --format json fixtures/vmmap/synthetic-three-dumps.txt\n"
	"  iotally vmmap --surfaces --types IOSurface fixtures/vmmap/macos26-agentstudio-iosurface-wide-lines.txt\n"
	"  iotally vmmap --all-types --format csv fixtures/vmmap/macos14.0-arm64-default-shared_library_demo.txt\n"
	"  iotally vmmap --format ndjson fixtures/diff-folders/before fixtures/bundle/complete.tar.gz\n"
	"\n"
	"Exit status: 0 success (also when no region matches), 64 usage error,\n"
	"65 malformed input, 66 input cannot be opened, 74 output cannot be written;\n"
	"with several inputs, the first error's.\n";

enum {
	OPT_TYPES = 1,
	OPT_ALL_TYPES,
	OPT_FORMAT,
	OPT_STRICT,
	OPT_JOBS,
	OPT_SURFACES,
	OPT_SNAPSHOT,
	OPT_HELP,
};

static const struct cli_option vmmap_options[] = {
	{ "types", 0, true, OPT_TYPES },
	{ "all-types", 0, false, OPT_ALL_TYPES },
	{ "format", 0, true, OPT_FORMAT },
	{ "strict", 0, false, OPT_STRICT },
	{ "jobs", 'j', true, OPT_JOBS },
	{ "surfaces", 0, false, OPT_SURFACES },
	{ "snapshot", 0, true, OPT_SNAPSHOT },
	{ "dump", 0, true, OPT_SNAPSHOT },
	{ "help", 'h', false, OPT_HELP },
};

/* The formats `iotally vmmap` writes. */
#define VMMAP_FORMATS (FORMAT_BIT(FORMAT_TEXT) | FORMAT_BIT(FORMAT_JSON) | FORMAT_BIT(FORMAT_CSV) | \
		       FORMAT_BIT(FORMAT_MARKDOWN) | FORMAT_BIT(FORMAT_NDJSON))

struct vmmap_args {
	struct cli_operands operands;
	const char *path;     /* the one input, without --format ndjson */
	enum output_format format;
	bool strict;
	unsigned jobs;          /* -j N: inputs read at once; 0: one per processor */
	bool surfaces;
	bool help;
	bool default_types;   /* no --types or --all-types given */
	uint64_t snapshot;    /* --snapshot N, 1-based; 0: every dump */
};

/* "--types A,B" adds A and B; empty pieces are a usage error. */
static int
add_types(struct vmmap_filter *f, const char *list, struct diag *err)
{
	const char *p = list;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		if (len == 0)
			return diag_set(err, DIAG_USAGE, NULL, 0, 0,
					"--types needs non-empty type names, got '%s'", list);
		vmmap_filter_add(f, p, len);
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

static int
parse_format(const char *s, enum output_format *fmt, struct diag *err)
{
	return cli_parse_format(s, VMMAP_FORMATS, fmt, err);
}

struct vmmap_parse {
	struct vmmap_args *a;
	struct vmmap_filter *f;
};

static int
take_arg(void *ctx, struct cli_parser *p, int id, const char *arg, struct diag *err)
{
	struct vmmap_args *a = ((struct vmmap_parse *)ctx)->a;
	struct vmmap_filter *f = ((struct vmmap_parse *)ctx)->f;
	switch (id) {
	case CLI_OPERAND:
		cli_operands_add(&a->operands, p, arg);
		return 0;
	case OPT_TYPES:
		return add_types(f, arg, err);
	case OPT_ALL_TYPES:
		f->all = true;
		return 0;
	case OPT_FORMAT:
		return parse_format(arg, &a->format, err);
	case OPT_STRICT:
		a->strict = true;
		return 0;
	case OPT_JOBS:
		return cli_parse_jobs(arg, &a->jobs, err);
	case OPT_SNAPSHOT:
		return cli_positive_count("--snapshot", arg, &a->snapshot, err);
	case OPT_SURFACES:
		a->surfaces = true;
		return 0;
	default:
		return 0;
	}
}

static int
parse_args(int argc, char **argv, struct vmmap_args *a, struct vmmap_filter *f,
	   struct diag *err)
{
	struct cli_parser p;
	struct vmmap_parse vp = { a, f };

	if (cli_parse(&p, vmmap_options, ARRAY_SIZE(vmmap_options), argc, argv, OPT_HELP,
		      &a->help, take_arg, &vp, err) < 0)
		return -1;
	if (a->help)
		return 0;
	if (!a->operands.n)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"no input given (a vmmap dump file, or '-' for standard input)");
	if (a->format == FORMAT_NDJSON && a->surfaces)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"--surfaces is not part of the rows of --format ndjson (use "
				"--format json for the IOSurface groups)");
	if (cli_operands_split(&a->operands, &p, "vmmap", NULL, a->format == FORMAT_NDJSON,
			       &a->path, NULL, NULL, err) < 0)
		return -1;
	if (f->ntypes == 0 && !f->all) {
		a->default_types = true;
		vmmap_filter_add(f, "IOAccelerator", strlen("IOAccelerator"));
		vmmap_filter_add(f, "IOSurface", strlen("IOSurface"));
	}
	return 0;
}

static void
print_types(const struct vmmap_filter *f)
{
	if (f->all)
		fputs("(all types)", stderr);
	for (size_t i = 0; i < f->ntypes && !f->all; i++)
	{
		fputs(i ? ", " : "", stderr);
		escape_puts(stderr, f->types[i]);
	}
}

static void
print_which_process(const struct vmmap_capture *cap, const struct vmmap_dump *d)
{
	if (cap->ndumps > 1) {
		fputs(" (process ", stderr);
		vmmap_text_write_process(stderr, d);
		fputc(')', stderr);
	}
}

static bool
has_selected_row(const struct vmmap_dump *d, const struct vmmap_filter *f)
{
	for (size_t i = 0; i < d->nrows; i++)
		if (vmmap_filter_selects(f, d->rows[i].name, strlen(d->rows[i].name)))
			return true;
	return false;
}

/* Why a dump has no breakdown: no region lines at all, or none selected. */
static void
print_no_regions(const struct vmmap_capture *cap, const struct vmmap_dump *d)
{
	const struct vmmap_filter *f = &cap->filter;
	if (d->region_lines == 0 && d->nrows > 0) {
		fputs("Summary-only dump: no region lines, so no per-region purgeability "
		      "breakdown or histogram", stderr);
		if (!has_selected_row(d, f)) {
			fputs("; no summary row for types: ", stderr);
			print_types(f);
		}
	} else if (d->region_lines == 0) {
		fputs(d->nfields ? "The dump holds no region lines and no summary rows "
				   "(only its header)" :
				   "The dump holds no region lines and no summary rows", stderr);
	} else {
		fputs("No active regions found for types: ", stderr);
		print_types(f);
	}
	print_which_process(cap, d);
	fputc('\n', stderr);
}

/* GPU memory the default types leave out: name it, with the option that shows it. */
static void
print_gpu_left_out(const struct vmmap_capture *cap, const struct vmmap_dump *d,
		   const char *path)
{
	struct vmmap_left_out *lo;
	size_t n = vmmap_dump_gpu_left_out(d, &cap->filter, &lo);
	if (n == 0)
		return;
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "the default types leave out GPU memory");
	if (cap->ndumps > 1) {
		strbuf_addstr(&sb, " (process ");
		vmmap_text_add_process(&sb, d);
		strbuf_addch(&sb, ')');
	}
	strbuf_addch(&sb, ':');
	for (size_t i = 0; i < n; i++) {
		strbuf_addf(&sb, "%s '%s' %.2f MB", i ? ";" : "", lo[i].name,
			    (double)lo[i].vsize / 1048576.0);
		if (lo[i].has_count)
			strbuf_addf(&sb, " in %" PRIu64 " region%s", lo[i].count,
				    lo[i].count == 1 ? "" : "s");
		if (lo[i].from_summary)
			strbuf_addstr(&sb, " (summary table)");
	}
	strbuf_addstr(&sb, "; --types 'IOAccelerator,IOSurface,(graphics)' shows them too, "
		      "--all-types every type");
	cli_note(path, 0, "%s", sb.buf);
	strbuf_release(&sb);
	free(lo);
}

static void
write_text(const struct vmmap_capture *cap, const struct vmmap_args *a)
{
	struct vmmap_text_opts topts = {
		.heading = cap->ndumps > 1,
		.surfaces = a->surfaces,
	};
	for (size_t i = 0; i < cap->ndumps; i++) {
		const struct vmmap_dump *d = cap->dumps[i];
		if (i > 0)
			fputc('\n', stdout);
		vmmap_text_write_dump(stdout, d, &topts, &cap->filter);
		if (!vmmap_dump_has_entries(d))
			print_no_regions(cap, d);
	}
}

/* One report per dump, as `iotally report` writes them. */
static int
write_markdown(const struct vmmap_capture *cap, const char *path)
{
	int status = 0;
	for (size_t i = 0; i < cap->ndumps && status == 0; i++) {
		struct report r;
		report_init(&r, "vmmap", false);
		report_add_vmmap(&r, cap->dumps[i]);
		cli_report_provenance(&r, &path, 1);
		if (i > 0)
			fputc('\n', stdout);
		status = cli_report_write_markdown(&r);
		report_release(&r);
	}
	return status;
}

static int
write_report(const struct vmmap_capture *cap, const struct vmmap_args *a, const char *path,
	     struct diag *err)
{
	switch (a->format) {
	case FORMAT_JSON: {
		struct vmmap_json_opts jopts = { .path = path, .surfaces = a->surfaces };
		if (vmmap_json_write(stdout, cap, &jopts) < 0)
			return diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot write JSON output");
		return 0;
	}
	case FORMAT_CSV:
		vmmap_csv_write(stdout, cap);
		return 0;
	case FORMAT_MARKDOWN:
		return write_markdown(cap, path);
	case FORMAT_NDJSON:
	case FORMAT_TEXT:
	default:
		write_text(cap, a);
		return 0;
	}
}

/* The report of every dump, or of the one --snapshot N names (the capture keeps them all). */
static int
write_chosen(struct vmmap_capture *cap, const struct vmmap_args *a, const char *path,
	     struct diag *err)
{
	size_t i = 0;
	if (a->snapshot && capture_pick_nth(cap->ndumps, a->snapshot, "--snapshot", "vmmap dump",
					    path, &i, err) < 0)
		return -1;
	if (a->format == FORMAT_NDJSON) {
		if (vmmap_ndjson_write(cli_out(), cap, path, a->snapshot ? i + 1 : 0) < 0)
			return diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot write output");
		return 0;
	}
	if (!a->snapshot)
		return write_report(cap, a, path, err);
	struct vmmap_dump **all = cap->dumps;
	size_t n = cap->ndumps;
	cap->dumps = &all[i];
	cap->ndumps = 1;
	int rc = write_report(cap, a, path, err);
	cap->dumps = all;
	cap->ndumps = n;
	return rc;
}

/* What every input of a run is read with. */
struct vmmap_run {
	const struct vmmap_args *a;
	const struct vmmap_filter *filter;
};

static void
copy_filter(struct vmmap_filter *to, const struct vmmap_filter *from)
{
	to->all = from->all;
	for (size_t i = 0; i < from->ntypes; i++)
		vmmap_filter_add(to, from->types[i], strlen(from->types[i]));
}

/* One input: parse, check, write its report or rows. */
static int
read_one(void *ctx, struct app_source *src, struct diag *err)
{
	const struct vmmap_run *run = ctx;
	const struct vmmap_args *a = run->a;
	struct vmmap_capture cap;
	struct diag_list warnings;
	int rc;

	vmmap_capture_init(&cap);
	copy_filter(&cap.filter, run->filter);
	cap.want_surfaces = a->surfaces;
	diag_list_init(&warnings, 200);
	struct vmmap_parse_opts popts = { .strict = a->strict, .report_unparsed = 5 };
	rc = vmmap_parse(&src->reader, &cap, &popts, &warnings, err);
	if (rc < 0) {
		cli_print_warnings(&warnings);
		src->refused = true;
		goto out;
	}
	for (size_t i = 0; i < cap.ndumps; i++)
		vmmap_dump_crosscheck(cap.dumps[i], &cap.filter, src->path, &warnings);
	cli_print_warnings(&warnings);
	for (size_t i = 0; a->default_types && a->format != FORMAT_NDJSON && i < cap.ndumps; i++)
		if (!a->snapshot || i + 1 == a->snapshot)
			print_gpu_left_out(&cap, cap.dumps[i], src->path);
	rc = write_chosen(&cap, a, src->path, err);
	if (rc == 0 && cap.partial)
		cli_warn(src->path, 0, "results are partial (see the warnings above)");
out:
	diag_list_release(&warnings);
	vmmap_capture_release(&cap);
	return rc;
}

int
cmd_vmmap(int argc, char **argv)
{
	struct vmmap_args a = { 0 };
	struct vmmap_filter filter;
	struct app_sources sources;
	struct diag err;
	int status = 0;

	diag_clear(&err);
	vmmap_filter_init(&filter);
	app_sources_init(&sources);
	if (parse_args(argc, argv, &a, &filter, &err) < 0) {
		status = cli_usage_error(cli_find_command("vmmap"), &err);
		goto out;
	}
	if (a.help) {
		fputs(cmd_vmmap_help, stdout);
		goto out;
	}
	if (a.format == FORMAT_NDJSON)
		cli_sources_add_operands(&sources, "vmmap", &a.operands);
	else
		cli_sources_add_operand(&sources, "vmmap", a.path);
	struct vmmap_run run = { .a = &a, .filter = &filter };
	sources.jobs = a.jobs;
	status = cli_sources_read_each(&sources, "vmmap", 0, read_one,
				       a.format == FORMAT_NDJSON ? vmmap_ndjson_write_error : NULL,
				       &run);
out:
	app_sources_release(&sources);
	vmmap_filter_release(&filter);
	cli_operands_release(&a.operands);
	return status;
}
