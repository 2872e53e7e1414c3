/*
 * model/session_growth.h: the classes that grew beside the sites charged
 * to them. Every figure below is a sum written beside its input.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "model/session_growth.h"
#include "util/bytes.h"

#define S(x) x, strlen(x)

static void
test_order_and_sums(void **state)
{
	(void)state;
	struct session_growth g;
	session_growth_init(&g);
	session_growth_set_counts(&g, S("IOSurface"), 1204, 1324);         /* +120 */
	session_growth_set_counts(&g, S("IOSurfaceRootUserClient"), 97, 100); /* +3 */
	session_growth_set_counts(&g, S("IOService"), 812, 812);          /* 0: no row */
	session_growth_set_counts(&g, S("OSData"), 50, 40);               /* shrank, has a site */
	session_growth_add_site(&g, S("IOSurface"), false, 0x1e000, 120);
	session_growth_add_site(&g, S("IOSurface"), false, 0x1000, 2);    /* 0x1f000 = 126976, 122 */
	session_growth_add_site(&g, S("IOSurface"), true, 0x4000, 16);
	session_growth_add_site(&g, S("OSData"), false, 0x100, 1);
	session_growth_add_site(&g, S("OSString"), true, 0x80, 1);        /* no counts */
	session_growth_finish(&g);
	assert_int_equal(g.nrows, 4);
	assert_string_equal(g.rows[0].cls, "IOSurface");
	assert_int_equal(g.rows[0].delta, 120);
	assert_int_equal(g.rows[0].track_bytes, 126976);
	assert_int_equal(g.rows[0].track_count, 122);
	assert_int_equal(g.rows[0].track_sites, 2);
	assert_int_equal(g.rows[0].leak_bytes, 16384);
	assert_int_equal(g.rows[0].leak_count, 16);
	assert_string_equal(g.rows[1].cls, "IOSurfaceRootUserClient");
	assert_int_equal(g.rows[1].delta, 3);
	assert_int_equal(g.rows[1].track_sites, 0);
	/* Not grown: by tracked bytes (OSData 0x100 before OSString 0), then leaked. */
	assert_string_equal(g.rows[2].cls, "OSData");
	assert_int_equal(g.rows[2].delta, -10);
	assert_string_equal(g.rows[3].cls, "OSString");
	assert_false(g.rows[3].has_delta);
	assert_false(g.saturated);
	session_growth_release(&g);
}

static void
test_saturates(void **state)
{
	(void)state;
	struct session_growth g;
	session_growth_init(&g);
	session_growth_set_counts(&g, S("X"), INT64_MIN, INT64_MAX);
	session_growth_add_site(&g, S("X"), false, BYTES_MAX, 1);
	session_growth_add_site(&g, S("X"), false, 1, -5);   /* a negative count is not added */
	session_growth_finish(&g);
	assert_int_equal(g.nrows, 1);
	assert_true(g.saturated);
	assert_int_equal(g.rows[0].delta, INT64_MAX);
	assert_int_equal(g.rows[0].track_bytes, BYTES_MAX);
	assert_int_equal(g.rows[0].track_count, 1);
	session_growth_release(&g);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order_and_sums),
		cmocka_unit_test(test_saturates),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
