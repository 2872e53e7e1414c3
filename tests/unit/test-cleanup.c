/*
 * util/cleanup.h: what SIGINT, SIGTERM and SIGHUP leave behind. Each case
 * forks a child that makes temporary outputs the way the commands do
 * (util/tempfile.h, util/outfile.h, files registered inside a temporary
 * folder), then raises the signal; the parent checks from outside that
 * the child died of that signal (the handler re-raised it), that its
 * message reached standard error, and that the folder holds exactly what
 * should survive.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/cleanup.h"
#include "util/diag.h"
#include "util/outfile.h"
#include "util/tempfile.h"

static char dir[64];

static int
setup(void **state)
{
	(void)state;
	strcpy(dir, "/tmp/iotally-cleanup-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static void
remove_all(const char *path)
{
	char cmd[200];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", path);
}

static int
teardown(void **state)
{
	(void)state;
	remove_all(dir);
	return 0;
}

/* The names in dir, sorted, joined by spaces. */
static void
listing(char *out, size_t n)
{
	char *names[64];
	size_t count = 0;
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL && count < 64)
		if (e->d_name[0] != '.' || (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")))
			names[count++] = strdup(e->d_name);
	if (d)
		closedir(d);
	for (size_t i = 1; i < count; i++)
		for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
			char *t = names[j];
			names[j] = names[j - 1];
			names[j - 1] = t;
		}
	out[0] = '\0';
	for (size_t i = 0; i < count; i++) {
		if (i)
			strncat(out, " ", n - strlen(out) - 1);
		strncat(out, names[i], n - strlen(out) - 1);
		free(names[i]);
	}
}

typedef void (*child_fn)(void);

/* Run fn in a child with stderr on a pipe: the signal it died of, its stderr in msg. */
static int
run_child(child_fn fn, char *msg, size_t n)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/*
		 * cleanup_init() keeps a signal ignored when it starts ignored
		 * (nohup, a background job): the child must start with the default
		 * disposition whatever started the test.
		 */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		dup2(p[1], STDERR_FILENO);
		close(p[0]);
		fn();
		_exit(0);   /* the signal should have ended it */
	}
	close(p[1]);
	/* Until every writer is gone: the child, and anything it started. */
	size_t len = 0;
	for (;;) {
		ssize_t got = read(p[0], msg + len, n - 1 - len);
		if (got <= 0)
			break;
		len += (size_t)got;
	}
	msg[len] = '\0';
	close(p[0]);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return WIFSIGNALED(status) ? WTERMSIG(status) : -WEXITSTATUS(status) - 1000;
}

static int which_signal;

/* `report -o FILE` / `--junit FILE`: an outfile written to, not committed. */
static void
child_outfile(void)
{
	char path[128];
	struct outfile o;
	struct diag err;
	snprintf(path, sizeof(path), "%s/report.md", dir);
	if (outfile_open(&o, path, &err) < 0)
		_exit(3);
	fputs("half a report\n", o.fp);
	fflush(o.fp);
	raise(which_signal);
}

static void
test_outfile_removed(void **state)
{
	(void)state;
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	for (size_t i = 0; i < 3; i++) {
		char msg[256], names[512];
		which_signal = sigs[i];
		assert_int_equal(run_child(child_outfile, msg, sizeof(msg)), sigs[i]);
		listing(names, sizeof(names));
		assert_string_equal(names, "");
	}
}

/* A committed outfile is the user's: a later signal leaves it. */
static void
child_outfile_committed(void)
{
	char path[128];
	struct outfile o;
	struct diag err;
	snprintf(path, sizeof(path), "%s/kept.md", dir);
	if (outfile_open(&o, path, &err) < 0)
		_exit(3);
	fputs("a whole report\n", o.fp);
	if (outfile_commit(&o, &err) < 0)
		_exit(4);
	raise(SIGTERM);
}

static void
test_committed_kept(void **state)
{
	(void)state;
	char msg[256], names[512];
	assert_int_equal(run_child(child_outfile_committed, msg, sizeof(msg)), SIGTERM);
	listing(names, sizeof(names));
	assert_string_equal(names, "kept.md");
	remove_all(dir);
	assert_int_equal(mkdir(dir, 0700), 0);
}

/*
 * capture and redact: a temporary folder with files and folders registered
 * inside it, one file nobody registered, and a message.
 */
static void
child_tree(void)
{
	char out[128], path[256];
	snprintf(out, sizeof(out), "%s/bundle", dir);
	char *tmp = tempdir_beside(out, "partial");
	if (!tmp)
		_exit(3);
	snprintf(path, sizeof(path), "%s/target", tmp);
	mkdir(path, 0700);
	cleanup_add_dir(path);
	snprintf(path, sizeof(path), "%s/target/vmmap.txt", tmp);
	int fd = open(path, O_WRONLY | O_CREAT, 0600);
	cleanup_add_file(path);
	close(fd);
	snprintf(path, sizeof(path), "%s/manifest.json", tmp);
	fd = open(path, O_WRONLY | O_CREAT, 0600);
	cleanup_add_file(path);
	close(fd);
	cleanup_set_message("iotally: error: interrupted: nothing was left behind\n");
	raise(SIGINT);
}

static void
test_tree_removed(void **state)
{
	(void)state;
	char msg[256], names[512];
	assert_int_equal(run_child(child_tree, msg, sizeof(msg)), SIGINT);
	assert_string_equal(msg, "iotally: error: interrupted: nothing was left behind\n");
	listing(names, sizeof(names));
	assert_string_equal(names, "");
}

/* Forgotten after the rename: the published folder stays, whole. */
static void
child_forgotten(void)
{
	char out[128], path[256];
	snprintf(out, sizeof(out), "%s/bundle", dir);
	char *tmp = tempdir_beside(out, "partial");
	if (!tmp)
		_exit(3);
	snprintf(path, sizeof(path), "%s/manifest.json", tmp);
	int fd = open(path, O_WRONLY | O_CREAT, 0600);
	cleanup_add_file(path);
	close(fd);
	cleanup_hold();
	if (rename(tmp, out) < 0)
		_exit(4);
	cleanup_forget(tmp);
	cleanup_set_message("kept\n");
	raise(SIGTERM);       /* held: handled at the release, after the forgetting */
	if (cleanup_count() != 0)
		_exit(5);
	cleanup_release();
}

static void
test_forgotten_kept(void **state)
{
	(void)state;
	char msg[256], names[512], path[256];
	assert_int_equal(run_child(child_forgotten, msg, sizeof(msg)), SIGTERM);
	assert_string_equal(msg, "kept\n");
	listing(names, sizeof(names));
	assert_string_equal(names, "bundle");
	snprintf(path, sizeof(path), "%s/bundle/manifest.json", dir);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	remove_all(dir);
	assert_int_equal(mkdir(dir, 0700), 0);
}

/* A registered process group (a running tool) is killed before the handler re-raises. */
static void
child_group(void)
{
	int p[2];
	if (pipe(p) < 0)
		_exit(3);
	pid_t g = fork();
	if (g == 0) {
		setpgid(0, 0);
		close(p[0]);
		pause();
		_exit(0);
	}
	setpgid(g, g);
	cleanup_add_group(g);
	/* the grandchild's pid goes out through stderr for the parent to check */
	fprintf(stderr, "%ld\n", (long)g);
	fflush(stderr);
	raise(SIGHUP);
}

static void
test_group_killed(void **state)
{
	(void)state;
	char msg[256];
	assert_int_equal(run_child(child_group, msg, sizeof(msg)), SIGHUP);
	/*
	 * The grandchild held the write end of the child's standard error:
	 * run_child() read to its end, so the grandchild is gone (a survivor
	 * would hold it open and the test would hang until meson's timeout).
	 */
	assert_true(strtol(msg, NULL, 10) > 0);
}

/*
 * Deferred signals (capture --session): the handler records SIGINT and
 * returns; the child then does its undoing (here: writes undone.txt, as
 * the session runs ioclasscount --stop), and only cleanup_raise_pending()
 * removes the registered file, says the message and dies of the signal.
 */
static void
child_deferred(void)
{
	char reg[128], undone[128];
	snprintf(reg, sizeof(reg), "%s/registered.tmp", dir);
	snprintf(undone, sizeof(undone), "%s/undone.txt", dir);
	int fd = open(reg, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd < 0)
		_exit(2);
	close(fd);
	cleanup_add_file(reg);
	cleanup_set_message("deferred\n");
	cleanup_defer_signals(true);
	raise(SIGINT);
	if (cleanup_pending_signal() != SIGINT)
		_exit(3);   /* the handler did not return with the signal recorded */
	if (access(reg, F_OK) != 0)
		_exit(4);   /* removed before the undoing */
	fd = open(undone, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd < 0)
		_exit(5);
	close(fd);
	cleanup_raise_pending();
	_exit(6);   /* not reached */
}

static void
test_deferred(void **state)
{
	(void)state;
	char msg[256], names[512];
	assert_int_equal(run_child(child_deferred, msg, sizeof(msg)), SIGINT);
	assert_string_equal(msg, "deferred\n");
	listing(names, sizeof(names));
	assert_string_equal(names, "undone.txt");
	remove_all(dir);
	assert_int_equal(mkdir(dir, 0700), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_outfile_removed),
		cmocka_unit_test(test_committed_kept),
		cmocka_unit_test(test_tree_removed),
		cmocka_unit_test(test_forgotten_kept),
		cmocka_unit_test(test_group_killed),
		cmocka_unit_test(test_deferred),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
