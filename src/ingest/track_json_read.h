#ifndef IOTALLY_INGEST_TRACK_JSON_READ_H
#define IOTALLY_INGEST_TRACK_JSON_READ_H

/*
 * Reads an `iotally track --format json` listing (schema iotally.track/1)
 * back into a track_capture: every listed record with its frames and
 * process, the capture's command line, kind, layout, printed total and
 * binary images. Each record goes through track_capture_add_record(), so
 * the capture's own filters and aggregates apply as to a raw capture.
 * A report made with --by holds groups, not records, and is refused.
 */

#include "model/track.h"
#include "util/diag.h"
#include "util/linereader.h"

/*
 * 0, or -1 with *err set (DIAG_DATA for a document that is not a track
 * listing). A listing cut by --top or filters gets a note in `notes`.
 */
int track_json_read(struct line_reader *r, struct track_capture *cap,
		    struct diag_list *notes, struct diag *err);

#endif
