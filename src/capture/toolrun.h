#ifndef IOTALLY_CAPTURE_TOOLRUN_H
#define IOTALLY_CAPTURE_TOOLRUN_H

/*
 * Running one tool of a capture.
 *
 * Which tool: a bare name is looked up in TOOLRUN_SYSTEM_DIRS only
 * (Apple's own folders, which System Integrity Protection keeps
 * root-owned), never through the caller's PATH: under `sudo -E`, or in a
 * root shell whose PATH holds a folder the user can write, "vmmap" could
 * be anyone's. Tests name a folder of stand-ins with `capture --tools-dir`
 * (an explicit option, so that no inherited variable can do it).
 *
 * How it runs: fork and execve of the absolute path (never a shell), with
 * a minimal environment (TOOLRUN_ENV_PATH and LC_ALL=C, so the failure
 * texts iotally classifies are the C locale's), standard input from
 * /dev/null, standard output and standard error each through a pipe to a
 * sink the caller gives (capture/ redacts there, before anything reaches
 * the disk), in a process group of its own, registered with util/cleanup.h
 * so that SIGINT/SIGTERM/SIGHUP of iotally kills the group. On Linux the
 * tool also gets PR_SET_PDEATHSIG (SIGKILL): it dies when iotally is
 * killed outright. macOS has no such call: docs/capture.md says what a
 * SIGKILL leaves there and how to clean it. POSIX only.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/diag.h"

/* Where Apple's tools are looked up (ps lives in /bin on macOS). */
#define TOOLRUN_SYSTEM_DIRS "/usr/bin:/usr/sbin:/bin"
/* The PATH a tool runs with (it may start helpers of its own). */
#define TOOLRUN_ENV_PATH "/usr/bin:/bin:/usr/sbin:/sbin"

enum spawn_end {
	SPAWN_EXITED,       /* exit_status is valid */
	SPAWN_SIGNALED,     /* signal is valid */
	SPAWN_NOT_FOUND,    /* no such tool in the folders searched (or not executable) */
	SPAWN_FAILED,       /* could not start: errno_value */
	SPAWN_TIMED_OUT,    /* killed after the timeout */
	SPAWN_SINK_FAILED,  /* a sink refused its bytes (the disk is full): the tool was stopped */
};

struct spawn_result {
	enum spawn_end end;
	int exit_status;
	int signal;
	int errno_value;
	uint64_t duration_ms;
};

/*
 * The absolute path of tool `name`: the first executable file of that name
 * in `tools_dir` when given (testing), else in TOOLRUN_SYSTEM_DIRS. Owned,
 * or NULL when there is none.
 */
char *toolrun_resolve(const char *tools_dir, const char *name);

/* Bytes a tool wrote: 0, or -1 with *err (the tool is then stopped). */
typedef int (*spawn_sink_fn)(void *ctx, const char *p, size_t n, struct diag *err);

/*
 * Run `path` with argv (NULL-terminated; argv[0] is what the tool sees)
 * and hand its standard output to `out`, its standard error to `errs`,
 * as the bytes arrive. Waits at most `timeout_ms` (0: no limit); on
 * timeout the tool's process group gets SIGTERM, then SIGKILL a second
 * later. Always fills *res; *sink_err holds a sink's error when
 * res->end is SPAWN_SINK_FAILED. Never prints.
 */
void spawn_run(const char *path, char *const argv[], spawn_sink_fn out, void *out_ctx,
	       spawn_sink_fn errs, void *errs_ctx, uint64_t timeout_ms, struct spawn_result *res,
	       struct diag *sink_err);

/* Milliseconds of a monotonic clock. */
uint64_t spawn_now_ms(void);

#endif
