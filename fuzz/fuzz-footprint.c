/* libFuzzer harness: the footprint text parser, its model, metric lookups and every writer. */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz-scratch.h"
#include "ingest/footprint_read.h"
#include "model/footprint.h"
#include "report/footprint_csv.h"
#include "report/footprint_json_write.h"
#include "report/footprint_ndjson_write.h"
#include "report/ndjson.h"
#include "report/footprint_text.h"
#include "util/linereader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
count_metric(void *ctx, const char *name, const struct footprint_figure *fig)
{
	(void)name;
	/* Only figures the capture has are listed. */
	FUZZ_CHECK(fig->known);
	++*(size_t *)ctx;
}

static void
check_process(const struct footprint_process *p)
{
	struct footprint_figure fig;
	size_t n = 0;
	footprint_metric_each(p, count_metric, &n);
	FUZZ_CHECK(footprint_metric(p, "gpu.dirty", &fig, NULL) == 0);
	FUZZ_CHECK(fig.known == p->gpu_dirty.known && fig.value == p->gpu_dirty.value);
	for (size_t k = 0; k < p->ncats; k++)
		FUZZ_CHECK(p->cats[k].f[FOOTPRINT_DIRTY].value <= INT64_MAX);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct line_reader r;
	struct footprint_capture cap;
	struct diag_list warnings;
	struct diag err;
	struct footprint_read_opts opts = { .strict = size % 7 == 0 };

	line_reader_from_memory(&r, data, size, "fuzz", 512);
	footprint_capture_init(&cap);
	diag_list_init(&warnings, 50);
	if (footprint_read(&r, &cap, &opts, &warnings, &err) == 0) {
		FILE *out = fopen("/dev/null", "w");
		struct footprint_text_opts topts = { .all_categories = size % 2, .markdown = size % 3 == 0 };
		for (size_t i = 0; i < cap.nprocs; i++)
			check_process(cap.procs[i]);
		if (cap.summed)
			check_process(cap.summed);
		if (out) {
			footprint_text_write(out, &cap, &topts);
			footprint_json_write(out, &cap, "fuzz", topts.all_categories);
			footprint_ndjson_write(out, &cap, &(struct ndjson_source){ .path = "fuzz" },
					       topts.all_categories);
			footprint_csv_write(out, &cap, topts.all_categories);
			fclose(out);
		}
	}
	diag_list_release(&warnings);
	footprint_capture_release(&cap);
	line_reader_close(&r);
	return 0;
}
