#include "util/beneath.h"

#include "util/strbuf.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif

const char *
beneath_kind_name(mode_t mode)
{
	return S_ISLNK(mode)    ? "a symbolic link"
	       : S_ISDIR(mode)  ? "a folder"
	       : S_ISFIFO(mode) ? "a named pipe"
	       : S_ISSOCK(mode) ? "a socket"
	       : S_ISREG(mode)  ? "a file"
				: "a device";
}

static int
refuse_kind(mode_t mode, const char *via, const char *shown, struct diag *err)
{
	const char *what = beneath_kind_name(mode);
	if (via)
		return diag_set(err, DIAG_DATA, shown, 0, 0,
				"is not read: the folder '%s' on its way is %s (a bundle's captures "
				"are read only from regular files inside it)", via, what);
	return diag_set(err, DIAG_DATA, shown, 0, 0,
			"is %s, not a file: a bundle's captures are read only from regular "
			"files inside it", what);
}

/* Why openat() failed on one component: a link (O_NOFOLLOW) or the system's reason. */
static int
open_failed(int dfd, const char *name, bool folder, const char *shown, struct diag *err)
{
	int e = errno;
	struct stat st;
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    (S_ISLNK(st.st_mode) || (e == ENOTDIR && !S_ISDIR(st.st_mode))))
		return refuse_kind(st.st_mode, folder ? name : NULL, shown, err);
	return diag_set(err, e == ENOENT || e == EACCES || e == ENOTDIR ? DIAG_NOINPUT : DIAG_DATA,
			shown, 0, 0, "cannot open: %s", strerror(e));
}

int
open_beneath(const char *root, const char *rel, const char *shown, struct diag *err)
{
	int dfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return diag_set(err, DIAG_NOINPUT, shown, 0, 0, "cannot open its bundle folder: %s",
				strerror(errno));
	struct strbuf name = STRBUF_INIT;
	const char *p = rel;
	int fd = -1;
	for (;;) {
		const char *slash = strchr(p, '/');
		strbuf_reset(&name);
		strbuf_add(&name, p, slash ? (size_t)(slash - p) : strlen(p));
		if (!slash)
			break;
		int sub = openat(dfd, name.buf, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0) {
			open_failed(dfd, name.buf, true, shown, err);
			goto out;
		}
		close(dfd);
		dfd = sub;
		p = slash + 1;
	}
	fd = openat(dfd, name.buf, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		open_failed(dfd, name.buf, false, shown, err);
		goto out;
	}
	struct stat st;
	bool stated = fstat(fd, &st) == 0;
	if (!stated || !S_ISREG(st.st_mode)) {
		if (!stated)
			diag_set(err, DIAG_NOINPUT, shown, 0, 0, "cannot open: %s", strerror(errno));
		else
			refuse_kind(st.st_mode, NULL, shown, err);
		close(fd);
		fd = -1;
		goto out;
	}
	int flags = fcntl(fd, F_GETFL);
	if (flags >= 0)
		(void)fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
out:
	close(dfd);
	strbuf_release(&name);
	return fd;
}
