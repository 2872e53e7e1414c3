#ifndef IOTALLY_INGEST_VMMAP_TABLE_H
#define IOTALLY_INGEST_VMMAP_TABLE_H

/*
 * The summary table's layout, worked out once per distinct header: a file
 * of many -summary captures repeats the same header (and the line above
 * it) once per dump, and reading its words again each time was some 1.5 %
 * of such a file's parse.
 */

#include "ingest/vmmap_grammar.h"

#include <stdbool.h>
#include <stddef.h>

/* Headers and lines above them longer than this are read every time. */
#define VMMAP_LAYOUT_MEMO_MAX 512

/* The last header and line above it read, with their layout. Zero it to start. */
struct vmmap_table_layout_memo {
	bool valid;
	size_t above_len, head_len;
	char above[VMMAP_LAYOUT_MEMO_MAX];
	char head[VMMAP_LAYOUT_MEMO_MAX];
	struct vmmap_table_layout layout;
};

/*
 * vmmap_table_layout_from(t, above, above_n, head, head_n), answered from
 * the memo when both lines are byte for byte the last ones read; the memo
 * then holds these lines. The layout depends on nothing but their bytes.
 */
void vmmap_table_layout_memo_from(struct vmmap_table_layout_memo *m,
				  struct vmmap_table_layout *t, const char *above,
				  size_t above_n, const char *head, size_t head_n);

#endif
