#ifndef IOTALLY_UTIL_SPILL_H
#define IOTALLY_UTIL_SPILL_H

/*
 * An append-only store of byte blobs in an unlinked temporary file.
 *
 * A report that must see every record before it can print the first (a
 * listing sorted by size) keeps a small key per record in memory and the
 * record itself here, so its memory does not grow with the records' text.
 * Blobs are appended once, through a write buffer, and read back in any
 * order by offset. The file is created in $TMPDIR (else /tmp) and unlinked
 * at once: nothing is left behind, whatever ends the process.
 *
 * spill_release() frees everything; a zeroed struct after spill_init() is
 * valid to release whether or not spill_open() succeeded.
 */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/diag.h"
#include "util/strbuf.h"

/*
 * A blob of this many bytes or more is written as it is, after what is
 * pending, not copied into the write buffer: a writer of large blobs (a
 * held text's buffer) keeps one copy in memory, not two. Copied, the
 * blobs of two held texts grew the buffers to 2 MiB each, and on a
 * virtual machine the first touch of each of their pages cost more than
 * the writes (a fifth of the CPU of a dump of 3,600 summary tables).
 */
#define SPILL_DIRECT_MIN ((size_t)64 << 10)

struct spill {
	int fd;                /* -1 until opened */
	uint64_t flushed;      /* bytes already in the file */
	struct strbuf pending; /* appended, not yet written */
};

/*
 * The folder temporary files go in: $TMPDIR when set and not empty, else
 * /tmp. Every temporary file iotally makes is made by temp_file_open().
 */
const char *temp_dir(void);
/*
 * A new, already unlinked file "<temp_dir()>/iotally-<stem>.XXXXXX", open
 * for reading and writing: its fd, or -1 with errno set.
 */
int temp_file_open(const char *stem);
/*
 * Output held back to be written after what comes later (a Markdown diff's
 * Summary line goes first): an unlinked temporary file as a stream, or
 * NULL with DIAG_IOERR. temp_stream_copy() writes what it holds to `out`
 * and closes it: 0, or -1 with DIAG_IOERR.
 */
FILE *temp_stream_open(const char *stem, struct diag *err);
int temp_stream_copy(FILE *held, FILE *out, struct diag *err);

void spill_init(struct spill *s);
/* 0, or -1 with DIAG_IOERR in *err (no temporary file could be made). */
int spill_open(struct spill *s, struct diag *err);
/*
 * Append n bytes; *off gets their offset. 0, or -1 with DIAG_IOERR (a full
 * disk): the store is then unusable.
 */
int spill_append(struct spill *s, const void *p, size_t n, uint64_t *off, struct diag *err);
/*
 * Read back n bytes at off into p (bytes still in the write buffer are
 * copied from it). 0, or -1 with DIAG_IOERR.
 */
int spill_read(const struct spill *s, uint64_t off, void *p, size_t n, struct diag *err);
void spill_release(struct spill *s);

#endif
