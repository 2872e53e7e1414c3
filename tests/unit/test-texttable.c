/*
 * report/texttable.h: cells kept in one buffer (many cells, the buffer
 * moving as it grows), text_table_add_u64() and text_signed() against
 * printf's "%" PRIu64 and "%+lld"-like text, and a small table's layout
 * written out by hand: escaped control bytes, a multi-byte character
 * counted as one column, right and left alignment, no blanks after an
 * empty last cell.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/texttable.h"

/* What a writer printed to a FILE, as a string (the caller frees it). */
static char *
written(const struct text_table *t, bool markdown, bool section)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	if (section)
		text_table_write_section(f, t, markdown, "Title");
	else
		text_table_write(f, t, markdown);
	fclose(f);
	return buf;
}

static void
test_layout(void **state)
{
	(void)state;
	static const char *const headers[] = { "NAME", "N", "NOTE" };
	struct text_table t;
	text_table_init(&t, 3, headers, "lrl");
	text_table_add(&t, "a\001b");          /* shown as a\x01b: 6 columns */
	text_table_add_u64(&t, 12);
	text_table_add(&t, "x");
	text_table_add(&t, "\xc3\xa9");        /* é: one column */
	text_table_addf(&t, "%d", 3);
	text_table_add(&t, "");
	assert_int_equal(text_table_rows(&t), 2);
	char *s = written(&t, false, false);
	assert_string_equal(s, "NAME     N  NOTE\n"
			       "a\\x01b  12  x\n"
			       "\xc3\xa9        3\n");
	free(s);
	s = written(&t, false, true);
	assert_string_equal(s, "Title:\n"
			       "NAME     N  NOTE\n"
			       "a\\x01b  12  x\n"
			       "\xc3\xa9        3\n"
			       "\n");
	free(s);
	s = written(&t, true, false);
	assert_string_equal(s, "| NAME | N | NOTE |\n"
			       "|:---|---:|:---|\n"
			       "| a\\\\x01b | 12 | x |\n"
			       "| \xc3\xa9 | 3 |  |\n");
	free(s);
	text_table_release(&t);

	/* A NUL a format puts in a cell is escaped as the text's are. */
	text_table_init(&t, 3, headers, "lrl");
	text_table_addf(&t, "%c", 0);
	text_table_add(&t, "1");
	text_table_add(&t, "");
	assert_string_equal(text_table_cell(&t, 3), "\\x00");
	text_table_release(&t);

	/* No rows: a section writes nothing. */
	text_table_init(&t, 3, headers, "lrl");
	s = written(&t, false, true);
	assert_string_equal(s, "");
	free(s);
	text_table_release(&t);
}

/* xorshift64: the same values every run. */
static uint64_t
next_random(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static void
test_numbers_as_printf(void **state)
{
	(void)state;
	static const char *const headers[] = { "V" };
	struct text_table t;
	text_table_init(&t, 1, headers, "r");
	uint64_t x = 88172645463325252ull;
	enum { N = 20000 };
	uint64_t *v = malloc(N * sizeof(*v));
	for (size_t i = 0; i < N; i++) {
		/* Every length of number, and the edges of each. */
		uint64_t r = next_random(&x);
		switch (i % 4) {
		case 0: v[i] = r; break;
		case 1: v[i] = r >> (r % 64); break;
		case 2: v[i] = i < 64 ? (uint64_t)1 << i : UINT64_MAX - i; break;
		default: v[i] = i % 8 == 3 ? 0 : r % 1000; break;
		}
		text_table_add_u64(&t, v[i]);
	}
	/* Read back after the buffer grew many times. */
	for (size_t i = 0; i < N; i++) {
		char want[32];
		snprintf(want, sizeof(want), "%" PRIu64, v[i]);
		assert_string_equal(text_table_cell(&t, i + 1), want);
	}
	text_table_release(&t);
	free(v);

	static const long long edges[] = { 0, 1, -1, 9, 10, -10, 99, 100, LLONG_MAX, LLONG_MIN,
					   LLONG_MIN + 1, 1000000000000000000ll };
	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]) + 20000; i++) {
		long long s = i < sizeof(edges) / sizeof(edges[0]) ? edges[i]
			      : (long long)next_random(&x) >> (x % 63);
		char got[32], want[32];
		text_signed(got, s);
		snprintf(want, sizeof(want), s > 0 ? "+%lld" : "%lld", s);
		assert_string_equal(got, want);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_numbers_as_printf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
