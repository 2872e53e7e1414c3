#include "capture/toolrun.h"

#include "util/cleanup.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifdef __linux__
#include <sys/prctl.h>
#endif

/* Bytes read from a tool's pipe at a time. */
#define PIPE_READ 65536
/* Longest wait in poll(), so the timeout is checked this often. */
#define POLL_MS 20

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
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* ------------------------------------------------------------- resolving */

static char *
find_in(const char *dirs, const char *name)
{
	const char *p = dirs;
	while (*p) {
		const char *colon = strchr(p, ':');
		size_t len = colon ? (size_t)(colon - p) : strlen(p);
		if (len) {
			struct strbuf sb = STRBUF_INIT;
			strbuf_add(&sb, p, len);
			strbuf_addf(&sb, "/%s", name);
			struct stat st;
			if (stat(sb.buf, &st) == 0 && S_ISREG(st.st_mode) && access(sb.buf, X_OK) == 0)
				return strbuf_detach(&sb, NULL);
			strbuf_release(&sb);
		}
		p += len + (colon ? 1 : 0);
	}
	return NULL;
}

char *
toolrun_resolve(const char *tools_dir, const char *name)
{
	if (!name[0] || strchr(name, '/'))
		return NULL;
	if (tools_dir) {
		/* One folder, taken as given: ':' in it is part of its name. */
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "%s/%s", tools_dir, name);
		struct stat st;
		if (stat(sb.buf, &st) == 0 && S_ISREG(st.st_mode) && access(sb.buf, X_OK) == 0)
			return strbuf_detach(&sb, NULL);
		strbuf_release(&sb);
		return NULL;
	}
	return find_in(TOOLRUN_SYSTEM_DIRS, name);
}

/* ---------------------------------------------------------------- waiting */

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
stop_child(pid_t pid, int *status, bool *reaped)
{
	if (!*reaped) {
		kill(-pid, SIGTERM);
		for (int i = 0; i < 100 && !*reaped; i++) {
			if (reap(pid, status))
				*reaped = true;
			else
				sleep_ms(10);
		}
	}
	kill(-pid, SIGKILL);   /* the tool, or anything it left behind in its group */
	if (!*reaped)
		while (waitpid(pid, status, 0) < 0 && errno == EINTR)
			;
	*reaped = true;
}

/* ---------------------------------------------------------------- the child */

struct child_setup {
	const char *path;
	char *const *argv;
	char *const *envp;
	int in_fd, out_fd, err_fd, report_fd;
	pid_t parent;
};

/* After fork: async-signal-safe calls only, then execve. */
static void
child_exec(const struct child_setup *c)
{
	setpgid(0, 0);
#ifdef __linux__
	/* Dies with iotally, even when iotally is killed outright (SIGKILL). */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != c->parent)
		_exit(127);   /* iotally died before the line above took effect */
#endif
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
	if (dup2(c->in_fd, STDIN_FILENO) < 0 || dup2(c->out_fd, STDOUT_FILENO) < 0 ||
	    dup2(c->err_fd, STDERR_FILENO) < 0)
		goto fail;
	execve(c->path, c->argv, c->envp);
fail:;
	int e = errno;
	while (write(c->report_fd, &e, sizeof(e)) < 0 && errno == EINTR)
		;
	_exit(127);
}

/*
 * fd moved above the standard three (close-on-exec). iotally may have been
 * started with standard input or output closed: a pipe could then be fd 0
 * or 1, and the child's dup2() onto 0, 1, 2 would overwrite one with another.
 */
static int
above_std(int fd)
{
	if (fd < 0 || fd > STDERR_FILENO)
		return fd;
	int high = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
	close(fd);
	return high;
}

static int
cloexec_pipe(int fds[2])
{
	if (pipe(fds) < 0)
		return -1;
	for (int i = 0; i < 2; i++) {
		fds[i] = above_std(fds[i]);
		if (fds[i] < 0 || fcntl(fds[i], F_SETFD, FD_CLOEXEC) < 0)
			return -1;
	}
	return 0;
}

static void
close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* The errno execve reported through the pipe, or 0 when it ran. */
static int
exec_error(int fd)
{
	int e = 0;
	ssize_t n;
	while ((n = read(fd, &e, sizeof(e))) < 0 && errno == EINTR)
		;
	return n == (ssize_t)sizeof(e) ? e : 0;
}

/* --------------------------------------------------------------- the pipes */

struct stream {
	int fd;
	spawn_sink_fn sink;
	void *ctx;
};

/* Read what one pipe has: 0 (more may come), 1 at its end, -1 when the sink failed. */
static int
pump(struct stream *s, char *buf, struct diag *err)
{
	ssize_t n = read(s->fd, buf, PIPE_READ);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (n <= 0) {
		close_fd(&s->fd);
		return 1;
	}
	if (s->sink(s->ctx, buf, (size_t)n, err) < 0)
		return -1;
	return 0;
}

/* After the tool exited: what is left in the pipes, without waiting for helpers it left. */
static int
drain(struct stream *s, char *buf, struct diag *err)
{
	if (s->fd < 0)
		return 0;
	fcntl(s->fd, F_SETFL, fcntl(s->fd, F_GETFL) | O_NONBLOCK);
	for (;;) {
		ssize_t n = read(s->fd, buf, PIPE_READ);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (s->sink(s->ctx, buf, (size_t)n, err) < 0)
			return -1;
	}
	close_fd(&s->fd);
	return 0;
}

/* Wait in poll() for either pipe, at most `ms`; ready[i]: pipe i can be read without blocking. */
static void
wait_pipes(struct stream st[2], int ms, bool ready[2])
{
	struct pollfd p[2];
	int at[2] = { -1, -1 };
	nfds_t n = 0;
	ready[0] = ready[1] = false;
	for (int i = 0; i < 2; i++)
		if (st[i].fd >= 0) {
			p[n].fd = st[i].fd;
			p[n].events = POLLIN;
			p[n].revents = 0;
			at[i] = (int)n++;
		}
	if (n == 0) {
		sleep_ms((unsigned)ms);
		return;
	}
	if (poll(p, n, ms) <= 0)
		return;   /* nothing yet, or EINTR: the loop looks again */
	for (int i = 0; i < 2; i++)
		if (at[i] >= 0 && (p[at[i]].revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL)))
			ready[i] = true;
}

/* The loop of one run: until the tool ended and the pipes are read, or a timeout. */
static void
watch(pid_t pid, struct stream st[2], uint64_t start, uint64_t timeout_ms,
      struct spawn_result *res, struct diag *sink_err)
{
	char *buf = xmalloc(PIPE_READ);
	int status = 0;
	bool reaped = false;
	for (;;) {
		bool ready[2];
		wait_pipes(st, POLL_MS, ready);
		for (int i = 0; i < 2; i++) {
			if (ready[i] && st[i].fd >= 0 && pump(&st[i], buf, sink_err) < 0) {
				stop_child(pid, &status, &reaped);
				res->end = SPAWN_SINK_FAILED;
				goto out;
			}
		}
		/* Both pipes still open and data flowing: read on before looking at the child. */
		if ((ready[0] || ready[1]) && st[0].fd >= 0 && st[1].fd >= 0 &&
		    !(timeout_ms && spawn_now_ms() - start >= timeout_ms))
			continue;
		if (!reaped && reap(pid, &status))
			reaped = true;
		if (reaped) {
			if (drain(&st[0], buf, sink_err) < 0 || drain(&st[1], buf, sink_err) < 0) {
				res->end = SPAWN_SINK_FAILED;
				goto out;
			}
			break;
		}
		if (timeout_ms && spawn_now_ms() - start >= timeout_ms) {
			stop_child(pid, &status, &reaped);
			res->end = SPAWN_TIMED_OUT;
			goto out;
		}
	}
	kill(-pid, SIGKILL);   /* helpers the tool left in its group */
	if (WIFSIGNALED(status)) {
		res->end = SPAWN_SIGNALED;
		res->signal = WTERMSIG(status);
	} else {
		res->end = SPAWN_EXITED;
		res->exit_status = WEXITSTATUS(status);
	}
out:
	free(buf);
}

void
spawn_run(const char *path, char *const argv[], spawn_sink_fn out, void *out_ctx,
	  spawn_sink_fn errs, void *errs_ctx, uint64_t timeout_ms, struct spawn_result *res,
	  struct diag *sink_err)
{
	static char env_path[] = "PATH=" TOOLRUN_ENV_PATH, env_lc[] = "LC_ALL=C";
	char *envp[] = { env_path, env_lc, NULL };
	int opipe[2] = { -1, -1 }, epipe[2] = { -1, -1 }, rpipe[2] = { -1, -1 };
	int nul = above_std(open("/dev/null", O_RDONLY | O_CLOEXEC));

	memset(res, 0, sizeof(*res));
	uint64_t start = spawn_now_ms();
	if (nul < 0 || cloexec_pipe(opipe) < 0 || cloexec_pipe(epipe) < 0 ||
	    cloexec_pipe(rpipe) < 0) {
		res->end = SPAWN_FAILED;
		res->errno_value = errno;
		goto out;
	}
	struct child_setup c = { path, argv, envp, nul, opipe[1], epipe[1], rpipe[1], getpid() };
	/* The group is registered before a signal can come between fork and registration. */
	cleanup_hold();
	pid_t pid = fork();
	if (pid == 0)
		child_exec(&c);
	int fork_errno = errno;
	if (pid > 0) {
		setpgid(pid, pid);   /* also here: no window where the group does not exist */
		cleanup_add_group(pid);
	}
	cleanup_release();
	if (pid < 0) {
		res->end = SPAWN_FAILED;
		res->errno_value = fork_errno;
		goto out;
	}
	close_fd(&opipe[1]);
	close_fd(&epipe[1]);
	close_fd(&rpipe[1]);
	int e = exec_error(rpipe[0]);
	if (e) {
		int status;
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		res->end = e == ENOENT || e == EACCES ? SPAWN_NOT_FOUND : SPAWN_FAILED;
		res->errno_value = e;
	} else {
		struct stream st[2] = { { opipe[0], out, out_ctx }, { epipe[0], errs, errs_ctx } };
		opipe[0] = epipe[0] = -1;
		watch(pid, st, start, timeout_ms, res, sink_err);
		close_fd(&st[0].fd);
		close_fd(&st[1].fd);
	}
	cleanup_forget_group(pid);
out:
	for (int i = 0; i < 2; i++) {
		close_fd(&opipe[i]);
		close_fd(&epipe[i]);
		close_fd(&rpipe[i]);
	}
	close_fd(&nul);
	res->duration_ms = spawn_now_ms() - start;
}
