#include "util/cleanup.h"

#include "util/xalloc.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum entry_kind { ENTRY_FILE, ENTRY_DIR, ENTRY_GROUP };

struct entry {
	enum entry_kind kind;
	char *path;         /* ENTRY_FILE, ENTRY_DIR: owned */
	pid_t pgid;         /* ENTRY_GROUP */
};

/*
 * The registry. Only changed with the signals below blocked, and read by
 * the handler, which therefore sees it whole.
 */
static struct entry *entries;
static size_t nentries, entries_alloc;
static char *message;
static size_t message_len;
static bool installed;
static sigset_t held_mask;
static unsigned held;      /* cleanup_hold() depth */
static volatile sig_atomic_t deferring;   /* cleanup_defer_signals(true) */
static volatile sig_atomic_t pending;     /* the signal deferred, or 0 */

static const int caught[] = { SIGINT, SIGTERM, SIGHUP };

static void
caught_set(sigset_t *set)
{
	sigemptyset(set);
	for (size_t i = 0; i < sizeof(caught) / sizeof(caught[0]); i++)
		sigaddset(set, caught[i]);
}

static void
block(sigset_t *old)
{
	sigset_t set;
	caught_set(&set);
	sigprocmask(SIG_BLOCK, &set, old);
}

static void
unblock(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

/* Async-signal-safe from here to the end of on_signal(). */
static void
write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		p += w;
		n -= (size_t)w;
	}
}

static void
kill_groups(void)
{
	for (size_t i = 0; i < nentries; i++)
		if (entries[i].kind == ENTRY_GROUP && entries[i].pgid > 0)
			kill(-entries[i].pgid, SIGKILL);
}

/* Steps 2 to 4: remove, say, die of `sig`. */
static void
finish(int sig)
{
	for (size_t i = nentries; i > 0; i--) {
		const struct entry *e = &entries[i - 1];
		if (e->kind == ENTRY_FILE)
			unlink(e->path);
		else if (e->kind == ENTRY_DIR)
			rmdir(e->path);
	}
	if (message)
		write_all(STDERR_FILENO, message, message_len);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
}

static void
on_signal(int sig)
{
	int saved = errno;
	kill_groups();
	if (deferring) {
		/* The command ends its work (stops kernel tracking) and then calls cleanup_raise_pending(). */
		pending = sig;
		errno = saved;
		return;
	}
	finish(sig);
	errno = saved;   /* not reached: the default action of all three ends the process */
}

static void
install(void)
{
	if (installed)
		return;
	installed = true;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	/* One handler at a time: a second signal waits until the first has cleaned up. */
	caught_set(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(caught) / sizeof(caught[0]); i++) {
		struct sigaction old;
		/* A signal ignored by whoever started us (nohup) stays ignored. */
		if (sigaction(caught[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(caught[i], &sa, NULL);
	}
}

static void
add(enum entry_kind kind, const char *path, pid_t pgid)
{
	/* Everything that allocates is done before the list changes. */
	char *copy = path ? xstrdup(path) : NULL;
	sigset_t old;
	block(&old);
	install();
	entries = xgrow(entries, &entries_alloc, nentries + 1, sizeof(*entries));
	entries[nentries].kind = kind;
	entries[nentries].path = copy;
	entries[nentries].pgid = pgid;
	nentries++;
	unblock(&old);
}

void
cleanup_add_file(const char *path)
{
	add(ENTRY_FILE, path, 0);
}

void
cleanup_add_dir(const char *path)
{
	add(ENTRY_DIR, path, 0);
}

void
cleanup_add_group(pid_t pgid)
{
	add(ENTRY_GROUP, NULL, pgid);
}

/* `path` itself, or a path below it. */
static bool
covers(const char *dir, size_t len, const char *path)
{
	return strncmp(path, dir, len) == 0 && (path[len] == '\0' || path[len] == '/');
}

void
cleanup_forget(const char *path)
{
	size_t len = strlen(path);
	while (len > 1 && path[len - 1] == '/')
		len--;
	sigset_t old;
	block(&old);
	size_t kept = 0;
	char **gone = NULL;
	size_t ngone = 0, gone_alloc = 0;
	for (size_t i = 0; i < nentries; i++) {
		struct entry *e = &entries[i];
		if (e->kind != ENTRY_GROUP && covers(path, len, e->path)) {
			gone = xgrow(gone, &gone_alloc, ngone + 1, sizeof(*gone));
			gone[ngone++] = e->path;
			continue;
		}
		entries[kept++] = *e;
	}
	nentries = kept;
	unblock(&old);
	for (size_t i = 0; i < ngone; i++)
		free(gone[i]);
	free(gone);
}

void
cleanup_forget_group(pid_t pgid)
{
	sigset_t old;
	block(&old);
	size_t kept = 0;
	for (size_t i = 0; i < nentries; i++)
		if (!(entries[i].kind == ENTRY_GROUP && entries[i].pgid == pgid))
			entries[kept++] = entries[i];
	nentries = kept;
	unblock(&old);
}

void
cleanup_set_message(const char *text)
{
	char *copy = text ? xstrdup(text) : NULL;
	sigset_t old;
	block(&old);
	char *prev = message;
	message = copy;
	message_len = copy ? strlen(copy) : 0;
	unblock(&old);
	free(prev);
}

void
cleanup_hold(void)
{
	sigset_t old;
	block(&old);
	if (held++ == 0)
		held_mask = old;
}

void
cleanup_release(void)
{
	if (held == 0 || --held > 0)
		return;
	unblock(&held_mask);
}

size_t
cleanup_count(void)
{
	return nentries;
}

void
cleanup_defer_signals(bool on)
{
	sigset_t old;
	block(&old);
	install();
	deferring = on;
	unblock(&old);
}

int
cleanup_pending_signal(void)
{
	return (int)pending;
}

void
cleanup_raise_pending(void)
{
	int sig = (int)pending;
	if (!sig)
		return;
	sigset_t old;
	block(&old);
	deferring = 0;
	finish(sig);
	unblock(&old);   /* not reached */
}
