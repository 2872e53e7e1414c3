#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ingest/foreign.h"

static enum foreign_kind
detect(const char *s)
{
	return input_foreign_detect(s, strlen(s));
}

static void
test_footprint(void **state)
{
	(void)state;
	/* footprint's text is read (ingest/footprint_read.h), not refused. */
	assert_int_equal(detect("=====\nzsh [56783]: 64-bit    Footprint: 1884592 B (16384 bytes per page)\n"),
			 FOREIGN_NONE);
	assert_int_equal(detect("{\n  \"total footprint\": 1,\n  \"processes\": []\n}\n"),
			 FOREIGN_FOOTPRINT_JSON);
	/* The words alone, or on different lines, are not a footprint title. */
	assert_int_equal(detect("Physical footprint:         1185K\n"), FOREIGN_NONE);
	assert_int_equal(detect("zsh [1]: 64-bit\nFootprint: 1 B (16384 bytes per page)\n"),
			 FOREIGN_NONE);
	/* A vmmap header names the footprint too. */
	assert_int_equal(detect("Process:         zsh [56783]\nPhysical footprint:  1M\n"),
			 FOREIGN_NONE);
	/* "total footprint" inside a string of other JSON, not at its top: still JSON of footprint's. */
	assert_int_equal(detect("[\"total footprint\"]"), FOREIGN_NONE);
}

static void
test_system_profiler(void **state)
{
	(void)state;
	assert_int_equal(detect("<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<array><dict>"
				"<key>_dataType</key><string>SPUSBDataType</string>"),
			 FOREIGN_SYSTEM_PROFILER);
	/* An ioreg -a property list is not one. */
	assert_int_equal(detect("<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>"
				"<key>IOKitDiagnostics</key><dict>"), FOREIGN_NONE);
	/* The key outside a property list (ioreg text quoting it) is not one either. */
	assert_int_equal(detect("+-o Root  <class IORegistryEntry>\n  <key>_dataType</key>\n"),
			 FOREIGN_NONE);
	assert_int_equal(detect(""), FOREIGN_NONE);
	assert_non_null(input_foreign_describe(FOREIGN_SYSTEM_PROFILER));
	assert_null(input_foreign_describe(FOREIGN_NONE));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_footprint),
		cmocka_unit_test(test_system_profiler),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
