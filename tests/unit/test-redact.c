#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "capture/redact.h"

/* Redact `in` (collecting values from it first) and compare with `want`. */
static void
expect(const char *in, const char *want, enum redact_rule rule, uint64_t hits)
{
	struct redactor rd;
	struct strbuf out = STRBUF_INIT;
	uint64_t h[REDACT_NRULES] = { 0 };
	redactor_init(&rd);
	redactor_collect(&rd, in, strlen(in));
	redactor_apply(&rd, in, strlen(in), &out, h);
	assert_string_equal(out.buf, want);
	assert_int_equal(h[rule], hits);
	strbuf_release(&out);
	redactor_release(&rd);
}

static void
test_plist_keys_keep_the_key(void **state)
{
	(void)state;
	expect("<key>kCGSSessionUserNameKey</key>\n\t<string>bob</string>",
	       "<key>kCGSSessionUserNameKey</key>\n\t<string>REDACTED</string>", REDACT_CONSOLE_USER, 1);
	expect("<key>serial-number</key><data>QzAyWFlaMTIz</data>",
	       "<key>serial-number</key><data>REDACTED</data>", REDACT_SERIAL, 1);
}

static void
test_ioreg_text_keys(void **state)
{
	(void)state;
	expect("\"IOPlatformSerialNumber\" = \"C02XYZ123\"\n",
	       "\"IOPlatformSerialNumber\" = \"REDACTED\"\n", REDACT_SERIAL, 1);
	expect("{\"kCGSSessionUserNameKey\"=\"carol\",\"x\"=1}",
	       "{\"kCGSSessionUserNameKey\"=\"REDACTED\",\"x\"=1}", REDACT_CONSOLE_USER, 1);
	expect("\"serial-number\" = <\"C02XYZ123\">", "\"serial-number\" = <\"REDACTED\">",
	       REDACT_SERIAL, 1);
}

/* A value found under a key is removed everywhere, as a whole word only. */
static void
test_known_values_whole_words(void **state)
{
	(void)state;
	expect("\"kCGSSessionUserNameKey\"=\"mac\"\nmachdep mac-mini mac\n",
	       "\"kCGSSessionUserNameKey\"=\"REDACTED\"\nmachdep REDACTED-mini REDACTED\n",
	       REDACT_KNOWN_VALUE, 2);
}

static void
test_paths(void **state)
{
	(void)state;
	expect("Path: /Users/dave/app\n/Users/Shared/x /Users/USER/y /Users/",
	       "Path: /Users/USER/app\n/Users/Shared/x /Users/USER/y /Users/", REDACT_USER_PATH, 1);
	expect("/private/var/folders/zz/abc_123/T/f /var/folders/REDACTED/T",
	       "/private/var/folders/REDACTED/T/f /var/folders/REDACTED/T", REDACT_TEMP_PATH, 1);
}

static void
test_bootargs(void **state)
{
	(void)state;
	expect("kern.bootargs: -v io=0x400000 serial=3 debug=0x8\nnext\n",
	       "kern.bootargs: io=0x400000 debug=0x8\nnext\n", REDACT_BOOTARGS, 1);
	expect("kern.bootargs: io=0x1", "kern.bootargs: io=0x1", REDACT_BOOTARGS, 0);
}

/* Cut inputs: a key at the very end, a value never closed. Nothing is invented. */
static void
test_truncated_input(void **state)
{
	(void)state;
	expect("<key>IOPlatformUUID</key>", "<key>IOPlatformUUID</key>", REDACT_SERIAL, 0);
	expect("<key>IOPlatformUUID</key><string>ABC", "<key>IOPlatformUUID</key><string>ABC",
	       REDACT_SERIAL, 0);
	expect("\"IOPlatformUUID\" = \"ABC\nDEF\"", "\"IOPlatformUUID\" = \"ABC\nDEF\"", REDACT_SERIAL,
	       0);
	expect("", "", REDACT_SERIAL, 0);
	expect("/Users", "/Users", REDACT_USER_PATH, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plist_keys_keep_the_key),
		cmocka_unit_test(test_ioreg_text_keys),
		cmocka_unit_test(test_known_values_whole_words),
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_bootargs),
		cmocka_unit_test(test_truncated_input),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
