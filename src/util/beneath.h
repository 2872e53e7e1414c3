#ifndef IOTALLY_UTIL_BENEATH_H
#define IOTALLY_UTIL_BENEATH_H

/*
 * Opening a file of a bundle folder by the relative name its manifest
 * records, without leaving the folder: every component is opened with
 * O_NOFOLLOW relative to the one above it (a symbolic link anywhere on the
 * way is refused, not followed out of the bundle), the file itself is
 * opened without blocking (a named pipe never hangs the reader) and must
 * be a regular file (fstat after opening, so it cannot be swapped after a
 * check). The folder named by the user is trusted as given.
 *
 * `rel` must be in normal form (util/member_name.h). Errors name `shown`:
 * a missing file is DIAG_NOINPUT; a link, folder, device or pipe is
 * DIAG_DATA (a bundle holds only files and folders).
 */

#include <sys/types.h>

#include "util/diag.h"

/* A descriptor open for reading (blocking mode), or -1 with *err. */
int open_beneath(const char *root, const char *rel, const char *shown, struct diag *err);

/* What a file of type `mode` is called in messages: "a symbolic link", "a named pipe", ... */
const char *beneath_kind_name(mode_t mode);

#endif
