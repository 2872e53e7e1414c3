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

#endif
