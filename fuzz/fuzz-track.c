/* libFuzzer harness: the tracking-capture parser, every aggregation and report. */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "ingest/track_read.h"
#include "model/suppress.h"
#include "model/track.h"
#include "util/linereader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
run(const uint8_t *data, size_t size, enum track_by by, struct suppress_list *sup)
{
	struct line_reader r;
	struct track_capture cap;
	struct diag_list warnings;
	struct diag err;
	struct track_parse_opts opts = { .strict = false, .report_unparsed = 5 };

	/* A small line limit reaches the overlong-line path with small inputs. */
	line_reader_from_memory(&r, data, size, "fuzz", 512);
	track_capture_init(&cap);
	cap.by = by;
	cap.keep_records = by == TRACK_BY_NONE;
	cap.top = size % 3;
	cap.suppress = sup;
	track_filter_add(&cap.filter.sites, &cap.filter.nsites, size % 2 ? "0x" : "kernel");
	cap.filter.exclude = size % 5 == 0;
	track_filter_add(&cap.filter.names, &cap.filter.nnames, "IOMalloc");
	diag_list_init(&warnings, 50);
	if (track_parse(&r, &cap, &opts, &warnings, &err) == 0) {
		track_capture_check_total(&cap, "fuzz", &warnings);
		track_capture_sort_kept(&cap);
		const struct track_group **g;
		track_grouping_sorted(&cap.grouping, &g);
		free(g);
		struct strbuf out = STRBUF_INIT;
		struct track_record rec;
		track_record_init(&rec);
		for (size_t i = 0; i < track_listing_count(&cap.listing); i++)
			if (track_listing_read(&cap.listing, i, &rec, &err) == 0)
				track_record_format(&rec, cap.layout, &out);
		track_record_release(&rec);
		strbuf_release(&out);
	}
	diag_list_release(&warnings);
	track_capture_release(&cap);
	line_reader_close(&r);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum track_by kinds[] = {
		TRACK_BY_NONE, TRACK_BY_MODULE, TRACK_BY_SYMBOL, TRACK_BY_CLASS, TRACK_BY_FOLDED,
	};
	struct suppress_list sup;
	struct diag err;
	suppress_list_init(&sup);
	suppress_list_add_line(&sup, "re:^ *[0-9]+ com\\.apple\\.(AGX|IOSurface)", 40, "fuzz", 1, &err);
	suppress_list_add_line(&sup, "mach_msg2_trap", 14, "fuzz", 2, &err);
	run(data, size, kinds[size % 5], (size & 8) ? &sup : NULL);
	suppress_list_release(&sup);
	return 0;
}
