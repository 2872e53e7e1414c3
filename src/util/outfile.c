#include "util/outfile.h"

#include "util/cleanup.h"
#include "util/tempfile.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Temporary files neither committed nor aborted yet: removed if the program exits first. */
static struct outfile *pending;

static void
remove_pending(void)
{
	for (struct outfile *o = pending; o; o = o->next_pending)
		unlink(o->tmp);
}

static void
pending_add(struct outfile *o)
{
	static bool registered;
	if (!registered)
		registered = atexit(remove_pending) == 0;
	o->next_pending = pending;
	pending = o;
}

static void
pending_remove(struct outfile *o)
{
	for (struct outfile **p = &pending; *p; p = &(*p)->next_pending) {
		if (*p == o) {
			*p = o->next_pending;
			break;
		}
	}
}

static void
outfile_clear(struct outfile *o)
{
	pending_remove(o);
	/* Renamed into place or removed by now: a signal has nothing left to remove. */
	if (o->tmp)
		cleanup_forget(o->tmp);
	free(o->path);
	free(o->tmp);
	o->path = o->tmp = NULL;
	o->fp = NULL;
	o->in_place = false;
}

/* A device or a pipe (/dev/null, /dev/fd/3): nothing to replace, written as it is. */
static int
open_in_place(struct outfile *o, const char *path, struct diag *err)
{
	o->fp = fopen(path, "w");
	if (!o->fp) {
		int e = errno;
		outfile_clear(o);
		return diag_set(err, DIAG_IOERR, path, 0, 0, "cannot be written: %s", strerror(e));
	}
	o->in_place = true;
	return 0;
}

int
outfile_open(struct outfile *o, const char *path, struct diag *err)
{
	memset(o, 0, sizeof(*o));
	o->path = xstrdup(path);
	if (strcmp(path, "-") == 0) {
		o->fp = stdout;
		return 0;
	}
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return open_in_place(o, path, err);
	int fd = tempfile_beside(path, NULL, &o->tmp);
	if (fd < 0) {
		int e = errno;
		outfile_clear(o);
		return diag_set(err, DIAG_IOERR, path, 0, 0, "cannot be written: %s", strerror(e));
	}
	mode_t mask = umask(0);   /* mkstemp makes 0600: give the file the usual mode */
	umask(mask);
	(void)fchmod(fd, 0666 & ~mask);
	o->fp = fdopen(fd, "w");
	if (!o->fp) {
		int e = errno;
		close(fd);
		unlink(o->tmp);
		outfile_clear(o);
		return diag_set(err, DIAG_IOERR, path, 0, 0, "cannot be written: %s", strerror(e));
	}
	pending_add(o);
	return 0;
}

int
outfile_commit(struct outfile *o, struct diag *err)
{
	int rc = 0;
	if (!o->tmp) {
		errno = 0;
		bool ok = fflush(o->fp) == 0 && !ferror(o->fp);
		int e = errno;
		if (o->in_place) {
			ok &= fclose(o->fp) == 0;
			e = e ? e : errno;
		}
		if (!ok)
			rc = diag_set(err, DIAG_IOERR, o->in_place ? o->path : NULL, 0, 0, "%s: %s",
				      o->in_place ? "cannot be written" : "cannot write standard output",
				      e ? strerror(e) : "write error");
		outfile_clear(o);
		return rc;
	}
	bool ok = fflush(o->fp) == 0 && !ferror(o->fp);
	ok &= fclose(o->fp) == 0;
	int e = errno;
	if (ok && rename(o->tmp, o->path) == 0) {
		outfile_clear(o);
		return 0;
	}
	if (ok)
		e = errno;
	unlink(o->tmp);
	rc = diag_set(err, DIAG_IOERR, o->path, 0, 0, "cannot be written: %s", strerror(e));
	outfile_clear(o);
	return rc;
}

void
outfile_abort(struct outfile *o)
{
	if (o->tmp) {
		fclose(o->fp);
		unlink(o->tmp);
	} else if (o->in_place) {
		fclose(o->fp);
	}
	outfile_clear(o);
}

int
outfile_write(const char *path, outfile_write_fn write, const void *ctx, struct diag *err)
{
	struct outfile o;
	diag_clear(err);
	if (!path) {
		if (write(stdout, ctx, err) == 0)
			return 0;
		return err->code ? -1 : diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot write output");
	}
	if (outfile_open(&o, path, err) < 0)
		return -1;
	if (write(o.fp, ctx, err) < 0) {
		if (!err->code)
			diag_set(err, DIAG_IOERR, path, 0, 0, "cannot write");
		else
			diag_set_path_if_unset(err, path);
		outfile_abort(&o);
		return -1;
	}
	return outfile_commit(&o, err);
}
