#include "util/tempfile.h"

#include "util/cleanup.h"
#include "util/strbuf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* "DIR/.BASE.TAG-XXXXXX" for `path` with its trailing slashes dropped. */
static char *
template_beside(const char *path, const char *tag)
{
	size_t len = strlen(path);
	while (len > 1 && path[len - 1] == '/')
		len--;
	const char *slash = NULL;   /* the last '/' before `len` (memrchr is not POSIX) */
	for (size_t i = len; i > 0 && !slash; i--)
		if (path[i - 1] == '/')
			slash = path + i - 1;
	struct strbuf sb = STRBUF_INIT;
	if (slash)
		strbuf_add(&sb, path, (size_t)(slash - path) + 1);
	const char *base = slash ? slash + 1 : path;
	strbuf_addch(&sb, '.');
	strbuf_add(&sb, base, len - (size_t)(base - path));
	if (tag && *tag)
		strbuf_addf(&sb, ".%s-XXXXXX", tag);
	else
		strbuf_addstr(&sb, ".XXXXXX");
	return strbuf_detach(&sb, NULL);
}

int
tempfile_beside(const char *path, const char *tag, char **tmp)
{
	char *t = template_beside(path, tag);
	/* Registered before a signal can come between its making and its registration. */
	cleanup_hold();
	int fd = mkstemp(t);
	int e = errno;
	if (fd >= 0)
		cleanup_add_file(t);
	cleanup_release();
	if (fd < 0) {
		free(t);
		*tmp = NULL;
		errno = e;
		return -1;
	}
	*tmp = t;
	return fd;
}

char *
tempdir_beside(const char *path, const char *tag)
{
	char *t = template_beside(path, tag);
	cleanup_hold();
	char *made = mkdtemp(t);
	int e = errno;
	if (made)
		cleanup_add_dir(t);
	cleanup_release();
	if (!made) {
		free(t);
		errno = e;
		return NULL;
	}
	return t;
}
