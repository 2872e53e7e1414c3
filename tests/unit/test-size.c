#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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
		cmocka_unit_test(test_hex_dec),
		cmocka_unit_test(test_user_sizes),
	};
	return cmocka_run_group_tests_name("size", tests, NULL, NULL);
}
