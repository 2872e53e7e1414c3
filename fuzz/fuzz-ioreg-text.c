/* libFuzzer harness: the ioreg text reader (IOKitDiagnostics scanner, -i class chains). */

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "ingest/classes_read.h"
#include "ingest/ioreg_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct line_reader r;
	struct classes_capture cap;
	struct hierarchy h;
	struct diag_list warnings;
	struct diag err;
	struct classes_read_opts opts = { .partial = size % 2 == 0, .want_hierarchy = true };

	/* A small line limit reaches the overlong-line path with small inputs. */
	line_reader_from_memory(&r, data, size, "fuzz", 4096);
	classes_capture_init(&cap);
	hierarchy_init(&h);
	diag_list_init(&warnings, 20);
	if (ioreg_text_read(&r, &cap, &h, &opts, &warnings, &err) == 0) {
		hierarchy_finish(&h);
		for (size_t i = 0; i < cap.nsnapshots; i++) {
			const struct class_count **v;
			struct classes_filter f = { .has_top = true, .top = 5 };
			classes_snapshot_select(cap.snapshots[i], &f, &v);
			free(v);
			struct hier_identity_failure *fail;
			hierarchy_check_identity(&h, cap.snapshots[i], &fail);
			free(fail);
		}
	}
	diag_list_release(&warnings);
	hierarchy_release(&h);
	classes_capture_release(&cap);
	line_reader_close(&r);
	return 0;
}
