#include "ingest/bundle.h"

#include "bundle/manifest.h"
#include "bundle/member.h"
#include "ingest/session_read.h"
#include "util/arcread.h"
#include "util/linereader.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool
is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool
dir_has(const char *dir, const char *member)
{
	char *p = strbuf_path_join(dir, member);
	struct stat st;
	bool ok = stat(p, &st) == 0 && S_ISREG(st.st_mode);
	free(p);
	return ok;
}

/* The shallowest manifest or series index of an archive gives its top folder. */
struct top_scan {
	char *top;
	size_t depth;
	bool found;
};

static size_t
slashes(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += *s == '/';
	return n;
}

static int
scan_top(void *ctx, const char *name, struct arc_reader *data, struct diag *err)
{
	struct top_scan *t = ctx;
	(void)data;
	(void)err;
	const char *base = strrchr(name, '/');
	base = base ? base + 1 : name;
	if (strcmp(base, BUNDLE_MANIFEST) != 0 && strcmp(base, BUNDLE_SERIES_INDEX) != 0)
		return 0;
	size_t depth = slashes(name);
	if (t->found && depth >= t->depth)
		return 0;
	free(t->top);
	t->top = xmemdup0(name, (size_t)(base - name));
	t->depth = depth;
	t->found = true;
	return 0;
}

/*
 * "ARCHIVE:DIR" (or "ARCHIVE:TOP/DIR", a trailing '/' allowed) naming a
 * sample of a series archive: the archive's path and the sample's part in
 * *archive and *sample (owned), when `path` itself is no file or folder and
 * the part before its last ':' is a tar archive.
 */
static bool
split_sample(const char *path, char **archive, char **sample)
{
	struct stat st;
	const char *colon = strrchr(path, ':');
	if (!colon || colon == path || colon[1] == '\0' || stat(path, &st) == 0)
		return false;
	char *a = xmemdup0(path, (size_t)(colon - path));
	if (is_dir(a) || !arc_is_tar_file(a)) {
		free(a);
		return false;
	}
	char *smp = xstrdup(colon + 1);
	size_t n = strlen(smp);
	while (n > 1 && smp[n - 1] == '/')
		smp[--n] = '\0';
	*archive = a;
	*sample = smp;
	return true;
}

/* Does the sample's member prefix ("top/DIR/") end in "/WANT/" or equal "WANT/"? */
static bool
sample_matches(const struct bundle *s, const char *want)
{
	const char *top = s->archive_top ? s->archive_top : "";
	size_t n = strlen(top), w = strlen(want);
	if (n < w + 1 || top[n - 1] != '/' || strncmp(top + n - 1 - w, want, w) != 0)
		return false;
	return n == w + 1 || top[n - 2 - w] == '/';
}

static int open_session_part(const char *path, const char *archive, char *session_top,
			     const char *want, struct bundle *b, struct diag *err);

/*
 * bundle_open() of "ARCHIVE:DIR": the series archive opened, the sample
 * kept; or, for a session archive (ingest/session_read.h), its bundle DIR.
 */
static int
open_sample(const char *path, const char *archive, const char *want, struct bundle *b,
	    struct diag *err)
{
	char *session_top = session_archive_top(archive);
	if (session_top)
		return open_session_part(path, archive, session_top, want, b, err);
	struct bundle series;
	if (bundle_open(archive, &series, err) < 0)
		return -1;
	if (!series.series) {
		bundle_release(&series);
		return diag_set(err, DIAG_NOINPUT, path, 0, 0, "%s is one capture, not a series: "
				"name it without ':%s'", archive, want);
	}
	for (size_t k = 0; k < series.nsamples; k++) {
		if (!sample_matches(&series.samples[k], want))
			continue;
		*b = series.samples[k];
		series.samples[k] = series.samples[--series.nsamples];
		bundle_release(&series);
		return 0;
	}
	diag_set(err, DIAG_NOINPUT, path, 0, 0, "the series holds no sample '%s' ('iotally %s' "
		 "lists its %zu samples)", want, archive, series.nsamples);
	bundle_release(&series);
	return -1;
}

bool
bundle_path_is_bundle(const char *path)
{
	char *archive, *sample;
	if (split_sample(path, &archive, &sample)) {
		bool ok = bundle_path_is_bundle(archive);
		free(archive);
		free(sample);
		return ok;
	}
	if (is_dir(path))
		return dir_has(path, BUNDLE_MANIFEST) || dir_has(path, BUNDLE_SERIES_INDEX);
	if (!arc_is_tar_file(path))
		return false;
	struct top_scan t = { 0 };
	struct diag err;
	bool refused = false;
	/*
	 * A manifest seen before a member the name rule refuses, or a refused
	 * member before any manifest (a link, an absolute or '..' name first):
	 * a bundle, refused when opened. Read as a capture, the archive's
	 * bytes would be taken for text, past every check of its members.
	 */
	(void)arc_scan_members(path, scan_top, &t, &refused, &err);
	bool ok = t.found || refused;
	free(t.top);
	return ok;
}

/* Where a bundle's files are: a directory, or a folder inside an archive. */
struct where {
	const char *path;     /* directory or archive */
	const char *root;     /* a folder bundle: the folder the user named (files open beneath it) */
	const char *prefix;   /* a folder bundle: "" or the series sample's folder with a '/' */
	bool archive;
	const char *top;      /* archive member prefix, "" or ending in '/' */
	const char *given;    /* the path the user gave: messages name it (it outlives them) */
	const char *sample;   /* "" or the series sample folder with a '/', for messages */
};

static bool
where_has(const struct where *w, const char *member, const char *const *names, size_t nnames)
{
	if (!w->archive)
		return dir_has(w->path, member);
	char *full = strbuf_path_join(w->top[0] ? w->top : "", member);
	const char *want = w->top[0] ? full : member;
	bool ok = false;
	for (size_t i = 0; i < nnames && !ok; i++)
		ok = strcmp(names[i], want) == 0;
	free(full);
	return ok;
}

/* Load `member` as JSON; `shown` names it in messages (owned by the caller). */
static int
where_load_json(const struct where *w, const char *member, const char *shown, json_t **out,
		struct diag *err)
{
	json_error_t jerr;
	if (!w->archive) {
		char *rel = strbuf_path_join(w->prefix, member);
		int fd = member_open_beneath(w->root, rel, shown, err);
		free(rel);
		if (fd < 0)
			return -1;
		struct strbuf sb = STRBUF_INIT;
		int rc = manifest_read_fd(fd, &sb, shown, err);
		close(fd);
		if (rc < 0) {
			strbuf_release(&sb);
			return -1;
		}
		*out = manifest_parse(sb.buf, sb.len, &jerr);
		strbuf_release(&sb);
	} else {
		char *m = strbuf_path_join(w->top[0] ? w->top : "", member);
		struct arc_reader *a = arc_reader_member(w->path, w->top[0] ? m : member, err);
		free(m);
		if (!a)
			return -1;
		struct strbuf sb = STRBUF_INIT;
		int rc = manifest_read_arc(a, &sb, shown, err);
		arc_reader_free(a);
		if (rc < 0) {
			strbuf_release(&sb);
			diag_set_path(err, w->given);
			return -1;
		}
		*out = manifest_parse(sb.buf, sb.len, &jerr);
		strbuf_release(&sb);
	}
	(void)shown;
	if (!*out)
		return diag_set(err, DIAG_DATA, w->given, 0, 0,
				"%s%s is not readable JSON (line %d, column %d): %s", w->sample,
				member, jerr.line, jerr.column, jerr.text);
	return 0;
}

static char *
shown_name(const struct where *w, const char *member)
{
	if (!w->archive)
		return strbuf_path_join(w->path, member);
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s:%s%s", w->path, w->top, member);
	return strbuf_detach(&sb, NULL);
}

static int
bad(const struct where *w, struct diag *err, const char *what)
{
	return diag_set(err, DIAG_DATA, w->given, 0, 0, "%s%s is not an %s document: %s",
			w->sample, BUNDLE_MANIFEST, BUNDLE_SCHEMA, what);
}

static char *
opt_str(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);
	return json_is_string(v) ? xstrdup(json_string_value(v)) : NULL;
}

/* One step entry: a capture when it has a kind, its output and status "ok". */
static int
read_step(struct bundle *b, const struct where *w, const json_t *step, size_t *alloc,
	  struct diag *err)
{
	const json_t *id = json_object_get(step, MK_ID);
	const json_t *kind = json_object_get(step, MK_CAPTURE_KIND);
	const json_t *status = json_object_get(step, MK_STATUS);
	const json_t *out = json_object_get(step, MK_STDOUT);
	if (!json_is_string(id) || !json_is_string(status))
		return bad(w, err, "a step without a string 'id' and 'status'");
	if (strcmp(json_string_value(status), "ok") != 0) {
		b->missed = xgrow(b->missed, &b->missed_alloc, b->nmissed + 1, sizeof(*b->missed));
		struct bundle_step_note *m = &b->missed[b->nmissed++];
		m->step = xstrdup(json_string_value(id));
		m->kind = opt_str(step, MK_CAPTURE_KIND);
		m->status = xstrdup(json_string_value(status));
		m->reason = opt_str(step, MK_REASON);
		return 0;
	}
	if (!json_is_string(kind) || !json_is_object(out))
		return 0;
	if (!bundle_kind_known(json_string_value(kind)))
		return 0;   /* a kind a later iotally reads */
	const json_t *file = json_object_get(out, MK_PATH);
	const json_t *bytes = json_object_get(out, MK_BYTES);
	const json_t *sha = json_object_get(out, MK_SHA256);
	if (!json_is_string(file) || !json_is_integer(bytes) || json_integer_value(bytes) < 0)
		return bad(w, err, "a step's 'stdout' without 'path' and 'bytes'");
	const char *why;
	char *member = manifest_record_path(out, &why);
	if (!member)   /* names no file ("", "./"), or one outside the bundle */
		return bad(w, err, strcmp(why, "is empty") == 0 ? "a step's file path names no file"
				   : strstr(why, "longer") ? "a step's file path is longer than 4096 bytes"
				   : "a step's file path leaves the bundle");
	b->captures = xgrow(b->captures, alloc, b->ncaptures + 1, sizeof(*b->captures));
	struct bundle_capture *c = &b->captures[b->ncaptures++];
	memset(c, 0, sizeof(*c));
	c->kind = xstrdup(json_string_value(kind));
	c->step = xstrdup(json_string_value(id));
	c->started_utc = opt_str(step, MK_STARTED_UTC);
	c->member = member;   /* in normal form: the name every reader opens */
	c->bytes = (uint64_t)json_integer_value(bytes);
	if (json_is_string(sha) && strlen(json_string_value(sha)) == 64)
		memcpy(c->sha256, json_string_value(sha), SHA256_HEX_SIZE);
	c->path = shown_name(w, member);
	if (w->archive) {
		c->archive = xstrdup(w->path);
		c->archive_member = w->top[0] ? strbuf_path_join(w->top, member) : xstrdup(member);
		line_reader_map_member(c->path, c->archive, c->archive_member);
	} else {
		char *rel = strbuf_path_join(w->prefix, member);
		line_reader_map_folder_file(c->path, w->root, rel);
		free(rel);
	}
	return 0;
}

/* What a report shows about the capture: when, by which iotally, on what host, redacted. */
static void
read_facts(struct bundle *b, const json_t *root)
{
	const json_t *host = json_object_get(root, MK_HOST);
	const json_t *red = json_object_get(root, MK_REDACTION);
	size_t i;
	const json_t *rule;
	b->finished_utc = opt_str(root, MK_FINISHED_UTC);
	b->iotally_version = opt_str(root, MK_IOTALLY_VERSION);
	b->host_model = opt_str(host, MK_MODEL);
	b->host_os_version = opt_str(host, MK_OS_VERSION);
	b->host_os_build = opt_str(host, MK_OS_BUILD);
	b->host_kernel_variant = opt_str(host, MK_KERNEL_VARIANT);
	b->redaction_enabled = json_is_true(json_object_get(red, MK_ENABLED));
	json_array_foreach(json_object_get(red, MK_RULES), i, rule) {
		const json_t *hits = json_object_get(rule, MK_HITS);
		if (json_is_integer(hits) && json_integer_value(hits) > 0 &&
		    b->redaction_hits <= UINT64_MAX - (uint64_t)json_integer_value(hits))
			b->redaction_hits += (uint64_t)json_integer_value(hits);
	}
	b->nsteps = json_array_size(json_object_get(root, MK_STEPS));
}

static int
read_manifest(struct bundle *b, const struct where *w, struct diag *err)
{
	char *shown = shown_name(w, BUNDLE_MANIFEST);
	char *listed = strbuf_path_join(w->sample, BUNDLE_MANIFEST);   /* as refusals name it */
	json_t *root = NULL;
	size_t alloc = 0;
	struct listed_once ids;
	int rc = -1;

	listed_once_init(&ids);

	if (where_load_json(w, BUNDLE_MANIFEST, shown, &root, err) < 0)
		goto out;
	if (!manifest_is_bundle(root)) {
		bad(w, err, "'schema' is not \"" BUNDLE_SCHEMA "\"");
		goto out;
	}
	const json_t *complete = json_object_get(root, MK_COMPLETE);
	const json_t *steps = json_object_get(root, MK_STEPS);
	if (!json_is_boolean(complete) || !json_is_array(steps)) {
		bad(w, err, "no boolean 'complete' or no 'steps' array");
		goto out;
	}
	b->complete = json_is_true(complete);
	b->started_utc = opt_str(root, MK_STARTED_UTC);
	read_facts(b, root);
	const json_t *target = json_object_get(root, MK_TARGET);
	if (json_is_object(target)) {
		b->target_name = opt_str(target, MK_NAME);
		const json_t *pid = json_object_get(target, MK_PID);
		if (json_is_integer(pid))
			b->target_pid = json_integer_value(pid);
	}
	size_t i;
	const json_t *step;
	json_array_foreach(steps, i, step) {
		if (!json_is_object(step)) {
			bad(w, err, "a step that is not an object");
			goto out;
		}
		if (read_step(b, w, step, &alloc, err) < 0 ||
		    manifest_step_once(&ids, step, w->given, listed, err) < 0)
			goto out;
	}
	rc = 0;
out:
	listed_once_release(&ids);
	json_decref(root);
	free(listed);
	free(shown);
	return rc;
}

static int
compare_samples(const void *pa, const void *pb)
{
	const struct bundle *a = pa, *b = pb;
	const char *x = a->started_utc ? a->started_utc : "";
	const char *y = b->started_utc ? b->started_utc : "";
	int c = strcmp(x, y);
	return c ? c : strcmp(a->path, b->path);
}

static int open_at(struct bundle *b, const char *path, const struct where *w, struct diag *err);

static int
read_series(struct bundle *b, const struct where *w, struct diag *err)
{
	char *shown = shown_name(w, BUNDLE_SERIES_INDEX);
	json_t *root = NULL;
	struct listed_once dirs;
	int rc = -1;

	listed_once_init(&dirs);

	if (where_load_json(w, BUNDLE_SERIES_INDEX, shown, &root, err) < 0)
		goto out;
	const json_t *samples = json_object_get(root, MK_SAMPLES);
	const json_t *complete = json_object_get(root, MK_COMPLETE);
	if (!manifest_is_series(root) || !json_is_array(samples) || !json_is_boolean(complete)) {
		diag_set(err, DIAG_DATA, w->given, 0, 0, "%s is not an %s document: no 'schema', "
			 "'complete' or 'samples'", BUNDLE_SERIES_INDEX, BUNDLE_SERIES_SCHEMA);
		goto out;
	}
	b->series = true;
	b->complete = json_is_true(complete);
	b->started_utc = opt_str(root, MK_STARTED_UTC);
	b->samples = xcalloc(json_array_size(samples) ? json_array_size(samples) : 1,
			     sizeof(*b->samples));
	size_t i;
	const json_t *s;
	/* capture --repeat records each sample's iteration. */
	b->repeat = json_array_size(samples) > 0 &&
		    json_object_get(json_array_get(samples, 0), MK_ITERATION) != NULL;
	json_array_foreach(samples, i, s) {
		const json_t *dir = json_object_get(s, MK_DIR);
		if (!json_is_string(dir) || !series_sample_dir_plain(json_string_value(dir))) {
			diag_set(err, DIAG_DATA, w->given, 0, 0,
				 "%s: samples[%zu] has no plain 'dir' name", BUNDLE_SERIES_INDEX, i);
			goto out;
		}
		if (series_sample_once(&dirs, json_string_value(dir), i, w->given, err) < 0)
			goto out;
		char *sub = strbuf_path_join(w->path, json_string_value(dir));
		struct where sw = *w;
		char *top = NULL;
		char *sample = strbuf_path_join(json_string_value(dir), "");
		sw.sample = sample;
		if (w->archive) {
			top = strbuf_path_join(w->top[0] ? w->top : "", json_string_value(dir));
			size_t n = strlen(top);
			top = xrealloc(top, n + 2);
			top[n] = '/';
			top[n + 1] = '\0';
			sw.top = top;
			/* The sample's name, as bundle_open() takes it back: "ARCHIVE:DIR". */
			free(sub);
			sub = xstrdup(w->given);
			sub = xrealloc(sub, strlen(sub) + strlen(json_string_value(dir)) + 2);
			strcat(strcat(sub, ":"), json_string_value(dir));
		} else {
			sw.path = sub;
			sw.prefix = sample;
		}
		int src = open_at(&b->samples[b->nsamples], sub, &sw, err);
		if (src == 0)
			b->nsamples++;
		free(top);
		free(sub);
		free(sample);
		if (src < 0) {
			/* open_at() filled this slot before it failed; nsamples does not count it. */
			bundle_release(&b->samples[b->nsamples]);
			goto out;
		}
	}
	qsort(b->samples, b->nsamples, sizeof(*b->samples), compare_samples);
	rc = 0;
out:
	listed_once_release(&dirs);
	json_decref(root);
	free(shown);
	return rc;
}

static int
open_at(struct bundle *b, const char *path, const struct where *w, struct diag *err)
{
	memset(b, 0, sizeof(*b));
	b->path = xstrdup(path);
	b->archive = w->archive;
	b->target_pid = -1;
	b->archive_top = xstrdup(w->top);
	return read_manifest(b, w, err);
}

struct name_list {
	char **v;
	size_t n, alloc;
};

static int
collect_name(void *ctx, const char *name, struct arc_reader *data, struct diag *err)
{
	struct name_list *l = ctx;
	(void)data;
	(void)err;
	l->v = xgrow(l->v, &l->alloc, l->n + 1, sizeof(*l->v));
	l->v[l->n++] = xstrdup(name);
	return 0;
}

/* session.json at the top of the archive or in its one top folder (session_read.c's rule). */
static bool
names_hold_session_index(const struct name_list *names)
{
	for (size_t i = 0; i < names->n; i++) {
		const char *base = strrchr(names->v[i], '/');
		base = base ? base + 1 : names->v[i];
		if (strcmp(base, BUNDLE_SESSION_INDEX) == 0 && slashes(names->v[i]) <= 1)
			return true;
	}
	return false;
}

/*
 * "ARCHIVE:before" (or :after, :tracking) of a session archive whose
 * session.json is the member TOP/session.json (`session_top`, freed here):
 * the bundle of the folder TOP/DIR/, its members read in place.
 */
static int
open_session_part(const char *path, const char *archive, char *session_top, const char *want,
		  struct bundle *b, struct diag *err)
{
	struct name_list names = { 0 };
	char *top = NULL, *sample = NULL;
	int rc = -1;
	if (!session_part_name(want)) {
		diag_set(err, DIAG_NOINPUT, path, 0, 0, "%s is a tracking session: its bundles are "
			 "%s:%s, %s:%s and %s:%s", archive, archive, BUNDLE_SESSION_BEFORE, archive,
			 BUNDLE_SESSION_AFTER, archive, BUNDLE_SESSION_TRACKING);
		goto out;
	}
	if (arc_for_each_member(archive, collect_name, &names, err) < 0)
		goto out;
	sample = strbuf_path_join(want, "");
	top = strbuf_path_join(session_top[0] ? session_top : "", sample);
	struct where w = { .path = archive, .root = archive, .prefix = "", .archive = true,
			   .top = top, .given = path, .sample = sample };
	if (!where_has(&w, BUNDLE_MANIFEST, (const char *const *)names.v, names.n)) {
		diag_set(err, DIAG_NOINPUT, path, 0, 0, "the session holds no '%s' bundle "
			 "('iotally %s' says why)", want, archive);
		goto out;
	}
	rc = open_at(b, path, &w, err);
	if (rc < 0)
		bundle_release(b);
out:
	for (size_t i = 0; i < names.n; i++)
		free(names.v[i]);
	free(names.v);
	free(top);
	free(sample);
	free(session_top);
	return rc;
}

int
bundle_open(const char *path, struct bundle *b, struct diag *err)
{
	struct where w = { .path = path, .root = path, .prefix = "", .archive = false, .top = "",
			   .given = path, .sample = "" };
	struct name_list names = { 0 };
	struct top_scan t = { 0 };
	int rc = -1;

	memset(b, 0, sizeof(*b));
	b->target_pid = -1;
	char *archive, *sample;
	if (split_sample(path, &archive, &sample)) {
		rc = open_sample(path, archive, sample, b, err);
		free(archive);
		free(sample);
		return rc;
	}
	if (!is_dir(path)) {
		if (!arc_is_tar_file(path))
			return diag_set(err, DIAG_DATA, path, 0, 0,
					"not a capture bundle (neither a folder nor a tar archive)");
		if (arc_for_each_member(path, scan_top, &t, err) < 0 ||
		    arc_for_each_member(path, collect_name, &names, err) < 0)
			goto out;
		if (!t.found) {
			diag_set(err, DIAG_DATA, path, 0, 0, "this archive holds no %s or %s",
				 BUNDLE_MANIFEST, BUNDLE_SERIES_INDEX);
			goto out;
		}
		if (names_hold_session_index(&names)) {
			/* Its shallowest manifest is one of three bundles: none is "the" bundle. */
			diag_set(err, DIAG_DATA, path, 0, 0, "is a tracking session: name one of its "
				 "bundles (%s:%s, %s:%s, %s:%s)", path, BUNDLE_SESSION_BEFORE, path,
				 BUNDLE_SESSION_AFTER, path, BUNDLE_SESSION_TRACKING);
			goto out;
		}
		w.archive = true;
		w.top = t.top;
	}
	if (where_has(&w, BUNDLE_SERIES_INDEX, (const char *const *)names.v, names.n)) {
		b->path = xstrdup(path);
		b->archive = w.archive;
		b->archive_top = xstrdup(w.top);
		rc = read_series(b, &w, err);
	} else if (where_has(&w, BUNDLE_MANIFEST, (const char *const *)names.v, names.n)) {
		rc = open_at(b, path, &w, err);
	} else {
		diag_set(err, DIAG_DATA, path, 0, 0, "not a capture bundle: no %s or %s",
			 BUNDLE_MANIFEST, BUNDLE_SERIES_INDEX);
	}
out:
	for (size_t i = 0; i < names.n; i++)
		free(names.v[i]);
	free(names.v);
	free(t.top);
	if (rc < 0)
		bundle_release(b);   /* a failed open leaves nothing to release */
	return rc;
}

const struct bundle_capture *
bundle_capture_of_kind(const struct bundle *b, const char *kind)
{
	for (size_t i = 0; i < b->ncaptures; i++)
		if (strcmp(b->captures[i].kind, kind) == 0)
			return &b->captures[i];
	return NULL;
}

int
bundle_verify_capture(const struct bundle_capture *c, struct diag_list *warnings,
		      struct diag *err)
{
	char hex[SHA256_HEX_SIZE];
	uint64_t total = 0;

	if (!c->sha256[0]) {
		diag_list_add(warnings, DIAG_WARNING, c->path, 0,
			      "the bundle manifest records no sha256 for this file; it cannot be checked");
		return 0;
	}
	if (!c->archive) {
		int fd = line_reader_open_mapped_fd(c->path, err);
		if (fd < 0 || sha256_fd_hex(fd, c->path, hex, &total, err) < 0)
			return -1;
	} else {
		struct arc_reader *a = arc_reader_member(c->archive, c->archive_member, err);
		struct sha256 h;
		char buf[1 << 15];
		ssize_t n;
		if (!a)
			return -1;
		sha256_begin(&h);
		while ((n = arc_reader_read(a, buf, sizeof(buf), err)) > 0) {
			sha256_add(&h, buf, (size_t)n);
			total += (uint64_t)n;
		}
		sha256_end_hex(&h, hex);
		arc_reader_free(a);
		if (n < 0)
			return -1;
	}
	if (strcmp(hex, c->sha256) != 0 || total != c->bytes)
		diag_list_add(warnings, DIAG_WARNING, c->path, 0,
			      "this file does not match the bundle manifest (sha256 %.12s..., %llu "
			      "bytes; recorded %.12s..., %llu bytes): it was changed after the capture",
			      hex, (unsigned long long)total, c->sha256,
			      (unsigned long long)c->bytes);
	return 0;
}

const struct bundle_step_note *
bundle_missed_of_kind(const struct bundle *b, const char *kind)
{
	for (size_t i = 0; i < b->nmissed; i++)
		if (b->missed[i].kind && strcmp(b->missed[i].kind, kind) == 0)
			return &b->missed[i];
	return NULL;
}

void
bundle_release(struct bundle *b)
{
	for (size_t i = 0; i < b->nmissed; i++) {
		free(b->missed[i].step);
		free(b->missed[i].kind);
		free(b->missed[i].status);
		free(b->missed[i].reason);
	}
	free(b->missed);
	for (size_t i = 0; i < b->ncaptures; i++) {
		free(b->captures[i].kind);
		free(b->captures[i].step);
		free(b->captures[i].member);
		free(b->captures[i].path);
		free(b->captures[i].archive);
		free(b->captures[i].archive_member);
		free(b->captures[i].started_utc);
	}
	free(b->captures);
	for (size_t i = 0; i < b->nsamples; i++)
		bundle_release(&b->samples[i]);
	free(b->samples);
	free(b->path);
	free(b->started_utc);
	free(b->finished_utc);
	free(b->iotally_version);
	free(b->host_model);
	free(b->host_os_version);
	free(b->host_os_build);
	free(b->host_kernel_variant);
	free(b->target_name);
	free(b->archive_top);
	memset(b, 0, sizeof(*b));
	b->target_pid = -1;
}
