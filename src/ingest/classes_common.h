#ifndef IOTALLY_INGEST_CLASSES_COMMON_H
#define IOTALLY_INGEST_CLASSES_COMMON_H

/*
 * What the class-count readers share (classes_read.c dispatches to
 * ioreg_text.c, classes_xml_read.c and ioclasscount_text.c): their options,
 * their limits and the integer syntax of ioreg and CF. Each reader includes
 * this, never the dispatcher, so no reader depends on another.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The longest line read whole: an IOKitDiagnostics line is 10-70 KB today.
 * classes_read() applies it to the reader it is handed (line_reader_raise_max),
 * so classes, diff, trend and report read the same lines of one input.
 */
#define CLASSES_MAX_LINE (16u << 20)
/* Nesting deeper than this in a property list is refused. */
#define CLASSES_MAX_DEPTH 128

struct classes_read_opts {
	bool partial;              /* keep a truncated snapshot instead of failing */
	bool want_hierarchy;       /* also collect class chains / OSBundleClasses */
	bool need_counts;          /* an input without a snapshot is an error */
	bool need_hierarchy;       /* an input without a hierarchy is an error */
};

/*
 * An integer as ioreg and CF write them: optional '-', decimal or 0x hex.
 * Values from 2^63 to 2^64-1 are an unsigned rendering of a negative
 * (sign-extended) number and come back negative. SIZE_OK, SIZE_SYNTAX or
 * SIZE_OVERFLOW (past 64 bits); *hex tells which base was used.
 */
int classes_parse_int(const char *p, size_t n, int64_t *out, bool *hex);

#endif
