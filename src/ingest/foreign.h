#ifndef IOTALLY_INGEST_FOREIGN_H
#define IOTALLY_INGEST_FOREIGN_H

/*
 * Captures of other macOS tools that iotally does not read but that are
 * easily mistaken for its inputs (they are saved next to them, and share
 * words or layouts with them), recognised from their first bytes so that a
 * message can name what the file is instead of what it lacks. footprint
 * text is read (ingest/footprint_read.h); its JSON is not.
 */

#include <stddef.h>

enum foreign_kind {
	FOREIGN_NONE,
	FOREIGN_FOOTPRINT_JSON,     /* footprint --json: "total footprint", "bytes per unit" */
	FOREIGN_SYSTEM_PROFILER,    /* system_profiler -xml / a .spx file: _dataType, _items */
};

enum foreign_kind input_foreign_detect(const char *p, size_t n);

/* "a footprint report", ... (NULL for FOREIGN_NONE). */
const char *input_foreign_describe(enum foreign_kind kind);

#endif
