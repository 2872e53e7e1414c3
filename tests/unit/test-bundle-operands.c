/*
 * Bundle operands (app/bundle_inputs.h app_bundle_operands()): a bundle
 * given where a command takes a capture becomes its capture of the
 * command's kind; options and plain files are left; a bundle that changed
 * after its capture is a warning; one without the capture stops the run.
 * The truth is fixtures/bundle/: complete (target/vmmap.txt), tampered
 * (its vmmap.txt does not match the manifest), partial (its vmmap step was
 * denied).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "app/bundle_inputs.h"
#include "app/kind.h"

#define BUNDLES IOTALLY_SOURCE_ROOT "/fixtures/bundle"

static void
test_replaced(void **state)
{
	(void)state;
	struct app_bundles bs;
	struct diag_list w;
	struct diag err;
	char cmd[] = "vmmap", opt[] = "--all-types", complete[] = BUNDLES "/complete",
	     tampered[] = BUNDLES "/tampered", file[] = BUNDLES "/complete/target/vmmap.txt";
	char *argv[] = { cmd, opt, complete, tampered, file };
	app_bundles_init(&bs);
	diag_list_init(&w, 10);
	assert_int_equal(app_bundle_operands(kind_by_name("vmmap")->name, 5, argv, &bs, &w,
					     &err), 0);
	assert_ptr_equal(argv[1], opt);
	assert_non_null(strstr(argv[2], "complete/target/vmmap.txt"));
	assert_non_null(strstr(argv[3], "tampered/target/vmmap.txt"));
	assert_ptr_equal(argv[4], file);
	assert_int_equal(w.len, 1);
	assert_non_null(strstr(diag_list_msg(&w, 0), "does not match the bundle manifest"));
	diag_list_release(&w);
	app_bundles_release(&bs);
}

static void
test_without_capture(void **state)
{
	(void)state;
	struct app_bundles bs;
	struct diag_list w;
	struct diag err;
	char cmd[] = "vmmap", partial[] = BUNDLES "/partial";
	char *argv[] = { cmd, partial };
	app_bundles_init(&bs);
	diag_list_init(&w, 10);
	assert_int_equal(app_bundle_operands(kind_by_name("vmmap")->name, 2, argv, &bs, &w,
					     &err), -1);
	assert_int_equal(err.code, DIAG_NOINPUT);
	assert_non_null(strstr(err.msg, "holds no vmmap capture"));
	diag_list_release(&w);
	app_bundles_release(&bs);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replaced),
		cmocka_unit_test(test_without_capture),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
