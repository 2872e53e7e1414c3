/*
 * iotally heap: the malloc heap of one process by class, from a saved
 * report of Apple's `heap PID`. The kind's reader, model and writers live
 * in ingest/, model/ and report/ (docs/heap.md).
 */

#include "cli/cmd_heap.h"

#include "cli/commands.h"
#include "cli/inputs.h"
#include "cli/outbuf.h"
#include "cli/options.h"

#include "ingest/heap_read.h"
#include "model/heap.h"
#include "report/heap_write.h"
#include "util/array.h"
#include "util/diag.h"

#include <stdio.h>

const char cmd_heap_help[] =
	"usage: iotally heap [options] FILE|-\n"
	"       iotally heap --format ndjson [options] FILE|FOLDER|-...\n"
	"\n"
	"Reads a saved report of Apple's heap (heap PID, heap -s, heap -H, heap -z)\n"
	"and shows the malloc heap of the process by class: COUNT, BYTES, the\n"
	"average size, CLASS, TYPE and BINARY, the largest first, under the\n"
	"report's 'All zones' nodes and bytes. Rows of one class, type and binary\n"
	"(the tables of several zones) are summed. Sizes heap printed\n"
	"human-readable (-H: 3.3M, 120K) are shown rounded (~).\n"
	"\n"
	"Options:\n"
	"  --top N            only the N largest classes\n"
	"  --match TEXT       only classes whose name holds TEXT\n"
	"  --format F         text (default), json (schema iotally.heap/1),\n"
	"                     markdown (GitHub tables) or ndjson (rows:\n"
	"                     docs/json/heap.md)\n"
	"  -j, --jobs N       read N inputs at once (--format ndjson)\n"
	"  -h, --help         show this help\n"
	"\n"
	"diff, report and trend read heap reports too; gates: heap:nodes,\n"
	"heap:bytes, heap:CLASS.count, heap:CLASS.bytes (docs/heap.md).\n"
	"\n"
	"Examples (the files are iotally's test fixtures):\n"
	"  iotally heap fixtures/heap/constructed-before.txt\n"
	"  iotally heap --top 3 --format markdown fixtures/heap/constructed-after.txt\n"
	"  iotally diff fixtures/heap/constructed-before.txt fixtures/heap/constructed-after.txt\n"
	"\n"
	"Exit status: 0 success, 64 usage error, 65 malformed input, 66 input\n"
	"cannot be opened, 74 output cannot be written; with several inputs, the\n"
	"first error's.\n";

enum {
	OPT_TOP = 1,
	OPT_MATCH,
	OPT_FORMAT,
	OPT_JOBS,
	OPT_HELP,
};

static const struct cli_option heap_options[] = {
	{ "top", 0, true, OPT_TOP },
	{ "match", 0, true, OPT_MATCH },
	{ "format", 0, true, OPT_FORMAT },
	{ "jobs", 'j', true, OPT_JOBS },
	{ "help", 'h', false, OPT_HELP },
};

enum output_format {
	FORMAT_TEXT,
	FORMAT_JSON,
	FORMAT_MARKDOWN,
	FORMAT_NDJSON,
};

struct heap_args {
	struct cli_operands operands;
	const char *path;
	enum output_format format;
	struct heap_write_opts w;
	unsigned jobs;
	bool help;
};

static int
take_arg(void *ctx, struct cli_parser *p, int id, const char *arg, struct diag *err)
{
	static const char *const formats[] = { "text", "json", "markdown", "ndjson" };
	struct heap_args *a = ctx;
	uint64_t n;
	int i;
	switch (id) {
	case CLI_OPERAND:
		cli_operands_add(&a->operands, p, arg);
		return 0;
	case OPT_TOP:
		if (cli_positive_count("--top", arg, &n, err) < 0)
			return -1;
		a->w.top = (size_t)n;
		return 0;
	case OPT_MATCH:
		a->w.match = arg;
		return 0;
	case OPT_FORMAT:
		if ((i = cli_choice("format", arg, formats, ARRAY_SIZE(formats), err)) < 0)
			return -1;
		a->format = (enum output_format)i;
		return 0;
	case OPT_JOBS:
		return cli_parse_jobs(arg, &a->jobs, err);
	default:
		return 0;
	}
}

static int
parse_args(int argc, char **argv, struct heap_args *a, struct diag *err)
{
	struct cli_parser p;
	if (cli_parse(&p, heap_options, ARRAY_SIZE(heap_options), argc, argv, OPT_HELP, &a->help,
		      take_arg, a, err) < 0)
		return -1;
	if (a->help)
		return 0;
	if (!a->operands.n)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"no input given (a saved heap report, or '-' for standard input)");
	return cli_operands_split(&a->operands, &p, "heap", NULL, a->format == FORMAT_NDJSON,
				  &a->path, NULL, NULL, err);
}

static int
write_out(const struct heap_capture *cap, const struct heap_args *a,
	  const struct app_source *src, struct diag *err)
{
	int rc = 0;
	struct ndjson_source origin = cli_ndjson_source(src);
	struct heap_write_opts w = a->w;
	switch (a->format) {
	case FORMAT_JSON:
		rc = heap_json_write(stdout, cap, src->path, &w);
		break;
	case FORMAT_NDJSON:
		rc = heap_ndjson_write(cli_out(), cap, &origin, &w);
		break;
	case FORMAT_MARKDOWN:
	case FORMAT_TEXT:
	default:
		w.markdown = a->format == FORMAT_MARKDOWN;
		heap_text_write(stdout, cap, &w);
		break;
	}
	if (rc < 0)
		return diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot write output");
	return 0;
}

static int
read_one(void *ctx, struct app_source *src, struct diag *err)
{
	const struct heap_args *a = ctx;
	struct heap_capture cap;
	struct diag_list warnings;
	heap_capture_init(&cap);
	diag_list_init(&warnings, 200);
	int rc = heap_read(&src->reader, &cap, &warnings, err);
	cli_print_warnings(&warnings);
	if (rc < 0)
		src->refused = true;
	else
		rc = write_out(&cap, a, src, err);
	if (rc == 0 && cap.partial)
		cli_warn(src->path, 0, "results are partial (see the warnings above)");
	diag_list_release(&warnings);
	heap_capture_release(&cap);
	return rc;
}

int
cmd_heap(int argc, char **argv)
{
	struct heap_args a = { 0 };
	struct app_sources sources;
	struct diag err;
	int status = 0;

	diag_clear(&err);
	app_sources_init(&sources);
	if (parse_args(argc, argv, &a, &err) < 0) {
		status = cli_usage_error(cli_find_command("heap"), &err);
		goto out;
	}
	if (a.help) {
		fputs(cmd_heap_help, stdout);
		goto out;
	}
	if (a.format == FORMAT_NDJSON)
		cli_sources_add_operands(&sources, "heap", &a.operands);
	else
		cli_sources_add_operand(&sources, "heap", a.path);
	sources.jobs = a.jobs;
	status = cli_sources_read_each(&sources, "heap", 0, read_one,
				       a.format == FORMAT_NDJSON ? heap_ndjson_write_error : NULL, &a);
out:
	app_sources_release(&sources);
	cli_operands_release(&a.operands);
	return status;
}
