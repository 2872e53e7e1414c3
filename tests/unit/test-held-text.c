#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/held_text.h"

/* What a FILE received, read back from its start. */
static char *
file_text(FILE *f, size_t *len)
{
	long n = ftell(f);
	assert_true(n >= 0);
	char *buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	rewind(f);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	*len = (size_t)n;
	return buf;
}

/* Small text stays in memory and comes out as it went in. */
static void
test_small(void **state)
{
	(void)state;
	struct held_text h;
	struct diag err;
	FILE *f = tmpfile();
	size_t len;
	held_text_init(&h);
	held_text_add(&h, "one\n", 4);
	held_text_add(&h, "two\n", 4);
	assert_int_equal(h.spilled, 0);
	assert_int_equal(held_text_flush(&h, f, &err), 0);
	char *got = file_text(f, &len);
	assert_string_equal(got, "one\ntwo\n");
	free(got);
	held_text_release(&h);
	fclose(f);
}

/*
 * Past the buffer the text goes to the temporary file: 1 MiB of numbered
 * lines comes out whole and in order, with at most one buffer in memory
 * (not a second copy in the file's write buffer).
 */
static void
test_spilled(void **state)
{
	(void)state;
	struct held_text h;
	struct diag err;
	FILE *f = tmpfile();
	char line[32];
	size_t want = 0, len;
	held_text_init(&h);
	for (unsigned i = 0; want < 1024 * 1024; i++) {
		int n = snprintf(line, sizeof(line), "note %u\n", i);
		held_text_add(&h, line, (size_t)n);
		want += (size_t)n;
		assert_true(h.buf.len < SPILL_DIRECT_MIN + sizeof(line));
	}
	assert_true(h.spilled > 0);
	/* One copy in memory: each buffer went to the file as it was. */
	assert_int_equal(h.file.pending.len, 0);
	assert_true(h.file.pending.alloc < SPILL_DIRECT_MIN);
	assert_int_equal(held_text_flush(&h, f, &err), 0);
	char *got = file_text(f, &len);
	assert_int_equal(len, want);
	size_t at = 0;
	for (unsigned i = 0; at < len; i++) {
		int n = snprintf(line, sizeof(line), "note %u\n", i);
		assert_memory_equal(got + at, line, (size_t)n);
		at += (size_t)n;
	}
	free(got);
	/* Emptied by the flush: a second one writes nothing. */
	assert_int_equal(held_text_flush(&h, f, &err), 0);
	assert_int_equal(ftell(f), (long)want);
	held_text_release(&h);
	fclose(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small),
		cmocka_unit_test(test_spilled),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
