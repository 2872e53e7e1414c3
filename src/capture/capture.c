#include "capture/capture.h"

#include "capture/files.h"
#include "capture/redact.h"
#include "capture/toolrun.h"
#include "iotally-config.h"
#include "util/array.h"
#include "util/escape.h"
#include "util/sha256.h"
#include "util/spill.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PROBE_TIMEOUT_MS 10000

/* ---------------------------------------------------------------- steps */

enum step_when { WHEN_ALWAYS, WHEN_TARGET, WHEN_TRACK };

struct step_def {
	const char *id;
	const char *out;        /* stdout file in the bundle */
	const char *kind;       /* capture kind an iotally command reads, or NULL */
	enum step_when when;
	const char *argv[8];    /* "{pid}" is the target pid */
};

static const char *const sysctl_names[] = {
	"hw.model", "hw.machine", "hw.memsize", "hw.pagesize", "hw.ncpu",
	"kern.osversion", "kern.osproductversion", "kern.version", "kern.bootargs",
};

/* Cheap first; vmmap, which suspends the target, last. */
static const struct step_def later_steps[] = {
	{ "kernel.ioreg_root", "kernel/ioreg-root.plist", "classes", WHEN_ALWAYS,
	  { "ioreg", "-a", "-l", "-d", "1", NULL } },
	{ "kernel.ioclasscount", "kernel/ioclasscount.txt", "classes", WHEN_ALWAYS,
	  { "ioclasscount", NULL } },
	{ "kernel.ioalloccount", "kernel/ioalloccount.txt", "classes", WHEN_ALWAYS,
	  { "ioalloccount", NULL } },
	{ "kernel.track", "kernel/track.txt", "track", WHEN_TRACK,
	  { "ioclasscount", "--track", NULL } },
	{ "target.footprint", "target/footprint.txt", NULL, WHEN_TARGET,
	  { "footprint", "-f", "bytes", "-p", "{pid}", NULL } },
	{ "target.vmmap", "target/vmmap.txt", "vmmap", WHEN_TARGET,
	  { "vmmap", "-w", "-noCoalesce", "{pid}", NULL } },
};

struct step_run {
	char *id;
	char **argv;            /* owned, NULL-terminated */
	const char *kind;
	char *out;              /* bundle-relative stdout file, or NULL when not run */
	char *err;              /* bundle-relative stderr file */
	char started[32];
	struct spawn_result sr;
	const char *status;
	char *reason;
	bool ran;
};

struct host_facts {
	char *sysctl[ARRAY_SIZE(sysctl_names)];
	char *os_version, *os_build;
};

struct run {
	const struct capture_opts *o;
	char *tmp;              /* the bundle being written */
	struct step_run *steps;
	size_t nsteps, alloc;
	struct host_facts host;
	int64_t pid;
	char *target_name;
	bool target_other_user;
	char started[32], finished[32];
	uint64_t tools_ms;
};

static void
utc_now(char out[32])
{
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static struct step_run *
add_step(struct run *r, const char *id, const char *const *argv, const char *kind)
{
	r->steps = xgrow(r->steps, &r->alloc, r->nsteps + 1, sizeof(*r->steps));
	struct step_run *s = &r->steps[r->nsteps++];
	memset(s, 0, sizeof(*s));
	s->id = xstrdup(id);
	s->kind = kind;
	size_t n = 0;
	while (argv[n])
		n++;
	size_t extra = strcmp(id, "kernel.track") == 0 ? r->o->ntrack_names : 0;
	s->argv = xcalloc(n + extra + 1, sizeof(*s->argv));
	for (size_t i = 0; i < n; i++) {
		if (strcmp(argv[i], "{pid}") == 0) {
			struct strbuf sb = STRBUF_INIT;
			strbuf_addf(&sb, "%lld", (long long)r->pid);
			s->argv[i] = strbuf_detach(&sb, NULL);
		} else {
			s->argv[i] = xstrdup(argv[i]);
		}
	}
	for (size_t i = 0; i < extra; i++)
		s->argv[n + i] = xstrdup(r->o->track_names[i]);
	return s;
}

static void
skip_step(struct step_run *s, const char *reason)
{
	s->status = "skipped";
	s->reason = xstrdup(reason);
}

static bool
contains(const struct strbuf *sb, const char *needle)
{
	size_t n = strlen(needle);
	if (sb->len < n)
		return false;
	for (size_t i = 0; i + n <= sb->len; i++)
		if (sb->buf[i] == needle[0] && memcmp(sb->buf + i, needle, n) == 0)
			return true;
	return false;
}

/* The first non-empty line of text holding `needle` (or of the text), trimmed. */
static char *
line_with(const struct strbuf *sb, const char *needle)
{
	const char *p = sb->buf, *end = sb->buf + sb->len;
	char *first = NULL;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		while (p < le && (*p == ' ' || *p == '\t'))
			p++;
		if (le > p) {
			struct strbuf line = STRBUF_INIT;
			strbuf_add(&line, p, (size_t)(le - p));
			if (!needle || contains(&line, needle)) {
				free(first);
				return strbuf_detach(&line, NULL);
			}
			if (!first)
				first = strbuf_detach(&line, NULL);
			strbuf_release(&line);
		}
		p = nl ? nl + 1 : end;
	}
	return first;
}

static bool
pid_alive(int64_t pid)
{
	return pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
}

/*
 * Apple's failure texts (docs/capture.md): "do not have appropriate
 * privileges", "Operation not permitted", "(try as root?)" are denials;
 * "no longer appears to be running" means the target ended; "for unknown
 * reasons, even though it appears to exist" is a denial while the target
 * lives and the target ending otherwise.
 */
static void
classify(struct run *r, struct step_run *s, const char *dir)
{
	struct strbuf text = STRBUF_INIT;
	char *p = capfile_path_in(dir, s->err);
	capfile_slurp(p, &text);
	free(p);
	if (s->out) {
		p = capfile_path_in(dir, s->out);
		capfile_slurp(p, &text);
		free(p);
	}
	const struct spawn_result *sr = &s->sr;
	bool target = strncmp(s->id, "target.", 7) == 0;
	switch (sr->end) {
	case SPAWN_NOT_FOUND:
		s->status = "failed";
		s->reason = xstrdup("the tool is not on PATH");
		break;
	case SPAWN_FAILED:
		s->status = "failed";
		s->reason = xstrdup(strerror(sr->errno_value));
		break;
	case SPAWN_TIMED_OUT: {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "no result within %llu s; the tool was stopped",
			    (unsigned long long)(r->o->timeout_ms / 1000));
		s->status = "timeout";
		s->reason = strbuf_detach(&sb, NULL);
		break;
	}
	case SPAWN_INTERRUPTED:
		s->status = "failed";
		s->reason = xstrdup("interrupted");
		break;
	case SPAWN_SIGNALED: {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "the tool was killed by signal %d", sr->signal);
		s->status = "failed";
		s->reason = strbuf_detach(&sb, NULL);
		break;
	}
	case SPAWN_EXITED:
		if (contains(&text, "no longer appears to be running") ||
		    (target && !pid_alive(r->pid))) {
			s->status = "target-gone";
			s->reason = line_with(&text, "no longer appears to be running");
			if (!s->reason)
				s->reason = xstrdup("the target process ended");
		} else if (contains(&text, "do not have appropriate privileges") ||
			   contains(&text, "Operation not permitted") ||
			   contains(&text, "try as root") ||
			   contains(&text, "even though it appears to exist")) {
			s->status = "denied";
			s->reason = line_with(&text, "privileges");
			if (!s->reason)
				s->reason = line_with(&text, NULL);
		} else if (sr->exit_status != 0) {
			struct strbuf sb = STRBUF_INIT;
			char *first = line_with(&text, NULL);
			strbuf_addf(&sb, "exit status %d%s%s", sr->exit_status,
				    first ? ": " : "", first ? first : "");
			free(first);
			s->status = "failed";
			s->reason = strbuf_detach(&sb, NULL);
		} else {
			s->status = "ok";
		}
		break;
	}
	strbuf_release(&text);
}

static void
run_step(struct run *r, struct step_run *s, const char *out_rel)
{
	struct strbuf err_rel = STRBUF_INIT;
	strbuf_addf(&err_rel, "logs/%s.stderr", s->id);
	s->err = strbuf_detach(&err_rel, NULL);
	s->out = xstrdup(out_rel);
	utc_now(s->started);
	int ofd = capfile_open_out(r->tmp, s->out);
	int efd = capfile_open_out(r->tmp, s->err);
	s->ran = true;
	if (ofd < 0 || efd < 0) {
		s->sr.end = SPAWN_FAILED;
		s->sr.errno_value = errno;
	} else {
		spawn_run(s->argv, ofd, efd, r->o->timeout_ms, r->o->stop, &s->sr);
		r->tools_ms += s->sr.duration_ms;
	}
	if (ofd >= 0)
		close(ofd);
	if (efd >= 0)
		close(efd);
	classify(r, s, r->tmp);
}

/* ------------------------------------------------------------ host facts */

/* "name: value" of one sysctl output, trimmed, or NULL. */
static char *
sysctl_value(const char *dir, const char *rel, const char *name)
{
	struct strbuf text = STRBUF_INIT;
	char *p = capfile_path_in(dir, rel);
	capfile_slurp(p, &text);
	free(p);
	size_t n = strlen(name);
	char *v = NULL;
	if (text.len > n + 1 && memcmp(text.buf, name, n) == 0 &&
	    (text.buf[n] == ':' || text.buf[n] == ' ')) {
		const char *s = text.buf + n + 1;
		while (*s == ' ' || *s == '=' || *s == '\t')
			s++;
		const char *e = text.buf + text.len;
		while (e > s && (e[-1] == '\n' || e[-1] == ' '))
			e--;
		v = xmemdup0(s, (size_t)(e - s));
	}
	strbuf_release(&text);
	return v;
}

static char *
sw_vers_field(const char *dir, const char *field)
{
	struct strbuf text = STRBUF_INIT;
	char *p = capfile_path_in(dir, "host/sw_vers.txt");
	capfile_slurp(p, &text);
	free(p);
	char *line = line_with(&text, field);
	strbuf_release(&text);
	if (!line)
		return NULL;
	const char *v = line + strlen(field);
	while (*v == ':' || *v == '\t' || *v == ' ')
		v++;
	char *out = xstrdup(v);
	free(line);
	return out;
}

static const char *
host_sysctl(const struct run *r, const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(sysctl_names); i++)
		if (strcmp(sysctl_names[i], name) == 0)
			return r->host.sysctl[i];
	return NULL;
}

static const char *
kernel_variant(const char *version)
{
	if (!version)
		return NULL;
	if (strstr(version, "RELEASE_"))
		return "RELEASE";
	if (strstr(version, "DEVELOPMENT_"))
		return "DEVELOPMENT";
	if (strstr(version, "DEBUG_"))
		return "DEBUG";
	return NULL;
}

/* Why --track cannot work here, or NULL when it can. */
static const char *
track_unavailable(const struct run *r)
{
	const char *variant = kernel_variant(host_sysctl(r, "kern.version"));
	if (!variant)
		return "the kernel variant is unknown (kern.version was not read)";
	if (strcmp(variant, "RELEASE") == 0)
		return "RELEASE kernel: allocation tracking needs a DEVELOPMENT or DEBUG kernel";
	const char *args = host_sysctl(r, "kern.bootargs");
	const char *io = args ? strstr(args, "io=") : NULL;
	if (!io || !(strtoull(io + 3, NULL, 0) & 0x00400000u))
		return "io boot-arg missing: tracking needs io=0x00400000 in kern.bootargs";
	if (geteuid() != 0)
		return "not root: ioclasscount --track needs root (run with sudo)";
	return NULL;
}

/* ----------------------------------------------------------- the target */

/* Run a small probe (pgrep, ps) and keep its standard output. */
static int
probe(char *const argv[], struct strbuf *out, volatile const int *stop)
{
	int fd = temp_file_open("probe");
	if (fd < 0)
		return -1;
	int nul = open("/dev/null", O_WRONLY);
	struct spawn_result sr;
	spawn_run(argv, fd, nul >= 0 ? nul : fd, PROBE_TIMEOUT_MS, stop, &sr);
	if (nul >= 0)
		close(nul);
	lseek(fd, 0, SEEK_SET);
	char buf[4096];
	ssize_t n;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		strbuf_add(out, buf, (size_t)n);
	close(fd);
	if (sr.end != SPAWN_EXITED)
		return -1;
	return sr.exit_status;
}

static int
resolve_process(struct run *r, const char *name, struct diag *err)
{
	char pgrep[] = "pgrep", exact[] = "-x";
	char *argv[] = { pgrep, exact, (char *)name, NULL };
	struct strbuf out = STRBUF_INIT;
	int rc = probe(argv, &out, r->o->stop);
	int64_t first = -1;
	size_t count = 0;
	const char *p = out.buf;
	while (*p) {
		char *end;
		long long v = strtoll(p, &end, 10);
		if (end == p)
			break;
		if (count++ == 0)
			first = v;
		p = end;
		while (*p == '\n' || *p == ' ')
			p++;
	}
	if (rc < 0 && count == 0) {
		strbuf_release(&out);
		return diag_set(err, CAPTURE_EXIT_UNAVAILABLE, NULL, 0, 0,
				"cannot look up process '%s': pgrep did not run", name);
	}
	if (count == 0) {
		strbuf_release(&out);
		return diag_set(err, CAPTURE_EXIT_UNAVAILABLE, NULL, 0, 0,
				"no running process is named '%s'", name);
	}
	if (count > 1) {
		for (size_t i = 0; i < out.len; i++)
			if (out.buf[i] == '\n')
				out.buf[i] = ' ';
		diag_set(err, DIAG_USAGE, NULL, 0, 0,
			 "%zu processes are named '%s' (pids %.*s); choose one with --pid", count,
			 name, (int)(out.len && out.buf[out.len - 1] == ' ' ? out.len - 1 : out.len),
			 out.buf);
		strbuf_release(&out);
		return -1;
	}
	strbuf_release(&out);
	r->pid = first;
	r->target_name = xstrdup(name);
	return 0;
}

/* The target's name from `ps -o comm= -p PID` (its last path component). */
static void
name_target(struct run *r)
{
	struct strbuf pid = STRBUF_INIT, out = STRBUF_INIT;
	strbuf_addf(&pid, "%lld", (long long)r->pid);
	char ps[] = "ps", o[] = "-o", comm[] = "comm=", p[] = "-p";
	char *argv[] = { ps, o, comm, p, pid.buf, NULL };
	if (probe(argv, &out, r->o->stop) == 0) {
		char *line = line_with(&out, NULL);
		if (line) {
			const char *base = strrchr(line, '/');
			r->target_name = xstrdup(base ? base + 1 : line);
			free(line);
		}
	}
	strbuf_release(&pid);
	strbuf_release(&out);
}

/* --------------------------------------------------------- the bundle */

struct file_hits {
	uint64_t hits[REDACT_NRULES];
};

/* Redact every file the steps wrote; hits per file and rule. */
static int
redact_bundle(struct run *r, struct redactor *rd, json_t *rules, uint64_t *total,
	      struct diag *err)
{
	struct file_hits *fh = xcalloc(2 * r->nsteps + 1, sizeof(*fh));
	const char **names = xcalloc(2 * r->nsteps + 1, sizeof(*names));
	size_t nfiles = 0;
	int rc = 0;
	for (size_t i = 0; i < r->nsteps; i++) {
		if (!r->steps[i].ran)
			continue;
		names[nfiles++] = r->steps[i].out;
		names[nfiles++] = r->steps[i].err;
	}
	for (size_t pass = 0; pass < 2 && rc == 0; pass++) {
		for (size_t f = 0; f < nfiles && rc == 0; f++) {
			struct strbuf text = STRBUF_INIT;
			char *p = capfile_path_in(r->tmp, names[f]);
			capfile_slurp(p, &text);
			if (pass == 0) {
				redactor_collect(rd, text.buf, text.len);
			} else {
				struct strbuf out = STRBUF_INIT;
				redactor_apply(rd, text.buf, text.len, &out, fh[f].hits);
				if (out.len != text.len || memcmp(out.buf, text.buf, text.len) != 0)
					rc = capfile_write_bytes(p, out.buf, out.len, err);
				strbuf_release(&out);
			}
			free(p);
			strbuf_release(&text);
		}
	}
	for (int rule = 0; rule < REDACT_NRULES; rule++) {
		uint64_t sum = 0;
		json_t *files = json_object();
		for (size_t f = 0; f < nfiles; f++) {
			if (!fh[f].hits[rule])
				continue;
			sum += fh[f].hits[rule];
			json_object_set_new(files, names[f], json_integer((json_int_t)fh[f].hits[rule]));
		}
		*total += sum;
		json_array_append_new(rules, json_pack("{s:s, s:s, s:I, s:o}",
			"rule", redact_rule_name((enum redact_rule)rule),
			"description", redact_rule_description((enum redact_rule)rule),
			"hits", (json_int_t)sum, "files", files));
	}
	free(fh);
	free(names);
	return rc;
}

static json_t *
file_json(const char *dir, const char *rel)
{
	char hex[SHA256_HEX_SIZE];
	uint64_t bytes;
	struct diag e;
	char *p = capfile_path_in(dir, rel);
	int rc = sha256_file_hex(p, hex, &bytes, &e);
	free(p);
	if (rc < 0)
		return json_null();
	return json_pack("{s:s, s:I, s:s}", "path", rel, "bytes", (json_int_t)bytes,
			 "sha256", hex);
}

static json_t *
nullable_str(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *
nullable_int(const char *s)
{
	if (!s)
		return json_null();
	char *end;
	long long v = strtoll(s, &end, 10);
	return end != s && *end == '\0' ? json_integer(v) : json_null();
}

static json_t *
argv_json(const struct redactor *rd, char **argv, int argc, bool redact)
{
	json_t *a = json_array();
	for (int i = 0; argv[i] && (argc < 0 || i < argc); i++) {
		if (!redact) {
			json_array_append_new(a, json_string(argv[i]));
			continue;
		}
		uint64_t hits[REDACT_NRULES] = { 0 };
		struct strbuf out = STRBUF_INIT;
		redactor_apply(rd, argv[i], strlen(argv[i]), &out, hits);
		json_array_append_new(a, json_string(out.buf));
		strbuf_release(&out);
	}
	return a;
}

static json_t *
steps_json(const struct run *r, const struct redactor *rd)
{
	json_t *a = json_array();
	for (size_t i = 0; i < r->nsteps; i++) {
		const struct step_run *s = &r->steps[i];
		json_t *st = json_object();
		json_object_set_new(st, "id", json_string(s->id));
		json_object_set_new(st, "argv", argv_json(rd, s->argv, -1, r->o->redact));
		json_object_set_new(st, "started_utc", s->ran ? json_string(s->started) : json_null());
		json_object_set_new(st, "duration_ms", json_integer((json_int_t)s->sr.duration_ms));
		json_object_set_new(st, "exit_status", s->ran && s->sr.end == SPAWN_EXITED
				    ? json_integer(s->sr.exit_status) : json_null());
		json_object_set_new(st, "signal", s->ran && s->sr.end == SPAWN_SIGNALED
				    ? json_integer(s->sr.signal) : json_null());
		json_object_set_new(st, "status", json_string(s->status));
		json_object_set_new(st, "reason", nullable_str(s->reason));
		json_object_set_new(st, "capture_kind", nullable_str(s->kind));
		json_object_set_new(st, "stdout", s->ran ? file_json(r->tmp, s->out) : json_null());
		json_object_set_new(st, "stderr", s->ran ? file_json(r->tmp, s->err) : json_null());
		json_array_append_new(a, st);
	}
	return a;
}

static json_t *
host_json(const struct run *r)
{
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
		"model", nullable_str(host_sysctl(r, "hw.model")),
		"machine", nullable_str(host_sysctl(r, "hw.machine")),
		"os_version", nullable_str(r->host.os_version),
		"os_build", nullable_str(r->host.os_build),
		"kernel_version", nullable_str(host_sysctl(r, "kern.version")),
		"kernel_variant", nullable_str(kernel_variant(host_sysctl(r, "kern.version"))),
		"page_size", nullable_int(host_sysctl(r, "hw.pagesize")),
		"memsize", nullable_int(host_sysctl(r, "hw.memsize")));
}

static bool
all_ok(const struct run *r)
{
	for (size_t i = 0; i < r->nsteps; i++)
		if (strcmp(r->steps[i].status, "ok") != 0 && strcmp(r->steps[i].status, "skipped") != 0)
			return false;
	return true;
}

static int
write_manifest(struct run *r, struct redactor *rd, json_t *rules, json_t *series,
	       struct diag *err)
{
	json_t *redaction = json_object();
	json_object_set_new(redaction, "enabled", json_boolean(r->o->redact));
	json_object_set_new(redaction, "warning", r->o->redact ? json_null() : json_string(
		"REDACTION WAS TURNED OFF (--no-redact): this bundle may hold user names, "
		"serial numbers and home folder paths; review it before sharing it"));
	json_object_set_new(redaction, "rules", rules);
	json_t *target = r->pid >= 0
		? json_pack("{s:I, s:o}", "pid", (json_int_t)r->pid, "name",
			    nullable_str(r->target_name))
		: json_null();
	json_t *m = json_object();
	json_object_set_new(m, "schema", json_string("iotally.bundle/1"));
	json_object_set_new(m, "complete", json_boolean(all_ok(r)));
	json_object_set_new(m, "iotally_version", json_string(IOTALLY_VERSION));
	json_object_set_new(m, "started_utc", json_string(r->started));
	json_object_set_new(m, "finished_utc", json_string(r->finished));
	json_object_set_new(m, "argv", argv_json(rd, r->o->argv, r->o->argc, r->o->redact));
	json_object_set_new(m, "redaction", redaction);
	json_object_set_new(m, "host", host_json(r));
	json_object_set_new(m, "target", target);
	json_object_set_new(m, "steps", steps_json(r, rd));
	json_object_set_new(m, "series", series ? series : json_null());
	char *text = json_dumps(m, JSON_INDENT(2) | JSON_SORT_KEYS);
	json_decref(m);
	char *p = capfile_path_in(r->tmp, "manifest.json");
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, text);
	strbuf_addch(&sb, '\n');
	free(text);
	int rc = capfile_write_bytes(p, sb.buf, sb.len, err);
	strbuf_release(&sb);
	free(p);
	return rc;
}

/* --------------------------------------------------------- one sample */

static void
steps_release(struct run *r)
{
	for (size_t i = 0; i < r->nsteps; i++) {
		struct step_run *s = &r->steps[i];
		free(s->id);
		for (size_t j = 0; s->argv[j]; j++)
			free(s->argv[j]);
		free(s->argv);
		free(s->out);
		free(s->err);
		free(s->reason);
	}
	free(r->steps);
	r->steps = NULL;
	r->nsteps = r->alloc = 0;
	for (size_t i = 0; i < ARRAY_SIZE(sysctl_names); i++) {
		free(r->host.sysctl[i]);
		r->host.sysctl[i] = NULL;
	}
	free(r->host.os_version);
	free(r->host.os_build);
	r->host.os_version = r->host.os_build = NULL;
}

static bool
stopped(const struct run *r)
{
	return r->o->stop && *r->o->stop;
}

/* Run every step into r->tmp. */
static void
run_steps(struct run *r)
{
	static const char *const sw_vers[] = { "sw_vers", NULL };
	struct step_run *s = add_step(r, "host.sw_vers", sw_vers, NULL);
	run_step(r, s, "host/sw_vers.txt");
	for (size_t i = 0; i < ARRAY_SIZE(sysctl_names) && !stopped(r); i++) {
		const char *argv[] = { "sysctl", sysctl_names[i], NULL };
		struct strbuf id = STRBUF_INIT, out = STRBUF_INIT;
		strbuf_addf(&id, "host.sysctl.%s", sysctl_names[i]);
		strbuf_addf(&out, "host/sysctl/%s.txt", sysctl_names[i]);
		s = add_step(r, id.buf, argv, NULL);
		run_step(r, s, out.buf);
		if (strcmp(s->status, "ok") == 0)
			r->host.sysctl[i] = sysctl_value(r->tmp, out.buf, sysctl_names[i]);
		strbuf_release(&id);
		strbuf_release(&out);
	}
	r->host.os_version = sw_vers_field(r->tmp, "ProductVersion");
	r->host.os_build = sw_vers_field(r->tmp, "BuildVersion");
	for (size_t i = 0; i < ARRAY_SIZE(later_steps) && !stopped(r); i++) {
		const struct step_def *d = &later_steps[i];
		if (d->when == WHEN_TARGET && r->pid < 0)
			continue;
		s = add_step(r, d->id, d->argv, d->kind);
		if (d->when == WHEN_TRACK) {
			const char *why = r->o->track ? track_unavailable(r) : "not asked for (--track)";
			if (why) {
				skip_step(s, why);
				continue;
			}
		}
		if (d->when == WHEN_TARGET && r->target_other_user) {
			s->status = "denied";
			s->reason = xstrdup("the target belongs to another user; run with sudo "
					    "(not attempted: attaching can hang)");
			continue;
		}
		if (d->when == WHEN_TARGET && !pid_alive(r->pid)) {
			s->status = "target-gone";
			s->reason = xstrdup("the target process ended before this step");
			continue;
		}
		run_step(r, s, d->out);
		if (strcmp(d->id, "target.footprint") == 0 && s->sr.end == SPAWN_NOT_FOUND) {
			free(s->reason);
			s->reason = NULL;
			skip_step(s, "footprint is not on PATH");
		}
	}
}

static void
report_steps(const struct run *r, struct capture_result *res)
{
	for (size_t i = 0; i < res->nsteps; i++) {
		free(res->steps[i].id);
		free(res->steps[i].status);
		free(res->steps[i].reason);
	}
	res->nsteps = 0;
	for (size_t i = 0; i < r->nsteps; i++) {
		res->steps = xgrow(res->steps, &res->steps_alloc, res->nsteps + 1,
				   sizeof(*res->steps));
		struct capture_step_report *s = &res->steps[res->nsteps++];
		s->id = xstrdup(r->steps[i].id);
		s->status = xstrdup(r->steps[i].status);
		s->reason = r->steps[i].reason ? xstrdup(r->steps[i].reason) : NULL;
	}
}

/*
 * One bundle at `dir` (which must not exist): written in a temporary
 * folder beside it, renamed into place when complete.
 */
static int
capture_one(struct run *r, const char *dir, json_t *series, struct capture_result *res,
	    struct diag *err)
{
	struct redactor rd;
	json_t *rules = json_array();
	int rc = -1;

	redactor_init(&rd);
	r->tmp = capfile_temp_beside(dir, err);
	if (!r->tmp) {
		json_decref(rules);
		json_decref(series);
		return -1;
	}
	utc_now(r->started);
	run_steps(r);
	if (stopped(r)) {
		json_decref(series);
		series = NULL;
		res->interrupted = true;
		goto out;
	}
	if (r->o->redact && redact_bundle(r, &rd, rules, &res->redaction_hits, err) < 0) {
		json_decref(series);
		series = NULL;
		goto out;
	}
	utc_now(r->finished);
	rc = write_manifest(r, &rd, rules, series, err);
	rules = NULL;
	series = NULL;
	if (rc < 0)
		goto out;
	struct stat st;
	if (lstat(dir, &st) == 0 || rename(r->tmp, dir) < 0) {
		int e = errno;
		rc = diag_set(err, CAPTURE_EXIT_CANTCREAT, NULL, 0, 0,
			      "cannot put the bundle '%s' in place: %s", dir,
			      lstat(dir, &st) == 0 ? "it exists now" : strerror(e));
		goto out;
	}
	free(r->tmp);
	r->tmp = NULL;
	res->complete = all_ok(r);
	report_steps(r, res);
out:
	if (r->tmp) {
		capfile_remove_tree(r->tmp);
		free(r->tmp);
		r->tmp = NULL;
	}
	json_decref(rules);
	redactor_release(&rd);
	steps_release(r);
	return rc;
}

/* ------------------------------------------------------------- archive */

static int
write_archive(const char *dir, char **out, struct diag *err)
{
	struct strbuf name = STRBUF_INIT;
	strbuf_addf(&name, "%s.tar.gz", dir);
	const char *base = strrchr(dir, '/');
	base = base ? base + 1 : dir;
	char *tmp = capfile_write_archive(dir, base, name.buf, err);
	int rc = tmp ? 0 : -1;
	/* rename() replaces a link at the final name; it never writes through one. */
	if (tmp && rename(tmp, name.buf) < 0) {
		diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot write the archive '%s': %s", name.buf,
			 strerror(errno));
		unlink(tmp);
		rc = -1;
	}
	free(tmp);
	if (rc == 0)
		*out = strbuf_detach(&name, NULL);
	strbuf_release(&name);
	return rc;
}

/* --------------------------------------------------------------- series */

static int
write_series_index(const char *dir, json_t *samples, bool complete, const struct capture_opts *o,
		   const char *started, struct diag *err)
{
	json_t *idx = json_pack("{s:s, s:b, s:I, s:I, s:s, s:O}", "schema", "iotally.series/1",
				"complete", complete, "count", (json_int_t)o->count,
				"interval_s", (json_int_t)(o->interval_ms / 1000),
				"started_utc", started, "samples", samples);
	char *text = json_dumps(idx, JSON_INDENT(2) | JSON_SORT_KEYS);
	json_decref(idx);
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, text);
	strbuf_addch(&sb, '\n');
	free(text);
	char *p = capfile_path_in(dir, "series.json");
	int rc = capfile_write_bytes(p, sb.buf, sb.len, err);
	free(p);
	strbuf_release(&sb);
	return rc;
}

/* Sleep up to ms, waking early on a stop request. */
static void
wait_interval(const struct run *r, uint64_t ms)
{
	uint64_t until = spawn_now_ms() + ms;
	while (!stopped(r) && spawn_now_ms() < until) {
		struct timespec ts = { 0, 20 * 1000000L };
		nanosleep(&ts, NULL);
	}
}

static int
capture_series(struct run *r, const char *dir, struct capture_result *res, struct diag *err)
{
	if (mkdir(dir, 0755) < 0) {
		int e = errno;
		return diag_set(err, e == ENOSPC ? DIAG_IOERR : CAPTURE_EXIT_CANTCREAT, NULL, 0, 0,
				"cannot create the series folder '%s': %s", dir, strerror(e));
	}
	char started[32];
	utc_now(started);
	json_t *samples = json_array();
	int rc = write_series_index(dir, samples, false, r->o, started, err);
	bool complete = true;
	for (uint64_t k = 1; k <= r->o->count && rc == 0; k++) {
		if (k > 1)
			wait_interval(r, r->o->interval_ms);
		if (stopped(r)) {
			res->interrupted = true;
			break;
		}
		struct strbuf sub = STRBUF_INIT, name = STRBUF_INIT;
		strbuf_addf(&name, "%03llu", (unsigned long long)k);
		strbuf_addf(&sub, "%s/%s", dir, name.buf);
		json_t *series = json_pack("{s:I, s:I, s:I}", "index", (json_int_t)k, "count",
					   (json_int_t)r->o->count, "interval_s",
					   (json_int_t)(r->o->interval_ms / 1000));
		rc = capture_one(r, sub.buf, series, res, err);
		if (rc == 0) {
			complete = complete && res->complete;
			json_array_append_new(samples, json_pack("{s:I, s:s, s:s, s:b}",
				"index", (json_int_t)k, "dir", name.buf, "started_utc", r->started,
				"complete", res->complete));
			res->nsamples++;
			rc = write_series_index(dir, samples, k == r->o->count, r->o, started, err);
		}
		strbuf_release(&sub);
		strbuf_release(&name);
	}
	if (res->interrupted) {
		diag_clear(err);
		write_series_index(dir, samples, false, r->o, started, err);
		rc = -1;
	}
	res->complete = complete && !res->interrupted && rc == 0;
	json_decref(samples);
	return rc;
}

/* ------------------------------------------------------------ capture_run */

/*
 * The target's name (ps's answer: any bytes) as part of a folder name:
 * '/', ' ' and '.' become '_', and so does each byte util/escape.h would
 * escape (controls, C1, invalid UTF-8), so the folder's name holds no
 * control byte for a later `ls` to print.
 */
static void
add_name_for_folder(struct strbuf *sb, const char *name)
{
	size_t n = strlen(name);
	while (n) {
		size_t k = escape_clean_len(name, n);
		for (size_t i = 0; i < k; i++)
			strbuf_addch(sb, strchr("/ .", name[i]) ? '_' : name[i]);
		name += k;
		n -= k;
		if (n) {
			strbuf_addch(sb, '_');
			name++;
			n--;
		}
	}
}

static char *
default_dir(const struct run *r)
{
	char now[32];
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(now, sizeof(now), "%Y%m%dT%H%M%SZ", &tm);
	struct strbuf sb = STRBUF_INIT;
	if (r->pid >= 0) {
		strbuf_addf(&sb, "iotally-%s-", now);
		add_name_for_folder(&sb, r->target_name ? r->target_name : "process");
		strbuf_addf(&sb, "-%lld", (long long)r->pid);
	} else {
		strbuf_addf(&sb, "iotally-%s-system", now);
	}
	if (r->o->count)
		strbuf_addstr(&sb, "-series");
	return strbuf_detach(&sb, NULL);
}

int
capture_run(const struct capture_opts *o, struct capture_result *res, struct diag *err)
{
	struct run r;
	int rc = -1;
	uint64_t start = spawn_now_ms();

	memset(&r, 0, sizeof(r));
	memset(res, 0, sizeof(*res));
	r.o = o;
	r.pid = o->pid;
	if (o->process && resolve_process(&r, o->process, err) < 0)
		goto out;
	if (r.pid >= 0) {
		if (kill((pid_t)r.pid, 0) < 0 && errno == ESRCH) {
			diag_set(err, CAPTURE_EXIT_UNAVAILABLE, NULL, 0, 0,
				 "no process has pid %lld", (long long)r.pid);
			goto out;
		}
		r.target_other_user = kill((pid_t)r.pid, 0) < 0 && errno == EPERM;
		if (!r.target_name)
			name_target(&r);
	}
	char *dir = o->output ? xstrdup(o->output) : default_dir(&r);
	struct stat st;
	struct strbuf tgz = STRBUF_INIT;
	strbuf_addf(&tgz, "%s.tar.gz", dir);
	if (lstat(dir, &st) == 0 || (o->archive && lstat(tgz.buf, &st) == 0)) {
		diag_set(err, CAPTURE_EXIT_CANTCREAT, NULL, 0, 0,
			 "'%s' exists; a capture never overwrites one (choose another -o)",
			 lstat(dir, &st) == 0 ? dir : tgz.buf);
		strbuf_release(&tgz);
		free(dir);
		goto out;
	}
	strbuf_release(&tgz);
	res->dir = dir;
	if (o->count)
		rc = capture_series(&r, dir, res, err);
	else
		rc = capture_one(&r, dir, NULL, res, err);
	if (rc < 0 && !o->count) {
		free(res->dir);
		res->dir = NULL;
	}
	if (rc == 0 && o->archive)
		rc = write_archive(dir, &res->archive, err);
out:
	free(r.target_name);
	res->tools_ms = r.tools_ms;
	res->total_ms = spawn_now_ms() - start;
	return rc;
}

void
capture_result_release(struct capture_result *res)
{
	for (size_t i = 0; i < res->nsteps; i++) {
		free(res->steps[i].id);
		free(res->steps[i].status);
		free(res->steps[i].reason);
	}
	free(res->steps);
	free(res->dir);
	free(res->archive);
	memset(res, 0, sizeof(*res));
}
