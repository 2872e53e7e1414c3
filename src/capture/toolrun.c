#include "capture/toolrun.h"

#include "capture/spawn.h"

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

static void
close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
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
	int opipe[2] = { -1, -1 }, epipe[2] = { -1, -1 };
	int nul = spawn_fd_above_std(open("/dev/null", O_RDONLY | O_CLOEXEC));

	memset(res, 0, sizeof(*res));
	uint64_t start = spawn_now_ms();
	if (nul < 0 || spawn_pipe(opipe) < 0 || spawn_pipe(epipe) < 0) {
		res->end = SPAWN_FAILED;
		res->errno_value = errno;
		goto out;
	}
	const struct spawn_spec spec = {
		.path = path, .argv = argv, .envp = envp,
		.stdio = { nul, opipe[1], epipe[1] },
		.how = SPAWN_OWN_GROUP | SPAWN_DIE_WITH_PARENT | SPAWN_DEFAULT_SIGNALS,
	};
	pid_t pid;
	int e;
	int started = spawn_start(&spec, &pid, &e);
	close_fd(&opipe[1]);
	close_fd(&epipe[1]);
	if (started < 0) {
		res->end = e == ENOENT || e == EACCES ? SPAWN_NOT_FOUND : SPAWN_FAILED;
		res->errno_value = e;
		goto out;
	}
	struct stream st[2] = { { opipe[0], out, out_ctx }, { epipe[0], errs, errs_ctx } };
	opipe[0] = epipe[0] = -1;
	watch(pid, st, start, timeout_ms, res, sink_err);
	close_fd(&st[0].fd);
	close_fd(&st[1].fd);
	cleanup_forget_group(pid);
out:
	for (int i = 0; i < 2; i++) {
		close_fd(&opipe[i]);
		close_fd(&epipe[i]);
	}
	close_fd(&nul);
	res->duration_ms = spawn_now_ms() - start;
}
