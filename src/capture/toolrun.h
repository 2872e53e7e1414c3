#ifndef IOTALLY_CAPTURE_TOOLRUN_H
#define IOTALLY_CAPTURE_TOOLRUN_H

/*
 * Running one tool of a capture: posix_spawnp (found through PATH, never a
 * shell), standard input from /dev/null, standard output and standard
 * error each into its own file, in a process group of its own so that a
 * timeout or an interrupt stops the tool and whatever it started. POSIX
 * only (macOS and Linux alike).
 */

#include <stdbool.h>
#include <stdint.h>

enum spawn_end {
	SPAWN_EXITED,       /* exit_status is valid */
	SPAWN_SIGNALED,     /* signal is valid */
	SPAWN_NOT_FOUND,    /* argv[0] is not on PATH (or not executable) */
	SPAWN_FAILED,       /* could not start: errno_value */
	SPAWN_TIMED_OUT,    /* killed after the timeout */
	SPAWN_INTERRUPTED,  /* killed because *stop became non-zero */
};

struct spawn_result {
	enum spawn_end end;
	int exit_status;
	int signal;
	int errno_value;
	uint64_t duration_ms;
};

/*
 * Run argv (NULL-terminated) with stdout to `out_fd` and stderr to
 * `err_fd`. Waits at most `timeout_ms` (0: no limit), polling `*stop`
 * (set by a signal handler) so an interrupt ends the wait early. On timeout
 * or interrupt the tool's process group gets SIGTERM, then SIGKILL one
 * second later. Always fills *res; never prints.
 */
void spawn_run(char *const argv[], int out_fd, int err_fd, uint64_t timeout_ms,
	       volatile const int *stop, struct spawn_result *res);

/* Milliseconds of a monotonic clock. */
uint64_t spawn_now_ms(void);

#endif
