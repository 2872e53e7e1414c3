/*
 * model/session_exit.h: the exit status of `capture --session` for each
 * way a session ends. The statuses are sysexits' (util/diag.h), written
 * here as numbers so that a change of the table shows.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "model/session_exit.h"

/* Written: a complete session is 0, a partial one (stopped early, a step failed) 69. */
static void
test_written(void **state)
{
	(void)state;
	const struct session_end complete = { .complete = true };
	const struct session_end partial = { .complete = false };
	assert_int_equal(session_exit_status(&complete), 0);
	assert_int_equal(session_exit_status(&partial), 69);
}

/* Failed: the run's own error status (77 not root, 69 no kernel support, 64 usage, 73 DIR). */
static void
test_failed_keeps_its_status(void **state)
{
	(void)state;
	const int errors[] = { 77, 69, 64, 73 };
	for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); i++) {
		const struct session_end e = { .failed = true, .error = errors[i] };
		assert_int_equal(session_exit_status(&e), errors[i]);
	}
	/* `complete` is not read of a session that failed. */
	const struct session_end failed_complete = { .failed = true, .error = 73, .complete = true };
	assert_int_equal(session_exit_status(&failed_complete), 73);
}

/* A failure without a status is still a failure: 70, never 0. */
static void
test_failed_without_status(void **state)
{
	(void)state;
	const struct session_end e = { .failed = true, .error = 0 };
	assert_int_equal(session_exit_status(&e), 70);
}

/* Tracking that may still be on is 69 whatever else: complete, partial or failed. */
static void
test_tracking_maybe_on(void **state)
{
	(void)state;
	const struct session_end ends[] = {
		{ .complete = true, .tracking_maybe_on = true },
		{ .complete = false, .tracking_maybe_on = true },
		{ .failed = true, .error = 77, .tracking_maybe_on = true },
		{ .failed = true, .error = 0, .tracking_maybe_on = true },
	};
	for (size_t i = 0; i < sizeof(ends) / sizeof(ends[0]); i++)
		assert_int_equal(session_exit_status(&ends[i]), 69);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_written),
		cmocka_unit_test(test_failed_keeps_its_status),
		cmocka_unit_test(test_failed_without_status),
		cmocka_unit_test(test_tracking_maybe_on),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
