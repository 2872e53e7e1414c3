#include "capture/redact_tree.h"

#include "capture/capture.h"
#include "capture/files.h"
#include "capture/redact_stream.h"
#include "bundle/manifest.h"
#include "bundle/member.h"
#include "util/arcread.h"
#include "util/cleanup.h"
#include "util/spill.h"
#include "util/sha256.h"
#include "util/strbuf.h"
#include "util/tempfile.h"
#include "util/xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/*
 * One file of the input, read twice (collect, then redact) and never held
 * whole: its sizes and digests, its hits, the values found in it. Only a
 * manifest.json is kept, to be parsed and updated.
 */
struct member {
	char *name;                 /* relative to the tree's top */
	char *path;                 /* a folder's file: where to open it */
	struct strbuf in;           /* a manifest.json's bytes */
	uint64_t in_len, out_len;
	char in_sha[SHA256_HEX_SIZE], out_sha[SHA256_HEX_SIZE];
	uint64_t hits[REDACT_NRULES];
	struct redact_found found;  /* the values collected from it */
	json_t *manifest;           /* a bundle manifest, updated instead of rewritten */
};

/*
 * How many decoded bytes a compressed input may expand to: the copy is
 * written to disk, so a small archive holding a 2 GB member (or a gzip
 * bomb) would otherwise fill it. Counted in the first pass, before
 * anything is written.
 */
struct budget {
	uint64_t limit;             /* UINT64_MAX: no limit (an input that is not compressed) */
	uint64_t used;
	uint64_t input_size;        /* the compressed input's size, for the message */
	uint32_t ratio;
};

struct tree {
	struct budget *budget;      /* owned by redact_run(); shared by every member */
	struct member *v;
	size_t n, alloc;
	char *top;                  /* archives: the folder every member is under ("X/"), or "" */
	size_t chunk;               /* redact_stream()'s chunk size */
	bool whole;                 /* a value holds a newline: each file redacted whole */
	int fd;                     /* a single file's (standard input's spill), or -1 */
	struct spill spill;         /* standard input, kept to be read twice */
};

static void
tree_release(struct tree *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->v[i].name);
		free(t->v[i].path);
		strbuf_release(&t->v[i].in);
		redact_found_release(&t->v[i].found);
		json_decref(t->v[i].manifest);
	}
	free(t->v);
	free(t->top);
	if (t->fd >= 0 && t->fd != STDIN_FILENO && t->spill.fd < 0)
		close(t->fd);
	spill_release(&t->spill);
	memset(t, 0, sizeof(*t));
	t->fd = -1;
}

static struct member *
tree_add(struct tree *t, const char *name)
{
	t->v = xgrow(t->v, &t->alloc, t->n + 1, sizeof(*t->v));
	struct member *m = &t->v[t->n++];
	memset(m, 0, sizeof(*m));
	m->name = xstrdup(name);
	strbuf_init(&m->in);
	redact_found_init(&m->found);
	return m;
}

static int
member_cmp(const void *a, const void *b)
{
	return strcmp(((const struct member *)a)->name, ((const struct member *)b)->name);
}

static void
sha_hex(const struct strbuf *sb, char hex[SHA256_HEX_SIZE])
{
	struct sha256 h;
	sha256_begin(&h);
	sha256_add(&h, sb->buf, sb->len);
	sha256_end_hex(&h, hex);
}

/* ------------------------------------------------------------- reading */

static const char *
base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* Where a file's bytes come from: a file descriptor (after a peeked prefix) or an archive. */
struct source {
	int fd;
	struct arc_reader *arc;
	const char *path;           /* named in messages */
	unsigned char pre[2];       /* bytes read to tell gzip, given first */
	size_t npre;
};

static ssize_t
source_read(void *ctx, void *buf, size_t n, struct diag *err)
{
	struct source *s = ctx;
	if (s->arc)
		return arc_reader_read(s->arc, buf, n, err);
	if (s->npre && n) {
		size_t k = n < s->npre ? n : s->npre;
		memcpy(buf, s->pre, k);
		memmove(s->pre, s->pre + k, s->npre - k);
		s->npre -= k;
		return (ssize_t)k;
	}
	for (;;) {
		ssize_t r = read(s->fd, buf, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return diag_set(err, DIAG_NOINPUT, s->path, 0, 0, "cannot be read: %s",
					strerror(errno));
		return r;
	}
}

/* The first pass over one file: its values, digest and size (and a manifest's bytes). */
struct collect_ctx {
	struct member *m;
	struct sha256 sha;
	struct budget *budget;
	bool keep;
};

static int
collect_chunk(void *ctx, const char *p, size_t n, struct diag *err)
{
	struct collect_ctx *c = ctx;
	struct budget *b = c->budget;
	if (b && (b->used += n) > b->limit)
		return diag_set(err, DIAG_DATA, NULL, 0, 0,
				"expands to more than %llu bytes (%u times its %llu bytes): no capture "
				"bundle compresses that well; not copied (--max-expansion RATIO raises "
				"the limit)", (unsigned long long)b->limit, b->ratio,
				(unsigned long long)b->input_size);
	redact_found_collect(&c->m->found, p, n);
	sha256_add(&c->sha, p, n);
	c->m->in_len += n;
	if (c->keep)
		strbuf_add(&c->m->in, p, n);
	return 0;
}

static int
collect_member(const struct tree *t, struct member *m, struct source *src, struct diag *err)
{
	struct collect_ctx c = { .m = m, .budget = t->budget,
				 .keep = strcmp(base_name(m->name), BUNDLE_MANIFEST) == 0 };
	sha256_begin(&c.sha);
	int rc = redact_stream(source_read, src, t->chunk, false, collect_chunk, &c, err);
	sha256_end_hex(&c.sha, m->in_sha);
	return rc;
}

/*
 * A folder's file, opened beneath the folder `root` as every bundle
 * reader opens it (bundle/member.h): the walk refused links, and a link
 * put in its place since is refused here, not followed out of the folder.
 */
static int
open_member(const char *root, const struct member *m, struct source *src, struct diag *err)
{
	memset(src, 0, sizeof(*src));
	src->path = m->path;
	src->fd = member_open_beneath(root, m->name, m->path, err);
	return src->fd < 0 ? -1 : 0;
}

/* Every regular file under root/rel, in name order; links and devices refused. */
static int
list_folder(const char *given, const char *root, const char *rel, struct tree *t,
	    struct diag *err)
{
	char *dir = rel[0] ? capfile_path_in(root, rel) : xstrdup(root);
	DIR *d = opendir(dir);
	if (!d) {
		int e = errno;
		free(dir);
		return diag_set(err, DIAG_NOINPUT, given, 0, 0, "%s%scannot be read: %s", rel,
				rel[0] ? ": " : "", strerror(e));
	}
	struct dirent *e;
	struct tree names = { 0 };
	names.fd = -1;
	spill_init(&names.spill);
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			tree_add(&names, e->d_name);
	closedir(d);
	if (names.n)
		qsort(names.v, names.n, sizeof(*names.v), member_cmp);
	int rc = 0;
	for (size_t i = 0; i < names.n && rc == 0; i++) {
		char *sub = rel[0] ? capfile_path_in(rel, names.v[i].name) : xstrdup(names.v[i].name);
		char *full = capfile_path_in(root, sub);
		struct stat st;
		if (lstat(full, &st) < 0)
			rc = diag_set(err, DIAG_NOINPUT, given, 0, 0, "%s cannot be read: %s", sub,
				      strerror(errno));
		else if (S_ISDIR(st.st_mode))
			rc = list_folder(given, root, sub, t, err);
		else if (S_ISREG(st.st_mode))
			tree_add(t, sub)->path = xstrdup(full);
		else
			rc = diag_set(err, DIAG_DATA, given, 0, 0,
				      "%s is %s, not a file: a bundle holds only files and folders",
				      sub, S_ISLNK(st.st_mode) ? "a symbolic link" : "a special file");
		free(sub);
		free(full);
	}
	tree_release(&names);
	free(dir);
	return rc;
}

static int
read_folder(const char *given, struct tree *t, struct diag *err)
{
	int rc = list_folder(given, given, "", t, err);
	if (t->n)
		qsort(t->v, t->n, sizeof(*t->v), member_cmp);   /* for tree_lookup() */
	for (size_t i = 0; i < t->n && rc == 0; i++) {
		struct source src;
		rc = open_member(given, &t->v[i], &src, err);
		if (rc == 0) {
			rc = collect_member(t, &t->v[i], &src, err);
			close(src.fd);
		}
	}
	return rc;
}

struct archive_ctx {
	const char *given;
	struct tree *t;
};

static int
take_member(void *ctx, const char *name, struct arc_reader *data, struct diag *err)
{
	struct archive_ctx *c = ctx;
	/* `name` is in normal form, and the only member of that name (util/arcread.h). */
	struct source src = { .fd = -1, .arc = data, .path = c->given };
	if (collect_member(c->t, tree_add(c->t, name), &src, err) < 0) {
		diag_set_path(err, c->given);
		return -1;
	}
	return 0;
}

/* The folder every member is under, "X/", so a folder copy does not nest it. */
static void
strip_top(struct tree *t)
{
	const char *slash = t->n ? strchr(t->v[0].name, '/') : NULL;
	size_t len = slash ? (size_t)(slash - t->v[0].name) + 1 : 0;
	for (size_t i = 0; i < t->n && len; i++)
		if (strncmp(t->v[i].name, t->v[0].name, len) != 0 || !t->v[i].name[len])
			len = 0;
	t->top = xmemdup0(t->n ? t->v[0].name : "", len);
	for (size_t i = 0; i < t->n && len; i++)
		memmove(t->v[i].name, t->v[i].name + len, strlen(t->v[i].name + len) + 1);
}

static int
read_archive(const char *path, struct tree *t, struct diag *err)
{
	struct archive_ctx c = { path, t };
	if (arc_for_each_member(path, take_member, &c, err) < 0) {
		diag_set_path_if_unset(err, path);
		return -1;
	}
	if (t->n)
		qsort(t->v, t->n, sizeof(*t->v), member_cmp);
	strip_top(t);
	return 0;
}

/* Standard input (or a pipe named) into an unlinked temporary file, to be read twice. */
static int
spill_input(const char *path, int in, struct tree *t, struct diag *err)
{
	if (spill_open(&t->spill, err) < 0)
		return -1;
	t->fd = t->spill.fd;
	char buf[1 << 16];
	for (;;) {
		ssize_t n = read(in, buf, sizeof(buf));
		if (n == 0)
			return 0;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return diag_set(err, DIAG_NOINPUT, path, 0, 0, "cannot be read: %s",
					strerror(errno));
		if (capfile_write_all(t->fd, buf, (size_t)n) < 0)
			return diag_set(err, DIAG_IOERR, path, 0, 0,
					"cannot be kept in a temporary file: %s", strerror(errno));
	}
}

/* The single file from its start, gzip decompressed: *src to read it, arc_reader_free after. */
static int
open_single(const struct tree *t, const char *path, struct source *src, struct diag *err)
{
	memset(src, 0, sizeof(*src));
	src->fd = t->fd;
	src->path = path;
	if (lseek(t->fd, 0, SEEK_SET) < 0)
		return diag_set(err, DIAG_NOINPUT, path, 0, 0, "cannot be read: %s",
				strerror(errno));
	while (src->npre < 2) {
		ssize_t n = read(t->fd, src->pre + src->npre, 2 - src->npre);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return diag_set(err, DIAG_NOINPUT, path, 0, 0, "cannot be read: %s",
					strerror(errno));
		if (n == 0)
			break;
		src->npre += (size_t)n;
	}
	if (arc_is_gzip(src->pre, src->npre)) {
		src->arc = arc_reader_gunzip_fd(t->fd, src->pre, src->npre, path, err);
		if (!src->arc)
			return -1;
	}
	return 0;
}

/* One capture file (or standard input), gzip decompressed. */
static int
read_single(const char *path, struct tree *t, struct diag *err)
{
	bool is_stdin = strcmp(path, "-") == 0;
	int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY);
	if (fd < 0)
		return diag_set(err, DIAG_NOINPUT, path, 0, 0, "cannot be opened: %s",
				strerror(errno));
	int rc = 0;
	if (is_stdin || lseek(fd, 0, SEEK_CUR) < 0) {
		rc = spill_input(path, fd, t, err);
		if (!is_stdin)
			close(fd);
	} else {
		t->fd = fd;
	}
	struct member *m = tree_add(t, path);
	struct source src = { .fd = -1 };
	if (rc == 0)
		rc = open_single(t, path, &src, err);
	if (rc == 0 && (rc = collect_member(t, m, &src, err)) < 0)
		diag_set_path_if_unset(err, path);
	if (src.arc)
		arc_reader_free(src.arc);
	return rc;
}

static bool
is_folder(const char *path)
{
	struct stat st;
	return strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/*
 * The expansion limit of a compressed file (its first bytes are gzip's):
 * RATIO times its size, and never less than REDACT_EXPANSION_FLOOR, so that
 * a small bundle that compresses well is still copied. Standard input and
 * uncompressed files have no limit (their bytes are all there already).
 */
static void
budget_for(const char *path, struct budget *b)
{
	unsigned char magic[2];
	struct stat st;
	b->limit = UINT64_MAX;
	if (strcmp(path, "-") == 0 || stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return;
	int fd = open(path, O_RDONLY | O_NONBLOCK);
	bool gz = fd >= 0 && read(fd, magic, 2) == 2 && arc_is_gzip(magic, 2);
	if (fd >= 0)
		close(fd);
	if (!gz)
		return;
	b->input_size = (uint64_t)st.st_size;
	unsigned __int128 lim = (unsigned __int128)b->input_size * b->ratio;
	b->limit = lim > UINT64_MAX ? UINT64_MAX : (uint64_t)lim;
	if (b->limit < REDACT_EXPANSION_FLOOR)
		b->limit = REDACT_EXPANSION_FLOOR;
}

/* The input's files, listed, with the first pass over each. */
static int
read_input(const char *path, struct redact_result *res, struct tree *t, struct diag *err)
{
	if (is_folder(path)) {
		res->input = REDACT_IN_FOLDER;
		t->top = xstrdup("");
		return read_folder(path, t, err);
	}
	if (strcmp(path, "-") != 0 && access(path, R_OK) < 0)
		return diag_set(err, DIAG_NOINPUT, path, 0, 0, "cannot be opened: %s",
				strerror(errno));
	if (strcmp(path, "-") != 0 && arc_is_tar_file(path)) {
		res->input = REDACT_IN_ARCHIVE;
		budget_for(path, t->budget);
		return read_archive(path, t, err);
	}
	budget_for(path, t->budget);
	res->input = REDACT_IN_FILE;
	t->top = xstrdup("");
	return read_single(path, t, err);
}

/* ------------------------------------------------------------ manifests */

/* A bundle manifest is parsed, to be updated; a manifest.json that is no JSON is refused. */
static int
load_manifests(const char *given, struct tree *t, struct diag *err)
{
	for (size_t i = 0; i < t->n; i++) {
		struct member *m = &t->v[i];
		if (strcmp(base_name(m->name), BUNDLE_MANIFEST) != 0)
			continue;
		json_error_t jerr;
		json_t *root = manifest_parse(m->in.buf, m->in.len, &jerr);
		if (!root)
			return diag_set(err, DIAG_DATA, given, 0, 0,
					"%s is not readable JSON (line %d, column %d): %s", m->name,
					jerr.line, jerr.column, jerr.text);
		if (manifest_is_bundle(root))
			m->manifest = root;
		else
			json_decref(root);
	}
	return 0;
}

/* The folder a manifest describes: its name without "manifest.json" ("" or "001/"). */
static size_t
manifest_dir_len(const struct member *m)
{
	return strlen(m->name) - strlen(BUNDLE_MANIFEST);
}

/* The member named `name` (t->v is sorted by name, names in normal form), or NULL. */
static struct member *
tree_lookup(const struct tree *t, const char *name)
{
	struct member key = { .name = (char *)name };
	return t->n ? bsearch(&key, t->v, t->n, sizeof(*t->v), member_cmp) : NULL;
}

static struct member *
tree_find(struct tree *t, const char *dir, size_t dirlen, const char *rel)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_add(&sb, dir, dirlen);
	strbuf_addstr(&sb, rel);
	struct member *m = tree_lookup(t, sb.buf);
	strbuf_release(&sb);
	return m;
}

/*
 * The manifest whose folder holds `m` most closely, or NULL: the folders
 * above it, deepest first, looked up (not every member compared: an
 * archive may hold 100,000 of them).
 */
static const struct member *
owner_of(const struct tree *t, const struct member *m)
{
	struct strbuf sb = STRBUF_INIT;
	const struct member *found = NULL;
	for (size_t len = strlen(m->name) + 1; len-- > 0 && !found;) {
		if (len && m->name[len - 1] != '/')
			continue;
		strbuf_reset(&sb);
		strbuf_add(&sb, m->name, len);
		strbuf_addstr(&sb, BUNDLE_MANIFEST);
		const struct member *o = tree_lookup(t, sb.buf);
		if (o && o->manifest)
			found = o;
	}
	strbuf_release(&sb);
	return found;
}

static void
redact_json_string(const struct redactor *rd, json_t *s, uint64_t *hits)
{
	if (!json_is_string(s))
		return;
	struct strbuf out = STRBUF_INIT;
	redactor_apply(rd, json_string_value(s), json_string_length(s), &out, hits);
	json_string_setn(s, out.buf, out.len);
	strbuf_release(&out);
}

static void
redact_json_strings(const struct redactor *rd, json_t *v, uint64_t *hits)
{
	size_t i;
	const char *key;
	json_t *x;
	if (json_is_array(v))
		json_array_foreach(v, i, x)
			redact_json_string(rd, x, hits);
	else if (json_is_object(v))
		json_object_foreach(v, key, x)
			redact_json_string(rd, x, hits);
}

/* The values a manifest records: argv, step argv and reasons, the target, the host. */
static void
redact_manifest_values(const struct redactor *rd, json_t *root, uint64_t *hits)
{
	size_t i;
	json_t *step;
	redact_json_strings(rd, json_object_get(root, MK_ARGV), hits);
	redact_json_strings(rd, json_object_get(root, MK_HOST), hits);
	redact_json_string(rd, json_object_get(json_object_get(root, MK_TARGET), MK_NAME), hits);
	json_array_foreach(json_object_get(root, MK_STEPS), i, step) {
		redact_json_strings(rd, json_object_get(step, MK_ARGV), hits);
		redact_json_string(rd, json_object_get(step, MK_REASON), hits);
	}
}

/* A step's file record names a file inside the bundle (or is no record). */
static int
check_record(const char *given, const struct member *man, const json_t *rec, struct diag *err)
{
	if (!json_is_object(rec))
		return 0;
	const char *why;
	char *normal = manifest_record_path(rec, &why);
	free(normal);
	if (!normal)
		return diag_set(err, DIAG_DATA, given, 0, 0, "%s: a step's file path %s",
				man->name, why);
	return 0;
}

/*
 * Every manifest's steps and file records, checked before anything is
 * written, by the rules the bundle readers apply (bundle/manifest.h), so
 * a copy is never made of a bundle that no command would read.
 */
static int
check_manifests(const char *given, const struct tree *t, struct diag *err)
{
	int rc = 0;
	for (size_t i = 0; i < t->n && rc == 0; i++) {
		size_t k;
		const json_t *step;
		struct listed_once ids;
		listed_once_init(&ids);
		json_array_foreach(json_object_get(t->v[i].manifest, MK_STEPS), k, step) {
			if (check_record(given, &t->v[i], json_object_get(step, MK_STDOUT), err) < 0 ||
			    check_record(given, &t->v[i], json_object_get(step, MK_STDERR), err) < 0 ||
			    manifest_step_once(&ids, step, given, t->v[i].name, err) < 0) {
				rc = -1;
				break;
			}
		}
		listed_once_release(&ids);
	}
	return rc;
}

/* One step's {path, bytes, sha256}: the redacted file's, when the old record held. */
static int
update_file_record(const char *given, struct tree *t, const struct member *man, json_t *rec,
		   struct diag_list *warnings, struct diag *err)
{
	const json_t *path = json_object_get(rec, MK_PATH);
	if (!json_is_object(rec))
		return 0;
	if (check_record(given, man, rec, err) < 0)
		return -1;
	char *rel = manifest_record_path(rec, &(const char *){ NULL });
	struct member *f = tree_find(t, man->name, manifest_dir_len(man), rel);
	free(rel);
	if (!f) {
		diag_list_add(warnings, DIAG_WARNING, given, 0, "%s names %.*s%s, which the bundle "
			      "does not hold", man->name, (int)manifest_dir_len(man), man->name,
			      json_string_value(path));
		return 0;
	}
	if (!manifest_record_holds(rec, f->in_sha, f->in_len)) {
		diag_list_add(warnings, DIAG_WARNING, given, 0,
			      "%s does not match its manifest (changed after the capture): its "
			      "record is left as it was, so readers still warn about it", f->name);
		return 0;
	}
	manifest_record_set(rec, f->out_sha, f->out_len);
	return 0;
}

static json_t *
rule_entry(json_t *rules, const char *name)
{
	size_t i;
	json_t *r;
	json_array_foreach(rules, i, r) {
		const json_t *n = json_object_get(r, MK_RULE);
		if (json_is_string(n) && strcmp(json_string_value(n), name) == 0)
			return r;
	}
	return NULL;
}

static uint64_t
json_count(const json_t *v)
{
	return json_is_integer(v) && json_integer_value(v) > 0 ? (uint64_t)json_integer_value(v) : 0;
}

/* "redaction": enabled, no warning, each rule's hits added to what was recorded. */
static void
update_rules(const struct tree *t, const struct member *man, json_t *root)
{
	json_t *red = json_object_get(root, MK_REDACTION);
	if (!json_is_object(red)) {
		red = json_object();
		json_object_set_new(root, MK_REDACTION, red);
	}
	json_t *old = json_object_get(red, MK_RULES);
	json_t *rules = json_array();
	size_t dirlen = manifest_dir_len(man);
	for (int r = 0; r < REDACT_NRULES; r++) {
		const char *name = redact_rule_name((enum redact_rule)r);
		json_t *was = json_is_array(old) ? rule_entry(old, name) : NULL;
		json_t *files = json_object();
		const char *key;
		json_t *v;
		json_object_foreach(json_object_get(was, MK_FILES), key, v)
			json_object_set_new(files, key, json_integer((json_int_t)json_count(v)));
		uint64_t hits = json_count(json_object_get(was, MK_HITS));
		for (size_t i = 0; i < t->n; i++) {
			const struct member *m = &t->v[i];
			if (!m->hits[r] || owner_of(t, m) != man)
				continue;
			const char *rel = m->name + dirlen;
			uint64_t before = json_count(json_object_get(files, rel));
			json_object_set_new(files, rel, json_integer((json_int_t)(before + m->hits[r])));
			hits += m->hits[r];
		}
		json_array_append_new(rules, json_pack("{s:s, s:s, s:I, s:o}", MK_RULE, name,
			MK_DESCRIPTION, redact_rule_description((enum redact_rule)r),
			MK_HITS, (json_int_t)hits, MK_FILES, files));
	}
	size_t i;
	json_t *r;
	json_array_foreach(old, i, r) {
		const json_t *n = json_object_get(r, MK_RULE);
		if (json_is_string(n) && !rule_entry(rules, json_string_value(n)))
			json_array_append(rules, r);   /* a rule a later iotally added */
	}
	json_object_set_new(red, MK_ENABLED, json_true());
	json_object_set_new(red, MK_WARNING, json_null());
	json_object_set_new(red, MK_RULES, rules);
}

/* The manifest updated, as its new bytes in `out`. */
static int
update_manifest(const char *given, struct tree *t, struct member *man,
		const struct redactor *rd, struct strbuf *out, struct diag_list *warnings,
		struct diag *err)
{
	size_t i;
	json_t *step;
	redact_manifest_values(rd, man->manifest, man->hits);
	json_array_foreach(json_object_get(man->manifest, MK_STEPS), i, step) {
		if (update_file_record(given, t, man, json_object_get(step, MK_STDOUT), warnings,
				       err) < 0 ||
		    update_file_record(given, t, man, json_object_get(step, MK_STDERR), warnings,
				       err) < 0)
			return -1;
	}
	update_rules(t, man, man->manifest);
	if (manifest_dump(man->manifest, out) < 0)
		return diag_set(err, DIAG_SOFTWARE, given, 0, 0, "cannot write %s", man->name);
	sha_hex(out, man->out_sha);
	man->out_len = out->len;
	return 0;
}

/* -------------------------------------------------------------- writing */

static bool
ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && strcmp(s + n - k, suffix) == 0;
}

static int
cantcreat(const char *out, const char *why, struct diag *err)
{
	return diag_set(err, CAPTURE_EXIT_CANTCREAT, out, 0, 0, "%s", why);
}

static const char exists_msg[] = "exists: redact never replaces a file or folder (name "
				  "another with -o)";

static int
exists(const char *out, struct diag *err)
{
	struct stat st;
	return lstat(out, &st) == 0 ? cantcreat(out, exists_msg, err) : 0;
}

static int
io_error(const char *path, struct diag *err)
{
	int e = errno;
	return diag_set(err, e == ENOSPC || e == EIO || e == EDQUOT ? DIAG_IOERR
				: CAPTURE_EXIT_CANTCREAT, path, 0, 0, "cannot be written: %s",
			strerror(e));
}

/* Where redacted bytes go: a descriptor, plain or as one gzip member; their digest and size. */
struct sink {
	int fd;
	bool gzip;
	z_stream z;
	struct sha256 sha;
	uint64_t len;
};

static int
sink_begin(struct sink *s, int fd, bool gzip)
{
	memset(s, 0, sizeof(*s));
	s->fd = fd;
	s->gzip = gzip;
	sha256_begin(&s->sha);
	if (gzip && deflateInit2(&s->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
				 Z_DEFAULT_STRATEGY) != Z_OK) {
		s->gzip = false;
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

/* Bytes through zlib (its CRC-32 and length checked by any reader), Z_FINISH at the end. */
static int
sink_deflate(struct sink *s, const char *p, size_t n, int flush)
{
	unsigned char buf[1 << 16];
	do {
		size_t piece = n > (1u << 30) ? (1u << 30) : n;
		s->z.next_in = (unsigned char *)p;
		s->z.avail_in = (uInt)piece;
		p += piece;
		n -= piece;
		int f = n ? Z_NO_FLUSH : flush;
		do {
			s->z.next_out = buf;
			s->z.avail_out = sizeof(buf);
			if (deflate(&s->z, f) == Z_STREAM_ERROR) {
				errno = EIO;
				return -1;
			}
			if (capfile_write_all(s->fd, (const char *)buf, sizeof(buf) - s->z.avail_out) < 0)
				return -1;
		} while (s->z.avail_out == 0);
	} while (n);
	return 0;
}

static int
sink_write(struct sink *s, const char *p, size_t n)
{
	if (!n)
		return 0;
	sha256_add(&s->sha, p, n);
	s->len += n;
	return s->gzip ? sink_deflate(s, p, n, Z_NO_FLUSH) : capfile_write_all(s->fd, p, n);
}

/* The end: the gzip trailer written; the digest in hex. */
static int
sink_end(struct sink *s, char hex[SHA256_HEX_SIZE])
{
	int rc = 0;
	if (s->gzip) {
		rc = sink_deflate(s, "", 0, Z_FINISH);
		deflateEnd(&s->z);
		s->gzip = false;
	}
	sha256_end_hex(&s->sha, hex);
	return rc;
}

/* The second pass over one file: redacted chunk by chunk into a sink. */
struct apply_ctx {
	const struct redactor *rd;
	struct member *m;
	struct sink *sink;
	const char *out;            /* named in messages */
};

static int
apply_chunk(void *ctx, const char *p, size_t n, struct diag *err)
{
	struct apply_ctx *c = ctx;
	struct strbuf red = STRBUF_INIT;
	redactor_apply(c->rd, p, n, &red, c->m->hits);
	int rc = sink_write(c->sink, red.buf, red.len);
	strbuf_release(&red);
	return rc < 0 ? io_error(c->out, err) : 0;
}

/*
 * `m` read from `src`, redacted into `fd` (closed here); its new digest and
 * size kept. With `sync`, the file is synced: the one file of a single
 * capture's copy; a tree's files are synced once, all together.
 */
static int
apply_member(const struct tree *t, const struct redactor *rd, struct member *m,
	     struct source *src, int fd, bool gzip, bool sync, const char *out,
	     struct diag *err)
{
	struct sink sink;
	struct apply_ctx c = { rd, m, &sink, out };
	int rc = sink_begin(&sink, fd, gzip) < 0 ? io_error(out, err) : 0;
	if (rc == 0)
		rc = redact_stream(source_read, src, t->chunk, t->whole, apply_chunk, &c, err);
	if (sink_end(&sink, m->out_sha) < 0 && rc == 0)
		rc = io_error(out, err);
	m->out_len = sink.len;
	if (fd != STDOUT_FILENO) {
		if (rc == 0 && sync && fsync(fd) < 0)
			rc = io_error(out, err);
		if (close(fd) < 0 && rc == 0)
			rc = io_error(out, err);
	}
	return rc;
}

/* A new file for `m` under the new folder `dir`, written redacted from `src`. */
static int
apply_into(const struct tree *t, const struct redactor *rd, struct member *m,
	   struct source *src, const char *dir, const char *out, struct diag *err)
{
	int fd = capfile_open_out(dir, m->name);
	/* A name no file here can have (a part past NAME_MAX, the whole past
	 * PATH_MAX) is the input's defect, not the output's: 65, naming it. */
	if (fd < 0 && errno == ENAMETOOLONG)
		return diag_set(err, DIAG_DATA, NULL, 0, 0, "the member '%s%s' has a name too long "
				"for a file on this system: not copied", t->top, m->name);
	if (fd < 0)
		return io_error(out, err);
	return apply_member(t, rd, m, src, fd, false, false, out, err);
}

struct rewrite_ctx {
	const struct tree *t;
	const struct redactor *rd;
	const char *dir, *out;
};

static int
rewrite_member(void *ctx, const char *name, struct arc_reader *data, struct diag *err)
{
	struct rewrite_ctx *c = ctx;
	size_t top = strlen(c->t->top);
	struct member *m = strncmp(name, c->t->top, top) == 0 ? tree_lookup(c->t, name + top)
							       : NULL;
	if (!m)
		return diag_set(err, DIAG_DATA, NULL, 0, 0,
				"the member '%s' was not there when the archive was first read", name);
	if (m->manifest)
		return 0;
	struct source src = { .fd = -1, .arc = data, .path = NULL };
	return apply_into(c->t, c->rd, m, &src, c->dir, c->out, err);
}

/* Every member but the bundle manifests, redacted under the new folder `dir`. */
static int
write_members(const char *given, const struct tree *t, const struct redactor *rd,
	      const char *dir, const char *out, bool archive, struct diag *err)
{
	if (archive) {
		struct rewrite_ctx c = { t, rd, dir, out };
		int rc = arc_for_each_member(given, rewrite_member, &c, err);
		if (rc < 0)
			diag_set_path_if_unset(err, given);
		return rc;
	}
	int rc = 0;
	for (size_t i = 0; i < t->n && rc == 0; i++) {
		struct source src;
		if (t->v[i].manifest)
			continue;
		rc = open_member(given, &t->v[i], &src, err);
		if (rc == 0)
			rc = apply_into(t, rd, &t->v[i], &src, dir, out, err);
		if (src.fd >= 0)
			close(src.fd);
	}
	if (rc < 0)
		diag_set_path_if_unset(err, given);
	return rc;
}

/* The bundle manifests, updated once every file they describe is written. */
static int
write_manifests(const char *given, struct tree *t, const struct redactor *rd,
		struct redact_result *res, const char *dir, const char *out,
		struct diag_list *warnings, struct diag *err)
{
	int rc = 0;
	for (size_t i = 0; i < t->n && rc == 0; i++) {
		struct member *m = &t->v[i];
		if (!m->manifest)
			continue;
		struct strbuf text = STRBUF_INIT;
		rc = update_manifest(given, t, m, rd, &text, warnings, err);
		res->nmanifests++;
		if (rc == 0) {
			int fd = capfile_open_out(dir, m->name);
			if (fd < 0 || capfile_write_all(fd, text.buf, text.len) < 0)
				rc = io_error(out, err);
			if (fd >= 0 && close(fd) < 0 && rc == 0)
				rc = io_error(out, err);
		}
		strbuf_release(&text);
	}
	return rc;
}

/* The archive's folder: the input archive's, else the copy's name without .tar.gz. */
static char *
archive_prefix(const struct tree *t, const char *out)
{
	if (t->top && t->top[0])
		return xmemdup0(t->top, strlen(t->top) - 1);
	const char *b = base_name(out);
	size_t n = strlen(b);
	n -= ends_with(b, ".tar.gz") ? 7 : ends_with(b, ".tgz") ? 4 : 0;
	return xmemdup0(b, n);
}

/* A new file is put at `out` without replacing one that appeared meanwhile. */
static int
place_file(const char *tmp, const char *out, struct diag *err)
{
	if (link(tmp, out) == 0)
		return 0;
	if (errno == EEXIST)
		return cantcreat(out, exists_msg, err);
	if (exists(out, err) < 0)
		return -1;
	return rename(tmp, out) == 0 ? 0 : io_error(out, err);
}

static int
write_tree(const char *given, struct tree *t, const struct redactor *rd,
	   struct redact_result *res, const char *out, struct diag_list *warnings,
	   struct diag *err)
{
	bool archive = res->archive_out;
	if (exists(out, err) < 0)
		return -1;
	char *tmp = capfile_temp_beside(out, err);
	if (!tmp)
		return -1;
	int rc = write_members(given, t, rd, tmp, out, res->input == REDACT_IN_ARCHIVE, err);
	if (rc == 0)
		rc = write_manifests(given, t, rd, res, tmp, out, warnings, err);
	if (rc == 0 && !archive) {
		/* Every file written, synced at once before the folder is put in place. */
		rc = capfile_sync_tree(tmp) < 0 ? io_error(out, err) : 0;
		/* POSIX has no rename that refuses an existing folder: checked just before. */
		if (rc == 0)
			rc = exists(out, err);
		if (rc == 0 && rename(tmp, out) < 0)
			rc = io_error(out, err);
	} else if (rc == 0) {
		char *prefix = archive_prefix(t, out);
		char *file = capfile_write_archive(tmp, prefix, out, err);
		rc = file ? place_file(file, out, err) : -1;
		if (file) {
			unlink(file);
			cleanup_forget(file);
		}
		free(file);
		free(prefix);
	}
	capfile_remove_tree(tmp);   /* renamed away when it worked; forgotten either way */
	free(tmp);
	return rc;
}

static int
write_single(const char *given, struct tree *t, const struct redactor *rd, const char *out,
	     bool gzip, struct diag *err)
{
	struct source src = { .fd = -1 };
	int rc = open_single(t, given, &src, err);
	if (rc == 0 && strcmp(out, "-") == 0) {
		rc = apply_member(t, rd, &t->v[0], &src, STDOUT_FILENO, false, false, out, err);
		if (rc < 0 && (err->code == DIAG_IOERR || err->code == CAPTURE_EXIT_CANTCREAT))
			diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot write standard output: %s",
				 strerror(errno));
		arc_reader_free(src.arc);
		return rc;
	}
	if (rc == 0)
		rc = exists(out, err);
	char *tmp = NULL;
	int fd = rc == 0 ? tempfile_beside(out, "partial", &tmp) : -1;
	if (rc == 0 && fd < 0) {
		rc = io_error(out, err);
	} else if (rc == 0) {
		rc = apply_member(t, rd, &t->v[0], &src, fd, gzip, true, out, err);
		if (rc == 0)
			rc = place_file(tmp, out, err);
		unlink(tmp);
		cleanup_forget(tmp);
	}
	if (src.arc)
		arc_reader_free(src.arc);
	free(tmp);
	return rc;
}

/* ------------------------------------------------------------ redacting */

/* Every file redacted and written, with the values collected from all of them. */
static int
redact_tree(const struct redact_opts *o, struct tree *t, struct redact_result *res,
	    struct diag_list *warnings, struct diag *err)
{
	struct redactor rd;
	int rc;
	redactor_init(&rd);
	for (size_t i = 0; i < o->nwords; i++)
		redactor_add_value(&rd, o->words[i], strlen(o->words[i]));
	for (size_t i = 0; i < t->n; i++)
		redact_found_add_to(&t->v[i].found, &rd);
	t->whole = !redactor_line_local(&rd);
	if (res->input == REDACT_IN_FILE) {
		res->gzip_out = ends_with(o->output, ".gz");
		rc = write_single(o->input, t, &rd, o->output, res->gzip_out, err);
	} else {
		res->archive_out = ends_with(o->output, ".tar.gz") || ends_with(o->output, ".tgz");
		rc = write_tree(o->input, t, &rd, res, o->output, warnings, err);
	}
	redactor_release(&rd);
	for (size_t i = 0; i < t->n && rc == 0; i++) {
		const struct member *m = &t->v[i];
		uint64_t any = 0;
		for (int r = 0; r < REDACT_NRULES; r++) {
			res->total[r] += m->hits[r];
			any += m->hits[r];
		}
		if (!any)
			continue;
		res->hits = xgrow(res->hits, &res->hits_alloc, res->nhits + 1, sizeof(*res->hits));
		struct redact_file_hits *h = &res->hits[res->nhits++];
		h->name = xstrdup(m->name);
		memcpy(h->hits, m->hits, sizeof(h->hits));
	}
	res->nfiles = t->n;
	return rc;
}

/* ------------------------------------------------------------------ run */

char *
redact_default_output(const char *input)
{
	if (strcmp(input, "-") == 0)
		return xstrdup("-");
	size_t n = strlen(input);
	while (n > 1 && input[n - 1] == '/')
		n--;
	const char *base = input;
	for (size_t i = 0; i < n; i++)
		if (input[i] == '/')
			base = input + i + 1;
	const char *dot = base;
	while (dot < input + n && *dot == '.')
		dot++;
	dot = memchr(dot, '.', (size_t)(input + n - dot));
	if (!dot)
		dot = input + n;
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%.*s-redacted%.*s", (int)(dot - input), input,
		    (int)(input + n - dot), dot);
	return strbuf_detach(&sb, NULL);
}

char *
redact_output_name(const char *given, const char *input)
{
	if (!given)
		return redact_default_output(input);
	size_t len = strlen(given);
	while (len > 1 && given[len - 1] == '/')
		len--;
	return xmemdup0(given, len);
}

int
redact_run(const struct redact_opts *o, struct redact_result *res,
	   struct diag_list *warnings, struct diag *err)
{
	struct tree t = { 0 };
	struct budget budget = { .limit = UINT64_MAX,
				 .ratio = o->max_expansion ? o->max_expansion
							   : REDACT_EXPANSION_DEFAULT };
	t.budget = &budget;
	t.fd = -1;
	spill_init(&t.spill);
	t.chunk = o->chunk ? o->chunk : REDACT_CHUNK;
	memset(res, 0, sizeof(*res));
	diag_clear(err);
	int rc = read_input(o->input, res, &t, err);
	if (rc == 0 && res->input != REDACT_IN_FILE && strcmp(o->output, "-") == 0)
		rc = diag_set(err, DIAG_USAGE, o->input, 0, 0,
			      "a bundle's copy is a folder or a .tar.gz, not standard output: name "
			      "it with -o");
	if (rc == 0 && res->input != REDACT_IN_FILE)
		rc = load_manifests(o->input, &t, err);
	if (rc == 0)
		rc = check_manifests(o->input, &t, err);
	if (rc == 0)
		rc = redact_tree(o, &t, res, warnings, err);
	tree_release(&t);
	return rc;
}

void
redact_result_release(struct redact_result *res)
{
	for (size_t i = 0; i < res->nhits; i++)
		free(res->hits[i].name);
	free(res->hits);
	memset(res, 0, sizeof(*res));
}
