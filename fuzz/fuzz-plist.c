/* libFuzzer harness: the XML property-list reader and the classes extraction on top of it. */

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "ingest/classes_read.h"
#include "ingest/plist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
count_events(void *ctx, const struct plist_item *it, struct diag *err)
{
	(void)err;
	(void)it;
	(*(size_t *)ctx)++;
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct line_reader r;
	struct classes_capture cap;
	struct hierarchy h;
	struct diag_list warnings;
	struct diag err;
	struct plist_opts popts = { .max_depth = 32, .max_text = 1024 };
	struct classes_read_opts opts = { .want_hierarchy = true, .need_counts = size % 2 == 0 };
	size_t events = 0;

	/* The generic reader over the raw bytes... */
	line_reader_from_memory(&r, data, size, "fuzz", 4096);
	plist_read(&r, &popts, count_events, &events, &err);
	line_reader_close(&r);

	/* ...and the IOKitDiagnostics / OSBundleClasses / IOObjectInheritance extraction. */
	line_reader_from_memory(&r, data, size, "fuzz", 4096);
	classes_capture_init(&cap);
	hierarchy_init(&h);
	diag_list_init(&warnings, 20);
	if (classes_read(&r, &cap, &h, &opts, &warnings, &err) == 0) {
		for (size_t i = 0; i < cap.nsnapshots; i++) {
			const struct class_count **v;
			struct classes_filter f = { .nonzero = true };
			classes_snapshot_select(cap.snapshots[i], &f, &v);
			free(v);
		}
	}
	diag_list_release(&warnings);
	hierarchy_release(&h);
	classes_capture_release(&cap);
	line_reader_close(&r);
	return 0;
}
