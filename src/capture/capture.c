#include "capture/capture.h"

#include "capture/command.h"

#include "capture/files.h"
#include "capture/redact.h"
#include "capture/redact_stream.h"
#include "capture/toolrun.h"
#include "bundle/manifest.h"
#include "iotally-config.h"
#include "util/array.h"
#include "util/cleanup.h"
#include "util/jsonstr.h"
#include "util/sha256.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <dirent.h>
#include <stdarg.h>
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
/* A probe's answer (pgrep's pids, ps's name) longer than this is not believed. */
#define PROBE_MAX (1u << 20)
/* The first bytes of each output kept in memory (as written) to classify and read host facts. */
#define HEAD_MAX (64u * 1024u)

/* ---------------------------------------------------------------- steps */

static const char *const sysctl_names[] = {
	"hw.model", "hw.machine", "hw.memsize", "hw.pagesize", "hw.ncpu",
	"kern.osversion", "kern.osproductversion", "kern.version", "kern.bootargs",
};

struct run;

/*
 * One file of the bundle as a tool writes it: bytes come in from the
 * pipe, are redacted chunk by chunk (cut where no rule sees across:
 * capture/redact.h) and written; size, sha256 and the first HEAD_MAX
 * bytes are kept on the way.
 */
struct out_file {
	char *rel;              /* bundle-relative, owned */
	int fd;
	struct run *r;
	bool collect;           /* learn values from the text (not on a rewrite) */
	struct strbuf pend;     /* received, not yet redacted */
	size_t want;            /* redact when pend holds this much */
	bool whole;             /* a known value spans lines: redact at the end */
	struct strbuf head;     /* the first bytes written */
	struct sha256 sha;
	char hex[SHA256_HEX_SIZE];
	uint64_t bytes;
	uint64_t hits[REDACT_NRULES];
	size_t values_seen;     /* the redactor's values when its last bytes were written */
	bool written;           /* finished: bytes, hex valid */
};

struct step_run {
	char *id;
	char **argv;            /* owned, NULL-terminated; argv[0] the resolved path */
	const char *kind;
	struct out_file out, err;
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
	struct redactor rd;
	struct strbuf redacted;     /* one chunk's redacted bytes, reused: memory stays flat */
	int64_t pid;
	char *target_name;
	bool target_other_user;
	bool host_known;        /* --repeat: the first sample recorded the host facts */
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
	s->out.fd = s->err.fd = -1;
	size_t n = 0;
	while (argv[n])
		n++;
	size_t extra = strcmp(id, "kernel.track") == 0 ? r->o->ntrack_names : 0;
	s->argv = xcalloc(n + extra + 1, sizeof(*s->argv));
	char *path = toolrun_resolve(r->o->tools_dir, argv[0]);
	s->argv[0] = path ? path : xstrdup(argv[0]);
	for (size_t i = 1; i < n; i++) {
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

/* ------------------------------------------------------ writing an output */

static int
out_write(struct out_file *f, const char *p, size_t n, struct diag *err)
{
	if (capfile_write_all(f->fd, p, n) < 0) {
		int e = errno;
		return diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot write '%s' of the bundle: %s",
				f->rel, strerror(e));
	}
	sha256_add(&f->sha, p, n);
	f->bytes += n;
	if (f->head.len < HEAD_MAX)
		strbuf_add(&f->head, p, n < HEAD_MAX - f->head.len ? n : HEAD_MAX - f->head.len);
	return 0;
}

/* One chunk that ends on a safe cut: its values learnt, then redacted, then written. */
static int
out_emit(struct out_file *f, const char *p, size_t n, struct diag *err)
{
	struct redactor *rd = &f->r->rd;
	struct strbuf *red = &f->r->redacted;
	if (f->collect)
		redactor_collect(rd, p, n);
	strbuf_reset(red);
	redactor_apply(rd, p, n, red, f->hits);
	int rc = out_write(f, red->buf, red->len, err);
	f->values_seen = rd->nvalues;
	return rc;
}

/* spawn_sink_fn: bytes from the tool. */
static int
out_sink(void *ctx, const char *p, size_t n, struct diag *err)
{
	struct out_file *f = ctx;
	if (!f->r->o->redact)
		return out_write(f, p, n, err);
	strbuf_add(&f->pend, p, n);
	while (!f->whole && f->pend.len >= f->want) {
		if (!redactor_line_local(&f->r->rd)) {
			f->whole = true;   /* a value holding a newline: only the whole text is safe */
			break;
		}
		size_t cut = redactor_safe_cut(f->pend.buf, f->pend.len);
		if (cut == 0) {
			f->want = f->pend.len + REDACT_CHUNK;   /* no safe cut yet: the chunk grows */
			break;
		}
		int rc = out_emit(f, f->pend.buf, cut, err);
		memmove(f->pend.buf, f->pend.buf + cut, f->pend.len - cut);
		f->pend.len -= cut;
		f->pend.buf[f->pend.len] = '\0';
		f->want = REDACT_CHUNK;
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* DIR/REL created (registered with util/cleanup.h), ready for out_sink. */
static int
out_open(struct run *r, struct out_file *f, const char *dir, const char *rel, bool collect)
{
	free(f->rel);
	memset(f, 0, sizeof(*f));
	f->rel = xstrdup(rel);
	f->r = r;
	f->collect = collect;
	f->want = REDACT_CHUNK;
	sha256_begin(&f->sha);
	f->fd = capfile_open_out(dir, rel);
	return f->fd < 0 ? -1 : 0;
}

/* The rest redacted and written, synced to the disk, closed. */
static int
out_finish(struct out_file *f, struct diag *err)
{
	int rc = 0;
	if (f->pend.len)
		rc = out_emit(f, f->pend.buf, f->pend.len, err);
	strbuf_release(&f->pend);
	if (rc == 0 && fsync(f->fd) < 0 && errno != EINVAL)
		rc = diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot write '%s' of the bundle: %s",
			      f->rel, strerror(errno));
	if (close(f->fd) < 0 && rc == 0)
		rc = diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot write '%s' of the bundle: %s",
			      f->rel, strerror(errno));
	f->fd = -1;
	sha256_end_hex(&f->sha, f->hex);
	f->written = rc == 0;
	return rc;
}

static void
out_release(struct out_file *f)
{
	if (f->fd >= 0)
		close(f->fd);
	free(f->rel);
	strbuf_release(&f->pend);
	strbuf_release(&f->head);
	memset(f, 0, sizeof(*f));
	f->fd = -1;
}

/* ------------------------------------------------------ classifying a step */

/*
 * Apple's failure texts (docs/capture.md), looked for on standard error
 * only and only when the tool exited non-zero: a path or a name in a
 * successful output may hold any of these words. "do not have appropriate
 * privileges", "Operation not permitted", "(try as root?)" are denials;
 * "no longer appears to be running" means the target ended; "for unknown
 * reasons, even though it appears to exist" is a denial while the target
 * lives and the target ending otherwise.
 */
static void
classify_exit(struct run *r, struct step_run *s)
{
	const struct strbuf *text = &s->err.head;
	bool target = strncmp(s->id, "target.", 7) == 0;
	int status = s->sr.exit_status;
	if (status == 0) {
		s->status = "ok";
		return;
	}
	bool unknown = contains(text, "even though it appears to exist");
	if (contains(text, "no longer appears to be running") ||
	    (target && !pid_alive(r->pid))) {
		s->status = "target-gone";
		s->reason = line_with(text, "no longer appears to be running");
		if (!s->reason)
			s->reason = xstrdup("the target process ended");
	} else if (contains(text, "do not have appropriate privileges") ||
		   contains(text, "Operation not permitted") || contains(text, "try as root") ||
		   unknown) {
		s->status = "denied";
		s->reason = line_with(text, unknown ? "even though it appears to exist"
						    : contains(text, "privileges") ? "privileges"
						    : contains(text, "Operation not permitted")
						    ? "Operation not permitted" : "try as root");
	} else {
		struct strbuf sb = STRBUF_INIT;
		char *first = line_with(text, NULL);
		strbuf_addf(&sb, "exit status %d%s%s", status, first ? ": " : "",
			    first ? first : "");
		free(first);
		s->status = "failed";
		s->reason = strbuf_detach(&sb, NULL);
	}
}

static void
classify(struct run *r, struct step_run *s, const struct diag *sink_err)
{
	const struct spawn_result *sr = &s->sr;
	struct strbuf sb = STRBUF_INIT;
	switch (sr->end) {
	case SPAWN_NOT_FOUND:
		s->status = "failed";
		if (r->o->tools_dir)
			strbuf_addf(&sb, "the tool is not in --tools-dir %s", r->o->tools_dir);
		else
			strbuf_addstr(&sb, "the tool is not in " TOOLRUN_SYSTEM_DIRS);
		s->reason = strbuf_detach(&sb, NULL);
		break;
	case SPAWN_FAILED:
		s->status = "failed";
		s->reason = xstrdup(strerror(sr->errno_value));
		break;
	case SPAWN_SINK_FAILED:
		s->status = "failed";
		s->reason = xstrdup(sink_err->msg);
		break;
	case SPAWN_TIMED_OUT:
		strbuf_addf(&sb, "no result within %llu s; the tool was stopped",
			    (unsigned long long)(r->o->timeout_ms / 1000));
		s->status = "timeout";
		s->reason = strbuf_detach(&sb, NULL);
		break;
	case SPAWN_SIGNALED:
		strbuf_addf(&sb, "the tool was killed by signal %d", sr->signal);
		s->status = "failed";
		s->reason = strbuf_detach(&sb, NULL);
		break;
	case SPAWN_EXITED:
		classify_exit(r, s);
		break;
	}
	strbuf_release(&sb);
}

/*
 * One step: the tool's standard output into out_rel and its standard
 * error into logs/ID.stderr, both redacted as they arrive. -1 with *err
 * when the bundle cannot be written (the capture stops); a tool that fails
 * is a step's status, not an error.
 */
static int
run_step(struct run *r, struct step_run *s, const char *out_rel, struct diag *err)
{
	struct strbuf err_rel = STRBUF_INIT;
	strbuf_addf(&err_rel, "logs/%s.stderr", s->id);
	utc_now(s->started);
	s->ran = true;
	int rc = 0;
	if (out_open(r, &s->out, r->tmp, out_rel, true) < 0 ||
	    out_open(r, &s->err, r->tmp, err_rel.buf, true) < 0) {
		int e = errno;
		/* Inside the private folder iotally just made: a full or failing disk. */
		rc = diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot write the bundle's file '%s': %s",
			      s->out.fd < 0 ? out_rel : err_rel.buf, strerror(e));
		strbuf_release(&err_rel);
		return rc;
	}
	strbuf_release(&err_rel);
	struct diag sink_err;
	diag_clear(&sink_err);
	if (!strchr(s->argv[0], '/')) {
		s->sr.end = SPAWN_NOT_FOUND;
		s->sr.errno_value = ENOENT;
	} else {
		spawn_run(s->argv[0], s->argv, out_sink, &s->out, out_sink, &s->err,
			  r->o->timeout_ms, &s->sr, &sink_err);
		r->tools_ms += s->sr.duration_ms;
	}
	if (out_finish(&s->out, err) < 0 || out_finish(&s->err, err) < 0)
		return -1;
	if (s->sr.end == SPAWN_SINK_FAILED) {
		*err = sink_err;
		return -1;
	}
	classify(r, s, &sink_err);
	return 0;
}

/*
 * A value learnt from a later output (a user name that only vmmap's paths
 * show) may sit as a bare word in a file written before it was known: such
 * files are redacted again (the rules change nothing already redacted),
 * through a temporary file in the private folder, a chunk at a time.
 */
struct file_reader {
	int fd;
	const char *rel;
};

static ssize_t
file_read(void *ctx, void *buf, size_t n, struct diag *err)
{
	struct file_reader *fr = ctx;
	for (;;) {
		ssize_t got = read(fr->fd, buf, n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot read '%s' of the bundle: %s",
					fr->rel, strerror(errno));
		return got;
	}
}

static int
rewrite_chunk(void *ctx, const char *p, size_t n, struct diag *err)
{
	return out_emit(ctx, p, n, err);
}

static int
rewrite_file(struct run *r, struct out_file *f, struct diag *err)
{
	struct strbuf tmp_rel = STRBUF_INIT;
	strbuf_addf(&tmp_rel, "%s.redact", f->rel);
	struct out_file nf;
	memset(&nf, 0, sizeof(nf));
	nf.fd = -1;
	char *path = capfile_path_in(r->tmp, f->rel);
	char *tmp = capfile_path_in(r->tmp, tmp_rel.buf);
	struct file_reader fr = { open(path, O_RDONLY | O_CLOEXEC), f->rel };
	int rc = -1;
	if (fr.fd < 0 || out_open(r, &nf, r->tmp, tmp_rel.buf, false) < 0) {
		diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot redact '%s' of the bundle again: %s",
			 f->rel, strerror(errno));
		goto out;
	}
	rc = redact_stream(file_read, &fr, REDACT_CHUNK, !redactor_line_local(&r->rd),
			   rewrite_chunk, &nf, err);
	if (out_finish(&nf, err) < 0)
		rc = -1;
	if (rc == 0 && rename(tmp, path) < 0)
		rc = diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot write '%s' of the bundle: %s",
			      f->rel, strerror(errno));
	if (rc == 0) {
		memcpy(f->hex, nf.hex, sizeof(f->hex));
		f->bytes = nf.bytes;
		for (int i = 0; i < REDACT_NRULES; i++)
			f->hits[i] += nf.hits[i];
		f->values_seen = r->rd.nvalues;
	}
out:
	if (fr.fd >= 0)
		close(fr.fd);
	if (rc < 0)
		unlink(tmp);
	cleanup_forget(tmp);
	out_release(&nf);
	free(path);
	free(tmp);
	strbuf_release(&tmp_rel);
	return rc;
}

static int
redact_again(struct run *r, struct diag *err)
{
	if (!r->o->redact)
		return 0;
	for (size_t i = 0; i < r->nsteps; i++) {
		struct step_run *s = &r->steps[i];
		if (!s->ran)
			continue;
		if (s->out.written && s->out.values_seen < r->rd.nvalues &&
		    rewrite_file(r, &s->out, err) < 0)
			return -1;
		if (s->err.written && s->err.values_seen < r->rd.nvalues &&
		    rewrite_file(r, &s->err, err) < 0)
			return -1;
	}
	return 0;
}

/*
 * Values known before any tool runs: the names of the home folders in
 * /Users (each is what the user-path rule learns from a /Users/NAME/
 * path), so a bare user name is redacted even in outputs written before a
 * path showed it.
 */
static void
seed_values(struct redactor *rd)
{
	DIR *d = opendir("/Users");
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		const char *n = e->d_name;
		if (n[0] == '.' || strcmp(n, "Shared") == 0 || strcmp(n, "USER") == 0 ||
		    strcmp(n, "Guest") == 0)
			continue;
		redactor_add_value(rd, n, strlen(n));
	}
	closedir(d);
}

/* ------------------------------------------------------------ host facts */

/* "name: value" of one sysctl output (as written), trimmed, or NULL. */
static char *
sysctl_value(const struct strbuf *text, const char *name)
{
	size_t n = strlen(name);
	if (text->len <= n + 1 || memcmp(text->buf, name, n) != 0 ||
	    (text->buf[n] != ':' && text->buf[n] != ' '))
		return NULL;
	const char *s = text->buf + n + 1;
	const char *e = memchr(s, '\n', text->len - (size_t)(s - text->buf));
	if (!e)
		e = text->buf + text->len;
	while (s < e && (*s == ' ' || *s == '=' || *s == '\t'))
		s++;
	while (e > s && e[-1] == ' ')
		e--;
	return xmemdup0(s, (size_t)(e - s));
}

static char *
sw_vers_field(const struct strbuf *text, const char *field)
{
	char *line = line_with(text, field);
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

const char *
capture_kernel_variant(const char *version)
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

bool
capture_bootarg_io(const char *bootargs, uint64_t *value)
{
	/* A word "io=N", not the tail of another ("audio=0x400000"). */
	for (const char *p = bootargs; p && (p = strstr(p, "io=")) != NULL; p += 3) {
		if (p != bootargs && p[-1] != ' ' && p[-1] != '\t')
			continue;
		char *end;
		errno = 0;
		unsigned long long v = strtoull(p + 3, &end, 0);
		if (end == p + 3 || errno || (*end && *end != ' ' && *end != '\t'))
			continue;
		*value = v;
		return true;
	}
	return false;
}

enum track_block
capture_track_check(const char *kern_version, const char *bootargs, bool root)
{
	const char *variant = capture_kernel_variant(kern_version);
	uint64_t io = 0;
	if (!variant)
		return TRACK_VARIANT_UNKNOWN;
	if (strcmp(variant, "RELEASE") == 0)
		return TRACK_RELEASE;
	if (!capture_bootarg_io(bootargs, &io) || !(io & CAPTURE_IO_TRACKING))
		return TRACK_NO_IO_BOOTARG;
	if (!root)
		return TRACK_NOT_ROOT;
	return TRACK_OK;
}

const char *
capture_track_block_reason(enum track_block b)
{
	switch (b) {
	case TRACK_VARIANT_UNKNOWN:
		return "the kernel variant is unknown (kern.version was not read)";
	case TRACK_RELEASE:
		return "RELEASE kernel: allocation tracking needs a DEVELOPMENT or DEBUG kernel";
	case TRACK_NO_IO_BOOTARG:
		return "io boot-arg missing: tracking needs io=0x00400000 in kern.bootargs";
	case TRACK_NOT_ROOT:
		return "not root: ioclasscount --track needs root (run with sudo)";
	case TRACK_OK:
		break;
	}
	return NULL;
}

const char *
capture_track_block_fix(enum track_block b)
{
	switch (b) {
	case TRACK_VARIANT_UNKNOWN:
		return "check that 'sysctl kern.version' answers on this Mac";
	case TRACK_RELEASE:
		return "install and boot a DEVELOPMENT or DEBUG kernel (Kernel Debug Kit), "
		       "then run again";
	case TRACK_NO_IO_BOOTARG:
		return "add io=0x00400000 to the boot-args, keeping those 'nvram boot-args' "
		       "shows (io=0x02400000 also tracks from boot): sudo nvram "
		       "boot-args=\"... io=0x00400000\" (SIP's NVRAM protection must be off), "
		       "then restart";
	case TRACK_NOT_ROOT:
		return "run it with sudo";
	case TRACK_OK:
		break;
	}
	return NULL;
}

/* Why --track cannot work here, or NULL when it can. */
static const char *
track_unavailable(const struct run *r)
{
	return capture_track_block_reason(capture_track_check(host_sysctl(r, "kern.version"),
							      host_sysctl(r, "kern.bootargs"),
							      geteuid() == 0));
}

/* ----------------------------------------------------------- the target */

struct probe_out {
	struct strbuf text;
	bool too_long;
};

static int
probe_sink(void *ctx, const char *p, size_t n, struct diag *err)
{
	struct probe_out *po = ctx;
	(void)err;
	if (po->text.len + n > PROBE_MAX)
		po->too_long = true;
	else
		strbuf_add(&po->text, p, n);
	return 0;
}

static int
discard_sink(void *ctx, const char *p, size_t n, struct diag *err)
{
	(void)ctx;
	(void)p;
	(void)n;
	(void)err;
	return 0;
}

/*
 * Run a small probe (pgrep, ps) found like the tools, and keep its standard
 * output: its exit status, or -1 when it did not run or said too much.
 */
static int
probe(const struct run *r, const char *tool, char *args[], struct strbuf *out)
{
	char *path = toolrun_resolve(r->o->tools_dir, tool);
	if (!path)
		return -1;
	args[0] = path;
	struct probe_out po = { STRBUF_INIT, false };
	struct spawn_result sr;
	struct diag unused;
	diag_clear(&unused);
	spawn_run(path, args, probe_sink, &po, discard_sink, NULL, PROBE_TIMEOUT_MS, &sr, &unused);
	free(path);
	args[0] = NULL;
	strbuf_add(out, po.text.buf, po.text.len);
	strbuf_release(&po.text);
	if (sr.end != SPAWN_EXITED || po.too_long)
		return -1;
	return sr.exit_status;
}

/*
 * One pid of pgrep's answer, parsed like --pid: decimal digits only, 1 to
 * INT32_MAX (pid_t is 32 bits on macOS and Linux). 0 when the word is not
 * one: never 0 or -1, which kill() takes as "the group" or "every
 * process".
 */
static int64_t
parse_pid_word(const char *p, size_t n)
{
	if (n == 0 || n > 10)
		return 0;
	int64_t v = 0;
	for (size_t i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return 0;
		v = v * 10 + (p[i] - '0');
	}
	return v >= 1 && v <= INT32_MAX ? v : 0;
}

/* pgrep's lines as pids: their count, or -1 with the first bad word in *bad. */
static long
parse_pgrep(const struct strbuf *out, int64_t *first, struct strbuf *bad)
{
	long count = 0;
	const char *p = out->buf, *end = out->buf + out->len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		if (le > p) {
			int64_t v = parse_pid_word(p, (size_t)(le - p));
			if (!v) {
				diag_quote(bad, p, (size_t)(le - p), 40);
				return -1;
			}
			if (count++ == 0)
				*first = v;
		}
		p = nl ? nl + 1 : end;
	}
	return count;
}

static int
resolve_process(struct run *r, const char *name, struct diag *err)
{
	char exact[] = "-x";
	char *argv[] = { NULL, exact, (char *)name, NULL };
	struct strbuf out = STRBUF_INIT, bad = STRBUF_INIT;
	int rc = probe(r, "pgrep", argv, &out);
	int64_t first = -1;
	long count = rc < 0 ? 0 : parse_pgrep(&out, &first, &bad);
	int ret = -1;
	if (rc < 0) {
		diag_set(err, CAPTURE_EXIT_UNAVAILABLE, NULL, 0, 0,
			 "cannot look up process '%s': pgrep did not run (or said too much)", name);
	} else if (count < 0) {
		diag_set(err, DIAG_DATA, NULL, 0, 0,
			 "cannot look up process '%s': pgrep answered %s, which is not a process id "
			 "(1 to %ld); give --pid instead", name, bad.buf, (long)INT32_MAX);
	} else if (count == 0) {
		diag_set(err, CAPTURE_EXIT_UNAVAILABLE, NULL, 0, 0,
			 "no running process is named '%s'", name);
	} else if (count > 1) {
		for (size_t i = 0; i < out.len; i++)
			if (out.buf[i] == '\n')
				out.buf[i] = ' ';
		diag_set(err, DIAG_USAGE, NULL, 0, 0,
			 "%ld processes are named '%s' (pids %.*s); choose one with --pid", count,
			 name, (int)(out.len && out.buf[out.len - 1] == ' ' ? out.len - 1 : out.len),
			 out.buf);
	} else {
		r->pid = first;
		r->target_name = xstrdup(name);
		ret = 0;
	}
	strbuf_release(&out);
	strbuf_release(&bad);
	return ret;
}

/* The target's name from `ps -o comm= -p PID` (its last path component). */
static void
name_target(struct run *r)
{
	struct strbuf pid = STRBUF_INIT, out = STRBUF_INIT;
	strbuf_addf(&pid, "%lld", (long long)r->pid);
	char o[] = "-o", comm[] = "comm=", p[] = "-p";
	char *argv[] = { NULL, o, comm, p, pid.buf, NULL };
	if (probe(r, "ps", argv, &out) == 0) {
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

/* --------------------------------------------------------- the manifest */

static json_t *
file_json(const struct out_file *f)
{
	if (!f->written)
		return json_null();
	return manifest_record_new(f->rel, f->bytes, f->hex);
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
			json_array_append_new(a, json_string_safe(argv[i]));
			continue;
		}
		uint64_t hits[REDACT_NRULES] = { 0 };
		struct strbuf out = STRBUF_INIT;
		redactor_apply(rd, argv[i], strlen(argv[i]), &out, hits);
		json_array_append_new(a, json_string_safe(out.buf));
		strbuf_release(&out);
	}
	return a;
}

/* A text of the outside (a reason, a name) as the manifest records it: redacted when asked. */
static json_t *
text_json(const struct run *r, const char *s)
{
	if (!s || !r->o->redact)
		return json_string_safe(s);
	uint64_t hits[REDACT_NRULES] = { 0 };
	struct strbuf out = STRBUF_INIT;
	redactor_apply(&r->rd, s, strlen(s), &out, hits);
	json_t *j = json_string_safe(out.buf);
	strbuf_release(&out);
	return j;
}

static json_t *
steps_json(const struct run *r)
{
	json_t *a = json_array();
	for (size_t i = 0; i < r->nsteps; i++) {
		const struct step_run *s = &r->steps[i];
		json_t *st = json_object();
		json_object_set_new(st, MK_ID, json_string_safe(s->id));
		json_object_set_new(st, MK_ARGV, argv_json(&r->rd, s->argv, -1, r->o->redact));
		json_object_set_new(st, MK_STARTED_UTC, s->ran ? json_string(s->started) : json_null());
		json_object_set_new(st, MK_DURATION_MS, json_integer((json_int_t)s->sr.duration_ms));
		json_object_set_new(st, MK_EXIT_STATUS, s->ran && s->sr.end == SPAWN_EXITED
				    ? json_integer(s->sr.exit_status) : json_null());
		json_object_set_new(st, MK_SIGNAL, s->ran && s->sr.end == SPAWN_SIGNALED
				    ? json_integer(s->sr.signal) : json_null());
		json_object_set_new(st, MK_STATUS, json_string(s->status));
		json_object_set_new(st, MK_REASON, text_json(r, s->reason));
		json_object_set_new(st, MK_CAPTURE_KIND, json_string_safe(s->kind));
		json_object_set_new(st, MK_STDOUT, s->ran ? file_json(&s->out) : json_null());
		json_object_set_new(st, MK_STDERR, s->ran ? file_json(&s->err) : json_null());
		json_array_append_new(a, st);
	}
	return a;
}

static json_t *
host_json(const struct run *r)
{
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
		MK_MODEL, json_string_safe(host_sysctl(r, "hw.model")),
		MK_MACHINE, json_string_safe(host_sysctl(r, "hw.machine")),
		MK_OS_VERSION, json_string_safe(r->host.os_version),
		MK_OS_BUILD, json_string_safe(r->host.os_build),
		MK_KERNEL_VERSION, json_string_safe(host_sysctl(r, "kern.version")),
		MK_KERNEL_VARIANT, json_string_safe(capture_kernel_variant(host_sysctl(r, "kern.version"))),
		MK_PAGE_SIZE, nullable_int(host_sysctl(r, "hw.pagesize")),
		MK_MEMSIZE, nullable_int(host_sysctl(r, "hw.memsize")));
}

/* Per rule: its hits, in total and per file. */
static json_t *
rules_json(const struct run *r, uint64_t *total)
{
	json_t *rules = json_array();
	for (int rule = 0; rule < REDACT_NRULES; rule++) {
		uint64_t sum = 0;
		json_t *files = json_object();
		for (size_t i = 0; i < r->nsteps; i++) {
			const struct out_file *fs[2] = { &r->steps[i].out, &r->steps[i].err };
			for (int k = 0; k < 2; k++) {
				if (!r->steps[i].ran || !fs[k]->hits[rule])
					continue;
				sum += fs[k]->hits[rule];
				json_object_set_new(files, fs[k]->rel,
						    json_integer((json_int_t)fs[k]->hits[rule]));
			}
		}
		*total += sum;
		json_array_append_new(rules, json_pack("{s:s, s:s, s:I, s:o}",
			MK_RULE, redact_rule_name((enum redact_rule)rule),
			MK_DESCRIPTION, redact_rule_description((enum redact_rule)rule),
			MK_HITS, (json_int_t)sum, MK_FILES, files));
	}
	return rules;
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
write_manifest(struct run *r, json_t *series, uint64_t *hits, struct diag *err)
{
	json_t *redaction = json_object();
	json_object_set_new(redaction, MK_ENABLED, json_boolean(r->o->redact));
	json_object_set_new(redaction, MK_WARNING, r->o->redact ? json_null() : json_string(
		"REDACTION WAS TURNED OFF (--no-redact): this bundle may hold user names, "
		"serial numbers and home folder paths; review it before sharing it"));
	json_object_set_new(redaction, MK_RULES, rules_json(r, hits));
	json_t *target = json_null();
	if (r->pid >= 0) {
		target = json_object();
		json_object_set_new(target, MK_PID, json_integer((json_int_t)r->pid));
		json_object_set_new(target, MK_NAME, text_json(r, r->target_name));
	}
	json_t *m = manifest_new();
	json_object_set_new(m, MK_COMPLETE, json_boolean(all_ok(r)));
	json_object_set_new(m, MK_IOTALLY_VERSION, json_string(IOTALLY_VERSION));
	json_object_set_new(m, MK_STARTED_UTC, json_string(r->started));
	json_object_set_new(m, MK_FINISHED_UTC, json_string(r->finished));
	json_object_set_new(m, MK_ARGV, argv_json(&r->rd, r->o->argv, r->o->argc, r->o->redact));
	json_object_set_new(m, MK_REDACTION, redaction);
	json_object_set_new(m, MK_HOST, host_json(r));
	json_object_set_new(m, MK_TARGET, target);
	json_object_set_new(m, MK_STEPS, steps_json(r));
	json_object_set_new(m, MK_SERIES, series ? series : json_null());
	struct strbuf sb = STRBUF_INIT;
	int dumped = manifest_dump(m, &sb);
	json_decref(m);
	if (dumped < 0) {
		strbuf_release(&sb);
		return diag_set(err, DIAG_SOFTWARE, NULL, 0, 0, "cannot write the manifest");
	}
	char *p = capfile_path_in(r->tmp, BUNDLE_MANIFEST);
	cleanup_add_file(p);
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
		out_release(&s->out);
		out_release(&s->err);
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

/* A signal the session deferred (util/cleanup.h): the steps stop here. */
static int
interrupted(struct diag *err)
{
	if (!cleanup_pending_signal())
		return 0;
	return diag_set(err, DIAG_UNAVAILABLE, NULL, 0, 0, "interrupted by signal %d",
			cleanup_pending_signal());
}

/* The reads of a tracking capture, in the order given. */
static int
run_reads(struct run *r, struct diag *err)
{
	for (size_t i = 0; i < r->o->nreads; i++) {
		const struct capture_read *rd = &r->o->reads[i];
		struct step_run *s = add_step(r, rd->id, rd->argv, "track");
		if (run_step(r, s, rd->out, err) < 0 || interrupted(err) < 0)
			return -1;
	}
	return 0;
}

/* Run every step into r->tmp: 0, or -1 with *err when the bundle cannot be written. */
static int run_host_steps(struct run *r, struct diag *err);
static int run_later_steps(struct run *r, struct diag *err);

static int
run_steps(struct run *r, struct diag *err)
{
	if (r->o->reads)
		return run_reads(r, err);
	/* --repeat's snapshots are light: the host does not change between iterations. */
	if (!r->host_known && run_host_steps(r, err) < 0)
		return -1;
	r->host_known = r->o->command != NULL;
	return run_later_steps(r, err);
}

/* sw_vers and the sysctl names: the host facts of the manifest. */
static int
run_host_steps(struct run *r, struct diag *err)
{
	static const char *const sw_vers[] = { "sw_vers", NULL };
	struct step_run *s = add_step(r, "host.sw_vers", sw_vers, NULL);
	if (run_step(r, s, "host/sw_vers.txt", err) < 0 || interrupted(err) < 0)
		return -1;
	r->host.os_version = sw_vers_field(&s->out.head, "ProductVersion");
	r->host.os_build = sw_vers_field(&s->out.head, "BuildVersion");
	for (size_t i = 0; i < ARRAY_SIZE(sysctl_names); i++) {
		const char *argv[] = { "sysctl", sysctl_names[i], NULL };
		struct strbuf id = STRBUF_INIT, out = STRBUF_INIT;
		strbuf_addf(&id, "host.sysctl.%s", sysctl_names[i]);
		strbuf_addf(&out, "host/sysctl/%s.txt", sysctl_names[i]);
		s = add_step(r, id.buf, argv, NULL);
		int rc = run_step(r, s, out.buf, err);
		strbuf_release(&id);
		strbuf_release(&out);
		if (rc < 0 || interrupted(err) < 0)
			return -1;
		if (strcmp(s->status, "ok") == 0)
			r->host.sysctl[i] = sysctl_value(&s->out.head, sysctl_names[i]);
	}
	return 0;
}

/* The kernel and target snapshots, in the plan's order (cheap first). */
static int
run_later_steps(struct run *r, struct diag *err)
{
	struct step_run *s;
	for (size_t i = 0; i < r->o->plan->n; i++) {
		const struct capture_step_def *d = r->o->plan->steps[i].def;
		enum bundle_kind kind = r->o->plan->steps[i].kind;
		if (d->when == CAPTURE_STEP_TARGET && r->pid < 0)
			continue;
		/* --kinds: only the snapshots asked for (capture --repeat's lightest is footprint). */
		if (r->o->kinds && !(r->o->kinds & (1u << kind)))
			continue;
		/* A session's snapshots: its tracking reads are a bundle of their own. */
		if (d->when == CAPTURE_STEP_TRACK && r->o->in_session)
			continue;
		s = add_step(r, d->id, d->argv, bundle_kind_name(kind));
		if (d->when == CAPTURE_STEP_TRACK) {
			const char *why = r->o->track ? track_unavailable(r) : "not asked for (--track)";
			if (why) {
				skip_step(s, why);
				continue;
			}
		}
		if (d->when == CAPTURE_STEP_TARGET && r->target_other_user) {
			s->status = "denied";
			s->reason = xstrdup("the target belongs to another user; run with sudo "
					    "(not attempted: attaching can hang)");
			continue;
		}
		if (d->when == CAPTURE_STEP_TARGET && !pid_alive(r->pid)) {
			s->status = "target-gone";
			s->reason = xstrdup("the target process ended before this step");
			continue;
		}
		if (run_step(r, s, d->out, err) < 0 || interrupted(err) < 0)
			return -1;
		if (d->not_installed && s->sr.end == SPAWN_NOT_FOUND) {
			free(s->reason);
			s->reason = NULL;
			skip_step(s, d->not_installed);
		}
	}
	return 0;
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
		s->reason = NULL;
		if (r->steps[i].reason) {
			/* What the command prints is what the manifest records. */
			json_t *j = text_json(r, r->steps[i].reason);
			s->reason = xstrdup(json_string_value(j));
			json_decref(j);
		}
	}
}

/* ------------------------------------------------ what a signal leaves */

/* The handler's line (util/cleanup.h): "iotally: capture interrupted (...): WHAT\n", owned. */
static char *
signal_line(const char *what, const char *dir, const char *after)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "iotally: error: capture interrupted by a signal: ");
	strbuf_addstr(&sb, what);
	if (dir) {
		strbuf_addstr(&sb, " '");
		diag_quote(&sb, dir, strlen(dir), 400);
		strbuf_addch(&sb, '\'');
	}
	if (after)
		strbuf_addstr(&sb, after);
	strbuf_addch(&sb, '\n');
	return strbuf_detach(&sb, NULL);
}

static void
say_on_signal(const char *what, const char *dir, const char *after)
{
	char *line = signal_line(what, dir, after);
	cleanup_set_message(line);
	free(line);
}

/*
 * Publish: rename the private folder to `dir`, with the signals held so
 * that the handler's message is true whichever side of the rename a
 * signal lands on.
 */
static int
publish(struct run *r, const char *dir, bool in_series, struct diag *err)
{
	char *line = in_series ? NULL :
		signal_line("the bundle was complete and is kept:", dir,
			    r->o->archive ? " (its archive was not written)" : NULL);
	int rc = capfile_publish(&r->tmp, dir, "bundle", line, err);
	free(line);
	return rc;
}

/*
 * One bundle at `dir` (which must not exist): written in a private folder
 * beside it, renamed into place when complete.
 */
static int
capture_one(struct run *r, const char *dir, json_t *series, struct capture_result *res,
	    struct diag *err)
{
	int rc = -1;

	redactor_init(&r->rd);
	seed_values(&r->rd);
	r->tmp = capfile_temp_beside(dir, err);
	if (!r->tmp) {
		json_decref(series);
		redactor_release(&r->rd);
		return -1;
	}
	utc_now(r->started);
	if (run_steps(r, err) < 0 || redact_again(r, err) < 0) {
		json_decref(series);
		goto out;
	}
	utc_now(r->finished);
	rc = write_manifest(r, series, &res->redaction_hits, err);
	if (rc == 0)
		rc = publish(r, dir, r->o->count > 0 || r->o->in_session, err);
	if (rc < 0)
		goto out;
	res->complete = all_ok(r);
	report_steps(r, res);
out:
	if (r->tmp) {
		capfile_remove_tree(r->tmp);
		free(r->tmp);
		r->tmp = NULL;
	}
	redactor_release(&r->rd);
	steps_release(r);
	return rc;
}

/* ------------------------------------------------------------- archive */

int
capture_write_archive(const char *dir, char **out, struct diag *err)
{
	struct strbuf name = STRBUF_INIT;
	strbuf_addf(&name, "%s.tar.gz", dir);
	const char *base = strrchr(dir, '/');
	base = base ? base + 1 : dir;
	char *tmp = capfile_write_archive(dir, base, name.buf, err);
	int rc = tmp ? 0 : -1;
	/* rename() replaces a link at the final name; it never writes through one. */
	if (tmp) {
		cleanup_hold();
		if (rename(tmp, name.buf) < 0) {
			diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot write the archive '%s': %s",
				 name.buf, strerror(errno));
			unlink(tmp);
			rc = -1;
		} else {
			say_on_signal("the bundle was complete and is kept:", dir,
				      " (and its archive)");
		}
		cleanup_forget(tmp);
		cleanup_release();
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
	json_t *idx = series_index_new();
	json_object_set_new(idx, MK_COMPLETE, json_boolean(complete));
	json_object_set_new(idx, MK_COUNT, json_integer((json_int_t)o->count));
	json_object_set_new(idx, MK_INTERVAL_S, json_integer((json_int_t)(o->interval_ms / 1000)));
	json_object_set_new(idx, MK_STARTED_UTC, json_string(started));
	json_object_set(idx, MK_SAMPLES, samples);
	struct strbuf sb = STRBUF_INIT;
	int dumped = manifest_dump(idx, &sb);
	json_decref(idx);
	if (dumped < 0) {
		strbuf_release(&sb);
		return diag_set(err, DIAG_SOFTWARE, NULL, 0, 0, "cannot write %s", BUNDLE_SERIES_INDEX);
	}
	char *p = capfile_path_in(dir, BUNDLE_SERIES_INDEX);
	int rc = capfile_write_bytes(p, sb.buf, sb.len, err);
	free(p);
	strbuf_release(&sb);
	return rc;
}

static void
wait_interval(uint64_t ms)
{
	struct timespec ts = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static void
say_line(const struct capture_opts *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
say_line(const struct capture_opts *o, const char *fmt, ...)
{
	if (!o->say)
		return;
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	o->say(o->progress_ctx, sb.buf);
	strbuf_release(&sb);
}

/*
 * --repeat: the action once, then the settle pause. 0 with *status, or -1
 * with *err when it cannot be started.
 */
static int
run_action(const struct capture_opts *o, int *status, struct diag *err)
{
	int rc = capture_command_run(o->command, status, err);
	if (rc == 0 && o->interval_ms)
		wait_interval(o->interval_ms);
	return rc;
}

/* --repeat: the warm-up runs. 0, 1 when one failed and the series stops, -1 with *err. */
static int
warm_up(const struct capture_opts *o, struct capture_result *res, struct diag *err)
{
	for (uint64_t w = 1; w <= o->warmup; w++) {
		int status;
		if (run_action(o, &status, err) < 0)
			return -1;
		say_line(o, "warm-up run %llu/%llu: exit status %d", (unsigned long long)w,
			 (unsigned long long)o->warmup, status);
		if (status != 0 && !o->keep_going) {
			struct strbuf sb = STRBUF_INIT;
			strbuf_addf(&sb, "warm-up run %llu failed (exit status %d); --keep-going "
				    "goes on", (unsigned long long)w, status);
			res->stopped = strbuf_detach(&sb, NULL);
			return 1;
		}
	}
	return 0;
}

/*
 * --repeat: iteration k's action. 0 to take its snapshot (*status its exit
 * status), 1 when it failed and the series stops, -1 with *err.
 */
static int
iteration_action(const struct capture_opts *o, uint64_t k, int *status,
		 struct capture_result *res, struct diag *err)
{
	*status = 0;
	if (!o->command)
		return 0;
	if (run_action(o, status, err) < 0)
		return -1;
	if (*status == 0)
		return 0;
	res->failed_runs++;
	if (o->keep_going) {
		say_line(o, "iteration %llu/%llu: the command failed (exit status %d); its "
			 "snapshot is taken and the failure recorded (--keep-going)",
			 (unsigned long long)k, (unsigned long long)o->count, *status);
		return 0;
	}
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "iteration %llu failed (exit status %d): no snapshot of it; "
		    "--keep-going goes on", (unsigned long long)k, *status);
	res->stopped = strbuf_detach(&sb, NULL);
	return 1;
}

static int
capture_series(struct run *r, const char *dir, struct capture_result *res, struct diag *err)
{
	const struct capture_opts *o = r->o;
	if (mkdir(dir, 0755) < 0) {
		int e = errno;
		return diag_set(err, e == ENOSPC ? DIAG_IOERR : CAPTURE_EXIT_CANTCREAT, NULL, 0, 0,
				"cannot create the series folder '%s': %s", dir, strerror(e));
	}
	/* What a signal leaves: the complete samples, listed by series.json (complete: false). */
	say_on_signal("the complete samples are kept in", dir,
		      " (series.json lists them); the sample being taken was removed");
	char started[32];
	utc_now(started);
	uint64_t series_start = spawn_now_ms();
	json_t *samples = json_array();
	int rc = write_series_index(dir, samples, false, o, started, err);
	bool complete = true;
	int stop = rc == 0 && o->command ? warm_up(o, res, err) : 0;
	rc = stop < 0 ? -1 : rc;
	for (uint64_t k = 1; k <= o->count && rc == 0 && stop == 0; k++) {
		if (k > 1 && !o->command)
			wait_interval(o->interval_ms);
		int status;
		stop = iteration_action(o, k, &status, res, err);
		if (stop != 0) {
			rc = stop < 0 ? -1 : 0;
			break;
		}
		struct strbuf sub = STRBUF_INIT, name = STRBUF_INIT;
		strbuf_addf(&name, "%03llu", (unsigned long long)k);
		strbuf_addf(&sub, "%s/%s", dir, name.buf);
		struct series_sample_facts f = {
			.index = k, .count = o->count,
			.interval_s = o->interval_ms / 1000,
			.iteration = o->command ? k : 0, .command_status = status,
		};
		rc = capture_one(r, sub.buf, manifest_series_member(&f), res, err);
		if (rc == 0) {
			complete = complete && res->complete;
			json_array_append_new(samples, series_index_sample(&f, name.buf, r->started,
									   res->complete));
			res->nsamples++;
			rc = write_series_index(dir, samples, k == o->count && res->failed_runs == 0,
						o, started, err);
			if (rc == 0 && o->progress)
				o->progress(o->progress_ctx, k, o->count, res->complete,
					    sub.buf, spawn_now_ms() - series_start);
		}
		strbuf_release(&sub);
		strbuf_release(&name);
	}
	res->complete = complete && rc == 0 && stop == 0 && res->failed_runs == 0;
	if (rc == 0)
		say_on_signal(stop ? "the series stopped early and is kept:"
				   : "the series was complete and is kept:", dir,
			      o->archive ? " (its archive was not written)" : NULL);
	json_decref(samples);
	return rc;
}

/* ------------------------------------------------------------ capture_run */

int
capture_resolve_target(const struct capture_opts *o, int64_t *pid, char **name,
		       bool *other_user, struct diag *err)
{
	struct run r;
	memset(&r, 0, sizeof(r));
	r.o = o;
	r.pid = o->pid;
	*pid = -1;
	*name = NULL;
	*other_user = false;
	if (o->process && resolve_process(&r, o->process, err) < 0)
		return -1;
	if (r.pid >= 0) {
		if (kill((pid_t)r.pid, 0) < 0 && errno == ESRCH) {
			free(r.target_name);
			return diag_set(err, CAPTURE_EXIT_UNAVAILABLE, NULL, 0, 0,
					"no process has pid %lld", (long long)r.pid);
		}
		r.target_other_user = kill((pid_t)r.pid, 0) < 0 && errno == EPERM;
		if (!r.target_name)
			name_target(&r);
	}
	*pid = r.pid;
	*name = r.target_name;
	*other_user = r.target_other_user;
	return 0;
}

int
capture_bundle(const struct capture_opts *o, int64_t pid, const char *target_name,
	       bool target_other_user, const char *dir, struct capture_result *res,
	       struct diag *err)
{
	struct run r;
	memset(&r, 0, sizeof(r));
	memset(res, 0, sizeof(*res));
	r.o = o;
	r.pid = pid;
	r.target_name = target_name ? xstrdup(target_name) : NULL;
	r.target_other_user = target_other_user;
	uint64_t start = spawn_now_ms();
	int rc = capture_one(&r, dir, NULL, res, err);
	if (rc == 0)
		res->dir = xstrdup(dir);
	free(r.target_name);
	strbuf_release(&r.redacted);
	res->tools_ms = r.tools_ms;
	res->total_ms = spawn_now_ms() - start;
	return rc;
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
	say_on_signal("the running tool was stopped and nothing was left behind", NULL, NULL);
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
	char *dir = o->output ? capfile_output_dir(o->output) :
				 capfile_default_dir(NULL, r.pid, r.target_name,
						     o->count ? "series" : NULL);
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
	say_on_signal("the running tool was stopped and nothing was left behind;", dir,
		      " was not written");
	if (o->count)
		rc = capture_series(&r, dir, res, err);
	else
		rc = capture_one(&r, dir, NULL, res, err);
	if (rc < 0 && !o->count) {
		free(res->dir);
		res->dir = NULL;
	}
	if (rc == 0 && o->archive)
		rc = capture_write_archive(dir, &res->archive, err);
out:
	free(r.target_name);
	strbuf_release(&r.redacted);
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
	free(res->stopped);
	memset(res, 0, sizeof(*res));
}
