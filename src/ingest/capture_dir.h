#ifndef IOTALLY_INGEST_CAPTURE_DIR_H
#define IOTALLY_INGEST_CAPTURE_DIR_H

/*
 * The captures a directory holds: a folder a nightly job left, or an
 * unpacked bundle. One function lists them, so whatever else a set of
 * captures may become (a bundle's manifest, an archive) has one place to
 * go.
 *
 * The list is the directory's regular files (symbolic links followed),
 * sorted by name byte for byte, without hidden files (a leading '.').
 * Subdirectories are not read; `nskipped_dirs` counts them and `subdirs`
 * names them, sorted the same way, for a caller that takes capture bundles
 * among them. (A capture bundle lists its captures in its manifest:
 * ingest/bundle.h.)
 */

#include <stdbool.h>
#include <stddef.h>

#include "util/diag.h"

struct capture_dir {
	char **names;            /* owned; relative to the directory */
	size_t n;
	size_t nskipped_dirs;
	char **subdirs;          /* owned; the nskipped_dirs subdirectories */
};

/* Is `path` a directory (symbolic links followed)? */
bool capture_dir_is_dir(const char *path);

/* 0, or -1 with DIAG_NOINPUT when the directory cannot be read. */
int capture_dir_list(const char *dir, struct capture_dir *out, struct diag *err);
void capture_dir_release(struct capture_dir *d);

#endif
