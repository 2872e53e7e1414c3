#ifndef IOTALLY_CAPTURE_FILES_H
#define IOTALLY_CAPTURE_FILES_H

/*
 * Files of the bundles capture/ writes (`iotally capture`, `iotally
 * redact`): paths inside a bundle, a temporary folder beside its final
 * name, whole-file writes (temporary file, fsync, rename) and the
 * .tar.gz of a folder (libarchive). POSIX only.
 */

#include <stddef.h>
#include <stdint.h>

#include "util/diag.h"
#include "util/strbuf.h"

/* "DIR/REL", owned by the caller. */
char *capfile_path_in(const char *dir, const char *rel);
/* mkdir -p for the folders of `rel` under `dir`: 0 or -1 (errno). */
int capfile_make_parents(const char *dir, const char *rel);
/* All `n` bytes to `fd`, retried on EINTR and short writes: 0, or -1 with errno set. */
int capfile_write_all(int fd, const char *p, size_t n);
/* DIR/REL opened for writing (created, truncated), its folders made: a descriptor or -1. */
int capfile_open_out(const char *dir, const char *rel);
/*
 * What was written under `dir` made durable in one call (the file system
 * it is on synced: syncfs() on Linux, else sync()), not one fsync() a
 * file: 100,000 small files synced one by one took 379 s. 0, or -1 with
 * errno set.
 */
int capfile_sync_tree(const char *dir);
/* rm -r: 0 or -1. */
int capfile_remove_tree(const char *path);
/* `path` replaced by the bytes (a new ".NAME.write-XXXXXX" beside it, fsynced, renamed): 0 or -1 with DIAG_IOERR. */
int capfile_write_bytes(const char *path, const char *p, size_t n, struct diag *err);
/*
 * A new folder ".NAME.partial-XXXXXX" beside `dir` (mkdtemp), owned by the
 * caller, or NULL with 73 (74 for a full disk) in *err.
 */
char *capfile_temp_beside(const char *dir, struct diag *err);
/*
 * The tar.gz of every file under `dir`, each named PREFIX/RELATIVE-PATH
 * ("" prefix: the relative path), in sorted order, written to a new
 * temporary file beside the path `beside` (util/tempfile.h: exclusive,
 * never through a link). Its name (owned: the caller renames it into
 * place), or NULL with DIAG_IOERR (nothing left behind).
 */
char *capfile_write_archive(const char *dir, const char *prefix, const char *beside,
			    struct diag *err);

/*
 * The default bundle folder name, "iotally-YYYYMMDDTHHMMSSZ" (UTC now),
 * then "-WHAT" when `what` is given, then "-NAME-PID" for a target process
 * (pid >= 0: only [A-Za-z0-9_-] of its name, whatever bytes ps gave,
 * "process" when unknown) or "-system" when `what` is NULL, then "-SUFFIX"
 * when given. Owned by the caller.
 */
char *capfile_default_dir(const char *what, int64_t pid, const char *target_name,
			  const char *suffix);
/*
 * Publish a finished folder: rename *tmp (a private folder beside it) to
 * `dir`, which must not exist, with the signals held so that the signal
 * handler's line is true whichever side of the rename a signal lands on:
 * once renamed, *tmp is forgotten (util/cleanup.h), freed and NULL, and
 * `kept_line` (when given) becomes the handler's line. 0; or -1 with
 * CAPTURE_EXIT_CANTCREAT "cannot put the WHAT 'DIR' in place: ...".
 */
int capfile_publish(char **tmp, const char *dir, const char *what, const char *kept_line,
		    struct diag *err);
/* -o DIR as given, without its trailing slashes ("out/" names "out"; "/" stays). Owned. */
char *capfile_output_dir(const char *given);

#endif
