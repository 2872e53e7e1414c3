#ifndef IOTALLY_INGEST_VMMAP_JSON_READ_H
#define IOTALLY_INGEST_VMMAP_JSON_READ_H

/*
 * Reads an `iotally vmmap --format json` report (schema iotally.vmmap/1)
 * back into a vmmap_capture: per dump its process, header fields,
 * breakdown (groups) and size histogram, and the capture's type selection
 * (the report's "types"). Summary rows, surfaces and line counts are not
 * read back: a diff does not use them.
 */

#include "model/vmmap.h"
#include "util/diag.h"
#include "util/linereader.h"

/* 0, or -1 with *err set (DIAG_DATA for a document that is not a vmmap report). */
int vmmap_json_read(struct line_reader *r, struct vmmap_capture *cap, struct diag *err);

#endif
