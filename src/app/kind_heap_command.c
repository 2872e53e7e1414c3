/*
 * `iotally heap`: the malloc heap of one process by class, from a saved
 * report of Apple's `heap PID`, in each format the kind writes
 * (docs/heap.md). The kind's command row (app/kind_command.h);
 * cli/cmd_kind.c runs it.
 */

#include "app/kind_command.h"

#include "app/sources.h"
#include "ingest/heap_read.h"
#include "model/heap.h"
#include "report/heap_write.h"
#include "util/array.h"
#include "util/diag_write.h"
#include "util/optval.h"

#include <stdint.h>
#include <stdio.h>

static const char heap_help[] =
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
	KIND_COMMAND_EXIT_HELP;

enum {
	OPT_TOP = 1,
	OPT_MATCH,
};

static const struct kind_command_option heap_options[] = {
	{ "top", 0, true, OPT_TOP },
	{ "match", 0, true, OPT_MATCH },
	{ "format", 0, true, KIND_OPT_FORMAT },
	{ "jobs", 'j', true, KIND_OPT_JOBS },
	{ "help", 'h', false, KIND_OPT_HELP },
};

static int
take(void *opts, int id, const char *arg, struct diag *err)
{
	struct heap_write_opts *w = opts;
	uint64_t n;
	if (id == OPT_MATCH) {
		w->match = arg;
	} else if (id == OPT_TOP) {
		if (optval_positive_count("--top", arg, &n, err) < 0)
			return -1;
		w->top = n > SIZE_MAX ? SIZE_MAX : (size_t)n;
	}
	return 0;
}

static int
write_out(const struct heap_capture *cap, const struct heap_write_opts *o,
	  const struct kind_command_args *a, const struct app_source *src,
	  const struct kind_io *io, struct diag *err)
{
	int rc = 0;
	struct ndjson_source origin = kind_ndjson_source(src);
	struct heap_write_opts w = *o;
	switch (a->format) {
	case FORMAT_JSON:
		rc = heap_json_write(io->out, cap, src->path, &w);
		break;
	case FORMAT_NDJSON:
		rc = heap_ndjson_write(io->out, cap, &origin, &w);
		break;
	case FORMAT_MARKDOWN:
	case FORMAT_TEXT:
	default:
		w.markdown = a->format == FORMAT_MARKDOWN;
		heap_text_write(io->out, cap, &w);
		break;
	}
	if (rc < 0)
		return diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot write output");
	return 0;
}

static int
read_one(const void *opts, const struct kind_command_args *a, struct app_source *src,
	 const struct kind_io *io, struct diag *err)
{
	struct heap_capture cap;
	struct diag_list warnings;
	heap_capture_init(&cap);
	diag_list_init(&warnings, 200);
	int rc = heap_read(&src->reader, &cap, &warnings, err);
	diag_write_list(io->err, &warnings);
	if (rc < 0)
		src->refused = true;
	else
		rc = write_out(&cap, opts, a, src, io, err);
	if (rc == 0 && cap.partial)
		kind_command_said_partial(io, src);
	diag_list_release(&warnings);
	heap_capture_release(&cap);
	return rc;
}

const struct kind_command kind_heap_command = {
	.summary = "the malloc heap of a process by class: count, bytes, type, binary (heap reports)",
	.help = heap_help,
	.options = heap_options,
	.noptions = ARRAY_SIZE(heap_options),
	.formats = FORMAT_BIT(FORMAT_TEXT) | FORMAT_BIT(FORMAT_JSON) |
		   FORMAT_BIT(FORMAT_MARKDOWN) | FORMAT_BIT(FORMAT_NDJSON),
	.no_input = "a saved heap report, or '-' for standard input",
	.error_row = heap_ndjson_write_error,
	.opts_size = sizeof(struct heap_write_opts),
	.take = take,
	.read = read_one,
};
