/* setgroups() is BSD and glibc, not POSIX (as capture/session.c). */
#define _DEFAULT_SOURCE 1
#define _DARWIN_C_SOURCE 1
/*
 * The action of `iotally capture --repeat`, run as the invoking user
 * (capture/command.h).
 */

#include "capture/command.h"

#include "util/cleanup.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* SUDO_UID or SUDO_GID as a number other than 0, or -1. */
static int64_t
sudo_id(const char *name)
{
	const char *v = getenv(name);
	if (!v || !*v || strlen(v) > 10)
		return -1;
	int64_t n = 0;
	for (const char *p = v; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		n = n * 10 + (*p - '0');
	}
	return n > 0 && n < UINT32_MAX ? n : -1;
}

int
capture_command_user(struct capture_command *c, struct diag *err)
{
	c->drop = geteuid() == 0;
	if (!c->drop)
		return 0;
	int64_t uid = sudo_id("SUDO_UID"), gid = sudo_id("SUDO_GID");
	if (uid < 0 || gid < 0)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"the -- COMMAND runs as the user who ran sudo, and SUDO_UID or "
				"SUDO_GID is not set to a user other than root: run iotally "
				"through sudo from your own account");
	c->uid = (uint32_t)uid;
	c->gid = (uint32_t)gid;
	return 0;
}

/* After fork: a group of its own, default signals, the user's ids, exec. */
static void
child(const struct capture_command *c, int report_fd)
{
	setpgid(0, 0);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (c->drop && (setgroups(0, NULL) < 0 || setgid((gid_t)c->gid) < 0 ||
			setuid((uid_t)c->uid) < 0 || getuid() != (uid_t)c->uid ||
			geteuid() != (uid_t)c->uid))
		goto fail;
	execvp(c->argv[0], c->argv);
fail:;
	int e = errno ? errno : EPERM;
	while (write(report_fd, &e, sizeof(e)) < 0 && errno == EINTR)
		;
	_exit(127);
}

int
capture_command_run(const struct capture_command *c, int *status, struct diag *err)
{
	int fds[2], e = 0;
	if (pipe(fds) < 0)
		return diag_set(err, DIAG_UNAVAILABLE, NULL, 0, 0, "cannot run '%s': %s",
				c->argv[0], strerror(errno));
	fcntl(fds[0], F_SETFD, FD_CLOEXEC);
	fcntl(fds[1], F_SETFD, FD_CLOEXEC);
	/* The group is registered before the child exists: a signal in between finds nothing to stop. */
	cleanup_hold();
	pid_t pid = fork();
	if (pid == 0)
		child(c, fds[1]);
	if (pid > 0) {
		setpgid(pid, pid);   /* also here: no window where the group does not exist */
		cleanup_add_group(pid);
	}
	cleanup_release();
	close(fds[1]);
	if (pid < 0) {
		e = errno;
		close(fds[0]);
		return diag_set(err, DIAG_UNAVAILABLE, NULL, 0, 0, "cannot run '%s': %s",
				c->argv[0], strerror(e));
	}
	ssize_t n;
	while ((n = read(fds[0], &e, sizeof(e))) < 0 && errno == EINTR)
		;
	close(fds[0]);
	if (n != (ssize_t)sizeof(e))
		e = 0;
	int ws = 0;
	while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
		;
	cleanup_forget_group(pid);
	if (e)
		return diag_set(err, DIAG_UNAVAILABLE, NULL, 0, 0, "cannot run '%s'%s: %s",
				c->argv[0], c->drop ? " as the user who ran sudo" : "",
				strerror(e));
	*status = WIFSIGNALED(ws) ? 128 + WTERMSIG(ws) : WEXITSTATUS(ws);
	return 0;
}
