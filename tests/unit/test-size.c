#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "util/size.h"

static uint64_t
vm(const char *s)
{
	uint64_t v = 0;
	assert_int_equal(size_parse_vmmap(s, strlen(s), &v), SIZE_OK);
	return v;
}

static void
test_vmmap_units(void **state)
{
	(void)state;
	assert_int_equal(vm("0K"), 0);
	assert_int_equal(vm("2560"), 2560);
	assert_int_equal(vm("16K"), 16384);
	assert_int_equal(vm("18.5M"), 19398656);
	/* Same float arithmetic as the reference script: int(19.1 * 2**20). */
	assert_int_equal(vm("19.1M"), 20027801);
	assert_int_equal(vm("1.5G"), 1610612736);
	assert_int_equal(vm("2.0T"), 2199023255552ull);
}

static void
test_vmmap_errors(void **state)
{
	(void)state;
	uint64_t v;
	assert_int_equal(size_parse_vmmap("99999999999T", 12, &v), SIZE_OVERFLOW);
	assert_int_equal(size_parse_vmmap("12Q", 3, &v), SIZE_SYNTAX);
	assert_int_equal(size_parse_vmmap("", 0, &v), SIZE_SYNTAX);
	assert_int_equal(size_parse_vmmap("1.2.3K", 6, &v), SIZE_SYNTAX);
	assert_int_equal(size_parse_vmmap("K", 1, &v), SIZE_SYNTAX);
}

static void
check_format(uint64_t bytes, const char *want)
{
	char buf[32];
	size_format_vmmap(bytes, buf);
	assert_string_equal(buf, want);
}

static void
test_vmmap_format(void **state)
{
	(void)state;
	check_format(0, "0K");
	check_format(3856, "3856");
	check_format(4096, "4K");
	check_format(8192 * 1024, "8192K");
	check_format(19398656, "18.5M");
	check_format(536870912, "512.0M");
	check_format(1610612736, "1.5G");
}

/* size_format_vmmap() as it was written with printf: the reference. */
static void
printf_format(uint64_t bytes, char out[32])
{
	if (bytes == 0) {
		snprintf(out, 32, "0K");
		return;
	}
	double kb = (double)bytes / 1024.0;
	if (kb < 4.0) {
		snprintf(out, 32, "%llu", (unsigned long long)bytes);
		return;
	}
	if (kb < 10000.0) {
		snprintf(out, 32, "%.0fK", kb);
		return;
	}
	double mb = kb / 1024.0;
	if (mb < 1000.0) {
		snprintf(out, 32, "%.1fM", mb);
		return;
	}
	double gb = mb / 1024.0;
	if (gb < 1000.0) {
		snprintf(out, 32, "%.1fG", gb);
		return;
	}
	snprintf(out, 32, "%.1fT", gb / 1024.0);
}

static void
check_against_printf(uint64_t bytes)
{
	char got[32], want[32];
	memset(got, 'x', sizeof(got));
	size_format_vmmap(bytes, got);
	printf_format(bytes, want);
	if (strcmp(got, want) != 0)
		fail_msg("%llu: got '%.32s', printf '%s'", (unsigned long long)bytes, got, want);
}

/*
 * Against printf: every count below 4 KiB and up to 64 KiB, each power of
 * two and its neighbours (all 64 widths), each unit's thresholds, the exact
 * ties of every unit (odd multiples of half its last digit: 512 B for K,
 * 2^18 for M's tenths, 2^28 G, 2^38 T) and their neighbours, values past
 * 2^53 (rounded once to double), INT64_MIN/MAX and UINT64_MAX as byte
 * counts, and 400,000 generated counts of every width.
 */
static void
test_vmmap_format_matches_printf(void **state)
{
	(void)state;
	for (uint64_t b = 0; b <= 65536; b++)
		check_against_printf(b);
	for (unsigned k = 0; k < 64; k++)
		for (int d = -3; d <= 3; d++)
			check_against_printf((UINT64_C(1) << k) + (uint64_t)(int64_t)d);
	static const uint64_t edges[] = {
		4095, 4096, 10239999, 10240000, 10240001,
		UINT64_C(1000) << 20, (UINT64_C(1000) << 20) - 1, (UINT64_C(1000) << 20) + 1,
		UINT64_C(1048523161), UINT64_C(1048523162), /* 999.95 M */
		UINT64_C(1000) << 30, (UINT64_C(1000) << 30) - 1, UINT64_C(1073689395610),
		UINT64_C(1) << 53, (UINT64_C(1) << 53) + 1, (UINT64_C(1) << 53) + 3,
		(uint64_t)INT64_MAX, (uint64_t)INT64_MIN, UINT64_MAX, UINT64_MAX - 1024,
	};
	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
		for (int d = -2; d <= 2; d++)
			check_against_printf(edges[i] + (uint64_t)(int64_t)d);
	static const unsigned tie_shift[] = { 9, 18, 28, 38 };
	for (size_t u = 0; u < 4; u++)
		for (uint64_t odd = 1; odd < 20000; odd += 2)
			for (int d = -1; d <= 1; d++)
				check_against_printf((odd << tie_shift[u]) + (uint64_t)(int64_t)d);
	uint64_t x = UINT64_C(0x9E3779B97F4A7C15);
	for (int i = 0; i < 400000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		check_against_printf(x >> (x & 63));
	}
}

static void
test_hex_dec(void **state)
{
	(void)state;
	uint64_t v;
	assert_int_equal(parse_u64_hex("ffffffffffffffff", 16, &v), SIZE_OK);
	assert_true(v == UINT64_MAX);
	assert_int_equal(parse_u64_hex("10000000000000000", 17, &v), SIZE_OVERFLOW);
	assert_int_equal(parse_u64_hex("12g", 3, &v), SIZE_SYNTAX);
	assert_int_equal(parse_u64_dec("18446744073709551615", 20, &v), SIZE_OK);
	assert_true(v == UINT64_MAX);
	assert_int_equal(parse_u64_dec("18446744073709551616", 20, &v), SIZE_OVERFLOW);
}

static void
test_user_sizes(void **state)
{
	(void)state;
	uint64_t v;
	assert_int_equal(size_parse_user("4096", &v), SIZE_OK);
	assert_int_equal(v, 4096);
	assert_int_equal(size_parse_user("0x1000", &v), SIZE_OK);
	assert_int_equal(v, 4096);
	assert_int_equal(size_parse_user("64K", &v), SIZE_OK);
	assert_int_equal(v, 65536);
	assert_int_equal(size_parse_user("1MiB", &v), SIZE_OK);
	assert_int_equal(v, 1048576);
	assert_int_equal(size_parse_user("1.5G", &v), SIZE_OK);
	assert_int_equal(v, 1610612736);
	assert_int_equal(size_parse_user("0.3", &v), SIZE_SYNTAX);
	assert_int_equal(size_parse_user("16E", &v), SIZE_SYNTAX);
	assert_int_equal(size_parse_user("99999999999T", &v), SIZE_OVERFLOW);
	assert_int_equal(size_parse_user("", &v), SIZE_SYNTAX);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vmmap_units),
		cmocka_unit_test(test_vmmap_errors),
		cmocka_unit_test(test_vmmap_format),
		cmocka_unit_test(test_vmmap_format_matches_printf),
		cmocka_unit_test(test_hex_dec),
		cmocka_unit_test(test_user_sizes),
	};
	return cmocka_run_group_tests_name("size", tests, NULL, NULL);
}
