/*
 * iotally footprint: the GPU memory (and every other VM category) that
 * Apple's footprint charged to each process of a saved capture, per
 * process and summed. Self-contained: the kind's reader, model and writers
 * live in ingest/, model/ and report/ (docs/footprint.md).
 */

#include "cli/commands.h"
#include "cli/dispatch.h"
#include "cli/inputs.h"
#include "cli/outbuf.h"
#include "cli/options.h"

#include "ingest/footprint_read.h"
#include "model/footprint.h"
#include "report/footprint_csv.h"
#include "report/footprint_json_write.h"
#include "report/footprint_ndjson_write.h"
#include "report/footprint_text.h"
#include "util/array.h"
#include "util/diag.h"

#include <stdio.h>

const char cmd_footprint_help[] =
	"usage: iotally footprint [options] FILE|-\n"
	"       iotally footprint --format ndjson [options] FILE|FOLDER|-...\n"
	"\n"
	"Reads saved text output of Apple's footprint (footprint -p PID, -f bytes,\n"
	"-f pages, --swapped, --wired, --noCategories, several processes with\n"
	"'Summary Footprint:', and excerpts of it) and shows per process its\n"
	"footprint, phys_footprint and peak, its GPU memory (footprint:gpu.dirty:\n"
	"the Dirty column of the GPU categories, docs/gpu.md) and its category\n"
	"table, then all processes summed. Figures footprint printed formatted\n"
	"(KB, MB, GB: base 1024, to the nearest unit) are shown rounded (~);\n"
	"-f bytes figures are exact; a figure the capture does not have (a\n"
	"column, a table, a row a table cut short or elided may hide) is '?',\n"
	"never 0.\n"
	"\n"
	"Options:\n"
	"  --all-categories   every category, not only the GPU ones\n"
	"  --format F         text (default), json (schema iotally.footprint/1),\n"
	"                     csv (a name starting with = + - @ gets a leading ',\n"
	"                     so spreadsheets do not evaluate it), markdown (GitHub\n"
	"                     tables) or ndjson (rows for DuckDB, Spark or BigQuery:\n"
	"                     docs/json/footprint-ndjson.md)\n"
	"  --strict           a line that is not footprint output, once the output\n"
	"                     has begun, is an error (exit 65) instead of a warning\n"
	"  -j, --jobs N       read N inputs at once (--format ndjson; default: one\n"
	"                     per processor, 1: one after the other); the output is\n"
	"                     the same\n"
	"  -h, --help         show this help\n"
	"\n"
	"GPU categories: 'Owned physical footprint (unmapped) (graphics)',\n"
	"'IOSurface', 'IOAccelerator (graphics)', 'IOAccelerator' and 'IOKit'.\n"
	"Rows an author replaced with '...' are unknown: the process is marked\n"
	"elided and sums of its listed rows are lower bounds (>=). footprint's\n"
	"JSON (footprint -j) is not read.\n"
	"\n"
	"Several inputs: --format ndjson takes any number of files and folders of\n"
	"captures (read in name order; captures of other kinds in them are\n"
	"skipped with a note) and writes an 'input' row per input, a 'process'\n"
	"row per process and a 'category' row per shown category. An input that\n"
	"cannot be read gets an 'input' row with status 'error'; the exit status\n"
	"is the first error's. The other formats read one input.\n"
	"\n"
	"Examples (the files are iotally's test fixtures):\n"
	"  iotally footprint fixtures/footprint/macos26.6-arm64-footprint-full-ferryx.txt\n"
	"  iotally footprint --all-categories fixtures/footprint/constructed-bytes-swapped-wired.txt\n"
	"  iotally footprint --format json fixtures/footprint/macos26.5-arm64-footprint-swapped-wired-elided-mlx.txt\n"
	"  iotally footprint --format ndjson fixtures/footprint/constructed-pages.txt fixtures/footprint/constructed-formatted-two-processes.txt\n"
	"\n"
	"Exit status: 0 success, 64 usage error, 65 malformed input, 66 input\n"
	"cannot be opened, 74 output cannot be written; with several inputs, the\n"
	"first error's.\n";

enum {
	OPT_ALL = 1,
	OPT_FORMAT,
	OPT_STRICT,
	OPT_JOBS,
	OPT_HELP,
};

static const struct cli_option footprint_options[] = {
	{ "all-categories", 0, false, OPT_ALL },
	{ "format", 0, true, OPT_FORMAT },
	{ "strict", 0, false, OPT_STRICT },
	{ "jobs", 'j', true, OPT_JOBS },
	{ "help", 'h', false, OPT_HELP },
};

enum output_format {
	FORMAT_TEXT,
	FORMAT_JSON,
	FORMAT_CSV,
	FORMAT_MARKDOWN,
	FORMAT_NDJSON,
};

struct footprint_args {
	struct cli_operands operands;
	const char *path;
	enum output_format format;
	bool all;
	bool strict;
	unsigned jobs;          /* -j N: inputs read at once; 0: one per processor */
	bool help;
};

static int
take_arg(void *ctx, struct cli_parser *p, int id, const char *arg, struct diag *err)
{
	static const char *const formats[] = { "text", "json", "csv", "markdown", "ndjson" };
	struct footprint_args *a = ctx;
	int i;
	switch (id) {
	case CLI_OPERAND:
		cli_operands_add(&a->operands, p, arg);
		return 0;
	case OPT_ALL:
		a->all = true;
		return 0;
	case OPT_FORMAT:
		if ((i = cli_choice("format", arg, formats, ARRAY_SIZE(formats), err)) < 0)
			return -1;
		a->format = (enum output_format)i;
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

static int
parse_args(int argc, char **argv, struct footprint_args *a, struct diag *err)
{
	struct cli_parser p;
	if (cli_parse(&p, footprint_options, ARRAY_SIZE(footprint_options), argc, argv, OPT_HELP,
		      &a->help, take_arg, a, err) < 0)
		return -1;
	if (a->help)
		return 0;
	if (!a->operands.n)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"no input given (a saved footprint output, or '-' for standard "
				"input)");
	return cli_operands_split(&a->operands, &p, "footprint", NULL,
				  a->format == FORMAT_NDJSON, &a->path, NULL, NULL, err);
}

static int
write_out(const struct footprint_capture *cap, const struct footprint_args *a,
	  const struct app_source *src, struct diag *err)
{
	int rc = 0;
	struct ndjson_source origin = cli_ndjson_source(src);
	switch (a->format) {
	case FORMAT_JSON:
		rc = footprint_json_write(stdout, cap, src->path, a->all);
		break;
	case FORMAT_CSV:
		footprint_csv_write(stdout, cap, a->all);
		break;
	case FORMAT_NDJSON:
		rc = footprint_ndjson_write(cli_out(), cap, &origin, a->all);
		break;
	case FORMAT_MARKDOWN:
	case FORMAT_TEXT:
	default: {
		struct footprint_text_opts o = { .all_categories = a->all,
						 .markdown = a->format == FORMAT_MARKDOWN };
		footprint_text_write(stdout, cap, &o);
		break;
	}
	}
	if (rc < 0)
		return diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot write output");
	return 0;
}

static int
read_one(void *ctx, struct app_source *src, struct diag *err)
{
	const struct footprint_args *a = ctx;
	struct footprint_capture cap;
	struct diag_list warnings;
	struct footprint_read_opts opts = { .strict = a->strict };
	footprint_capture_init(&cap);
	diag_list_init(&warnings, 200);
	int rc = footprint_read(&src->reader, &cap, &opts, &warnings, err);
	cli_print_warnings(&warnings);
	if (rc < 0)
		src->refused = true;
	else
		rc = write_out(&cap, a, src, err);
	if (rc == 0 && (cap.partial || cap.elided))
		cli_warn(src->path, 0, "results are partial (see the warnings above)");
	diag_list_release(&warnings);
	footprint_capture_release(&cap);
	return rc;
}

int
cmd_footprint(int argc, char **argv)
{
	struct footprint_args a = { 0 };
	struct app_sources sources;
	struct diag err;
	int status = 0;

	diag_clear(&err);
	app_sources_init(&sources);
	if (parse_args(argc, argv, &a, &err) < 0) {
		status = cli_usage_error(cli_find_command("footprint"), &err);
		goto out;
	}
	if (a.help) {
		fputs(cmd_footprint_help, stdout);
		goto out;
	}
	if (a.format == FORMAT_NDJSON)
		cli_sources_add_operands(&sources, "footprint", &a.operands);
	else
		cli_sources_add_operand(&sources, "footprint", a.path);
	sources.jobs = a.jobs;
	status = cli_sources_read_each(&sources, "footprint", 0, read_one,
				       a.format == FORMAT_NDJSON ? footprint_ndjson_write_error :
								   NULL, &a);
out:
	app_sources_release(&sources);
	cli_operands_release(&a.operands);
	return status;
}
