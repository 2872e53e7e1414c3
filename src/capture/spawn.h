#ifndef IOTALLY_CAPTURE_SPAWN_H
#define IOTALLY_CAPTURE_SPAWN_H

/*
 * Starting a child process: the one fork-and-exec of capture/, used by the
 * tools a capture runs (capture/toolrun.h), the action of `capture
 * --repeat` (capture/command.h) and the -- COMMAND of `capture --session`.
 * Each asks for what it needs through `how`; an exec that fails is told
 * to the parent through a close-on-exec pipe, so the caller learns it as
 * an errno rather than as an exit status 127 it cannot tell apart from the
 * command's own. POSIX only.
 */

#include <stdint.h>
#include <sys/types.h>

enum spawn_how {
	/*
	 * A process group of its own, registered with util/cleanup.h before
	 * the child exists, so that a signal to iotally stops the group; the
	 * caller forgets it (cleanup_forget_group()) once it has reaped the
	 * child. Without it the child stays in iotally's group: the terminal's
	 * Ctrl-C reaches both.
	 */
	SPAWN_OWN_GROUP = 1u << 0,
	/*
	 * SIGINT, SIGTERM, SIGHUP and SIGPIPE at their default action and no
	 * signal blocked, whatever iotally inherited: a process started under
	 * nohup (SIGHUP ignored) or with SIGPIPE ignored would otherwise pass
	 * that on, and the child would outlive the signal meant to stop it.
	 */
	SPAWN_DEFAULT_SIGNALS = 1u << 1,
	/* Linux: SIGKILL when iotally dies, even by SIGKILL (macOS has no such call). */
	SPAWN_DIE_WITH_PARENT = 1u << 2,
	/* No supplementary groups, then spec->gid and spec->uid, checked, before exec. */
	SPAWN_DROP_USER = 1u << 3,
	/* spec->path is a name looked up in PATH (execvp), not a path taken as given. */
	SPAWN_SEARCH_PATH = 1u << 4,
};

struct spawn_spec {
	const char *path;      /* what is run (see SPAWN_SEARCH_PATH) */
	char *const *argv;     /* NULL-terminated; argv[0] is what the child sees */
	char *const *envp;     /* the child's environment; NULL: iotally's own */
	/* Standard input, output and error: a descriptor above 2 (spawn_fd_above_std()), or -1: iotally's. */
	int stdio[3];
	unsigned how;          /* enum spawn_how bits */
	uint32_t uid, gid;     /* with SPAWN_DROP_USER */
};

/*
 * Fork and exec as `spec` says. 0 with *pid, the running child, for the
 * caller to wait for; -1 with *error (an errno value) when fork failed or
 * the child could not take the user, its standard descriptors or exec:
 * that child has then been reaped (and its group forgotten).
 */
int spawn_start(const struct spawn_spec *spec, pid_t *pid, int *error);

/*
 * A pipe whose both ends are close-on-exec and above the standard three
 * (iotally may have been started with one of them closed: a pipe end
 * could then be fd 0 or 1, and the child's dup2() onto 0, 1, 2 would
 * overwrite one with another). 0, or -1 with errno and nothing open.
 */
int spawn_pipe(int fds[2]);

/* fd moved above the standard three, close-on-exec (fd itself is closed); -1 on error. */
int spawn_fd_above_std(int fd);

#endif
