/*
 * util/jsonstr.h against independent truth: the validity of each sequence
 * is Unicode's Table 3-7 (well-formed UTF-8 byte sequences), checked by
 * decoding with Python's strict codec for the same bytes (listed beside
 * each case); jansson itself must accept every result, and every valid
 * input must come back byte for byte.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/jsonstr.h"

struct esc_case {
	const char *in;
	size_t n;
	const char *want;
};

#define C(s, w) { s, sizeof(s) - 1, w }

static const struct esc_case cases[] = {
	C("WindowServer", "WindowServer"),
	C("caf\xc3\xa9", "caf\xc3\xa9"),                     /* U+00E9 */
	C("\xe2\x82\xac", "\xe2\x82\xac"),                   /* U+20AC */
	C("\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80"),           /* U+1F600 */
	C("\xf4\x8f\xbf\xbf", "\xf4\x8f\xbf\xbf"),           /* U+10FFFF, the last */
	C("\xed\x9f\xbf", "\xed\x9f\xbf"),                   /* U+D7FF, before the surrogates */
	C("\x1b]52;c;\x07", "\x1b]52;c;\x07"),               /* controls are valid UTF-8 */
	C("demo\xff", "demo\\xFF"),                          /* never valid */
	C("\xc3(", "\\xC3("),                                /* lead without continuation */
	C("\xc0\xaf", "\\xC0\\xAF"),                         /* overlong '/' */
	C("\xe0\x80\xaf", "\\xE0\\x80\\xAF"),                /* overlong, 3 bytes */
	C("\xed\xa0\x80", "\\xED\\xA0\\x80"),                /* U+D800, a surrogate */
	C("\xf4\x90\x80\x80", "\\xF4\\x90\\x80\\x80"),       /* U+110000 */
	C("\xf5\x80\x80\x80", "\\xF5\\x80\\x80\\x80"),
	C("\xe2\x82", "\\xE2\\x82"),                         /* cut short at the end */
	C("\x80x", "\\x80x"),                                /* lone continuation */
	C("a\\x41", "a\\x41"),                               /* documented: not a round trip */
	C("a\0b", "a\\x00b"),                                /* NUL would end the C string */
	C("", ""),
};

static void
test_escape(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t len;
		char *got = utf8_escape_invalid(cases[i].in, cases[i].n, &len);
		assert_string_equal(got, cases[i].want);
		assert_int_equal(len, strlen(cases[i].want));
		/* jansson, strict about UTF-8, takes every result */
		json_t *j = json_stringn(got, len);
		assert_non_null(j);
		json_decref(j);
		free(got);
	}
}

/* The keys a manifest writes never disappear: json_string() refuses, the helper does not. */
static void
test_key_kept(void **state)
{
	(void)state;
	const char *name = "demo\xc3(";
	assert_null(json_string(name));
	json_t *obj = json_object();
	json_object_set_new(obj, "name", json_string_safe(name));
	json_object_set_new(obj, "none", json_string_safe(NULL));
	assert_string_equal(json_string_value(json_object_get(obj, "name")), "demo\\xC3(");
	assert_true(json_is_null(json_object_get(obj, "none")));
	json_decref(obj);
}

/* Every two-byte string: the helper keeps exactly what jansson calls valid. */
static void
test_agrees_with_jansson(void **state)
{
	(void)state;
	for (unsigned a = 1; a < 256; a++) {
		for (unsigned b = 0; b < 256; b++) {
			char in[3] = { (char)a, (char)b, 0 };
			size_t n = b ? 2 : 1;
			json_t *j = json_stringn(in, n);
			size_t len;
			char *got = utf8_escape_invalid(in, n, &len);
			if (j)
				assert_true(len == n && memcmp(got, in, n) == 0);
			else
				assert_true(len > n);
			json_decref(j);
			free(got);
		}
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_key_kept),
		cmocka_unit_test(test_agrees_with_jansson),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
