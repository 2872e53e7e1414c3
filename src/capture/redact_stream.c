#include "capture/redact_stream.h"

#include "capture/redact.h"
#include "util/strbuf.h"

#include <string.h>

/* Reads until buf holds `want` bytes or the input ends: 0 (with *eof set at the end) or -1. */
static int
fill(redact_read_fn read, void *rctx, struct strbuf *buf, size_t want, bool *eof,
     struct diag *err)
{
	while (!*eof && buf->len < want) {
		strbuf_grow(buf, want - buf->len);
		ssize_t n = read(rctx, buf->buf + buf->len, want - buf->len, err);
		if (n < 0)
			return -1;
		if (n == 0)
			*eof = true;
		buf->len += (size_t)n;
		buf->buf[buf->len] = '\0';
	}
	return 0;
}

int
redact_stream(redact_read_fn read, void *rctx, size_t chunk, bool whole,
	      redact_chunk_fn fn, void *fctx, struct diag *err)
{
	struct strbuf buf = STRBUF_INIT;
	bool eof = false;
	size_t want = chunk ? chunk : 1;
	int rc = 0;
	while (rc == 0) {
		rc = fill(read, rctx, &buf, want, &eof, err);
		if (rc < 0 || buf.len == 0)
			break;
		size_t cut = eof ? buf.len : whole ? 0 : redactor_safe_cut(buf.buf, buf.len);
		if (cut == 0) {
			/* No safe cut yet: the chunk grows. */
			want = buf.len + (chunk ? chunk : 1);
			continue;
		}
		rc = fn(fctx, buf.buf, cut, err);
		memmove(buf.buf, buf.buf + cut, buf.len - cut);
		buf.len -= cut;
		buf.buf[buf.len] = '\0';
		want = chunk ? chunk : 1;
	}
	strbuf_release(&buf);
	return rc;
}
