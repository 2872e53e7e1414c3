#ifndef IOTALLY_REPORT_VMMAP_JSON_WRITE_H
#define IOTALLY_REPORT_VMMAP_JSON_WRITE_H

/*
 * The vmmap model as one JSON document, schema "iotally.vmmap/1"
 * (docs/json/vmmap.md, docs/json/vmmap.schema.json). Keys are written in a fixed
 * order and every byte count is an exact integer, so the output is
 * deterministic and diffable.
 */

#include <stdbool.h>
#include <stdio.h>

#include "model/vmmap.h"


struct vmmap_json_opts {
	const char *path;   /* the input's name as given */
	bool surfaces;
};

/* 0, or -1 when the writer fails (out of memory in jansson, write error). */
int vmmap_json_write(FILE *out, const struct vmmap_capture *cap,
		     const struct vmmap_json_opts *opts);

#endif
