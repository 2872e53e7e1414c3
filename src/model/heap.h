#ifndef IOTALLY_MODEL_HEAP_H
#define IOTALLY_MODEL_HEAP_H

/*
 * Apple's `heap PID` report (docs/heap.md): the malloc heap of one process
 * by class, as `heap` counts it. A capture keeps the report's header
 * (Process, Path, OS Version, ... as printed), its zones ("Zone NAME:
 * Overall size: ...; N nodes malloced for ...KB"), its "All zones: N nodes
 * (B bytes)" totals and the rows of its class table (COUNT BYTES AVG
 * CLASS_NAME TYPE BINARY). A row is keyed by class, type and binary: two
 * rows of one key (tables of several zones, `heap -z`) are summed.
 *
 * Figures are exact unless the report was printed with `-H` (human-readable
 * sizes: "3.3M", "120K"): then each row's bytes carry the rounding and
 * `rounded` says so. Every count and byte figure, and every sum of them,
 * is at most 2^63 - 1 (util/bytes.h): the reader refuses larger ones.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/hashmap.h"

/* iotally's JSON of a heap report, and its NDJSON rows (docs/json/heap.md). */
#define HEAP_SCHEMA "iotally.heap/1"
#define HEAP_NDJSON_SCHEMA "iotally.heap-ndjson/1"

/* Header lines kept (Process, Path, ..., Physical footprint), as printed. */
#define HEAP_HEADER_MAX 32

struct heap_header {
	char *key;
	char *value;
};

struct heap_zone {
	char *name;
	uint64_t nodes;
	uint64_t malloced;     /* bytes: "malloced for NKB" times 1024 */
	bool has_malloced;
};

struct heap_row {
	char *name;            /* CLASS_NAME: may hold spaces and <...> */
	char *type;            /* "ObjC", "C++", "CFType", "C", "Swift"; "" when none */
	char *binary;          /* the image; "" when none */
	uint64_t count;
	uint64_t bytes;
};

struct heap_capture {
	struct heap_header header[HEAP_HEADER_MAX];
	size_t nheader;
	struct heap_zone *zones;
	size_t nzones, zones_alloc;
	bool has_all;          /* the "All zones:" line was read */
	uint64_t all_nodes, all_bytes;
	struct heap_row *rows;
	size_t nrows, rows_alloc;
	struct strmap index;   /* row key (name, type, binary) -> index in rows */
	uint64_t sum_count, sum_bytes;   /* of the rows */
	size_t ntables;        /* class tables read (several: heap -z) */
	bool rounded;          /* byte figures printed human-readable (heap -H) */
	bool partial;          /* a line of the table was not read */
};

void heap_capture_init(struct heap_capture *cap);
void heap_capture_release(struct heap_capture *cap);

/* The header's value of `key` ("Process"), or NULL. */
const char *heap_header_value(const struct heap_capture *cap, const char *key);
/* Keep a header line (copied); false when HEAP_HEADER_MAX are kept. */
bool heap_header_add(struct heap_capture *cap, const char *key, size_t klen, const char *value,
		     size_t vlen);
void heap_zone_add(struct heap_capture *cap, const char *name, size_t nlen, uint64_t nodes,
		   bool has_malloced, uint64_t malloced);
/*
 * Add a table row (copied), summed into the row of the same key when there
 * is one. false when a figure or a sum would pass 2^63 - 1.
 */
bool heap_row_add(struct heap_capture *cap, const char *name, size_t nlen, const char *type,
		  size_t tlen, const char *binary, size_t blen, uint64_t count, uint64_t bytes);

/*
 * The rows' order for every writer: bytes, largest first, then count, then
 * name, type and binary (deterministic whatever order the report printed).
 * order[0..cap->nrows) receives row indices; the caller frees it.
 */
size_t *heap_rows_ordered(const struct heap_capture *cap);

/*
 * The figures a gate or a trend reads of one capture: "nodes" and "bytes"
 * ("All zones"; the table's sums when the line is missing), or
 * "CLASS.count" / "CLASS.bytes" (every row of that class name summed, 0
 * when the table has none). 0 with *v; -1 for a name of no such form.
 */
enum heap_figure {
	HEAP_COUNT,
	HEAP_BYTES,
};
int heap_metric_parse(const char *metric, const char **cls, size_t *clen,
		      enum heap_figure *fig, bool *total);
uint64_t heap_class_figure(const struct heap_capture *cap, const char *cls, size_t clen,
			   enum heap_figure fig, bool *found);
uint64_t heap_total_figure(const struct heap_capture *cap, enum heap_figure fig);

/* ---- a pair ---- */

struct heap_diff_row {
	const char *name, *type, *binary;    /* borrowed from a capture */
	uint64_t before_count, before_bytes, after_count, after_bytes;
	bool in_before, in_after;
};

struct heap_diff {
	const struct heap_capture *before, *after;   /* borrowed */
	struct heap_diff_row *rows;    /* the largest byte change first */
	size_t nrows;
	size_t nchanged;               /* rows whose count or bytes moved */
};

/* Pair the rows of two captures by key. */
void heap_diff_compare(struct heap_diff *d, const struct heap_capture *before,
		       const struct heap_capture *after);
void heap_diff_release(struct heap_diff *d);
bool heap_diff_row_changed(const struct heap_diff_row *r);
bool heap_diff_changed(const struct heap_diff *d);

#endif
