/*
 * util/outfile.h outfile_write(): an output replaced whole, or left as it
 * was when its writer fails, with the error naming the file. The truth is
 * the bytes the writers here write, and the file left in a temporary
 * folder.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "util/outfile.h"

static int
write_text(FILE *out, const void *ctx, struct diag *err)
{
	(void)err;
	return fputs(ctx, out) < 0 ? -1 : 0;
}

static int
write_half_then_fail(FILE *out, const void *ctx, struct diag *err)
{
	(void)err;
	fputs(ctx, out);
	return -1;
}

static int
fail_saying_why(FILE *out, const void *ctx, struct diag *err)
{
	(void)out;
	(void)ctx;
	return diag_set(err, DIAG_DATA, NULL, 0, 0, "no gate evaluated");
}

static char *
slurp(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

static void
test_replaced_or_kept(void **state)
{
	(void)state;
	char dir[] = "/tmp/outfile-write.XXXXXX";
	char path[64];
	struct diag err;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out.txt", dir);

	assert_int_equal(outfile_write(path, write_text, "first\n", &err), 0);
	assert_string_equal(slurp(path), "first\n");
	/* A writer that fails leaves the old file whole; the error names it. */
	assert_int_equal(outfile_write(path, write_half_then_fail, "sec", &err), -1);
	assert_int_equal(err.code, DIAG_IOERR);
	assert_string_equal(diag_path(&err), path);
	assert_string_equal(slurp(path), "first\n");
	/* A writer's own error keeps its words and gains the file's name. */
	assert_int_equal(outfile_write(path, fail_saying_why, NULL, &err), -1);
	assert_int_equal(err.code, DIAG_DATA);
	assert_string_equal(err.msg, "no gate evaluated");
	assert_string_equal(diag_path(&err), path);
	assert_string_equal(slurp(path), "first\n");

	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);   /* no temporary file left beside it */
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replaced_or_kept),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
