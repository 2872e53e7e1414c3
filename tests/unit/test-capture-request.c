/*
 * What `iotally capture` is asked to do (capture/request.h): each case
 * gives the options as the command line would (ids of enum capture_arg,
 * operands with id 0) and checks what the capture and the session are
 * told, or the refusal; the truth is the option's meaning in `iotally
 * capture --help` and docs/capture.md.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bundle/manifest.h"
#include "capture/request.h"

struct arg {
	int id;
	const char *value;
	bool after_dashdash;
};

struct fixture {
	struct capture_opts o;
	struct session_opts so;
	struct capture_request req;
	struct diag err;
};

/* The options in order, then finish: 0, or -1 with f->err. */
static int
run(struct fixture *f, const struct arg *args, size_t n, bool stdin_tty)
{
	/* One step of each kind but the last, which a bundle may hold and no step captures. */
	static const struct capture_plan plan = {
		.steps = { { NULL, BUNDLE_KIND_VMMAP }, { NULL, BUNDLE_KIND_CLASSES },
			   { NULL, BUNDLE_KIND_TRACK }, { NULL, BUNDLE_KIND_FOOTPRINT } },
		.n = 4,
		.repeat_kinds = 1u << 3,
	};
	capture_request_init(&f->req, &f->o, &f->so, n, &plan);
	diag_clear(&f->err);
	for (size_t i = 0; i < n; i++)
		if (capture_request_take(&f->req, args[i].id, args[i].value, args[i].after_dashdash,
					 &f->err) < 0)
			return -1;
	return capture_request_finish(&f->req, false, stdin_tty, &f->err);
}

#define RUN(f, tty, ...) \
	run((f), (const struct arg[]){ __VA_ARGS__ }, \
	    sizeof((const struct arg[]){ __VA_ARGS__ }) / sizeof(struct arg), (tty))

static void
refused(struct fixture *f, int rc, const char *msg)
{
	assert_int_equal(rc, -1);
	assert_int_equal(f->err.code, DIAG_USAGE);
	assert_string_equal(f->err.msg, msg);
	capture_request_release(&f->req);
}

static void
test_defaults(void **state)
{
	(void)state;
	struct fixture f;
	assert_int_equal(run(&f, NULL, 0, false), 0);
	assert_true(f.o.pid < 0);
	assert_null(f.o.process);
	assert_int_equal(f.o.timeout_ms, 120000);   /* --timeout default 120 */
	assert_int_equal(f.o.interval_ms, 60000);   /* --interval default 60 */
	assert_true(f.o.redact);
	assert_int_equal(f.o.count, 0);
	assert_int_equal(f.o.kinds, 0);             /* every snapshot */
	assert_false(f.req.session || f.req.repeat);
	capture_request_release(&f.req);
}

static void
test_repeat(void **state)
{
	(void)state;
	struct fixture f;
	assert_int_equal(RUN(&f, false, { CAPTURE_ARG_REPEAT, "5", false },
			     { CAPTURE_ARG_PID, "42", false }, { 0, "./act", true },
			     { 0, "x", true }), 0);
	assert_true(f.req.repeat);
	assert_int_equal(f.o.count, 5);
	assert_int_equal(f.o.pid, 42);
	assert_int_equal(f.o.kinds, 1u << 3);       /* the default given to init */
	assert_int_equal(f.o.interval_ms, 0);       /* no settle time unless --settle */
	assert_non_null(f.so.command);
	assert_string_equal(f.so.command[0], "./act");
	assert_string_equal(f.so.command[1], "x");
	assert_null(f.so.command[2]);
	capture_request_release(&f.req);

	assert_int_equal(RUN(&f, false, { CAPTURE_ARG_REPEAT, "3", false },
			     { CAPTURE_ARG_KINDS, "vmmap,track", false },
			     { CAPTURE_ARG_SETTLE, "2", false },
			     { CAPTURE_ARG_PROCESS, "Preview", false }, { 0, "./act", true }), 0);
	assert_int_equal(f.o.kinds, (1u << BUNDLE_KIND_VMMAP) | (1u << BUNDLE_KIND_TRACK));
	assert_int_equal(f.o.interval_ms, 2000);
	capture_request_release(&f.req);
}

static void
test_repeat_refused(void **state)
{
	(void)state;
	struct fixture f;
	refused(&f, RUN(&f, false, { CAPTURE_ARG_REPEAT, "2", false }),
		"--repeat must be between 3 and 999 (a rate needs 3 iterations)");
	refused(&f, RUN(&f, false, { CAPTURE_ARG_KINDS, "vmmap,gpu", false }),
		"--kinds 'vmmap,gpu': each kind is vmmap, classes, track or footprint");
	/* A kind of the bundle's that no step of the plan captures is none of --kinds. */
	refused(&f, RUN(&f, false, { CAPTURE_ARG_KINDS, "vmmap,heap", false }),
		"--kinds 'vmmap,heap': each kind is vmmap, classes, track or footprint");
	refused(&f, RUN(&f, false, { CAPTURE_ARG_WARMUP, "1", false }),
		"--warmup, --keep-going, --kinds and --settle go with --repeat");
	refused(&f, RUN(&f, false, { CAPTURE_ARG_REPEAT, "3", false },
			{ CAPTURE_ARG_PID, "7", false }),
		"--repeat needs the action to repeat: -- COMMAND ARGS...");
	refused(&f, RUN(&f, false, { CAPTURE_ARG_REPEAT, "3", false }, { 0, "./act", true }),
		"--repeat needs the process to snapshot: --pid PID or --process NAME");
	refused(&f, RUN(&f, false, { CAPTURE_ARG_REPEAT, "3", false },
			{ CAPTURE_ARG_TRACK, NULL, false }),
		"--repeat does not go with --track");
	refused(&f, RUN(&f, false, { CAPTURE_ARG_REPEAT, "3", false },
			{ CAPTURE_ARG_INTERVAL, "5", false }),
		"--interval goes with --count");
}

static void
test_session(void **state)
{
	(void)state;
	struct fixture f;
	/* No command, no --duration: Enter on a terminal, refused without one. */
	assert_int_equal(RUN(&f, true, { CAPTURE_ARG_SESSION, NULL, false },
			     { 0, "IOSurface", false }), 0);
	assert_true(f.so.enter);
	assert_int_equal(f.so.nnames, 1);
	assert_string_equal(f.so.names[0], "IOSurface");
	capture_request_release(&f.req);
	refused(&f, RUN(&f, false, { CAPTURE_ARG_SESSION, NULL, false }),
		"--session waits for Enter on a terminal; without one, give --duration "
		"SECONDS or -- COMMAND ARGS...");
	assert_int_equal(RUN(&f, false, { CAPTURE_ARG_SESSION, NULL, false },
			     { CAPTURE_ARG_DURATION, "3", false },
			     { CAPTURE_ARG_CAPSIZE, "0x1000", false }), 0);
	assert_false(f.so.enter);
	assert_int_equal(f.so.duration_ms, 3000);
	assert_true(f.so.have_capsize);
	assert_int_equal(f.so.capsize, 4096);
	capture_request_release(&f.req);
	refused(&f, RUN(&f, true, { CAPTURE_ARG_SESSION, NULL, false },
			{ CAPTURE_ARG_COUNT, "3", false }),
		"--session runs its own --track; it does not go with --count");
	refused(&f, RUN(&f, true, { CAPTURE_ARG_KEEP, NULL, false }),
		"--keep, --capsize, --exclude, --size, --maps-all and --duration go with "
		"--session");
}

static void
test_capture_operands(void **state)
{
	(void)state;
	struct fixture f;
	refused(&f, RUN(&f, false, { 0, "IOSurface", false }),
		"unexpected operand 'IOSurface' (class names follow --track)");
	/* Outside a session, names after -- are class names too. */
	assert_int_equal(RUN(&f, false, { CAPTURE_ARG_TRACK, NULL, false }, { 0, "A", false },
			     { 0, "B", true }), 0);
	assert_int_equal(f.o.ntrack_names, 2);
	assert_string_equal(f.o.track_names[1], "B");
	assert_null(f.so.command);
	capture_request_release(&f.req);
	refused(&f, RUN(&f, false, { CAPTURE_ARG_PID, "1", false },
			{ CAPTURE_ARG_PROCESS, "x", false }),
		"give --pid or --process, not both");
	refused(&f, RUN(&f, false, { CAPTURE_ARG_PID, "0", false }),
		"--pid wants a process id, not '0'");
}

static void
test_exit_status(void **state)
{
	(void)state;
	char ok[] = "ok", skipped[] = "skipped", timeout[] = "timeout", denied[] = "denied",
	     failed[] = "failed", id[] = "step";
	struct capture_step_report steps[3] = {
		{ .id = id, .status = ok },
		{ .id = id, .status = skipped },
		{ .id = id, .status = ok },
	};
	struct capture_result res = { .complete = true, .steps = steps, .nsteps = 3 };
	assert_int_equal(capture_exit_status(&res), 0);
	res.complete = false;
	assert_int_equal(capture_exit_status(&res), 69);
	res.complete = true;
	steps[0].status = timeout;
	assert_int_equal(capture_exit_status(&res), 69);
	/* Denied wins over a failure before or after it: sudo is the fix. */
	steps[2].status = denied;
	assert_int_equal(capture_exit_status(&res), 77);
	steps[0].status = denied;
	steps[2].status = failed;
	assert_int_equal(capture_exit_status(&res), 77);

	enum diag_severity sev;
	assert_false(capture_step_said("ok", &sev));
	assert_true(capture_step_said("skipped", &sev));
	assert_int_equal(sev, DIAG_NOTE);
	assert_true(capture_step_said("target-gone", &sev));
	assert_int_equal(sev, DIAG_WARNING);
	assert_non_null(capture_step_hint("denied"));
	assert_null(capture_step_hint("failed"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_repeat),
		cmocka_unit_test(test_repeat_refused),
		cmocka_unit_test(test_session),
		cmocka_unit_test(test_capture_operands),
		cmocka_unit_test(test_exit_status),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
