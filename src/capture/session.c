#include "capture/session.h"

#include "bundle/manifest.h"
#include "capture/command.h"
#include "capture/files.h"
#include "capture/redact.h"
#include "capture/spawn.h"
#include "capture/toolrun.h"
#include "iotally-config.h"
#include "util/cleanup.h"
#include "util/jsonstr.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A probe's or a control step's output kept (the rest is counted, not kept). */
#define SMALL_MAX 8192u
/* The preflight's probes (sysctl, ioclasscount's usage). */
#define PROBE_TIMEOUT_MS 10000
/* The -- COMMAND after SIGTERM, before SIGKILL. */
#define COMMAND_GRACE_MS 2000

/* What the usage text must list: the session's own flags (formats/ioclasscount.md §4.8). */
static const char *const needed_flags[] = {
	"--track", "--leaks", "--reset", "--start", "--stop", "--maps", "--exclude", "--size",
	"--capsize",
};

struct small_out {
	struct strbuf text;
};

static int
small_sink(void *ctx, const char *p, size_t n, struct diag *err)
{
	struct small_out *so = ctx;
	(void)err;
	if (so->text.len < SMALL_MAX)
		strbuf_add(&so->text, p, n < SMALL_MAX - so->text.len ? n : SMALL_MAX - so->text.len);
	return 0;
}

static void
utc_now(char out[32])
{
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The first non-empty line of `text`, or NULL. */
static char *
first_line(const struct strbuf *text)
{
	const char *p = text->buf, *end = text->buf + text->len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		if (le > p)
			return xmemdup0(p, (size_t)(le - p));
		p = nl ? nl + 1 : end;
	}
	return NULL;
}

/* ------------------------------------------------------------ the run */

struct session {
	const struct session_opts *so;
	struct session_result *res;
	char *ioclasscount;         /* resolved */
	char *kern_version, *bootargs;
	uint64_t io;
	bool have_io;
	uint32_t uid, gid;          /* the -- COMMAND's user */
	int64_t pid;
	char *target_name;
	bool target_other_user;
	char *tmp;
	json_t *steps;
	bool started;               /* --start was attempted */
	char started_utc[32], finished_utc[32];
	struct redactor rd;         /* for the texts session.json records (argv, the command) */
};

static void
say(const struct session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
say(const struct session *s, const char *fmt, ...)
{
	if (!s->so->say)
		return;
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	s->so->say(s->so->say_ctx, sb.buf);
	strbuf_release(&sb);
}

/* A text of the outside as session.json records it: redacted unless --no-redact. */
static json_t *
text_json(const struct session *s, const char *t)
{
	if (!t || !s->so->cap.redact)
		return json_string_safe(t);
	uint64_t hits[REDACT_NRULES] = { 0 };
	struct strbuf out = STRBUF_INIT;
	redactor_apply(&s->rd, t, strlen(t), &out, hits);
	json_t *j = json_string_safe(out.buf);
	strbuf_release(&out);
	return j;
}

static json_t *
argv_json(const struct session *s, char *const *argv, int argc)
{
	json_t *a = json_array();
	for (int i = 0; argv[i] && (argc < 0 || i < argc); i++)
		json_array_append_new(a, text_json(s, argv[i]));
	return a;
}

/* A tool run with its outputs kept small: the probes and the control steps. */
static void
run_small(const struct session *s, char *const *argv, uint64_t timeout_ms, struct strbuf *out,
	  struct strbuf *errs, struct spawn_result *sr)
{
	struct small_out o = { STRBUF_INIT }, e = { STRBUF_INIT };
	struct diag unused;
	diag_clear(&unused);
	(void)s;
	spawn_run(argv[0], argv, small_sink, &o, small_sink, &e, timeout_ms, sr, &unused);
	strbuf_add(out, o.text.buf, o.text.len);
	strbuf_add(errs, e.text.buf, e.text.len);
	strbuf_release(&o.text);
	strbuf_release(&e.text);
}

/* ------------------------------------------------------------ preflight */

static int
refuse(struct diag *err, int code, const char *why, const char *fix)
{
	return diag_set(err, code, NULL, 0, 0,
			"cannot start a tracking session: %s; to change: %s", why, fix);
}

/* `sysctl NAME`'s value (after "NAME: "), or NULL. */
static char *
read_sysctl(const struct session *s, const char *name)
{
	char *path = toolrun_resolve(s->so->cap.tools_dir, "sysctl");
	if (!path)
		return NULL;
	char *argv[] = { path, (char *)name, NULL };
	struct strbuf out = STRBUF_INIT, errs = STRBUF_INIT;
	struct spawn_result sr;
	run_small(s, argv, PROBE_TIMEOUT_MS, &out, &errs, &sr);
	free(path);
	char *v = NULL;
	size_t n = strlen(name);
	if (sr.end == SPAWN_EXITED && sr.exit_status == 0 && out.len > n + 1 &&
	    memcmp(out.buf, name, n) == 0 && (out.buf[n] == ':' || out.buf[n] == '=')) {
		const char *p = out.buf + n + 1;
		while (*p == ' ')
			p++;
		size_t len = strcspn(p, "\n");
		v = xmemdup0(p, len);
	}
	strbuf_release(&out);
	strbuf_release(&errs);
	return v;
}

/* The flags ioclasscount's usage text (printed for an unknown option) does not list. */
static int
check_usage(struct session *s, struct diag *err)
{
	char *argv[] = { s->ioclasscount, (char *)"--help", NULL };
	struct strbuf out = STRBUF_INIT, errs = STRBUF_INIT;
	struct spawn_result sr;
	run_small(s, argv, PROBE_TIMEOUT_MS, &out, &errs, &sr);
	strbuf_add(&out, errs.buf, errs.len);
	struct strbuf missing = STRBUF_INIT;
	for (size_t i = 0; i < sizeof(needed_flags) / sizeof(needed_flags[0]); i++) {
		if (strcmp(needed_flags[i], "--capsize") == 0 && !s->so->have_capsize)
			continue;
		if (!strstr(out.buf ? out.buf : "", needed_flags[i]))
			strbuf_addf(&missing, "%s%s", missing.len ? " " : "", needed_flags[i]);
	}
	int rc = 0;
	if (missing.len) {
		struct strbuf why = STRBUF_INIT;
		strbuf_addf(&why, "%s does not list %s in its usage text (tracking needs the "
			    "ioclasscount of macOS 10.13 or later: IOKitTools-108+)",
			    s->ioclasscount, missing.buf);
		rc = refuse(err, DIAG_UNAVAILABLE, why.buf,
			    "run it on a Mac whose /usr/sbin/ioclasscount has them");
		strbuf_release(&why);
	}
	strbuf_release(&missing);
	strbuf_release(&out);
	strbuf_release(&errs);
	return rc;
}

static int
preflight(struct session *s, struct diag *err)
{
	const struct session_opts *so = s->so;
	if (geteuid() != 0)
		return refuse(err, CAPTURE_EXIT_NOPERM,
			      capture_track_block_reason(TRACK_NOT_ROOT),
			      "sudo iotally capture --session ...");
	if (so->command) {
		if (capture_sudo_user(&s->uid, &s->gid) < 0)
			return refuse(err, DIAG_USAGE,
				      "the -- COMMAND runs as the user who ran sudo, and SUDO_UID "
				      "or SUDO_GID is not set to a user other than root",
				      "run iotally through sudo from your own account, or wait "
				      "with --duration SECONDS instead");
	}
	s->ioclasscount = toolrun_resolve(so->cap.tools_dir, "ioclasscount");
	if (!s->ioclasscount)
		return refuse(err, DIAG_UNAVAILABLE,
			      so->cap.tools_dir ? "ioclasscount is not in --tools-dir"
						: "ioclasscount is not in " TOOLRUN_SYSTEM_DIRS,
			      "run it on a Mac (IOKitTools installs /usr/sbin/ioclasscount)");
	s->kern_version = read_sysctl(s, "kern.version");
	s->bootargs = read_sysctl(s, "kern.bootargs");
	s->have_io = capture_bootarg_io(s->bootargs, &s->io);
	enum track_block b = capture_track_check(s->kern_version, s->bootargs, true);
	if (b != TRACK_OK) {
		struct strbuf why = STRBUF_INIT;
		strbuf_addstr(&why, capture_track_block_reason(b));
		if (b == TRACK_RELEASE && s->kern_version)
			strbuf_addf(&why, " (kern.version: %s)", s->kern_version);
		if (b == TRACK_NO_IO_BOOTARG)
			strbuf_addf(&why, " (kern.bootargs: %s)",
				    s->bootargs ? s->bootargs : "not read");
		int rc = refuse(err, DIAG_UNAVAILABLE, why.buf, capture_track_block_fix(b));
		strbuf_release(&why);
		return rc;
	}
	return check_usage(s, err);
}

/* ------------------------------------------------------------ steps */

static const char *
end_status(const struct spawn_result *sr)
{
	if (sr->end == SPAWN_TIMED_OUT)
		return "timeout";
	return sr->end == SPAWN_EXITED && sr->exit_status == 0 ? "ok" : "failed";
}

static char *
end_reason(const struct spawn_result *sr, const struct strbuf *errs, uint64_t timeout_ms)
{
	struct strbuf sb = STRBUF_INIT;
	char *line = first_line(errs);
	switch (sr->end) {
	case SPAWN_EXITED:
		if (sr->exit_status == 0) {
			free(line);
			strbuf_release(&sb);
			return NULL;
		}
		strbuf_addf(&sb, "exit status %d", sr->exit_status);
		break;
	case SPAWN_SIGNALED:
		strbuf_addf(&sb, "killed by signal %d", sr->signal);
		break;
	case SPAWN_TIMED_OUT:
		strbuf_addf(&sb, "no result within %llu s; the tool was stopped",
			    (unsigned long long)(timeout_ms / 1000));
		break;
	case SPAWN_NOT_FOUND:
	case SPAWN_FAILED:
	case SPAWN_SINK_FAILED:
		strbuf_addf(&sb, "did not run: %s", strerror(sr->errno_value));
		break;
	}
	if (line)
		strbuf_addf(&sb, ": %s", line);
	free(line);
	return strbuf_detach(&sb, NULL);
}

/* ioclasscount with one control option (--reset, --capsize=N, --start, --stop): 0 when it exited 0. */
static int
control(struct session *s, const char *id, const char *flag, char **reason)
{
	char *argv[] = { s->ioclasscount, (char *)flag, NULL };
	struct strbuf out = STRBUF_INIT, errs = STRBUF_INIT;
	struct spawn_result sr;
	char started[32];
	utc_now(started);
	run_small(s, argv, s->so->cap.timeout_ms, &out, &errs, &sr);
	const char *status = end_status(&sr);
	char *why = end_reason(&sr, &errs, s->so->cap.timeout_ms);
	json_array_append_new(s->steps, json_pack("{s:s, s:s, s:o, s:s, s:I, s:o, s:o, s:s, s:o}",
		MK_ID, id, MK_TYPE, "tool", MK_ARGV, argv_json(s, argv, -1), MK_STARTED_UTC, started,
		MK_DURATION_MS, (json_int_t)sr.duration_ms,
		MK_EXIT_STATUS, sr.end == SPAWN_EXITED ? json_integer(sr.exit_status) : json_null(),
		MK_SIGNAL, sr.end == SPAWN_SIGNALED ? json_integer(sr.signal) : json_null(),
		MK_STATUS, status, MK_REASON, text_json(s, why)));
	say(s, "%s: %s%s%s", id, status, why ? ": " : "", why ? why : "");
	strbuf_release(&out);
	strbuf_release(&errs);
	int rc = strcmp(status, "ok") == 0 ? 0 : -1;
	if (reason)
		*reason = why;
	else
		free(why);
	return rc;
}

static struct capture_opts
bundle_opts(const struct session *s)
{
	struct capture_opts o = s->so->cap;
	o.output = NULL;
	o.track = false;
	o.track_names = NULL;
	o.ntrack_names = 0;
	o.count = 0;
	o.archive = false;
	o.in_session = true;
	o.progress = NULL;
	return o;
}

/* A capture bundle at TMP/NAME, recorded as a step: 1 complete, 0 written but not complete, -1 *err. */
static int
snapshot(struct session *s, const char *id, const char *name, const struct capture_opts *o,
	 struct diag *err)
{
	struct capture_result res;
	char *dir = capfile_path_in(s->tmp, name);
	char started[32];
	utc_now(started);
	say(s, "%s: capturing into %s/", id, name);
	int rc = capture_bundle(o, s->pid, s->target_name, s->target_other_user, dir, &res, err);
	json_t *missed = json_array();
	for (size_t i = 0; rc == 0 && i < res.nsteps; i++) {
		const struct capture_step_report *st = &res.steps[i];
		if (strcmp(st->status, "ok") == 0 || strcmp(st->status, "skipped") == 0)
			continue;
		json_array_append_new(missed, json_pack("{s:s, s:s, s:o}", MK_STEP, st->id,
			MK_STATUS, st->status, MK_REASON, json_string_safe(st->reason)));
		say(s, "%s: %s: %s%s%s", id, st->id, st->status, st->reason ? ": " : "",
		    st->reason ? st->reason : "");
	}
	const char *status = rc < 0 ? "failed" : res.complete ? "ok" : "partial";
	json_array_append_new(s->steps, json_pack("{s:s, s:s, s:o, s:s, s:I, s:s, s:o, s:o}",
		MK_ID, id, MK_TYPE, "bundle", MK_DIR, rc == 0 ? json_string(name) : json_null(),
		MK_STARTED_UTC, started, MK_DURATION_MS, (json_int_t)res.total_ms, MK_STATUS, status,
		MK_REASON, rc < 0 ? json_string_safe(err->msg) : json_null(), MK_MISSED, missed));
	say(s, "%s: %s", id, status);
	int ret = rc < 0 ? -1 : res.complete ? 1 : 0;
	capture_result_release(&res);
	free(dir);
	return ret;
}

/* ------------------------------------------------------------ waiting */

static void
sleep_ms(uint64_t ms)
{
	struct timespec ts = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);   /* EINTR: the caller looks at the pending signal */
}

static uint64_t
now_ms(void)
{
	return spawn_now_ms();
}

static void
wait_duration(const struct session *s)
{
	uint64_t end = now_ms() + s->so->duration_ms;
	say(s, "wait: reproduce the leak now; the after snapshot starts in %llu s",
	    (unsigned long long)(s->so->duration_ms / 1000));
	while (!cleanup_pending_signal()) {
		uint64_t t = now_ms();
		if (t >= end)
			break;
		sleep_ms(end - t < 200 ? end - t : 200);
	}
}

static void
wait_enter(const struct session *s)
{
	say(s, "wait: reproduce the leak now, then press Enter (Ctrl-C stops tracking and "
	    "discards the session)");
	for (;;) {
		char c;
		ssize_t n = read(STDIN_FILENO, &c, 1);
		if (cleanup_pending_signal())
			return;
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || c == '\n')
			return;
	}
}

/* The command's end, as a shell shows it (128 + signal); -1 when it did not start (*e set). */
static int
wait_command(struct session *s, int *e)
{
	say(s, "wait: running the command as uid %u (reproduce the leak)", s->uid);
	/*
	 * In iotally's process group: the terminal and its Ctrl-C reach it as
	 * they reach iotally. Its signals at their default, as iotally's own
	 * are caught: started under nohup, it would otherwise ignore SIGHUP.
	 */
	const struct spawn_spec spec = {
		.path = s->so->command[0], .argv = s->so->command, .stdio = { -1, -1, -1 },
		.how = SPAWN_DEFAULT_SIGNALS | SPAWN_DROP_USER | SPAWN_SEARCH_PATH,
		.uid = s->uid, .gid = s->gid,
	};
	pid_t pid;
	if (spawn_start(&spec, &pid, e) < 0)
		return -1;
	int status = 0;
	uint64_t term_at = 0;
	for (;;) {
		pid_t w = waitpid(pid, &status, cleanup_pending_signal() ? WNOHANG : 0);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			break;
		if (cleanup_pending_signal()) {
			uint64_t t = now_ms();
			if (!term_at) {
				kill(pid, SIGTERM);
				term_at = t;
			} else if (t - term_at > COMMAND_GRACE_MS) {
				kill(pid, SIGKILL);
			}
			if (w == 0)
				sleep_ms(20);
		}
	}
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

static void
do_wait(struct session *s)
{
	const struct session_opts *so = s->so;
	char started[32];
	utc_now(started);
	uint64_t t0 = now_ms();
	json_t *w = json_object();
	if (so->command) {
		int e;
		int st = wait_command(s, &e);
		json_object_set_new(w, MK_HOW, json_string("command"));
		json_object_set_new(w, MK_COMMAND, argv_json(s, so->command, -1));
		json_object_set_new(w, MK_UID, json_integer(s->uid));
		json_object_set_new(w, MK_GID, json_integer(s->gid));
		json_object_set_new(w, MK_EXIT_STATUS, st >= 0 ? json_integer(st) : json_null());
		json_object_set_new(w, MK_REASON, st >= 0 ? json_null()
				    : json_string_safe(strerror(e)));
		s->res->command_ran = st >= 0;
		s->res->command_status = st;
		if (st >= 0)
			say(s, "wait: the command ended with exit status %d", st);
		else
			say(s, "wait: the command did not start: %s", strerror(e));
	} else if (so->duration_ms) {
		wait_duration(s);
		json_object_set_new(w, MK_HOW, json_string("duration"));
		json_object_set_new(w, MK_DURATION_S, json_integer((json_int_t)(so->duration_ms / 1000)));
	} else {
		wait_enter(s);
		json_object_set_new(w, MK_HOW, json_string("enter"));
	}
	json_object_set_new(w, MK_ID, json_string("wait"));
	json_object_set_new(w, MK_TYPE, json_string("wait"));
	json_object_set_new(w, MK_STARTED_UTC, json_string(started));
	json_object_set_new(w, MK_DURATION_MS, json_integer((json_int_t)(now_ms() - t0)));
	json_object_set_new(w, MK_STATUS, json_string(cleanup_pending_signal() ? "interrupted"
						     : "ok"));
	json_array_append_new(s->steps, w);
}

/* ------------------------------------------------------------ tracking reads */

struct reads {
	struct capture_read r[3];
	char **argv[3];
	size_t n;
};

static char **
read_argv(const struct session *s, const char *flag, bool names, bool size)
{
	const struct session_opts *so = s->so;
	char **a = xcalloc(so->nnames + 6, sizeof(*a));
	size_t n = 0;
	a[n++] = xstrdup("ioclasscount");
	a[n++] = xstrdup(flag);
	if (names && so->exclude)
		a[n++] = xstrdup("--exclude");
	if (size && so->have_size) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "--size=%llu", (unsigned long long)so->size);
		a[n++] = strbuf_detach(&sb, NULL);
	}
	for (size_t i = 0; names && i < so->nnames; i++)
		a[n++] = xstrdup(so->names[i]);
	return a;
}

static void
reads_build(const struct session *s, struct reads *rd)
{
	memset(rd, 0, sizeof(*rd));
	rd->argv[rd->n] = read_argv(s, "--track", true, true);
	rd->r[rd->n++] = (struct capture_read){ "kernel.track", "kernel/track.txt", NULL };
	rd->argv[rd->n] = read_argv(s, "--leaks", true, false);
	rd->r[rd->n++] = (struct capture_read){ "kernel.leaks", "kernel/leaks.txt", NULL };
	if (s->pid >= 0 || s->so->maps_all) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "--maps=%lld", s->so->maps_all ? -1LL : (long long)s->pid);
		rd->argv[rd->n] = read_argv(s, sb.buf, false, true);
		strbuf_release(&sb);
		rd->r[rd->n++] = (struct capture_read){ "kernel.maps", "kernel/maps.txt", NULL };
	}
	for (size_t i = 0; i < rd->n; i++)
		rd->r[i].argv = (const char *const *)rd->argv[i];
}

static void
reads_release(struct reads *rd)
{
	for (size_t i = 0; i < rd->n; i++) {
		for (size_t j = 0; rd->argv[i][j]; j++)
			free(rd->argv[i][j]);
		free(rd->argv[i]);
	}
}

/* ------------------------------------------------------------ stopping */

/*
 * ioclasscount --stop, with SIGINT/SIGTERM/SIGHUP held so that a second
 * Ctrl-C cannot kill the one run that turns tracking off.
 */
static void
stop_tracking(struct session *s)
{
	if (!s->started) {
		s->res->tracking = SESSION_TRACKING_NOT_STARTED;
		return;
	}
	char *why = NULL;
	cleanup_hold();
	int rc = control(s, "tracking.stop", "--stop", &why);
	cleanup_release();
	if (rc == 0) {
		s->res->tracking = SESSION_TRACKING_OFF;
		free(why);
	} else {
		s->res->tracking = SESSION_TRACKING_MAYBE_ON;
		s->res->stop_failure = why ? why : xstrdup("failed");
	}
}

static const char *
tracking_state_name(enum session_tracking t)
{
	switch (t) {
	case SESSION_TRACKING_NOT_STARTED:
		return "not-started";
	case SESSION_TRACKING_OFF:
		return "off";
	case SESSION_TRACKING_MAYBE_ON:
		return "maybe-on";
	}
	return "maybe-on";
}

/* The line a signal leaves on standard error, once --stop has run. */
static void
set_signal_message(const struct session *s, const char *dir)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "iotally: error: tracking session interrupted by a signal: ");
	switch (s->res->tracking) {
	case SESSION_TRACKING_OFF:
		strbuf_addstr(&sb, "tracking was stopped (ioclasscount --stop exited 0)");
		break;
	case SESSION_TRACKING_NOT_STARTED:
		strbuf_addstr(&sb, "tracking had not been started");
		break;
	case SESSION_TRACKING_MAYBE_ON:
		strbuf_addf(&sb, "TRACKING MAY STILL BE ON: ioclasscount --stop failed (%s); run "
			    "'%s' now", s->res->stop_failure, s->res->stop_command);
		break;
	}
	strbuf_addstr(&sb, "; nothing was left behind; '");
	diag_quote(&sb, dir, strlen(dir), 400);
	strbuf_addstr(&sb, "' was not written\n");
	cleanup_set_message(sb.buf);
	strbuf_release(&sb);
}

/* ------------------------------------------------------------ session.json */

static int
write_index(struct session *s, bool complete, const struct reads *rd, struct diag *err)
{
	const struct session_opts *so = s->so;
	json_t *names = json_array();
	for (size_t i = 0; i < so->nnames; i++)
		json_array_append_new(names, json_string_safe(so->names[i]));
	json_t *flags = json_pack("{s:b, s:o, s:o, s:b, s:o, s:o, s:o, s:o}",
		MK_KEEP, so->keep,
		MK_CAPSIZE, so->have_capsize ? json_integer((json_int_t)so->capsize) : json_null(),
		MK_NAMES, names, MK_EXCLUDE, so->exclude,
		MK_SIZE, so->have_size ? json_integer((json_int_t)so->size) : json_null(),
		MK_MAPS, rd->n == 3 ? json_string(rd->argv[2][1] + strlen("--maps=")) : json_null(),
		MK_DURATION_S, so->duration_ms ? json_integer((json_int_t)(so->duration_ms / 1000))
					      : json_null(),
		MK_COMMAND, so->command ? argv_json(s, so->command, -1) : json_null());
	json_t *tracking = json_pack("{s:s, s:o, s:s, s:o, s:b}",
		MK_LEFT, tracking_state_name(s->res->tracking),
		MK_STOP_FAILURE, text_json(s, s->res->stop_failure),
		MK_STOP_COMMAND, s->res->stop_command,
		MK_IO_BOOTARG, s->have_io ? json_integer((json_int_t)s->io) : json_null(),
		MK_FROM_BOOT, s->have_io && (s->io & CAPTURE_IO_TRACKING_BOOT) != 0);
	json_t *target = json_null();
	if (s->pid >= 0)
		target = json_pack("{s:I, s:o}", MK_PID, (json_int_t)s->pid, MK_NAME,
				   text_json(s, s->target_name));
	json_t *m = session_index_new();
	json_object_set_new(m, MK_COMPLETE, json_boolean(complete));
	json_object_set_new(m, MK_ABORTED, json_string_safe(s->res->aborted));
	json_object_set_new(m, MK_IOTALLY_VERSION, json_string(IOTALLY_VERSION));
	json_object_set_new(m, MK_STARTED_UTC, json_string(s->started_utc));
	json_object_set_new(m, MK_FINISHED_UTC, json_string(s->finished_utc));
	json_object_set_new(m, MK_ARGV, argv_json(s, so->cap.argv, so->cap.argc));
	json_object_set_new(m, MK_REDACTION, json_pack("{s:b}", MK_ENABLED, so->cap.redact));
	json_object_set_new(m, MK_KERNEL_VERSION, json_string_safe(s->kern_version));
	json_object_set_new(m, MK_KERNEL_VARIANT,
			    json_string_safe(capture_kernel_variant(s->kern_version)));
	json_object_set_new(m, MK_TARGET, target);
	json_object_set_new(m, MK_FLAGS, flags);
	json_object_set_new(m, MK_TRACKING, tracking);
	json_object_set(m, MK_STEPS, s->steps);
	struct strbuf sb = STRBUF_INIT;
	int dumped = manifest_dump(m, &sb);
	json_decref(m);
	if (dumped < 0) {
		strbuf_release(&sb);
		return diag_set(err, DIAG_SOFTWARE, NULL, 0, 0, "cannot write %s",
				BUNDLE_SESSION_INDEX);
	}
	char *p = capfile_path_in(s->tmp, BUNDLE_SESSION_INDEX);
	cleanup_add_file(p);
	int rc = capfile_write_bytes(p, sb.buf, sb.len, err);
	strbuf_release(&sb);
	free(p);
	return rc;
}

/* ------------------------------------------------------------ the sequence */

static void
abort_with(struct session *s, const char *why)
{
	if (!s->res->aborted) {
		s->res->aborted = xstrdup(why);
		say(s, "the session stops here: %s", why);
	}
}

/*
 * reset, capsize, start, before, wait, after, the reads: stops at the
 * first failure that makes the rest pointless (s->res->aborted), at a
 * signal, or at an error (-1). --stop is the caller's.
 */
static int
sequence(struct session *s, struct reads *rd, bool *complete, struct diag *err)
{
	const struct session_opts *so = s->so;
	char *why = NULL;
	int rc;
	*complete = false;
	/*
	 * From the first tracking command on, --stop runs whatever happens:
	 * tracking may already be on (io=0x02400000 starts it at boot, --keep
	 * keeps an earlier run's), and the session never leaves it so.
	 */
	s->started = true;
	if (!so->keep && control(s, "tracking.reset", "--reset", &why) < 0 &&
	    !cleanup_pending_signal())
		abort_with(s, "ioclasscount --reset failed");
	free(why);
	if (cleanup_pending_signal() || s->res->aborted)
		return 0;
	if (so->have_capsize) {
		struct strbuf flag = STRBUF_INIT;
		strbuf_addf(&flag, "--capsize=%llu", (unsigned long long)so->capsize);
		int crc = control(s, "tracking.capsize", flag.buf, NULL);
		strbuf_release(&flag);
		if (cleanup_pending_signal())
			return 0;
		if (crc < 0) {
			abort_with(s, "ioclasscount --capsize failed");
			return 0;
		}
	}
	rc = control(s, "tracking.start", "--start", NULL);
	if (cleanup_pending_signal())
		return 0;
	if (rc < 0) {
		abort_with(s, "ioclasscount --start failed");
		return 0;
	}
	struct capture_opts o = bundle_opts(s);
	rc = snapshot(s, "before", BUNDLE_SESSION_BEFORE, &o, err);
	if (rc < 0)
		return cleanup_pending_signal() ? 0 : -1;
	if (rc == 0) {
		abort_with(s, "the before snapshot is not complete");
		return 0;
	}
	do_wait(s);
	if (cleanup_pending_signal())
		return 0;
	rc = snapshot(s, "after", BUNDLE_SESSION_AFTER, &o, err);
	if (rc < 0)
		return cleanup_pending_signal() ? 0 : -1;
	bool after_ok = rc == 1;
	o.reads = rd->r;
	o.nreads = rd->n;
	rc = snapshot(s, "tracking", BUNDLE_SESSION_TRACKING, &o, err);
	if (rc < 0)
		return cleanup_pending_signal() ? 0 : -1;
	*complete = after_ok && rc == 1;
	return 0;
}

static int
publish(struct session *s, const char *dir, struct diag *err)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "iotally: error: interrupted by a signal: the session was "
		      "complete and is kept: '");
	diag_quote(&sb, dir, strlen(dir), 400);
	strbuf_addstr(&sb, "'\n");
	int rc = capfile_publish(&s->tmp, dir, "session", sb.buf, err);
	strbuf_release(&sb);
	return rc;
}

static void
stop_command_text(struct session *s)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "sudo %s --stop", s->ioclasscount);
	s->res->stop_command = strbuf_detach(&sb, NULL);
}

int
session_run(const struct session_opts *so, struct session_result *res, struct diag *err)
{
	struct session s;
	memset(&s, 0, sizeof(s));
	memset(res, 0, sizeof(*res));
	s.so = so;
	s.res = res;
	s.pid = -1;
	redactor_init(&s.rd);
	int rc = preflight(&s, err);
	if (rc == 0)
		rc = capture_resolve_target(&so->cap, &s.pid, &s.target_name,
					    &s.target_other_user, err);
	char *dir = NULL;
	struct reads rd = { 0 };
	if (rc < 0)
		goto out;
	dir = so->cap.output ? capfile_output_dir(so->cap.output) :
				    capfile_default_dir("session", s.pid, s.target_name, NULL);
	struct stat st;
	if (lstat(dir, &st) == 0) {
		rc = diag_set(err, CAPTURE_EXIT_CANTCREAT, NULL, 0, 0,
			      "'%s' exists; a capture never overwrites one (choose another -o)", dir);
		goto out;
	}
	s.tmp = capfile_temp_beside(dir, err);
	if (!s.tmp) {
		rc = -1;
		goto out;
	}
	stop_command_text(&s);
	cleanup_defer_signals(true);
	set_signal_message(&s, dir);
	say(&s, "if iotally is killed (SIGKILL), stop kernel tracking by hand: %s",
	    res->stop_command);
	utc_now(s.started_utc);
	s.steps = json_array();
	reads_build(&s, &rd);
	bool complete = false;
	rc = sequence(&s, &rd, &complete, err);
	stop_tracking(&s);
	if (res->tracking == SESSION_TRACKING_MAYBE_ON)
		complete = false;
	if (cleanup_pending_signal()) {
		capfile_remove_tree(s.tmp);
		set_signal_message(&s, dir);
		cleanup_raise_pending();
	}
	if (rc == 0) {
		utc_now(s.finished_utc);
		rc = write_index(&s, complete && !res->aborted, &rd, err);
	}
	if (rc == 0)
		rc = publish(&s, dir, err);
	if (rc == 0) {
		res->dir = dir;
		dir = NULL;
		res->complete = complete && !res->aborted;
	}
	if (rc == 0 && so->cap.archive)
		rc = capture_write_archive(res->dir, &res->archive, err);
	/* A signal from here on finds the session published (or nothing to keep). */
	cleanup_defer_signals(false);
	if (cleanup_pending_signal())
		cleanup_raise_pending();
out:
	if (s.tmp) {
		capfile_remove_tree(s.tmp);
		cleanup_forget(s.tmp);
		free(s.tmp);
	}
	reads_release(&rd);
	json_decref(s.steps);
	redactor_release(&s.rd);
	free(s.ioclasscount);
	free(s.kern_version);
	free(s.bootargs);
	free(s.target_name);
	free(dir);
	return rc;
}

void
session_result_release(struct session_result *res)
{
	free(res->dir);
	free(res->archive);
	free(res->aborted);
	free(res->stop_command);
	free(res->stop_failure);
	memset(res, 0, sizeof(*res));
}
