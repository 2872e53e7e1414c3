/*
 * `iotally footprint`: the GPU memory (and every other VM category) that
 * Apple's footprint charged to each process of a saved capture, per
 * process and summed, in each format the kind writes (docs/footprint.md).
 * The kind's command row (app/kind_command.h); cli/cmd_kind.c runs it.
 */

#include "app/kind_command.h"

#include "app/sources.h"
#include "ingest/footprint_read.h"
#include "model/footprint.h"
#include "report/footprint_csv.h"
#include "report/footprint_json_write.h"
#include "report/footprint_ndjson_write.h"
#include "report/footprint_text.h"
#include "util/array.h"
#include "util/diag_write.h"

#include <stdio.h>

static const char footprint_help[] =
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
	KIND_COMMAND_EXIT_HELP;

enum {
	OPT_ALL = 1,
	OPT_STRICT,
};

static const struct kind_command_option footprint_options[] = {
	{ "all-categories", 0, false, OPT_ALL },
	{ "format", 0, true, KIND_OPT_FORMAT },
	{ "strict", 0, false, OPT_STRICT },
	{ "jobs", 'j', true, KIND_OPT_JOBS },
	{ "help", 'h', false, KIND_OPT_HELP },
};

struct footprint_opts {
	bool all;
	bool strict;
};

static int
take(void *opts, int id, const char *arg, struct diag *err)
{
	struct footprint_opts *o = opts;
	(void)arg;
	(void)err;
	if (id == OPT_ALL)
		o->all = true;
	else if (id == OPT_STRICT)
		o->strict = true;
	return 0;
}

static int
write_out(const struct footprint_capture *cap, const struct footprint_opts *o,
	  const struct kind_command_args *a, const struct app_source *src,
	  const struct kind_io *io, struct diag *err)
{
	int rc = 0;
	struct ndjson_source origin = kind_ndjson_source(src);
	switch (a->format) {
	case FORMAT_JSON:
		rc = footprint_json_write(io->out, cap, src->path, o->all);
		break;
	case FORMAT_CSV:
		footprint_csv_write(io->out, cap, o->all);
		break;
	case FORMAT_NDJSON:
		rc = footprint_ndjson_write(io->out, cap, &origin, o->all);
		break;
	case FORMAT_MARKDOWN:
	case FORMAT_TEXT:
	default: {
		struct footprint_text_opts to = { .all_categories = o->all,
						  .markdown = a->format == FORMAT_MARKDOWN };
		footprint_text_write(io->out, cap, &to);
		break;
	}
	}
	if (rc < 0)
		return diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot write output");
	return 0;
}

static int
read_one(const void *opts, const struct kind_command_args *a, struct app_source *src,
	 const struct kind_io *io, struct diag *err)
{
	const struct footprint_opts *o = opts;
	struct footprint_capture cap;
	struct diag_list warnings;
	struct footprint_read_opts ro = { .strict = o->strict };
	footprint_capture_init(&cap);
	diag_list_init(&warnings, 200);
	int rc = footprint_read(&src->reader, &cap, &ro, &warnings, err);
	diag_write_list(io->err, &warnings);
	if (rc < 0)
		src->refused = true;
	else
		rc = write_out(&cap, o, a, src, io, err);
	if (rc == 0 && (cap.partial || cap.elided))
		kind_command_said_partial(io, src);
	diag_list_release(&warnings);
	footprint_capture_release(&cap);
	return rc;
}

const struct kind_command kind_footprint_command = {
	.summary = "GPU and other memory by VM category, per process and summed (footprint output)",
	.help = footprint_help,
	.options = footprint_options,
	.noptions = ARRAY_SIZE(footprint_options),
	.formats = FORMAT_BIT(FORMAT_TEXT) | FORMAT_BIT(FORMAT_JSON) | FORMAT_BIT(FORMAT_CSV) |
		   FORMAT_BIT(FORMAT_MARKDOWN) | FORMAT_BIT(FORMAT_NDJSON),
	.no_input = "a saved footprint output, or '-' for standard input",
	.error_row = footprint_ndjson_write_error,
	.opts_size = sizeof(struct footprint_opts),
	.take = take,
	.read = read_one,
};
