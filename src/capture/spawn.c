/* setgroups() is BSD and glibc, not POSIX: asked for on glibc and on macOS. */
#define _DEFAULT_SOURCE 1
#define _DARWIN_C_SOURCE 1
/*
 * Starting a child process (capture/spawn.h).
 */

#include "capture/spawn.h"

#include "util/cleanup.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef __linux__
#include <sys/prctl.h>
#endif

extern char **environ;

int
spawn_fd_above_std(int fd)
{
	if (fd < 0)
		return fd;
	if (fd > STDERR_FILENO)
		return fcntl(fd, F_SETFD, FD_CLOEXEC) < 0 ? (close(fd), -1) : fd;
	int high = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
	int e = errno;
	close(fd);
	errno = e;
	return high;
}

int
spawn_pipe(int fds[2])
{
	if (pipe(fds) < 0)
		return -1;
	fds[0] = spawn_fd_above_std(fds[0]);
	fds[1] = spawn_fd_above_std(fds[1]);
	if (fds[0] >= 0 && fds[1] >= 0)
		return 0;
	int e = errno;
	for (int i = 0; i < 2; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	fds[0] = fds[1] = -1;
	errno = e;
	return -1;
}

static void
default_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

/* After fork: async-signal-safe calls only, then exec; what failed goes to report_fd. */
static void
child(const struct spawn_spec *s, pid_t parent, int report_fd)
{
	if (s->how & SPAWN_OWN_GROUP)
		setpgid(0, 0);
#ifdef __linux__
	if (s->how & SPAWN_DIE_WITH_PARENT) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);   /* iotally died before the line above took effect */
	}
#else
	(void)parent;
#endif
	if (s->how & SPAWN_DEFAULT_SIGNALS)
		default_signals();
	/* iotally blocks signals around its critical sections: none is blocked in the child. */
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	errno = 0;
	if ((s->how & SPAWN_DROP_USER) &&
	    (setgroups(0, NULL) < 0 || setgid((gid_t)s->gid) < 0 || setuid((uid_t)s->uid) < 0 ||
	     getuid() != (uid_t)s->uid || geteuid() != (uid_t)s->uid))
		goto fail;
	for (int fd = 0; fd < 3; fd++)
		if (s->stdio[fd] >= 0 && dup2(s->stdio[fd], fd) < 0)
			goto fail;
	if (s->envp)
		environ = (char **)s->envp;
	if (s->how & SPAWN_SEARCH_PATH)
		execvp(s->path, s->argv);
	else
		execv(s->path, s->argv);
fail:;
	int e = errno ? errno : EPERM;
	while (write(report_fd, &e, sizeof(e)) < 0 && errno == EINTR)
		;
	_exit(127);
}

/* The errno the child reported, or 0 when exec ran (the pipe closed empty). */
static int
read_report(int fd)
{
	int e = 0;
	ssize_t n;
	while ((n = read(fd, &e, sizeof(e))) < 0 && errno == EINTR)
		;
	return n == (ssize_t)sizeof(e) ? e : 0;
}

int
spawn_start(const struct spawn_spec *s, pid_t *pid, int *error)
{
	int report[2];
	bool own = (s->how & SPAWN_OWN_GROUP) != 0;
	*pid = -1;
	*error = 0;
	if (spawn_pipe(report) < 0) {
		*error = errno;
		return -1;
	}
	pid_t parent = getpid();
	/* The group is registered before the child exists: a signal in between finds nothing to stop. */
	if (own)
		cleanup_hold();
	pid_t p = fork();
	if (p == 0)
		child(s, parent, report[1]);
	int fork_errno = errno;
	if (own) {
		if (p > 0) {
			setpgid(p, p);   /* also here: no window where the group does not exist */
			cleanup_add_group(p);
		}
		cleanup_release();
	}
	close(report[1]);
	if (p < 0) {
		close(report[0]);
		*error = fork_errno;
		return -1;
	}
	int e = read_report(report[0]);
	close(report[0]);
	if (e) {
		int status;
		while (waitpid(p, &status, 0) < 0 && errno == EINTR)
			;
		if (own)
			cleanup_forget_group(p);
		*error = e;
		return -1;
	}
	*pid = p;
	return 0;
}
