/* syncfs() is Linux's (glibc declares it for _GNU_SOURCE); elsewhere sync(). */
#ifdef __linux__
#define _GNU_SOURCE 1
#else
#define _DEFAULT_SOURCE 1
#define _DARWIN_C_SOURCE 1
#endif

#include "capture/files.h"

#include "capture/capture.h"
#include "util/cleanup.h"
#include "util/strbuf.h"
#include "util/tempfile.h"
#include "util/xalloc.h"

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

char *
capfile_path_in(const char *dir, const char *rel)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s/%s", dir, rel);
	return strbuf_detach(&sb, NULL);
}

/* mkdir -p for the folders of `rel` under dir. */
int
capfile_make_parents(const char *dir, const char *rel)
{
	char *p = capfile_path_in(dir, rel);
	size_t skip = strlen(dir) + 1;
	for (char *s = p + skip; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		cleanup_hold();
		int made = mkdir(p, 0755);
		int e = errno;
		if (made == 0)
			cleanup_add_dir(p);
		cleanup_release();
		if (made < 0 && e != EEXIST) {
			free(p);
			errno = e;
			return -1;
		}
		*s = '/';
	}
	free(p);
	return 0;
}

int
capfile_write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int
capfile_open_out(const char *dir, const char *rel)
{
	if (capfile_make_parents(dir, rel) < 0)
		return -1;
	char *p = capfile_path_in(dir, rel);
	cleanup_hold();
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int e = errno;
	if (fd >= 0)
		cleanup_add_file(p);
	cleanup_release();
	free(p);
	errno = e;
	return fd;
}

/* A file's bytes into the archive's current entry, a buffer at a time. */
static int
archive_copy_file(struct archive *a, const char *path)
{
	int fd = open(path, O_RDONLY);
	char buf[1 << 16];
	ssize_t n;
	int rc = 0;
	if (fd < 0)
		return -1;
	while (rc == 0 && (n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || archive_write_data(a, buf, (size_t)n) < 0)
			rc = -1;
	}
	close(fd);
	return rc;
}

static int
remove_tree(const char *path)
{
	struct stat st;
	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlink(path);
	DIR *d = opendir(path);
	if (!d)
		return -1;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		char *sub = capfile_path_in(path, e->d_name);
		remove_tree(sub);
		free(sub);
	}
	closedir(d);
	return rmdir(path);
}

int
capfile_remove_tree(const char *path)
{
	/* Registered until gone, so a signal meanwhile finishes the job; then one forget for the tree. */
	int rc = remove_tree(path);
	cleanup_forget(path);
	return rc;
}

int
capfile_write_bytes(const char *path, const char *p, size_t n, struct diag *err)
{
	/* Exclusive and unpredictable (util/tempfile.h), registered for the signals. */
	char *tmp = NULL;
	int fd = tempfile_beside(path, "write", &tmp);
	if (fd < 0)
		return diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot write '%s': %s", path,
				strerror(errno));
	(void)fchmod(fd, 0644);   /* a manifest or an index: readable like the outputs */
	int rc = -1;
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			break;
		p += w;
		n -= (size_t)w;
	}
	if (n == 0 && fsync(fd) == 0 && close(fd) == 0) {
		fd = -1;
		rc = rename(tmp, path);
	}
	if (rc < 0) {
		int e = errno;
		diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot write '%s': %s", path, strerror(e));
		if (fd >= 0)
			close(fd);
		unlink(tmp);
	}
	cleanup_forget(tmp);
	free(tmp);
	return rc;
}

char *
capfile_temp_beside(const char *dir, struct diag *err)
{
	char *t = tempdir_beside(dir, "partial");
	if (!t) {
		int e = errno;
		diag_set(err, e == ENOSPC ? DIAG_IOERR : CAPTURE_EXIT_CANTCREAT, NULL, 0, 0,
			 "cannot create '%s' (its temporary folder beside it): %s", dir,
			 strerror(e));
	}
	return t;
}

static int
compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
capfile_archive_add_tree(struct archive *a, const char *root, const char *rel, const char *prefix)
{
	char *full = rel[0] ? capfile_path_in(root, rel) : xstrdup(root);
	DIR *d = opendir(full);
	int rc = 0;
	if (!d) {
		free(full);
		return -1;
	}
	char **names = NULL;
	size_t n = 0, alloc = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		names = xgrow(names, &alloc, n + 1, sizeof(*names));
		names[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	/* Sorted, so the archive's order does not depend on the file system. */
	if (n)
		qsort(names, n, sizeof(*names), compare_names);
	for (size_t i = 0; i < n && rc == 0; i++) {
		char *sub = rel[0] ? capfile_path_in(rel, names[i]) : xstrdup(names[i]);
		char *path = capfile_path_in(root, sub);
		char *member = prefix[0] ? capfile_path_in(prefix, sub) : xstrdup(sub);
		struct stat st;
		if (lstat(path, &st) < 0) {
			rc = -1;
		} else if (S_ISDIR(st.st_mode)) {
			rc = capfile_archive_add_tree(a, root, sub, prefix);
		} else if (S_ISREG(st.st_mode)) {
			struct archive_entry *en = archive_entry_new();
			archive_entry_set_pathname(en, member);
			archive_entry_set_size(en, st.st_size);
			archive_entry_set_filetype(en, AE_IFREG);
			archive_entry_set_perm(en, 0644);
			archive_entry_set_mtime(en, st.st_mtime, 0);
			if (archive_write_header(a, en) != ARCHIVE_OK) {
				rc = -1;
			} else {
				rc = archive_copy_file(a, path);
			}
			archive_entry_free(en);
		}
		free(sub);
		free(path);
		free(member);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(full);
	return rc;
}

int
capfile_sync_tree(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
#ifdef __linux__
	int rc = syncfs(fd);
#else
	int rc = 0;
	sync();
#endif
	int e = errno;
	close(fd);
	errno = e;
	return rc;
}

char *
capfile_write_archive(const char *dir, const char *prefix, const char *beside, struct diag *err)
{
	char *tmp;
	int fd = tempfile_beside(beside, "partial", &tmp);
	if (fd < 0) {
		diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot write the archive '%s': %s", beside,
			 strerror(errno));
		return NULL;
	}
	struct archive *a = archive_write_new();
	archive_write_add_filter_gzip(a);
	archive_write_set_format_pax_restricted(a);
	int rc = -1;
	if (archive_write_open_fd(a, fd) == ARCHIVE_OK &&
	    capfile_archive_add_tree(a, dir, "", prefix) == 0 && archive_write_close(a) == ARCHIVE_OK)
		rc = 0;
	if (rc < 0) {
		const char *why = archive_error_string(a);
		diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot write the archive '%s': %s", beside,
			 why ? why : strerror(errno));
	}
	archive_write_free(a);
	/* The one sync of the archive: the files it was made from are scratch, never synced. */
	if (rc == 0 && fsync(fd) < 0) {
		diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot write the archive '%s': %s", beside,
			 strerror(errno));
		rc = -1;
	}
	if (close(fd) < 0 && rc == 0) {
		diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot write the archive '%s': %s", beside,
			 strerror(errno));
		rc = -1;
	}
	if (rc < 0) {
		unlink(tmp);
		cleanup_forget(tmp);
		free(tmp);
		return NULL;
	}
	return tmp;
}

char *
capfile_default_dir(const char *what, int64_t pid, const char *target_name, const char *suffix)
{
	char now[32];
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(now, sizeof(now), "%Y%m%dT%H%M%SZ", &tm);
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "iotally-%s", now);
	if (what)
		strbuf_addf(&sb, "-%s", what);
	if (pid >= 0) {
		strbuf_addch(&sb, '-');
		for (const char *p = target_name ? target_name : "process"; *p; p++) {
			char c = *p;
			bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
				    (c >= '0' && c <= '9') || c == '-' || c == '_';
			strbuf_addch(&sb, keep ? c : '_');
		}
		strbuf_addf(&sb, "-%lld", (long long)pid);
	} else if (!what) {
		strbuf_addstr(&sb, "-system");
	}
	if (suffix)
		strbuf_addf(&sb, "-%s", suffix);
	return strbuf_detach(&sb, NULL);
}

char *
capfile_output_dir(const char *given)
{
	size_t len = strlen(given);
	while (len > 1 && given[len - 1] == '/')
		len--;
	return xmemdup0(given, len);
}

int
capfile_publish(char **tmp, const char *dir, const char *what, const char *kept_line,
		struct diag *err)
{
	struct stat st;
	int rc = 0;
	cleanup_hold();
	if (lstat(dir, &st) == 0 || rename(*tmp, dir) < 0) {
		int e = errno;
		rc = diag_set(err, CAPTURE_EXIT_CANTCREAT, NULL, 0, 0,
			      "cannot put the %s '%s' in place: %s", what, dir,
			      lstat(dir, &st) == 0 ? "it exists now" : strerror(e));
	} else {
		cleanup_forget(*tmp);
		free(*tmp);
		*tmp = NULL;
		if (kept_line)
			cleanup_set_message(kept_line);
	}
	cleanup_release();
	return rc;
}
