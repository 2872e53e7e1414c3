/*
 * arc_is_tar_file: a regular file is a tar archive only if its first
 * 512-byte block (after gzip decoding) is a header whose checksum holds,
 * which is decided without libarchive; libarchive then agrees on the ones
 * that pass. A pipe is never read to find out. The archives are built here byte by byte (POSIX ustar), with
 * the checksum summed unsigned (the standard) or signed (old tars).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include <cmocka.h>

#include "util/arcread.h"
#include "util/array.h"

#define BLOCK 512

static char dir[] = "/tmp/iotally-arcread-XXXXXX";

/* A ustar header of a regular file `name` of `size` bytes. */
static void
tar_header(unsigned char *h, const char *name, size_t size, bool signed_sum)
{
	long sum = 0;
	memset(h, 0, BLOCK);
	snprintf((char *)h, 100, "%s", name);
	memcpy(h + 100, "0000644", 8);
	memcpy(h + 108, "0000000", 8);
	memcpy(h + 116, "0000000", 8);
	snprintf((char *)h + 124, 12, "%011zo", size);
	memcpy(h + 136, "00000000000", 12);
	h[156] = '0';
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	memset(h + 148, ' ', 8);
	for (size_t i = 0; i < BLOCK; i++)
		sum += signed_sum ? (signed char)h[i] : h[i];
	snprintf((char *)h + 148, 8, "%06lo", sum);   /* six digits, NUL, space */
	h[155] = ' ';
}

/* One member holding "hello\n", then the two zero blocks that end an archive. */
static size_t
tar_image(unsigned char *img, const char *name, bool signed_sum)
{
	memset(img, 0, 4 * BLOCK);
	tar_header(img, name, 6, signed_sum);
	memcpy(img + BLOCK, "hello\n", 6);
	return 4 * BLOCK;
}

static const char *
write_file(const char *name, const void *p, size_t n, bool gzip)
{
	static char path[128];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (gzip) {
		gzFile gz = gzopen(path, "wb");
		assert_non_null(gz);
		assert_int_equal(gzwrite(gz, p, (unsigned)n), (int)n);
		assert_int_equal(gzclose(gz), Z_OK);
	} else {
		FILE *f = fopen(path, "wb");
		assert_non_null(f);
		assert_int_equal(fwrite(p, 1, n, f), n);
		assert_int_equal(fclose(f), 0);
	}
	return path;
}

static int
first_member(void *ctx, const char *name, struct arc_reader *data, struct diag *err)
{
	(void)data, (void)err;
	snprintf(ctx, 64, "%s", name);
	return -1;
}

/* Is it a tar archive, and does libarchive then read the member? */
static void
assert_tar(const char *path, const char *member)
{
	char name[64] = "";
	struct diag err;
	assert_true(arc_is_tar_file(path));
	assert_int_equal(arc_for_each_member(path, first_member, name, &err), -1);
	assert_string_equal(name, member);
}

static void
test_tar_files(void **state)
{
	(void)state;
	unsigned char img[4 * BLOCK];
	size_t n = tar_image(img, "a.txt", false);

	assert_tar(write_file("plain.tar", img, n, false), "a.txt");
	assert_tar(write_file("plain.tar.gz", img, n, true), "a.txt");
	/* Bytes past 0x7f sum differently signed: old tars' checksum is taken too. */
	n = tar_image(img, "caf\xc3\xa9.txt", true);
	assert_tar(write_file("signed.tar", img, n, false), "caf\xc3\xa9.txt");
}

static void
test_not_tar_files(void **state)
{
	(void)state;
	unsigned char img[4 * BLOCK];
	char text[2000];
	size_t n = tar_image(img, "a.txt", false);

	img[0] ^= 1;   /* the checksum no longer holds */
	assert_false(arc_is_tar_file(write_file("bad-sum.tar", img, n, false)));
	assert_false(arc_is_tar_file(write_file("bad-sum.tar.gz", img, n, true)));
	img[0] ^= 1;
	memcpy(img + 148, "0x12345 ", 8);   /* not octal */
	assert_false(arc_is_tar_file(write_file("not-octal.tar", img, n, false)));
	memset(img, 0, sizeof(img));   /* only the end mark: no member */
	assert_false(arc_is_tar_file(write_file("zeros.tar", img, n, false)));

	memset(text, 0, sizeof(text));
	for (size_t i = 0; i + 1 < sizeof(text); i++)
		text[i] = i % 64 == 63 ? '\n' : (char)('0' + i % 10);
	assert_false(arc_is_tar_file(write_file("text.txt", text, strlen(text), false)));
	assert_false(arc_is_tar_file(write_file("text.txt.gz", text, strlen(text), true)));
	assert_false(arc_is_tar_file(write_file("short.txt", text, 100, false)));
	assert_false(arc_is_tar_file(write_file("empty.txt", text, 0, false)));
	assert_false(arc_is_tar_file(dir));
	assert_false(arc_is_tar_file("/nonexistent/iotally.tar"));
}

/* A pipe holding a tar archive is not one, and is left unread. */
static void
test_pipe_is_not_read(void **state)
{
	(void)state;
	unsigned char img[4 * BLOCK], back[4 * BLOCK];
	char path[64];
	int fds[2];
	size_t n = tar_image(img, "a.txt", false);

	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], img, n), (ssize_t)n);
	snprintf(path, sizeof(path), "/dev/fd/%d", fds[0]);
	assert_false(arc_is_tar_file(path));
	assert_int_equal(read(fds[0], back, n), (ssize_t)n);
	assert_memory_equal(back, img, n);
	close(fds[0]);
	close(fds[1]);
}

static int
setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int
teardown(void **state)
{
	(void)state;
	static const char *const names[] = {
		"plain.tar", "plain.tar.gz", "signed.tar", "bad-sum.tar", "bad-sum.tar.gz",
		"not-octal.tar", "zeros.tar", "text.txt", "text.txt.gz", "short.txt", "empty.txt",
	};
	char path[128];
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	return rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tar_files),
		cmocka_unit_test(test_not_tar_files),
		cmocka_unit_test(test_pipe_is_not_read),
	};
	return cmocka_run_group_tests_name("arcread", tests, setup, teardown);
}
