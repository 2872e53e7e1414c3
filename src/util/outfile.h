#ifndef IOTALLY_UTIL_OUTFILE_H
#define IOTALLY_UTIL_OUTFILE_H

/*
 * An output file written atomically: the bytes go to a temporary file in
 * the same directory ("DIR/.NAME.XXXXXX"), which outfile_commit() renames
 * over PATH, so a reader sees the old file or the whole new one, never a
 * part, and a failed run leaves no half-written file. A path that exists
 * and is not a regular file (/dev/null, /dev/fd/3, a named pipe) has
 * nothing to replace and is written in place: renaming over it would put a
 * regular file where a device was. The path "-" is standard output,
 * written directly (commit flushes it, and leaves it open).
 *
 * outfile_commit() or outfile_abort() ends every opened outfile. A
 * temporary file still open when the program exits (a library that cannot
 * be loaded stops it: util/lazylib.h) is removed by an atexit handler, and
 * one still open on SIGINT, SIGTERM or SIGHUP by util/cleanup.h.
 */

#include <stdbool.h>
#include <stdio.h>

#include "util/diag.h"

struct outfile {
	FILE *fp;            /* write here */
	char *path;          /* owned */
	char *tmp;           /* owned; NULL for standard output or in place */
	bool in_place;       /* opened directly: not a regular file */
	struct outfile *next_pending;  /* the list of open temporary files */
};

/* 0 with o->fp open, or -1 with DIAG_IOERR in *err (the directory is not writable). */
int outfile_open(struct outfile *o, const char *path, struct diag *err);
/* Flush, close and rename into place. 0, or -1 with DIAG_IOERR; the temp file is removed. */
int outfile_commit(struct outfile *o, struct diag *err);
/* Drop what was written (the temporary file is removed). */
void outfile_abort(struct outfile *o);

/* Writes an output to `out`: 0, or -1 (with *err set when it knows why). */
typedef int (*outfile_write_fn)(FILE *out, const void *ctx, struct diag *err);

/*
 * The one way a command writes an output file (`report -o`, `--junit`):
 * `write` into PATH replaced whole (opened, committed or aborted as above;
 * "-" is standard output), or into standard output when PATH is NULL. 0,
 * or -1 with *err (DIAG_IOERR naming PATH when the writer did not say
 * more).
 */
int outfile_write(const char *path, outfile_write_fn write, const void *ctx, struct diag *err);

#endif
