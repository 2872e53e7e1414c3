#ifndef IOTALLY_UTIL_TEMPFILE_H
#define IOTALLY_UTIL_TEMPFILE_H

/*
 * Named temporary files and folders beside an output, the one way iotally
 * makes them (unnamed scratch files are util/spill.h's temp_file_open()).
 *
 * The name is ".BASE.TAG-XXXXXX" (".BASE.XXXXXX" without a tag) in the
 * output's own folder, so that a rename puts the finished output in place
 * atomically. The six characters are random (mkstemp/mkdtemp) and the
 * file is created with O_CREAT|O_EXCL, which fails on any name that
 * exists, a symbolic link included: nobody who can write the folder can
 * make iotally (run as root by `sudo iotally capture`) write through a
 * link or into a file they prepared. Files are created 0600, folders 0700.
 *
 * What is made here is registered with util/cleanup.h, so SIGINT, SIGTERM
 * or SIGHUP removes it; the caller calls cleanup_forget() once it has
 * renamed it into place or removed it (files it makes inside a temporary
 * folder it registers itself: cleanup_add_file()).
 *
 * Trailing slashes of the output's path are ignored ("-o out/" names the
 * output "out", and the temporary name lands beside it, not inside).
 */

/* A new file: its fd (0600, open for writing) and *tmp (owned), or -1 with errno set. */
int tempfile_beside(const char *path, const char *tag, char **tmp);
/* A new folder (0700): its name (owned), or NULL with errno set. */
char *tempdir_beside(const char *path, const char *tag);

#endif
