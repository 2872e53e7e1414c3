/*
 * util/outbuf.h: what a reader prints into its buffer is replayed to the
 * two streams as written, pieces in order (standard output and standard
 * error kept apart, each byte once); and, with glibc, the buffer's streams
 * take no stdio lock (one thread writes them; glibc otherwise locks every
 * putc once the process has threads, thousands per input at -j N).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#ifdef __GLIBC__
#include <stdio_ext.h>
#endif

#include "util/outbuf.h"

static void
test_replay_in_order(void **state)
{
	(void)state;
	char *out_bytes = NULL, *err_bytes = NULL;
	size_t out_len = 0, err_len = 0;
	FILE *out = open_memstream(&out_bytes, &out_len);
	FILE *err = open_memstream(&err_bytes, &err_len);
	assert_non_null(out);
	assert_non_null(err);

	struct outbuf *b = outbuf_start();
	fputs("row 1\n", outbuf_out());
	putc('r', outbuf_out());
	fputs("ow 2\n", outbuf_out());
	fputs("warning: a\n", outbuf_err());
	fprintf(outbuf_out(), "row %d\n", 3);
	fputs("warning: b\n", outbuf_err());
	outbuf_stop(b);
	/* After stop this thread writes the standard streams again. */
	assert_ptr_equal(outbuf_out(), stdout);
	assert_ptr_equal(outbuf_err(), stderr);
	outbuf_replay(b, out, err);
	fclose(out);
	fclose(err);
	assert_string_equal(out_bytes, "row 1\nrow 2\nrow 3\n");
	assert_string_equal(err_bytes, "warning: a\nwarning: b\n");
	free(out_bytes);
	free(err_bytes);
}

static void
test_streams_take_no_lock(void **state)
{
	(void)state;
#ifdef __GLIBC__
	struct outbuf *b = outbuf_start();
	assert_int_equal(__fsetlocking(outbuf_out(), FSETLOCKING_QUERY), FSETLOCKING_BYCALLER);
	assert_int_equal(__fsetlocking(outbuf_err(), FSETLOCKING_QUERY), FSETLOCKING_BYCALLER);
	outbuf_stop(b);
	outbuf_free(b);
#else
	skip();
#endif
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replay_in_order),
		cmocka_unit_test(test_streams_take_no_lock),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
