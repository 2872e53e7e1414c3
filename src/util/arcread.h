#ifndef IOTALLY_UTIL_ARCREAD_H
#define IOTALLY_UTIL_ARCREAD_H

/*
 * Reading compressed and archived inputs (library types stay in
 * arcread.c): a gzip stream read as plain bytes (zlib, which verifies each
 * member's CRC-32 and length), and one member of a tar or tar.gz file
 * (libarchive). A `struct arc_reader` is owned by whoever opened
 * it and freed with arc_reader_free(); it never prints.
 *
 * An archive is read from its start once per process, however many of
 * its members are read and in whatever order: the first reader copies its
 * files into an unlinked temporary file, bounded as `redact` bounds an
 * archive's expansion, and later readers read the copy (arcread.c says
 * more). Readers on several threads are safe.
 *
 * Errors: an archive that cannot be decoded (corrupt, truncated) is
 * DIAG_DATA; a file that cannot be opened, or a member that is not in the
 * archive, is DIAG_NOINPUT. `path` arguments are borrowed for the
 * reader's lifetime (they name the input in messages).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/diag.h"

struct arc_reader;

/* The two bytes every gzip member starts with. */
bool arc_is_gzip(const void *p, size_t n);

/*
 * A gzip stream read from `fd` (not closed by the reader), of which the
 * first `prefix_len` bytes were already read into `prefix` (copied).
 */
struct arc_reader *arc_reader_gunzip_fd(int fd, const void *prefix, size_t prefix_len,
					const char *path, struct diag *err);

/*
 * The regular file `member` of the tar or tar.gz file `archive_path`,
 * names compared in their normal form (util/member_name.h: "./b//x" is
 * "b/x"). NULL with DIAG_NOINPUT when it is not there, DIAG_DATA when
 * `member` breaks the name rule.
 */
struct arc_reader *arc_reader_member(const char *archive_path, const char *member,
				     struct diag *err);

/* Up to `n` decoded bytes: > 0 read, 0 end of data, -1 error in *err. */
ssize_t arc_reader_read(struct arc_reader *a, void *buf, size_t n, struct diag *err);

void arc_reader_free(struct arc_reader *a);

/*
 * Call `fn` for every regular file of the tar or tar.gz `archive_path`, in
 * archive order, with its name in normal form (util/member_name.h) and a
 * reader positioned at its data (valid only during the call). `fn` returns
 * 0 to go on or -1 to stop (its error in *err). 0 or -1; a member whose
 * name the rule refuses (absolute, "..", a second spelling of a name seen
 * before, a file that is also a folder) stops the walk with DIAG_DATA, and
 * so does a member that is neither a file nor a folder (a symbolic or hard
 * link, a pipe, a device): a bundle holds only files and folders.
 */
typedef int (*arc_member_fn)(void *ctx, const char *name, struct arc_reader *data,
			     struct diag *err);
int arc_for_each_member(const char *archive_path, arc_member_fn fn, void *ctx,
			struct diag *err);
/*
 * The same, and when it stops with DIAG_DATA, *refused tells a member the
 * rule refuses (a name or a link: the archive is read fine, and the member
 * is the defect) from an archive that cannot be decoded.
 */
int arc_scan_members(const char *archive_path, arc_member_fn fn, void *ctx, bool *refused,
		     struct diag *err);

/*
 * Forget the archives read so far: the next reader of one reads it again.
 * An archive is known again by its path, device, inode, size and time of
 * change, so a program that rewrites one in place at the same size within
 * a clock tick (a fuzzing harness) calls this between the two.
 */
void arc_index_forget(void);

/*
 * Does `path` look like a tar archive (plain or gzip-compressed)? Reads the
 * start of a regular file; a pipe or device is not read (it is not one).
 */
bool arc_is_tar_file(const char *path);

#endif
