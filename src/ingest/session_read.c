#include "ingest/session_read.h"

#include "bundle/manifest.h"
#include "bundle/member.h"
#include "util/arcread.h"
#include "util/beneath.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool
session_path_is_session(const char *path)
{
	struct stat st;
	if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode))
		return false;
	char *p = strbuf_path_join(path, BUNDLE_SESSION_INDEX);
	bool ok = stat(p, &st) == 0 && S_ISREG(st.st_mode);
	free(p);
	return ok;
}

struct top_index {
	char *top;   /* the member prefix of session.json ("" or "DIR/"), or NULL */
};

static int
find_index(void *ctx, const char *name, struct arc_reader *data, struct diag *err)
{
	struct top_index *t = ctx;
	(void)data;
	(void)err;
	const char *base = strrchr(name, '/');
	base = base ? base + 1 : name;
	/* session.json at the top or in the one top folder, not in a bundle below it */
	size_t slashes = 0;
	for (const char *p = name; *p; p++)
		slashes += *p == '/';
	if (strcmp(base, BUNDLE_SESSION_INDEX) == 0 && slashes <= 1 && !t->top)
		t->top = xmemdup0(name, (size_t)(base - name));
	return 0;
}

char *
session_archive_top(const char *path)
{
	struct stat st;
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) || !arc_is_tar_file(path))
		return NULL;
	struct top_index t = { NULL };
	struct diag err;
	/* A member the name rule refuses stops the walk: what was seen stays; reading refuses. */
	(void)arc_for_each_member(path, find_index, &t, &err);
	return t.top;
}

bool
session_path_is_session_archive(const char *path)
{
	char *top = session_archive_top(path);
	free(top);
	return top != NULL;
}

bool
session_part_name(const char *part)
{
	return strcmp(part, BUNDLE_SESSION_BEFORE) == 0 || strcmp(part, BUNDLE_SESSION_AFTER) == 0 ||
	       strcmp(part, BUNDLE_SESSION_TRACKING) == 0;
}

static char *
str_or_null(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? xstrdup(s) : NULL;
}

/*
 * A session folder's bundle `dir`, opened like a bundle's member
 * (util/beneath.h): a folder inside the session, looked at without
 * following it. A symbolic link (which diff and report would follow out of
 * the session), a named pipe (which would block the reader that opens it)
 * or a device is refused; a missing folder passes (opening the bundle says
 * so).
 */
static int
part_is_folder(const char *path, const char *dir, struct diag *err)
{
	int dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return diag_set(err, DIAG_NOINPUT, path, 0, 0, "cannot open: %s", strerror(errno));
	struct stat st;
	int rc = fstatat(dfd, dir, &st, AT_SYMLINK_NOFOLLOW), e = errno;
	close(dfd);
	if (rc < 0)
		return e == ENOENT ? 0 : diag_set(err, DIAG_NOINPUT, path, 0, 0,
						  "cannot open its '%s' bundle: %s", dir,
						  strerror(e));
	if (S_ISDIR(st.st_mode))
		return 0;
	return diag_set(err, DIAG_DATA, path, 0, 0, "the session's '%s' bundle is %s, not a "
			"folder: a session's bundles are read only from folders inside it", dir,
			beneath_kind_name(st.st_mode));
}

/*
 * The bundle of step `id`: "PATH/DIR" for a folder, "PATH:DIR" for an
 * archive (ingest/bundle.h opens that form), when the step names one of
 * the writer's names.
 */
static int
bundle_dir(const char *path, bool archive, const json_t *steps, const char *id, char **out,
	   struct diag *err)
{
	size_t i;
	json_t *st;
	*out = NULL;
	json_array_foreach(steps, i, st) {
		const char *sid = json_string_value(json_object_get(st, MK_ID));
		if (!sid || strcmp(sid, id) != 0)
			continue;
		const json_t *dir = json_object_get(st, MK_DIR);
		if (json_is_null(dir))
			return 0;
		const char *d = json_string_value(dir);
		if (!d || strcmp(d, id) != 0)
			return diag_set(err, DIAG_DATA, path, 0, 0,
					"%s: the step '%s' names the folder %s; a session's '%s' "
					"bundle is its folder '%s'", BUNDLE_SESSION_INDEX, id,
					d ? d : "(not a string)", id, id);
		if (archive) {
			struct strbuf sb = STRBUF_INIT;
			strbuf_addf(&sb, "%s:%s", path, d);
			*out = strbuf_detach(&sb, NULL);
		} else {
			if (part_is_folder(path, d, err) < 0)
				return -1;
			*out = strbuf_path_join(path, d);
		}
		return 0;
	}
	return 0;
}

/* The bytes of session.json: beneath the folder, or the archive's member TOP/session.json. */
static int
read_index_bytes(const char *path, bool *archive, struct strbuf *sb, struct diag *err)
{
	char *top = session_archive_top(path);
	*archive = top != NULL;
	if (!top) {
		int fd = member_open_beneath(path, BUNDLE_SESSION_INDEX, path, err);
		if (fd < 0)
			return -1;
		int rc = manifest_read_fd(fd, sb, path, err);
		close(fd);
		return rc;
	}
	char *member = strbuf_path_join(top[0] ? top : "", BUNDLE_SESSION_INDEX);
	struct arc_reader *a = arc_reader_member(path, top[0] ? member : BUNDLE_SESSION_INDEX, err);
	int rc = -1;
	if (a) {
		rc = manifest_read_arc(a, sb, path, err);
		arc_reader_free(a);
	}
	if (rc < 0)
		diag_set_path(err, path);
	free(member);
	free(top);
	return rc;
}

int
session_index_read(const char *path, struct session_index *si, struct diag *err)
{
	memset(si, 0, sizeof(*si));
	si->target_pid = -1;
	struct strbuf sb = STRBUF_INIT;
	bool archive;
	int rc = read_index_bytes(path, &archive, &sb, err);
	if (rc < 0) {
		strbuf_release(&sb);
		return -1;
	}
	json_error_t jerr;
	json_t *root = manifest_parse(sb.buf, sb.len, &jerr);
	strbuf_release(&sb);
	if (!root)
		return diag_set(err, DIAG_DATA, path, 0, 0,
				"%s is not readable JSON (line %d, column %d): %s",
				BUNDLE_SESSION_INDEX, jerr.line, jerr.column, jerr.text);
	const json_t *steps = json_object_get(root, MK_STEPS);
	const json_t *tracking = json_object_get(root, MK_TRACKING);
	if (!manifest_is_session(root) || !json_is_boolean(json_object_get(root, MK_COMPLETE)) ||
	    !json_is_array(steps) || !json_is_object(tracking) ||
	    !json_is_string(json_object_get(tracking, MK_LEFT))) {
		json_decref(root);
		return diag_set(err, DIAG_DATA, path, 0, 0,
				"%s is not a session index (schema %s with complete, steps and "
				"tracking)", BUNDLE_SESSION_INDEX, BUNDLE_SESSION_SCHEMA);
	}
	si->path = xstrdup(path);
	si->complete = json_is_true(json_object_get(root, MK_COMPLETE));
	si->aborted = str_or_null(root, MK_ABORTED);
	si->started_utc = str_or_null(root, MK_STARTED_UTC);
	si->tracking_left = str_or_null(tracking, MK_LEFT);
	const json_t *target = json_object_get(root, MK_TARGET);
	if (json_is_object(target)) {
		si->target_name = str_or_null(target, MK_NAME);
		if (json_is_integer(json_object_get(target, MK_PID)))
			si->target_pid = (long long)json_integer_value(json_object_get(target, MK_PID));
	}
	rc = 0;
	if (bundle_dir(path, archive, steps, BUNDLE_SESSION_BEFORE, &si->before, err) < 0 ||
	    bundle_dir(path, archive, steps, BUNDLE_SESSION_AFTER, &si->after, err) < 0 ||
	    bundle_dir(path, archive, steps, BUNDLE_SESSION_TRACKING, &si->tracking, err) < 0) {
		session_index_release(si);
		rc = -1;
	}
	json_decref(root);
	return rc;
}

void
session_index_release(struct session_index *si)
{
	free(si->path);
	free(si->aborted);
	free(si->tracking_left);
	free(si->started_utc);
	free(si->target_name);
	free(si->before);
	free(si->after);
	free(si->tracking);
	memset(si, 0, sizeof(*si));
	si->target_pid = -1;
}

bool
session_tracking_maybe_on(const struct session_index *si)
{
	return si->tracking_left && strcmp(si->tracking_left, "off") != 0 &&
	       strcmp(si->tracking_left, "not-started") != 0;
}
