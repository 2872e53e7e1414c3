#include "util/outfile.h"

#include "util/strbuf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int
outfile_open(struct outfile *f, const char *path, struct diag *err)
{
	struct strbuf sb = STRBUF_INIT;
	memset(f, 0, sizeof(*f));
	strbuf_addf(&sb, "%s.XXXXXX", path);
	int fd = mkstemp(sb.buf);
	if (fd < 0) {
		int e = errno;
		strbuf_release(&sb);
		return diag_set(err, DIAG_IOERR, path, 0, 0, "cannot create a file beside it: %s",
				strerror(e));
	}
	/* mkstemp makes 0600; an output file gets the usual mode. */
	mode_t mask = umask(0);
	umask(mask);
	(void)fchmod(fd, 0666 & ~mask);
	f->fp = fdopen(fd, "w");
	if (!f->fp) {
		int e = errno;
		close(fd);
		unlink(sb.buf);
		strbuf_release(&sb);
		return diag_set(err, DIAG_IOERR, path, 0, 0, "cannot write: %s", strerror(e));
	}
	f->tmp = strbuf_detach(&sb, NULL);
	f->path = strdup(path);
	return 0;
}

int
outfile_commit(struct outfile *f, struct diag *err)
{
	int e = 0;
	if (fflush(f->fp) != 0 || ferror(f->fp))
		e = errno ? errno : EIO;
	else if (fsync(fileno(f->fp)) != 0 && errno != EINVAL)
		e = errno;
	if (fclose(f->fp) != 0 && !e)
		e = errno ? errno : EIO;
	f->fp = NULL;
	if (!e && rename(f->tmp, f->path) != 0)
		e = errno;
	if (e) {
		diag_set(err, DIAG_IOERR, f->path, 0, 0, "cannot write: %s", strerror(e));
		outfile_abort(f);
		return -1;
	}
	free(f->tmp);
	free(f->path);
	f->tmp = f->path = NULL;
	return 0;
}

void
outfile_abort(struct outfile *f)
{
	if (f->fp)
		fclose(f->fp);
	if (f->tmp)
		unlink(f->tmp);
	free(f->tmp);
	free(f->path);
	memset(f, 0, sizeof(*f));
}
