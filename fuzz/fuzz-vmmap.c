/* libFuzzer harness: the vmmap parser and every report over what it built. */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "ingest/vmmap_read.h"
#include "model/vmmap.h"
#include "util/linereader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
	}
	diag_list_release(&warnings);
	vmmap_capture_release(&cap);
	line_reader_close(&r);
	return 0;
}
