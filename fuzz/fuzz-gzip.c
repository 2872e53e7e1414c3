/*
 * libFuzzer harness: the gzip reader (util/arcread.c, arc_reader_gunzip_fd)
 * and the line reader over a gzip file. Independent truth: zlib's own
 * gzread(), which reads concatenated members as gzip(1) does. Whenever
 * arcread decodes the whole input without an error, gzread must give the
 * same bytes. (gzread is more lenient, trailing junk and plain text
 * pass, so its successes on their own prove nothing about arcread.)
 */

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <zlib.h>

#include "fuzz-scratch.h"
#include "util/arcread.h"
#include "util/linereader.h"
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Decoded bytes compared: a gzip bomb stops here. */
#define DECODED_MAX (1u << 22)

/* arcread's bytes: 1 decoded to the end, 0 cut at DECODED_MAX, -1 error. */
static int
arc_decode(const char *path, size_t prefix_len, size_t step, struct strbuf *out)
{
	struct diag err;
	uint8_t prefix[16];
	int fd = open(path, O_RDONLY);
	FUZZ_CHECK(fd >= 0);
	ssize_t got = read(fd, prefix, prefix_len);
	FUZZ_CHECK(got >= 0);
	struct arc_reader *a = arc_reader_gunzip_fd(fd, prefix, (size_t)got, path, &err);
	FUZZ_CHECK(a != NULL);
	char buf[8192];
	int rc;
	for (;;) {
		ssize_t n = arc_reader_read(a, buf, step, &err);
		if (n < 0) {
			FUZZ_CHECK(err.code != 0 && err.msg[0]);
			rc = -1;
			break;
		}
		if (n == 0) {
			rc = 1;
			break;
		}
		FUZZ_CHECK((size_t)n <= step);
		if (out->len + (size_t)n > DECODED_MAX) {
			rc = 0;
			break;
		}
		strbuf_add(out, buf, (size_t)n);
	}
	arc_reader_free(a);
	close(fd);
	return rc;
}

/* zlib's bytes, up to `max`: 1 decoded to the end, -1 error. */
static int
zlib_decode(const char *path, size_t max, struct strbuf *out)
{
	gzFile g = gzopen(path, "rb");
	FUZZ_CHECK(g != NULL);
	char buf[8192];
	int rc = 1, n;
	while (out->len < max && (n = gzread(g, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			rc = -1;
			break;
		}
		size_t take = (size_t)n < max - out->len ? (size_t)n : max - out->len;
		strbuf_add(out, buf, take);
	}
	int errnum;
	gzerror(g, &errnum);
	if (errnum != Z_OK)
		rc = -1;   /* Z_BUF_ERROR: zlib found the input truncated */
	gzclose(g);
	return rc;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[96];
	struct strbuf ours = STRBUF_INIT, theirs = STRBUF_INIT;

	if (!path[0])
		scratch_path(path, sizeof(path), "input.gz");
	scratch_write(path, data, size);

	/* Two ways in: the two bytes a sniffer read, or a longer prefix; two read sizes. */
	size_t prefix_len = size % 2 ? 2 : 1 + size % 13;
	int rc = arc_decode(path, prefix_len, 8192, &ours);
	struct strbuf small = STRBUF_INIT;
	int rc_small = arc_decode(path, 2, 1 + size % 97, &small);
	FUZZ_CHECK(rc == rc_small || rc == 0 || rc_small == 0);
	size_t common = ours.len < small.len ? ours.len : small.len;
	FUZZ_CHECK(memcmp(ours.buf, small.buf, common) == 0);
	if (rc == 1)
		FUZZ_CHECK(rc_small == 1 && small.len == ours.len);
	strbuf_release(&small);

	if (rc >= 0) {
		/* zlib accepts what arcread accepts, with the same bytes. */
		int zrc = zlib_decode(path, ours.len + 1, &theirs);
		FUZZ_CHECK(zrc == 1 || rc == 0);
		if (rc == 1)
			FUZZ_CHECK(theirs.len == ours.len);
		common = ours.len < theirs.len ? ours.len : theirs.len;
		FUZZ_CHECK(memcmp(ours.buf, theirs.buf, common) == 0);
	}

	/* The line reader over the same file: sniffs the gzip magic itself. */
	struct line_reader r;
	struct diag err;
	if (rc == 1 && line_reader_open(&r, path, 1 << 16, &err) == 0) {
		struct line ln;
		size_t total = 0;
		while (line_reader_next(&r, &ln, &err) > 0 && total < DECODED_MAX) {
			FUZZ_CHECK(ln.len <= ours.len);
			total += ln.len;
		}
		line_reader_close(&r);
	}
	strbuf_release(&ours);
	strbuf_release(&theirs);
	return 0;
}
