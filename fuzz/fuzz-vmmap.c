/*
 * libFuzzer harness: the vmmap parser and every report over what it built;
 * the first dump compared with the last, the pair's report built and its
 * tables written as diff writes them (model/report_vmmap_diff.c).
 */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "ingest/vmmap_read.h"
#include "model/diff_vmmap.h"
#include "model/report.h"
#include "model/report_vmmap.h"
#include "model/vmmap.h"
#include "report/report_tables_write.h"
#include "util/linereader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The pair report of the first and the last dump, its tables as text and Markdown. */
static void
report_pair(const struct vmmap_capture *cap)
{
	struct diff_vmmap d;
	struct report rep;
	FILE *out = fopen("/dev/null", "w");
	if (!out)
		return;
	diff_vmmap_compute(&d, cap, cap->dumps[0], cap, cap->dumps[cap->ndumps - 1]);
	for (int markdown = 0; markdown < 2; markdown++) {
		report_init(&rep, "vmmap", true);
		rep.every_changed_row = markdown == 0;
		report_add_vmmap_diff(&rep, &d);
		report_tables_write(out, &rep, markdown);
		report_release(&rep);
	}
	diff_vmmap_release(&d);
	fclose(out);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct line_reader r;
	struct vmmap_capture cap;
	struct diag_list warnings;
	struct diag err;
	struct vmmap_parse_opts opts = { .strict = false, .report_unparsed = 5 };

	/* A small line limit reaches the overlong-line path with small inputs. */
	line_reader_from_memory(&r, data, size, "fuzz", 256);
	vmmap_capture_init(&cap);
	cap.filter.all = size % 2 == 0;
	cap.want_surfaces = true;
	vmmap_filter_add(&cap.filter, "IOAccelerator", 13);
	diag_list_init(&warnings, 50);
	(void)vmmap_recognise((const char *)data, size);
	if (vmmap_parse(&r, &cap, &opts, &warnings, &err) == 0) {
		for (size_t i = 0; i < cap.ndumps; i++) {
			const struct vmmap_dump *d = cap.dumps[i];
			vmmap_dump_crosscheck(d, &cap.filter, "fuzz", &warnings);
			struct vmmap_left_out *lo;
			vmmap_dump_gpu_left_out(d, &cap.filter, &lo);
			free(lo);
			const struct vmmap_type_stats **types;
			size_t n = vmmap_dump_sorted_types(d, &types);
			for (size_t t = 0; t < n; t++) {
				const struct vmmap_hist_bucket **b;
				vmmap_type_sorted_hist(types[t], &b);
				free(b);
			}
			free(types);
		}
		if (cap.ndumps)
			report_pair(&cap);
	}
	diag_list_release(&warnings);
	vmmap_capture_release(&cap);
	line_reader_close(&r);
	return 0;
}
