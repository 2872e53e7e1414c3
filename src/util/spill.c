#include "util/spill.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/xalloc.h"

/* Appends are gathered into writes of about this size. */
#define SPILL_WRITE_CHUNK ((size_t)1 << 20)

void
spill_init(struct spill *s)
{
	s->fd = -1;
	s->flushed = 0;
	strbuf_init(&s->pending);
}

const char *
temp_dir(void)
{
	const char *dir = getenv("TMPDIR");
	return dir && *dir ? dir : "/tmp";
}

int
temp_file_open(const char *stem)
{
	struct strbuf path = STRBUF_INIT;
	strbuf_addf(&path, "%s/iotally-%s.XXXXXX", temp_dir(), stem);
	int fd = mkstemp(path.buf);
	int saved = errno;
	if (fd >= 0)
		unlink(path.buf);
	strbuf_release(&path);
	errno = saved;
	return fd;
}

int
spill_open(struct spill *s, struct diag *err)
{
	s->fd = temp_file_open("spill");
	if (s->fd < 0)
		return diag_set(err, DIAG_IOERR, NULL, 0, 0,
				"cannot create a temporary file in '%s' (set TMPDIR to a writable "
				"folder): %s", temp_dir(), strerror(errno));
	return 0;
}

static int
write_all(int fd, const char *p, size_t n, struct diag *err)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return diag_set(err, DIAG_IOERR, NULL, 0, 0,
					"cannot write a temporary file in '%s': %s", temp_dir(),
					w < 0 ? strerror(errno) : "no space written");
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static int
flush_pending(struct spill *s, struct diag *err)
{
	if (s->pending.len == 0)
		return 0;
	if (write_all(s->fd, s->pending.buf, s->pending.len, err) < 0)
		return -1;
	s->flushed += s->pending.len;
	strbuf_reset(&s->pending);
	return 0;
}

int
spill_append(struct spill *s, const void *p, size_t n, uint64_t *off, struct diag *err)
{
	*off = s->flushed + s->pending.len;
	if (n >= SPILL_DIRECT_MIN) {
		if (flush_pending(s, err) < 0 || write_all(s->fd, p, n, err) < 0)
			return -1;
		s->flushed += n;
		return 0;
	}
	strbuf_add(&s->pending, p, n);
	if (s->pending.len >= SPILL_WRITE_CHUNK)
		return flush_pending(s, err);
	return 0;
}

int
spill_read(const struct spill *s, uint64_t off, void *p, size_t n, struct diag *err)
{
	char *q = p;
	if (off + n > s->flushed) {
		/* The tail (or all) of the blob is still in the write buffer. */
		uint64_t from = off > s->flushed ? off : s->flushed;
		size_t tail = (size_t)(off + n - from);
		if (from - s->flushed + tail > s->pending.len)
			return diag_set(err, DIAG_SOFTWARE, NULL, 0, 0,
					"read past the end of a temporary file");
		memcpy(q + (from - off), s->pending.buf + (from - s->flushed), tail);
		n -= tail;
	}
	while (n > 0) {
		ssize_t r = pread(s->fd, q, n, (off_t)off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return diag_set(err, DIAG_IOERR, NULL, 0, 0,
					"cannot read back a temporary file: %s",
					r < 0 ? strerror(errno) : "it is shorter than what was written");
		q += r;
		n -= (size_t)r;
		off += (uint64_t)r;
	}
	return 0;
}

void
spill_release(struct spill *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	s->flushed = 0;
	strbuf_release(&s->pending);
}

FILE *
temp_stream_open(const char *stem, struct diag *err)
{
	int fd = temp_file_open(stem);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w+");
	if (!f) {
		if (fd >= 0)
			close(fd);
		diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot make a temporary file in %s: %s",
			 temp_dir(), strerror(errno));
	}
	return f;
}

int
temp_stream_copy(FILE *held, FILE *out, struct diag *err)
{
	char buf[65536];
	size_t n;
	int rc = 0;
	if (fflush(held) != 0 || fseek(held, 0, SEEK_SET) != 0)
		rc = -1;
	while (rc == 0 && (n = fread(buf, 1, sizeof(buf), held)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			rc = -1;
	if (rc == 0 && ferror(held))
		rc = -1;
	fclose(held);
	if (rc < 0)
		return diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot write output");
	return 0;
}
