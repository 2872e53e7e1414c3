#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <zlib.h>

#include "util/array.h"
#include "util/strbuf.h"

#include "util/linereader.h"

/* A pipe-backed reader over `data`: exercises the block refill path. */
static void
open_bytes(struct line_reader *r, const char *data, size_t n, size_t max_line)
{
	FILE *f = tmpfile();
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, n, f), n);
	fflush(f);
	rewind(f);
	line_reader_from_fd(r, dup(fileno(f)), "mem", max_line);
	r->owns_fd = true;
	fclose(f);
}

static void
expect_line(struct line_reader *r, const char *want, uint64_t no)
{
	struct line ln;
	struct diag err;
	assert_int_equal(line_reader_next(r, &ln, &err), 1);
	assert_int_equal(ln.len, strlen(want));
	assert_memory_equal(ln.p, want, ln.len);
	assert_int_equal(ln.no, no);
}

/* Lines `len` bytes long (a letter each) then "end": read back whole. */
static void
read_long_lines(size_t max_line, size_t raise, const size_t *lens, size_t nlens)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < nlens; i++) {
		strbuf_addchars(&sb, (char)('a' + i), lens[i]);
		strbuf_addch(&sb, '\n');
	}
	strbuf_addstr(&sb, "end\n");
	struct line_reader r;
	open_bytes(&r, sb.buf, sb.len, max_line);
	if (raise)
		line_reader_raise_max(&r, raise);
	for (size_t i = 0; i < nlens; i++) {
		struct line ln;
		struct diag err;
		assert_int_equal(line_reader_next(&r, &ln, &err), 1);
		assert_int_equal(ln.len, lens[i]);
		assert_false(ln.overlong);
		for (size_t k = 0; k < lens[i]; k++)
			if (ln.p[k] != (char)('a' + i))
				fail_msg("line %zu byte %zu", i + 1, k);
	}
	expect_line(&r, "end", nlens + 1);
	line_reader_close(&r);
	strbuf_release(&sb);
}

/*
 * The buffer starts small and grows only for a long line: lines across
 * every growth step (one and two 128 KiB blocks, the default 1 MiB limit,
 * a raised 16 MiB limit) come back whole, and a reader of short lines
 * under the 16 MiB classes limit keeps a buffer of two blocks, not 16 MiB
 * (the per-file page faults of a command over many small captures).
 */
static void
test_buffer_grows_only_for_long_lines(void **state)
{
	(void)state;
	const size_t k = 1u << 17;
	const size_t lens[] = { 10, k - 1, k, k + 1, 2 * k - 1, 2 * k, 2 * k + 1, 5 * k + 3,
				(1u << 20), 7 };
	read_long_lines(0, 0, lens, ARRAY_SIZE(lens));
	const size_t big[] = { 3, (3u << 20) + 5, 2 };
	read_long_lines(0, 16u << 20, big, ARRAY_SIZE(big));

	struct line_reader r;
	open_bytes(&r, "a\nb\n", 4, 0);
	line_reader_raise_max(&r, 16u << 20);
	expect_line(&r, "a", 1);
	expect_line(&r, "b", 2);
	assert_true(r.cap <= 2 * k);
	line_reader_close(&r);
}

/* A peek of more than the starting buffer sees that many bytes. */
static void
test_peek_past_the_starting_buffer(void **state)
{
	(void)state;
	const size_t n = 600000;
	char *data = malloc(n);
	assert_non_null(data);
	for (size_t i = 0; i < n; i++)
		data[i] = (char)('a' + i % 26);
	struct line_reader r;
	const char *p;
	size_t got;
	struct diag err;
	open_bytes(&r, data, n, 0);
	assert_int_equal(line_reader_peek(&r, 500000, &p, &got, &err), 0);
	assert_true(got >= 500000);
	assert_memory_equal(p, data, 500000);
	line_reader_close(&r);
	free(data);
}

/* A limit raised after a peek (as classes_read() does) lets a line past the
 * old limit and past one refill block through whole; the peeked bytes stay. */
static void
test_raise_max_after_peek(void **state)
{
	(void)state;
	const size_t n = 200000;
	char *data = malloc(n + 3);
	assert_non_null(data);
	memset(data, 'a', n);
	memcpy(data + n, "\nb\n", 3);
	for (int raise = 0; raise < 2; raise++) {
		struct line_reader r;
		struct line ln;
		struct diag err;
		const char *p;
		size_t got;
		open_bytes(&r, data, n + 3, 1024);
		assert_int_equal(line_reader_peek(&r, 100, &p, &got, &err), 0);
		assert_true(got >= 100);
		if (raise)
			line_reader_raise_max(&r, 300000);
		line_reader_raise_max(&r, 10);   /* never lowers it */
		assert_int_equal(line_reader_next(&r, &ln, &err), 1);
		assert_int_equal(ln.len, raise ? n : 1024);
		assert_int_equal(ln.overlong, !raise);
		assert_int_equal(ln.p[0], 'a');
		assert_int_equal(ln.p[ln.len - 1], 'a');
		expect_line(&r, "b", 2);
		line_reader_close(&r);
	}
	free(data);
}

static void
test_crlf_bom_and_last_line(void **state)
{
	(void)state;
	struct line_reader r;
	struct line ln;
	struct diag err;
	const char data[] = "\xef\xbb\xbf" "one\r\ntwo\n\nlast";
	open_bytes(&r, data, sizeof(data) - 1, 0);
	expect_line(&r, "one", 1);
	expect_line(&r, "two", 2);
	expect_line(&r, "", 3);
	assert_int_equal(line_reader_next(&r, &ln, &err), 1);
	assert_true(ln.unterminated);
	assert_int_equal(ln.len, 4);
	assert_int_equal(line_reader_next(&r, &ln, &err), 0);
	line_reader_close(&r);
}

static void
test_overlong_line_is_cut_and_skipped(void **state)
{
	(void)state;
	size_t big = 3 * (1u << 20) + 17;
	char *data = malloc(big + 16);
	memset(data, 'A', big);
	memcpy(data + big, "\nnext\n", 6);
	struct line_reader r;
	struct line ln;
	struct diag err;
	open_bytes(&r, data, big + 6, 4096);
	assert_int_equal(line_reader_next(&r, &ln, &err), 1);
	assert_true(ln.overlong);
	assert_int_equal(ln.len, 4096);
	assert_int_equal(ln.no, 1);
	expect_line(&r, "next", 2);
	assert_int_equal(line_reader_next(&r, &ln, &err), 0);
	line_reader_close(&r);
	free(data);
}

static void
test_nul_flag(void **state)
{
	(void)state;
	struct line_reader r;
	struct line ln;
	struct diag err;
	const char data[] = "a\0b\nclean\n";
	open_bytes(&r, data, sizeof(data) - 1, 0);
	assert_int_equal(line_reader_next(&r, &ln, &err), 1);
	assert_true(ln.has_nul);
	assert_int_equal(ln.len, 3);
	assert_int_equal(line_reader_next(&r, &ln, &err), 1);
	assert_false(ln.has_nul);
	line_reader_close(&r);
}

/* NUL bytes in several lines across block refills are each flagged. */
static void
test_nul_flags_across_blocks(void **state)
{
	(void)state;
	size_t n = 3 * (1u << 20);
	char *data = malloc(n);
	memset(data, 'x', n);
	for (size_t i = 99; i < n; i += 100)
		data[i] = '\n';
	size_t nuls[] = { 5, 1050, 1050000, 2100007 };
	for (size_t i = 0; i < 4; i++)
		data[nuls[i]] = '\0';
	struct line_reader r;
	struct line ln;
	struct diag err;
	size_t flagged = 0, lines = 0;
	open_bytes(&r, data, n, 0);
	while (line_reader_next(&r, &ln, &err) == 1) {
		size_t start = (ln.no - 1) * 100;
		bool want = false;
		for (size_t i = 0; i < 4; i++)
			want |= nuls[i] >= start && nuls[i] < start + 99;
		assert_int_equal(ln.has_nul, want);
		flagged += ln.has_nul;
		lines++;
	}
	assert_int_equal(flagged, 4);
	assert_int_equal(lines, n / 100 + 1);
	line_reader_close(&r);
	free(data);
}

/*
 * An overlong line is flagged by the NUL bytes of its first max_line bytes
 * only (the cut one), and the last line without a newline by its own.
 */
static void
test_nul_flag_at_the_cut_and_at_the_end(void **state)
{
	(void)state;
	struct line_reader r;
	struct line ln;
	struct diag err;
	for (size_t at = 4094; at <= 4097; at++) {
		char data[8192];
		memset(data, 'A', sizeof(data));
		data[at] = '\0';
		memcpy(data + 6000, "\nlast\0x", 7);
		open_bytes(&r, data, 6007, 4096);
		assert_int_equal(line_reader_next(&r, &ln, &err), 1);
		assert_true(ln.overlong);
		assert_int_equal(ln.len, 4096);
		assert_int_equal(ln.has_nul, at < 4096);
		assert_int_equal(line_reader_next(&r, &ln, &err), 1);
		assert_true(ln.unterminated);
		assert_true(ln.has_nul);
		assert_int_equal(ln.len, 6);
		assert_int_equal(line_reader_next(&r, &ln, &err), 0);
		line_reader_close(&r);
	}
}

static void
test_open_errors(void **state)
{
	(void)state;
	struct line_reader r;
	struct diag err;
	assert_int_equal(line_reader_open(&r, "/nonexistent/x", 0, &err), -1);
	assert_int_equal(err.code, DIAG_NOINPUT);
	assert_int_equal(line_reader_open(&r, "/", 0, &err), -1);
	assert_int_equal(err.code, DIAG_NOINPUT);
	assert_non_null(strstr(err.msg, "directory"));
}

static void
test_peek_does_not_consume(void **state)
{
	(void)state;
	struct line_reader r;
	struct diag err;
	const char *p;
	size_t n;
	const char data[] = "alpha\nbeta\n";
	open_bytes(&r, data, sizeof(data) - 1, 0);
	assert_int_equal(line_reader_peek(&r, 100, &p, &n, &err), 0);
	assert_int_equal(n, sizeof(data) - 1);
	expect_line(&r, "alpha", 1);
	expect_line(&r, "beta", 2);
	line_reader_close(&r);
}

/* gzip bytes of `text` made with zlib's gzip wrapper (a round trip through the reader). */
static unsigned char *
gzip_bytes(const char *text, size_t n, size_t *out_len)
{
	z_stream zs;
	memset(&zs, 0, sizeof(zs));
	assert_int_equal(deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
	size_t cap = deflateBound(&zs, (uLong)n) + 64;
	unsigned char *out = malloc(cap);
	zs.next_in = (unsigned char *)text;
	zs.avail_in = (uInt)n;
	zs.next_out = out;
	zs.avail_out = (uInt)cap;
	assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
	*out_len = cap - zs.avail_out;
	deflateEnd(&zs);
	return out;
}

/* 300,000 numbered lines (about 3 MB): the decoder refills across many blocks. */
static void
test_gzip_input_read_as_text(void **state)
{
	(void)state;
	struct strbuf text;
	strbuf_init(&text);
	for (unsigned i = 1; i <= 300000; i++)
		strbuf_addf(&text, "line %u\n", i);
	size_t gz_len;
	unsigned char *gz = gzip_bytes(text.buf, text.len, &gz_len);
	struct line_reader r;
	open_bytes(&r, (const char *)gz, gz_len, 0);
	struct line ln;
	struct diag err;
	unsigned n = 0;
	char want[32];
	int rc;
	while ((rc = line_reader_next(&r, &ln, &err)) > 0) {
		n++;
		snprintf(want, sizeof(want), "line %u", n);
		assert_int_equal(ln.len, strlen(want));
		assert_memory_equal(ln.p, want, ln.len);
		assert_int_equal(ln.no, n);
	}
	assert_int_equal(rc, 0);
	assert_int_equal(n, 300000);
	assert_true(r.compressed);
	assert_int_equal(r.bytes_read, text.len);
	line_reader_close(&r);
	free(gz);
	strbuf_release(&text);
}

/* Two gzip members one after the other read as one text, like gzip -d. */
static void
test_gzip_members_concatenated(void **state)
{
	(void)state;
	size_t a_len, b_len;
	unsigned char *a = gzip_bytes("first\n", 6, &a_len);
	unsigned char *b = gzip_bytes("second\n", 7, &b_len);
	char both[512];
	assert_true(a_len + b_len <= sizeof(both));
	memcpy(both, a, a_len);
	memcpy(both + a_len, b, b_len);
	struct line_reader r;
	open_bytes(&r, both, a_len + b_len, 0);
	expect_line(&r, "first", 1);
	expect_line(&r, "second", 2);
	struct line ln;
	struct diag err;
	assert_int_equal(line_reader_next(&r, &ln, &err), 0);
	line_reader_close(&r);
	free(a);
	free(b);
}

/* A cut stream: the lines before the cut, then a data error (never a silent end). */
static void
test_gzip_truncated_is_an_error(void **state)
{
	(void)state;
	struct strbuf text;
	strbuf_init(&text);
	for (unsigned i = 1; i <= 20000; i++)
		strbuf_addf(&text, "row %u of a capture\n", i);
	size_t gz_len;
	unsigned char *gz = gzip_bytes(text.buf, text.len, &gz_len);
	struct line_reader r;
	open_bytes(&r, (const char *)gz, gz_len / 2, 0);
	struct line ln;
	struct diag err;
	int rc;
	unsigned n = 0;
	while ((rc = line_reader_next(&r, &ln, &err)) > 0)
		n++;
	assert_int_equal(rc, -1);
	assert_int_equal(err.code, DIAG_DATA);
	assert_non_null(strstr(err.msg, "truncated gzip input"));
	assert_true(n < 20000);
	line_reader_close(&r);
	free(gz);
	strbuf_release(&text);
}

/* One byte that happens to be the first gzip magic byte is plain text. */
static void
test_gzip_magic_needs_two_bytes(void **state)
{
	(void)state;
	struct line_reader r;
	open_bytes(&r, "\x1f", 1, 0);
	struct line ln;
	struct diag err;
	assert_int_equal(line_reader_next(&r, &ln, &err), 1);
	assert_int_equal(ln.len, 1);
	assert_false(r.compressed);
	line_reader_close(&r);
}

/*
 * The reader against a plain splitter of its contract, on generated
 * inputs of several MB: lines of 0 to 300 bytes, some of thousands and
 * some longer than the reader's starting buffer, so that lines straddle
 * every block refill and the growth of the buffer; NUL bytes, CRs, ']'
 * marks, a BOM, a last line with or without its newline; read from a file
 * (block refills) and from memory, with the default limit and with small
 * ones (lines cut), with and without a mark.
 */
struct ref_line {
	size_t off, len;
	long mark;          /* offset of the first mark in the line, or -1 */
	bool overlong, has_nul, unterminated;
};

static size_t
ref_split(const char *d, size_t n, size_t max_line, char mark, struct ref_line *out)
{
	size_t pos = 0, k = 0;
	if (n >= 3 && memcmp(d, "\xef\xbb\xbf", 3) == 0)
		pos = 3;
	while (pos < n) {
		const char *nl = memchr(d + pos, '\n', n - pos);
		size_t raw = nl ? (size_t)(nl - d) - pos : n - pos;
		struct ref_line *l = &out[k++];
		memset(l, 0, sizeof(*l));
		l->off = pos;
		if (raw > max_line) {
			l->len = max_line;
			l->overlong = true;
			l->has_nul = memchr(d + pos, '\0', max_line) != NULL;
		} else {
			l->len = raw;
			l->has_nul = memchr(d + pos, '\0', raw) != NULL;
			l->unterminated = !nl;
		}
		/* One trailing CR goes, from a cut line too. */
		if (l->len && d[pos + l->len - 1] == '\r')
			l->len--;
		const char *m = mark != '\n' ? memchr(d + pos, mark, l->len) : NULL;
		l->mark = m ? (long)(m - (d + pos)) : -1;
		pos = nl ? (size_t)(nl - d) + 1 : n;
	}
	return k;
}

static size_t
gen_input(struct strbuf *sb, unsigned seed)
{
	uint64_t x = 0x9E3779B97F4A7C15u * (seed + 1);
#define NEXT() (x ^= x << 13, x ^= x >> 7, x ^= x << 17, x)
	strbuf_reset(sb);
	if (seed % 3 == 0)
		strbuf_add(sb, "\xef\xbb\xbf", 3);
	size_t lines = 0;
	while (sb->len < (size_t)(3u << 20)) {
		uint64_t r = NEXT();
		size_t len = r % 100 == 0 ? 1000 + NEXT() % 5000 :
			     r % 2000 == 1 ? 270000 + NEXT() % 40000 : NEXT() % 300;
		static const char bytes[] = "abcdefgh   ]]\r\t0123456789[-/x";
		for (size_t i = 0; i < len; i++) {
			uint64_t b = NEXT();
			strbuf_addch(sb, b % 5000 == 0 ? '\0' : bytes[b % (sizeof(bytes) - 1)]);
		}
		if (NEXT() % 10 == 0)
			strbuf_addch(sb, '\r');
		strbuf_addch(sb, '\n');
		lines++;
	}
	if (seed % 2)
		strbuf_addstr(sb, "last line ] without a newline");
#undef NEXT
	return lines + 1;
}

static void
check_against_ref(const char *d, size_t n, size_t max_line, char mark, bool from_file,
		  struct ref_line *want, size_t nwant)
{
	struct line_reader r;
	struct line ln;
	struct diag err;
	if (from_file)
		open_bytes(&r, d, n, max_line);
	else
		line_reader_from_memory(&r, d, n, "mem", max_line);
	if (mark != '\n')
		line_reader_set_mark(&r, mark);
	for (size_t i = 0; i < nwant; i++) {
		const struct ref_line *w = &want[i];
		if (line_reader_next(&r, &ln, &err) != 1)
			fail_msg("line %zu of %zu missing", i + 1, nwant);
		long got_mark = ln.mark ? (long)(ln.mark - ln.p) : -1;
		if (ln.len != w->len || memcmp(ln.p, d + w->off, w->len) != 0 ||
		    ln.no != i + 1 || ln.overlong != w->overlong || ln.has_nul != w->has_nul ||
		    ln.unterminated != w->unterminated || got_mark != w->mark)
			fail_msg("line %zu (max %zu, mark %d, %s): len %zu/%zu overlong %d/%d "
				 "nul %d/%d unterminated %d/%d mark %ld/%ld", i + 1, max_line,
				 mark, from_file ? "file" : "memory", ln.len, w->len, ln.overlong,
				 w->overlong, ln.has_nul, w->has_nul, ln.unterminated,
				 w->unterminated, got_mark, w->mark);
	}
	assert_int_equal(line_reader_next(&r, &ln, &err), 0);
	line_reader_close(&r);
}

static void
test_lines_match_a_plain_splitter(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	static const size_t limits[] = { LINE_READER_DEFAULT_MAX, 4096, 100, 1 };
	for (unsigned seed = 0; seed < 4; seed++) {
		size_t cap = gen_input(&sb, seed) + 1;
		struct ref_line *want = malloc(cap * sizeof(*want));
		assert_non_null(want);
		for (size_t li = 0; li < sizeof(limits) / sizeof(limits[0]); li++) {
			for (int mk = 0; mk < 2; mk++) {
				char mark = mk ? ']' : '\n';
				size_t nwant = ref_split(sb.buf, sb.len, limits[li], mark, want);
				assert_true(nwant <= cap);
				check_against_ref(sb.buf, sb.len, limits[li], mark, true, want, nwant);
				if (li < 2)
					check_against_ref(sb.buf, sb.len, limits[li], mark, false,
							  want, nwant);
			}
		}
		free(want);
	}
	strbuf_release(&sb);
}

/* Small inputs of every length around a chunk and a batch, each byte a line end, a mark or a NUL. */
static void
test_short_inputs_every_shape(void **state)
{
	(void)state;
	struct ref_line want[200];
	char d[200];
	static const char bytes[] = { 'a', '\n', ']', '\0', '\r' };
	for (unsigned seed = 0; seed < 3000; seed++) {
		uint64_t x = seed * 2654435761u + 1;
		size_t n = seed % 140;
		for (size_t i = 0; i < n; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			d[i] = bytes[x % (seed % 4 == 0 ? 5 : 3)];
		}
		for (size_t max = 1; max <= 130; max += 43) {
			size_t nwant = ref_split(d, n, max, ']', want);
			check_against_ref(d, n, max, ']', seed % 2, want, nwant);
		}
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crlf_bom_and_last_line),
		cmocka_unit_test(test_overlong_line_is_cut_and_skipped),
		cmocka_unit_test(test_nul_flag),
		cmocka_unit_test(test_nul_flags_across_blocks),
		cmocka_unit_test(test_nul_flag_at_the_cut_and_at_the_end),
		cmocka_unit_test(test_open_errors),
		cmocka_unit_test(test_peek_does_not_consume),
		cmocka_unit_test(test_gzip_input_read_as_text),
		cmocka_unit_test(test_gzip_members_concatenated),
		cmocka_unit_test(test_gzip_truncated_is_an_error),
		cmocka_unit_test(test_gzip_magic_needs_two_bytes),
		cmocka_unit_test(test_raise_max_after_peek),
		cmocka_unit_test(test_lines_match_a_plain_splitter),
		cmocka_unit_test(test_short_inputs_every_shape),
		cmocka_unit_test(test_buffer_grows_only_for_long_lines),
		cmocka_unit_test(test_peek_past_the_starting_buffer),
	};
	return cmocka_run_group_tests_name("linereader", tests, NULL, NULL);
}
