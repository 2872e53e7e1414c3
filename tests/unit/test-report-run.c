/*
 * `iotally report`'s run (app/report_run.h): which report the operands
 * make, what is said and in which order, a gate checked on a pair, a
 * tracking session routed to its two bundles. The truth is the fixtures:
 * fixtures/diff/vmmap-{before,after}.txt (the GPU types grew by 389 MiB:
 * a gate '>= +0' on them trips), fixtures/session/ (a session whose
 * before/ and after/ bundles were written).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "app/report_run.h"

#define FIXTURES IOTALLY_SOURCE_ROOT "/fixtures"
#define BEFORE FIXTURES "/diff/vmmap-before.txt"
#define AFTER FIXTURES "/diff/vmmap-after.txt"

static void
test_pair_with_gate(void **state)
{
	(void)state;
	struct report_run rr;
	struct diag_list notes;
	struct diag err;
	struct diff_gate *gates = NULL;
	size_t ngates = 0, alloc = 0;
	const char *paths[] = { BEFORE, AFTER };
	diag_list_init(&notes, 50);
	assert_int_equal(diff_gate_list_add(&gates, &ngates, &alloc, "vmmap:gpu.vsize >= +0",
					    &err), 0);
	assert_int_equal(app_report_run(&rr, paths, 2, false, gates, ngates, &notes, &err), 0);
	assert_true(rr.built);
	assert_false(rr.series);
	assert_true(rr.report.pair);
	assert_true(gates[0].tripped);
	/* The comparability warnings before the notes. */
	assert_int_equal(rr.nsay, 2);
	assert_ptr_equal(rr.say[0], &rr.warnings);
	assert_ptr_equal(rr.say[1], &notes);
	app_report_run_release(&rr);
	diff_gate_release(&gates[0]);
	free(gates);
	diag_list_release(&notes);
}

static void
test_one_capture_and_series(void **state)
{
	(void)state;
	struct report_run rr;
	struct diag_list notes;
	struct diag err;
	const char *one[] = { AFTER };
	const char *three[] = { BEFORE, AFTER, AFTER };
	diag_list_init(&notes, 50);
	assert_int_equal(app_report_run(&rr, one, 1, true, NULL, 0, &notes, &err), 0);
	assert_true(rr.built);
	assert_false(rr.report.pair);
	assert_true(rr.report.all);
	assert_int_equal(rr.nsay, 1);
	app_report_run_release(&rr);
	/* Three captures are a series: left to the series page, nothing built. */
	assert_int_equal(app_report_run(&rr, three, 3, false, NULL, 0, &notes, &err), 0);
	assert_true(rr.series);
	assert_false(rr.built);
	assert_int_equal(rr.npaths, 3);
	app_report_run_release(&rr);
	/* A missing input: an error, nothing built. */
	const char *missing[] = { FIXTURES "/no-such-file.txt" };
	assert_int_equal(app_report_run(&rr, missing, 1, false, NULL, 0, &notes, &err), -1);
	assert_false(rr.built);
	app_report_run_release(&rr);
	diag_list_release(&notes);
}

static void
test_session_routed(void **state)
{
	(void)state;
	struct report_run rr;
	struct diag_list notes;
	struct diag err;
	const char *session[] = { FIXTURES "/session" };
	diag_list_init(&notes, 50);
	assert_int_equal(app_report_run(&rr, session, 1, false, NULL, 0, &notes, &err), 0);
	assert_int_equal(rr.npaths, 2);
	assert_non_null(strstr(rr.paths[0], "before"));
	assert_non_null(strstr(rr.paths[1], "after"));
	assert_true(rr.built);
	assert_true(rr.report.pair);
	/* Notes, the pair's warnings, the session's notes. */
	assert_int_equal(rr.nsay, 3);
	assert_ptr_equal(rr.say[2], &rr.session_notes);
	app_report_run_release(&rr);
	diag_list_release(&notes);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pair_with_gate),
		cmocka_unit_test(test_one_capture_and_series),
		cmocka_unit_test(test_session_routed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
