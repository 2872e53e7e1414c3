#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "capture/files.h"

/*
 * "iotally-YYYYMMDDTHHMMSSZ" then `rest`: the stamp checked by its shape
 * (the clock is not fixed), the rest byte for byte.
 */
static void
expect_name(char *got, const char *rest)
{
	static const char shape[] = "iotally-DDDDDDDDTDDDDDDZ";
	size_t n = sizeof(shape) - 1;
	assert_true(strlen(got) >= n);
	for (size_t i = 0; i < n; i++) {
		if (shape[i] == 'D')
			assert_true(got[i] >= '0' && got[i] <= '9');
		else
			assert_int_equal(got[i], shape[i]);
	}
	assert_string_equal(got + n, rest);
	free(got);
}

static void
test_default_dir_of_a_process(void **state)
{
	(void)state;
	expect_name(capfile_default_dir(NULL, 4242, "Safari", NULL), "-Safari-4242");
	expect_name(capfile_default_dir(NULL, 7, "Web Content", "series"), "-Web_Content-7-series");
	expect_name(capfile_default_dir(NULL, 7, NULL, NULL), "-process-7");
}

static void
test_default_dir_keeps_only_safe_bytes(void **state)
{
	(void)state;
	/* Each byte outside [A-Za-z0-9_-] is one '_': a slash, dots, an escape, UTF-8. */
	expect_name(capfile_default_dir(NULL, 1, "../a.b\x1b]c\xc3\xa9-_Z9", NULL),
		    "-___a_b__c__-_Z9-1");
}

static void
test_default_dir_of_the_system(void **state)
{
	(void)state;
	expect_name(capfile_default_dir(NULL, -1, NULL, NULL), "-system");
	expect_name(capfile_default_dir(NULL, -1, "ignored", "series"), "-system-series");
}

static void
test_default_dir_of_a_session(void **state)
{
	(void)state;
	expect_name(capfile_default_dir("session", 99, "Demo", NULL), "-session-Demo-99");
	expect_name(capfile_default_dir("session", -1, NULL, NULL), "-session");
}

static void
test_output_dir_drops_trailing_slashes(void **state)
{
	(void)state;
	static const char *const cases[][2] = {
		{ "out/", "out" }, { "out///", "out" }, { "a/b", "a/b" }, { "/", "/" },
		{ "//", "/" }, { "x", "x" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = capfile_output_dir(cases[i][0]);
		assert_string_equal(got, cases[i][1]);
		free(got);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_dir_of_a_process),
		cmocka_unit_test(test_default_dir_keeps_only_safe_bytes),
		cmocka_unit_test(test_default_dir_of_the_system),
		cmocka_unit_test(test_default_dir_of_a_session),
		cmocka_unit_test(test_output_dir_drops_trailing_slashes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
