#include "capture/toolrun.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

uint64_t
spawn_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void
sleep_ms(unsigned ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* Wait for pid without blocking. 1 reaped (*status set), 0 still running. */
static int
reap(pid_t pid, int *status)
{
	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);
		if (r == pid)
			return 1;
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			*status = 0;
			return 1;   /* already gone (ECHILD): nothing left to wait for */
		}
		return 0;
	}
}

/* SIGTERM to the tool's group, SIGKILL after a second, then reap. */
static void
stop_child(pid_t pid, int *status)
{
	kill(-pid, SIGTERM);
	kill(pid, SIGTERM);
	for (int i = 0; i < 100; i++) {
		if (reap(pid, status))
			goto group;
		sleep_ms(10);
	}
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
group:
	kill(-pid, SIGKILL);   /* anything the tool left behind in its group */
}

void
spawn_run(char *const argv[], int out_fd, int err_fd, uint64_t timeout_ms,
	  volatile const int *stop, struct spawn_result *res)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none, deflt;
	pid_t pid;
	int status = 0;

	memset(res, 0, sizeof(*res));
	uint64_t start = spawn_now_ms();
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, out_fd, STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, err_fd, STDERR_FILENO);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setpgroup(&attr, 0);
	sigemptyset(&none);
	posix_spawnattr_setsigmask(&attr, &none);
	/* The tool starts with default handlers, not iotally's. */
	sigemptyset(&deflt);
	sigaddset(&deflt, SIGINT);
	sigaddset(&deflt, SIGTERM);
	sigaddset(&deflt, SIGPIPE);
	posix_spawnattr_setsigdefault(&attr, &deflt);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
				 POSIX_SPAWN_SETSIGDEF);
	int rc = posix_spawnp(&pid, argv[0], &fa, &attr, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	if (rc != 0) {
		res->end = rc == ENOENT || rc == EACCES ? SPAWN_NOT_FOUND : SPAWN_FAILED;
		res->errno_value = rc;
		res->duration_ms = spawn_now_ms() - start;
		return;
	}
	/* Poll: short sleeps first (most tools end within milliseconds), then 20 ms. */
	unsigned nap = 1;
	for (;;) {
		if (reap(pid, &status))
			break;
		if (stop && *stop) {
			stop_child(pid, &status);
			res->end = SPAWN_INTERRUPTED;
			res->duration_ms = spawn_now_ms() - start;
			return;
		}
		if (timeout_ms && spawn_now_ms() - start >= timeout_ms) {
			stop_child(pid, &status);
			res->end = SPAWN_TIMED_OUT;
			res->duration_ms = spawn_now_ms() - start;
			return;
		}
		sleep_ms(nap);
		if (nap < 20)
			nap *= 2;
	}
	res->duration_ms = spawn_now_ms() - start;
	if (WIFSIGNALED(status)) {
		res->end = SPAWN_SIGNALED;
		res->signal = WTERMSIG(status);
	} else {
		res->end = SPAWN_EXITED;
		res->exit_status = WEXITSTATUS(status);
	}
}
