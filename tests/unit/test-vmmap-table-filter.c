/*
 * The one-pass filter of summary rows (vmmap_table.c may_have_columns)
 * against its plain form: the line split into tokens as the general
 * path splits it, then each token tested for the shape of a figure. The
 * filter only spares lines the general path would turn away, so a filter
 * that lets too many through changes no row: the row tests cannot see
 * that, this one compares its answer itself, on generated lines of every
 * byte class and on each of its edge cases. The file is included to reach
 * the static function.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/ingest/vmmap_table.c"
#include "util/array.h"

/* Digits and points, the last byte perhaps a unit. */
static bool
plain_size_shaped(const char *p, const char *e)
{
	char last = e[-1];
	if (last == 'B' || last == 'K' || last == 'M' || last == 'G' || last == 'T')
		e--;
	for (; p < e; p++)
		if (!(*p >= '0' && *p <= '9') && *p != '.')
			return false;
	return true;
}

/* A name, then `need` tokens in a row of that shape. */
static bool
plain_may_have_columns(const char *p, const char *end, size_t need)
{
	size_t nt = 0, run = 0;
	while (p < end) {
		while (p < end && (*p == ' ' || *p == '\t' || *p == '[' || *p == ']'))
			p++;
		if (p == end)
			break;
		const char *b = p;
		while (p < end && *p != ' ' && *p != '\t' && *p != ']')
			p++;
		nt++;
		run = plain_size_shaped(b, p) ? run + 1 : 0;
		if (run >= need && nt > need)
			return true;
	}
	return false;
}

static void
assert_filters_agree(const char *line, size_t n)
{
	for (size_t need = 1; need <= 9; need++) {
		bool a = may_have_columns(line, line + n, need);
		bool b = plain_may_have_columns(line, line + n, need);
		if (a != b)
			fail_msg("'%.*s' (need %zu): %d, plain %d", (int)n, line, need, a, b);
	}
}

static void
test_edges(void **state)
{
	(void)state;
	static const char *const lines[] = {
		"", " ", "x", "x 1", "x 1K", "x K", "x xK", "x K1", "x 1KK", "x 1[2", "x [1K",
		"x 1K]", "x 1K[", "x ]1K", "x ..", "x 1.2.3", "x k", "x 1 2 3 4 5 6 7 8",
		"1 2 3 4 5 6 7 8 9", "x\t1\t2", "[x] [1] [2]", "x 1 2 y 3 4", "x 1 2 3 yK 4",
		"x 1 2 3 [yK 4", "x 12[ 4", "x 1B 2T 3G 4M 5K", "x 1b 2", "x 1 2 3\r",
	};
	for (size_t i = 0; i < ARRAY_SIZE(lines); i++)
		assert_filters_agree(lines[i], strlen(lines[i]));
	/* A NUL byte is a byte of a token like any other. */
	assert_filters_agree("x 1\0002 3", 7);
	assert_filters_agree("x 1 \0 3", 7);
}

static void
test_generated(void **state)
{
	(void)state;
	/* Figures and units most of the time: the runs the filter looks for. */
	static const char bytes[] = "0123456789..BKMGTBKMGT          \t[]xkb\r\0";
	uint64_t x = 0x2545F4914F6CDD1Du;
	char line[96];
	unsigned outcomes[2] = { 0, 0 };
	for (int i = 0; i < 400000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		uint64_t r = x;
		size_t n = (size_t)(r % sizeof(line));
		for (size_t k = 0; k < n; k++) {
			r = r * 6364136223846793005u + 1442695040888963407u;
			line[k] = bytes[(r >> 33) % (sizeof(bytes) - 1)];
		}
		assert_filters_agree(line, n);
		outcomes[plain_may_have_columns(line, line + n, 3)]++;
	}
	/* Both answers are common. */
	assert_true(outcomes[0] > 10000);
	assert_true(outcomes[1] > 10000);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_generated),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
