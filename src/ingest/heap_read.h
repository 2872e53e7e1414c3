#ifndef IOTALLY_INGEST_HEAP_READ_H
#define IOTALLY_INGEST_HEAP_READ_H

/*
 * Saved output of Apple's `heap PID` (docs/heap.md): a header block of
 * "Key: value" lines like a crash report's (Process, Path, Identifier,
 * Version, Code Type, Parent Process, Date/Time, OS Version, Report
 * Version, Analysis Tool, Physical footprint), "Process N: K zones", one
 * "Zone NAME: Overall size: ...; N nodes malloced for MKB ..." line a
 * zone, "All zones: N nodes (B bytes)", then the class table(s)
 * ("COUNT BYTES AVG CLASS_NAME TYPE BINARY" over '=' underlines; one a
 * zone with -z), a row such as "1234  123456  100.0  CFString  CFType
 * CoreFoundation". Sizes are bytes, or human-readable with -H ("3.3M",
 * "120K", base 1024): those are kept as rounded.
 *
 * A row is split from its end: the three figures first, then the last
 * words TYPE (one of heap's types) and BINARY when present, and the class
 * name is the rest, spaces and <...> included.
 *
 * Streams the input: memory grows with the distinct rows, not the lines.
 */

#include <stdbool.h>
#include <stddef.h>

#include "model/heap.h"
#include "util/diag.h"
#include "util/linereader.h"

/*
 * 0 (warnings in *warnings; cap->partial when a line of a table was not
 * read), or -1 with *err: DIAG_DATA with file and line for a figure or a
 * sum past 2^63 - 1, or for an input that holds no heap report.
 */
int heap_read(struct line_reader *r, struct heap_capture *cap, struct diag_list *warnings,
	      struct diag *err);

/*
 * Does the start of an input hold a heap report: its table header
 * ("COUNT BYTES AVG CLASS_NAME"), an "All zones: N nodes" line, or an
 * "Analysis Tool:" line naming heap?
 */
bool heap_recognise(const char *p, size_t n);

#endif
