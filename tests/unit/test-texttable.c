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
#include <stdbool.h>
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

/* Characters of a UTF-8 string, as the layout counts them. */
static size_t
chars(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* The text layout written plainly, piece by piece with stdio: two blanks
 * between columns, 'r' padded before, 'l' after (not the last column), no
 * blanks before an empty last cell. */
static char *
plain_layout(char **cells, size_t ncells, size_t ncols, const char *align)
{
	size_t width[8] = { 0 };
	for (size_t i = 0; i < ncells; i++)
		if (chars(cells[i]) > width[i % ncols])
			width[i % ncols] = chars(cells[i]);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	for (size_t i = 0; i < ncells; i++) {
		size_t col = i % ncols, pad = width[col] - chars(cells[i]);
		bool last = col + 1 == ncols;
		if (col && !(last && !cells[i][0]))
			fputs("  ", f);
		for (size_t k = 0; align[col] == 'r' && k < pad; k++)
			fputc(' ', f);
		fputs(cells[i], f);
		for (size_t k = 0; align[col] != 'r' && !last && k < pad; k++)
			fputc(' ', f);
		if (last)
			fputc('\n', f);
	}
	fclose(f);
	return buf;
}

/* A cell of 0 to 40 characters: ASCII, 2- and 3-byte characters. */
static char *
random_cell(uint64_t *x)
{
	static const char *const pieces[] = { "a", "Z", "7", " ", "+", "\xc3\xa9", "\xe2\x82\xac" };
	size_t n = next_random(x) % 5 == 0 ? 0 : next_random(x) % 41;
	char *c = malloc(n * 3 + 1);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		const char *p = pieces[next_random(x) % 7];
		memcpy(c + k, p, strlen(p));
		k += strlen(p);
	}
	c[k] = '\0';
	return c;
}

/* Generated tables of 1 to 8 columns, each alignment, 0 to 40 rows, empty
 * cells anywhere: the writer lays them out as the plain form does. */
static void
test_layout_generated(void **state)
{
	(void)state;
	uint64_t x = 0x2545F4914F6CDD1Dull;
	for (int round = 0; round < 3000; round++) {
		size_t ncols = 1 + next_random(&x) % 8, nrows = next_random(&x) % 41;
		size_t ncells = ncols * (nrows + 1);
		char align[9] = { 0 };
		char **cells = malloc(ncells * sizeof(*cells));
		for (size_t c = 0; c < ncols; c++)
			align[c] = next_random(&x) & 1 ? 'r' : 'l';
		for (size_t i = 0; i < ncells; i++)
			cells[i] = random_cell(&x);
		struct text_table t;
		text_table_init(&t, ncols, (const char *const *)cells, align);
		for (size_t i = ncols; i < ncells; i++)
			text_table_add(&t, cells[i]);
		char *got = written(&t, false, false);
		char *want = plain_layout(cells, ncells, ncols, align);
		assert_string_equal(got, want);
		free(got);
		free(want);
		text_table_release(&t);
		for (size_t i = 0; i < ncells; i++)
			free(cells[i]);
		free(cells);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_layout_generated),
		cmocka_unit_test(test_numbers_as_printf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
