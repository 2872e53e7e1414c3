/*
 * libarchive's functions that iotally calls (util/arcread.c,
 * capture/files.c), loaded on first use: util/lazylib.h. A function added
 * to those files needs its line here, or the binary does not link.
 */
#include "util/lazylib.h"

#include <archive.h>
#include <archive_entry.h>

#define IMPORT(ret, name, params, args) \
	LAZYLIB_IMPORT(lazylib_libarchive, ret, name, params, args)
#define IMPORT_VOID(name, params, args) \
	LAZYLIB_IMPORT_VOID(lazylib_libarchive, name, params, args)

/* Reading tar and tar.gz (util/arcread.c). */
IMPORT(struct archive *, archive_read_new, (void), ())
IMPORT(int, archive_read_support_filter_gzip, (struct archive *a), (a))
IMPORT(int, archive_read_support_filter_none, (struct archive *a), (a))
IMPORT(int, archive_read_support_format_tar, (struct archive *a), (a))
IMPORT(int, archive_read_support_format_gnutar, (struct archive *a), (a))
IMPORT(int, archive_read_open_filename, (struct archive *a, const char *filename, size_t block),
       (a, filename, block))
IMPORT(int, archive_read_next_header, (struct archive *a, struct archive_entry **entry),
       (a, entry))
IMPORT(la_ssize_t, archive_read_data, (struct archive *a, void *buf, size_t size),
       (a, buf, size))
IMPORT(int, archive_read_free, (struct archive *a), (a))
IMPORT(__LA_MODE_T, archive_entry_filetype, (struct archive_entry *e), (e))
IMPORT(const char *, archive_entry_pathname, (struct archive_entry *e), (e))
IMPORT(const char *, archive_entry_hardlink, (struct archive_entry *e), (e))

/* Either direction. */
IMPORT(int, archive_errno, (struct archive *a), (a))
IMPORT(const char *, archive_error_string, (struct archive *a), (a))

/* Writing tar.gz (capture/files.c). */
IMPORT(struct archive *, archive_write_new, (void), ())
IMPORT(int, archive_write_add_filter_gzip, (struct archive *a), (a))
IMPORT(int, archive_write_set_format_pax_restricted, (struct archive *a), (a))
IMPORT(int, archive_write_open_fd, (struct archive *a, int fd), (a, fd))
IMPORT(int, archive_write_header, (struct archive *a, struct archive_entry *e), (a, e))
IMPORT(la_ssize_t, archive_write_data, (struct archive *a, const void *buf, size_t size),
       (a, buf, size))
IMPORT(int, archive_write_close, (struct archive *a), (a))
IMPORT(int, archive_write_free, (struct archive *a), (a))
IMPORT(struct archive_entry *, archive_entry_new, (void), ())
IMPORT_VOID(archive_entry_free, (struct archive_entry *e), (e))
IMPORT_VOID(archive_entry_set_pathname, (struct archive_entry *e, const char *name), (e, name))
IMPORT_VOID(archive_entry_set_filetype, (struct archive_entry *e, unsigned int type), (e, type))
IMPORT_VOID(archive_entry_set_perm, (struct archive_entry *e, __LA_MODE_T perm), (e, perm))
IMPORT_VOID(archive_entry_set_size, (struct archive_entry *e, la_int64_t size), (e, size))
IMPORT_VOID(archive_entry_set_mtime, (struct archive_entry *e, time_t sec, long nsec),
	    (e, sec, nsec))
