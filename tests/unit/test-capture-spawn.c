#define _XOPEN_SOURCE 700
/*
 * capture/spawn.h: each flag checked against what the child does with and
 * without it, through /bin/sh (a POSIX shell keeps ignored a signal that
 * was ignored when it started, so SIGHUP tells the two apart).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capture/spawn.h"
#include "util/cleanup.h"

/* Wait for pid: the exit status, or 128 + the signal that ended it. */
static int
wait_for(pid_t pid)
{
	int ws = 0;
	while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
		;
	cleanup_forget_group(pid);
	return WIFSIGNALED(ws) ? 128 + WTERMSIG(ws) : WEXITSTATUS(ws);
}

/* Run /bin/sh -c SCRIPT with `how` and wait: its status. */
static int
sh_status(const char *script, unsigned how)
{
	char *argv[] = { (char *)"sh", (char *)"-c", (char *)script, NULL };
	const struct spawn_spec spec = { .path = "/bin/sh", .argv = argv,
					 .stdio = { -1, -1, -1 }, .how = how };
	pid_t pid;
	int e;
	assert_int_equal(spawn_start(&spec, &pid, &e), 0);
	return wait_for(pid);
}

static void
test_exec_failure_is_an_errno(void **state)
{
	(void)state;
	char *argv[] = { (char *)"no-such-program", NULL };
	struct spawn_spec spec = { .path = "/nonexistent/no-such-program", .argv = argv,
				   .stdio = { -1, -1, -1 }, .how = SPAWN_OWN_GROUP };
	pid_t pid = 0;
	int e = 0;
	assert_int_equal(spawn_start(&spec, &pid, &e), -1);
	assert_int_equal(e, ENOENT);
	assert_int_equal(pid, -1);
	/* The failed child is reaped already: nothing is left to wait for. */
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
	spec.path = "no-such-program";
	spec.how = SPAWN_SEARCH_PATH;
	assert_int_equal(spawn_start(&spec, &pid, &e), -1);
	assert_int_equal(e, ENOENT);
}

static void
test_stdio_environment_and_path_search(void **state)
{
	(void)state;
	int out[2];
	assert_int_equal(spawn_pipe(out), 0);
	assert_true(out[0] > 2 && out[1] > 2);
	char *argv[] = { (char *)"sh", (char *)"-c", (char *)"printf '%s' \"$ONLY\"; exit 3", NULL };
	char *envp[] = { (char *)"ONLY=given", NULL };
	const struct spawn_spec spec = { .path = "sh", .argv = argv, .envp = envp,
					 .stdio = { -1, out[1], -1 }, .how = SPAWN_SEARCH_PATH };
	pid_t pid;
	int e;
	setenv("PATH", "/usr/bin:/bin", 1);
	assert_int_equal(spawn_start(&spec, &pid, &e), 0);
	close(out[1]);
	char buf[32] = { 0 };
	size_t n = 0;
	ssize_t r;
	while ((r = read(out[0], buf + n, sizeof(buf) - 1 - n)) > 0)
		n += (size_t)r;
	close(out[0]);
	assert_string_equal(buf, "given");
	assert_int_equal(wait_for(pid), 3);
}

static void
test_default_signals_undo_an_inherited_ignore(void **state)
{
	(void)state;
	struct sigaction ign, old;
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGHUP, &ign, &old);   /* as nohup starts iotally */
	int inherited = sh_status("kill -HUP $$; exit 0", 0);
	int reset = sh_status("kill -HUP $$; exit 0", SPAWN_DEFAULT_SIGNALS);
	sigaction(SIGHUP, &old, NULL);
	assert_int_equal(inherited, 0);
	assert_int_equal(reset, 128 + SIGHUP);
}

static void
test_own_group(void **state)
{
	(void)state;
	int in[2];
	assert_int_equal(spawn_pipe(in), 0);
	char *argv[] = { (char *)"sh", (char *)"-c", (char *)"read x", NULL };
	struct spawn_spec spec = { .path = "/bin/sh", .argv = argv,
				   .stdio = { in[0], -1, -1 }, .how = SPAWN_OWN_GROUP };
	pid_t pid;
	int e;
	for (int own = 1; own >= 0; own--) {
		spec.how = own ? SPAWN_OWN_GROUP : 0;
		assert_int_equal(spawn_start(&spec, &pid, &e), 0);
		assert_int_equal(getpgid(pid), own ? pid : getpgrp());
		assert_int_equal(write(in[1], "\n", 1), 1);
		assert_int_equal(wait_for(pid), 0);
	}
	close(in[0]);
	close(in[1]);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exec_failure_is_an_errno),
		cmocka_unit_test(test_stdio_environment_and_path_search),
		cmocka_unit_test(test_default_signals_undo_an_inherited_ignore),
		cmocka_unit_test(test_own_group),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
