/*
 * libFuzzer harness: reading iotally's own JSON reports back (vmmap, track
 * and classes listings), and diffing what was read with itself.
 */

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "ingest/classes_json_read.h"
#include "ingest/track_json_read.h"
#include "ingest/vmmap_json_read.h"
#include "model/diff_classes.h"
#include "model/diff_track.h"
#include "model/diff_vmmap.h"
#include "util/linereader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
vmmap(struct line_reader *r)
{
	struct vmmap_capture cap;
	struct diag err;
	vmmap_capture_init(&cap);
	if (vmmap_json_read(r, &cap, &err) == 0 && cap.ndumps) {
		struct diff_vmmap d;
		diff_vmmap_compute(&d, &cap, cap.dumps[0], &cap, cap.dumps[cap.ndumps - 1]);
		diff_vmmap_release(&d);
	}
	vmmap_capture_release(&cap);
}

static void
track(struct line_reader *r, struct diag_list *notes)
{
	struct track_capture cap;
	struct diff_track d;
	struct diag err;
	track_capture_init(&cap);
	cap.keep_records = true;
	diff_track_init(&d, false);
	if (track_json_read(r, &cap, notes, &err) == 0 &&
	    diff_track_add_capture(&d, 0, &cap, "fuzz", &err) == 0 &&
	    diff_track_add_capture(&d, 1, &cap, "fuzz", &err) == 0 && diff_track_changed(&d))
		abort();  /* a capture compared with itself has no change */
	diff_track_release(&d);
	track_capture_release(&cap);
}

static void
classes(struct line_reader *r, struct diag_list *notes)
{
	struct classes_capture cap, direct;
	struct diag err;
	classes_capture_init(&cap);
	classes_capture_init(&direct);
	if (classes_json_read(r, &cap, &direct, notes, &err) == 0 && cap.nsnapshots) {
		struct diff_classes d;
		diff_classes_compute(&d, cap.snapshots[0], cap.snapshots[0], false);
		if (diff_classes_changed(&d))
			abort();
		diff_classes_release(&d);
	}
	classes_capture_release(&cap);
	classes_capture_release(&direct);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct line_reader r;
	struct diag_list notes;
	if (size == 0)
		return 0;
	line_reader_from_memory(&r, data + 1, size - 1, "fuzz", 0);
	diag_list_init(&notes, 20);
	switch (data[0] % 3) {
	case 0:
		vmmap(&r);
		break;
	case 1:
		track(&r, &notes);
		break;
	default:
		classes(&r, &notes);
		break;
	}
	line_reader_close(&r);
	diag_list_release(&notes);
	return 0;
}
