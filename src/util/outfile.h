#ifndef IOTALLY_UTIL_OUTFILE_H
#define IOTALLY_UTIL_OUTFILE_H

/*
 * An output file written whole or not at all: the bytes go to a temporary
 * file beside PATH ("PATH.XXXXXX", same directory, so the rename cannot
 * cross file systems), which outfile_commit() flushes, syncs and renames
 * over PATH. A reader of PATH sees the old file or the complete new one,
 * never a part; on any error the temporary file is removed.
 */

#include <stdio.h>

#include "util/diag.h"

struct outfile {
	FILE *fp;          /* write here */
	char *path;        /* the destination */
	char *tmp;         /* the temporary file */
};

/* 0, or -1 with DIAG_IOERR when the temporary file cannot be made. */
int outfile_open(struct outfile *f, const char *path, struct diag *err);
/* Flush, sync, close and rename. 0, or -1 with DIAG_IOERR (the temporary file removed). */
int outfile_commit(struct outfile *f, struct diag *err);
/* Close and remove the temporary file (after an error). Safe to call twice. */
void outfile_abort(struct outfile *f);

#endif
