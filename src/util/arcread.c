#include "util/arcread.h"

#include "util/hashmap.h"
#include "util/member_name.h"
#include "util/spill.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define ARC_BLOCK (64u * 1024u)

struct arc_index;

struct arc_reader {
	struct archive *a;
	/* a member of an indexed archive: `left` bytes at `off` of its copy */
	struct arc_index *idx;
	uint64_t off, left;
	bool owns;          /* frees `a` on arc_reader_free() */
	const char *path;
	/* gzip over a descriptor: bytes already read, then the descriptor (zlib) */
	int fd;
	char *prefix;
	size_t prefix_len;
	bool prefix_given;
	char *block;
	bool gzip;          /* a gzip stream decoded by zlib */
	z_stream zs;
	bool zs_live;
	bool member_done;   /* the last gzip member ended; another may follow */
	bool at_end;
};

bool
arc_is_gzip(const void *p, size_t n)
{
	const unsigned char *b = p;
	return n >= 2 && b[0] == 0x1f && b[1] == 0x8b;
}

static int
arc_error(struct archive *a, int code, const char *path, const char *what, struct diag *err)
{
	const char *why = archive_error_string(a);
	return diag_set(err, code, path, 0, 0, "%s: %s", what, why ? why : "unknown error");
}

/* Compressed bytes: the saved prefix first, then the descriptor. > 0, 0 EOF, -1. */
static ssize_t
gz_input(struct arc_reader *r, struct diag *err)
{
	if (!r->prefix_given) {
		r->prefix_given = true;
		if (r->prefix_len) {
			r->zs.next_in = (unsigned char *)r->prefix;
			r->zs.avail_in = (uInt)r->prefix_len;
			return (ssize_t)r->prefix_len;
		}
	}
	for (;;) {
		ssize_t n = read(r->fd, r->block, ARC_BLOCK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return diag_set(err, DIAG_NOINPUT, r->path, 0, 0,
					"cannot read input: %s", strerror(errno));
		r->zs.next_in = (unsigned char *)r->block;
		r->zs.avail_in = (uInt)n;
		return n;
	}
}

/*
 * Decode with zlib, which checks every member's CRC-32 and length (a
 * flipped bit is an error, not silently different text). Concatenated
 * members are read one after the other, as gzip(1) does.
 */
static ssize_t
gz_read(struct arc_reader *r, void *buf, size_t n, struct diag *err)
{
	if (n > ARC_BLOCK)
		n = ARC_BLOCK;
	r->zs.next_out = buf;
	r->zs.avail_out = (uInt)n;
	while (r->zs.avail_out == n && !r->at_end) {
		if (r->zs.avail_in == 0) {
			ssize_t got = gz_input(r, err);
			if (got < 0)
				return -1;
			if (got == 0) {
				if (r->member_done)
					r->at_end = true;
				else
					return diag_set(err, DIAG_DATA, r->path, 0, 0,
							"cannot decompress gzip input: truncated gzip input");
				break;
			}
		}
		if (r->member_done) {
			/* Another member must start here. */
			if (r->zs.avail_in >= 1 && r->zs.next_in[0] != 0x1f)
				return diag_set(err, DIAG_DATA, r->path, 0, 0,
						"cannot decompress gzip input: data that is not gzip follows the compressed stream");
			inflateReset(&r->zs);
			r->member_done = false;
		}
		int rc = inflate(&r->zs, Z_NO_FLUSH);
		if (rc == Z_STREAM_END) {
			r->member_done = true;
		} else if (rc == Z_BUF_ERROR) {
			continue;   /* needs more input */
		} else if (rc != Z_OK) {
			return diag_set(err, DIAG_DATA, r->path, 0, 0,
					"cannot decompress gzip input: %s (the file is damaged)",
					r->zs.msg ? r->zs.msg : "corrupt data");
		}
	}
	return (ssize_t)(n - r->zs.avail_out);
}

struct arc_reader *
arc_reader_gunzip_fd(int fd, const void *prefix, size_t prefix_len, const char *path,
		     struct diag *err)
{
	struct arc_reader *r = xcalloc(1, sizeof(*r));

	(void)err;
	r->fd = fd;
	r->path = path;
	r->gzip = true;
	r->prefix = xmalloc(prefix_len ? prefix_len : 1);
	if (prefix_len)
		memcpy(r->prefix, prefix, prefix_len);
	r->prefix_len = prefix_len;
	r->block = xmalloc(ARC_BLOCK);
	if (inflateInit2(&r->zs, 15 + 16) != Z_OK) {
		diag_set(err, DIAG_SOFTWARE, path, 0, 0, "cannot set up gzip decompression");
		free(r->prefix);
		free(r->block);
		free(r);
		return NULL;
	}
	r->zs_live = true;
	return r;
}

static struct archive *
tar_open(const char *archive_path, struct diag *err)
{
	struct archive *a = archive_read_new();
	archive_read_support_filter_gzip(a);
	archive_read_support_filter_none(a);
	archive_read_support_format_tar(a);
	archive_read_support_format_gnutar(a);
	if (archive_read_open_filename(a, archive_path, ARC_BLOCK) != ARCHIVE_OK) {
		int code = archive_errno(a) == ENOENT || archive_errno(a) == EACCES
				   ? DIAG_NOINPUT : DIAG_DATA;
		arc_error(a, code, archive_path, "cannot read archive", err);
		archive_read_free(a);
		return NULL;
	}
	return a;
}

static const char *
member_name(struct archive_entry *e)
{
	const char *name = archive_entry_pathname(e);
	return name ? name : "";
}

/* A member name for a message: quoted, control bytes as \xNN, cut when long. */
static const char *
shown_member(struct strbuf *sb, const char *name)
{
	strbuf_reset(sb);
	diag_quote(sb, name, strlen(name), 200);
	return sb->buf;
}

/* What a member that is neither a file nor a folder is, for the refusal. */
static const char *
member_type_name(struct archive_entry *e)
{
	if (archive_entry_hardlink(e))
		return "a hard link";
	switch (archive_entry_filetype(e)) {
	case AE_IFLNK: return "a symbolic link";
	case AE_IFIFO: return "a named pipe";
	case AE_IFCHR: return "a character device";
	case AE_IFBLK: return "a block device";
	case AE_IFSOCK: return "a socket";
	default: return "a special file";
	}
}

/*
 * Advance to the next regular file: 1 found (*name set), 0 end, -1 error,
 * -2 a member refused. Folders are implied by their files' names and
 * skipped. With `strict` (a walk over every member), a member that is
 * neither a file nor a folder (a link, a pipe, a device) stops the walk
 * with DIAG_DATA: a bundle holds only files and folders, and a copy that
 * silently left one out (redact) would not say so; looking up one member
 * by name skips them.
 */
static int
next_member(struct archive *a, const char *archive_path, bool strict, const char **name,
	    struct diag *err)
{
	struct archive_entry *e;
	for (;;) {
		int rc = archive_read_next_header(a, &e);
		if (rc == ARCHIVE_EOF)
			return 0;
		if (rc != ARCHIVE_OK && rc != ARCHIVE_WARN)
			return arc_error(a, DIAG_DATA, archive_path, "cannot read archive", err);
		mode_t type = archive_entry_filetype(e);
		if (type == AE_IFREG) {
			*name = member_name(e);
			return 1;
		}
		if (strict && type != AE_IFDIR) {
			struct strbuf sb = STRBUF_INIT;
			diag_set(err, DIAG_DATA, archive_path, 0, 0, "the member '%s' is %s, not a "
				 "file: a bundle holds only files and folders",
				 shown_member(&sb, member_name(e)), member_type_name(e));
			strbuf_release(&sb);
			return -2;
		}
	}
}

/* The archive read from its start to the first regular file named `want` (a normal form). */
static struct arc_reader *
walk_to_member(const char *archive_path, const char *want, const char *member,
	       struct diag *err)
{
	struct strbuf sb = STRBUF_INIT;
	const char *why;
	struct archive *a = tar_open(archive_path, err);
	const char *name = "";
	int rc = -1;
	while (a && (rc = next_member(a, archive_path, false, &name, err)) > 0) {
		char *normal = member_name_normal(name, &why);
		bool same = normal && strcmp(normal, want) == 0;
		free(normal);
		if (same) {
			struct arc_reader *r = xcalloc(1, sizeof(*r));
			r->a = a;
			r->owns = true;
			r->path = archive_path;
			r->fd = -1;
			return r;
		}
	}
	if (rc == 0)
		diag_set(err, DIAG_NOINPUT, archive_path, 0, 0,
			 "the archive holds no file '%s'", shown_member(&sb, member));
	if (a)
		archive_read_free(a);
	strbuf_release(&sb);
	return NULL;
}

/* The member's normal name (owned), or NULL with DIAG_DATA when the rule refuses it. */
static char *
take_name(struct member_set *seen, const char *archive_path, const char *name, struct diag *err)
{
	struct strbuf sb = STRBUF_INIT;
	const char *why;
	char *normal = member_name_normal(name, &why);
	if (normal && (why = member_set_add_file(seen, normal)) != NULL) {
		free(normal);
		normal = NULL;
	}
	if (!normal)
		diag_set(err, DIAG_DATA, archive_path, 0, 0, "the member '%s' %s: not read",
			 shown_member(&sb, name), why);
	strbuf_release(&sb);
	return normal;
}

/*
 * arc_for_each_member() reading the archive itself: 0, or -1 with *refused
 * (when not NULL) set when a member the rule refuses stopped the walk.
 */
static int
walk_members(const char *archive_path, arc_member_fn fn, void *ctx, bool *refused,
	     struct diag *err)
{
	struct archive *a = tar_open(archive_path, err);
	struct arc_reader view;
	struct member_set seen;
	const char *name = "";
	int rc;

	if (!a)
		return -1;
	memset(&view, 0, sizeof(view));
	view.a = a;
	view.path = archive_path;
	view.fd = -1;
	member_set_init(&seen);
	while ((rc = next_member(a, archive_path, true, &name, err)) > 0) {
		char *normal = take_name(&seen, archive_path, name, err);
		if (!normal)
			rc = -2;
		else if (fn(ctx, normal, &view, err) < 0)
			rc = -1;
		free(normal);
		if (rc < 0)
			break;
	}
	if (refused)
		*refused = rc == -2;
	member_set_release(&seen);
	archive_read_free(a);
	return rc < 0 ? -1 : 0;
}

/*
 * An archive read once. A series of N samples is read by name N times and
 * more (every sample's manifest, capture and checksum): reading the archive
 * from its start each time cost N walks over it, 94 s of CPU for 4,000
 * samples. The first reader of an archive walks it once, with every rule of
 * arc_for_each_member(), and copies each regular file's bytes into an
 * unlinked temporary file (util/spill.h); later readers of that archive,
 * in any order and from any thread, read the copy.
 *
 * The copy holds at most max(ARC_INDEX_RATIO times the archive's size,
 * ARC_INDEX_FLOOR) bytes, the bound `redact` puts on an archive's
 * expansion: an archive that expands past it (no capture bundle does) is
 * not copied, and every read of it walks the archive as before, so a few
 * KB of compressed zeros cannot fill the temporary folder.
 */
#define ARC_INDEX_RATIO 64u
#define ARC_INDEX_FLOOR ((uint64_t)32 << 20)
/* Archives kept indexed at once (each holds a descriptor), most recent first. */
#define ARC_INDEX_KEEP 4u

struct arc_entry {
	char *name;          /* normal form */
	uint64_t off, size;  /* its bytes in the copy */
};

struct arc_index {
	char *path;
	struct stat st;        /* the file indexed: a changed file is indexed again */
	bool copied;           /* every member's bytes are in `data` */
	struct spill data;
	struct arc_entry *v;
	size_t n, alloc;
	struct strmap names;   /* normal name -> index in v */
	int stop;              /* 0: walked to its end; -1 stopped by `why` */
	bool refused;          /* ... by a member the rule refuses */
	struct diag why;
	size_t users;          /* readers and walks holding it */
	bool kept;             /* in `kept_index` */
};

static pthread_mutex_t index_lock = PTHREAD_MUTEX_INITIALIZER;
static struct arc_index *kept_index[ARC_INDEX_KEEP];

struct index_build {
	struct arc_index *x;
	uint64_t room;     /* bytes the copy may still take */
	bool gave_up;      /* too large, or the copy could not be written */
};

static int
index_member(void *ctx, const char *name, struct arc_reader *data, struct diag *err)
{
	struct index_build *b = ctx;
	struct arc_index *x = b->x;
	char buf[ARC_BLOCK];
	ssize_t got;
	struct arc_entry e = { xstrdup(name), x->data.flushed + x->data.pending.len, 0 };
	uint64_t off;
	bool created;

	while ((got = arc_reader_read(data, buf, sizeof(buf), err)) > 0) {
		if ((uint64_t)got > b->room || spill_append(&x->data, buf, (size_t)got, &off, NULL) < 0) {
			b->gave_up = true;
			free(e.name);
			return -1;
		}
		b->room -= (uint64_t)got;
		e.size += (uint64_t)got;
	}
	if (got < 0) {
		free(e.name);
		return -1;
	}
	x->v = xgrow(x->v, &x->alloc, x->n + 1, sizeof(*x->v));
	*strmap_put(&x->names, name, strlen(name), &created) = x->n;
	x->v[x->n++] = e;
	return 0;
}

static void
index_free(struct arc_index *x)
{
	for (size_t i = 0; i < x->n; i++)
		free(x->v[i].name);
	free(x->v);
	strmap_release(&x->names);
	spill_release(&x->data);
	free(x->path);
	free(x);
}

/* Forget the members of an index that is not a copy after all. */
static void
index_uncopied(struct arc_index *x)
{
	for (size_t i = 0; i < x->n; i++)
		free(x->v[i].name);
	free(x->v);
	x->v = NULL;
	x->n = x->alloc = 0;
	strmap_release(&x->names);
	strmap_init(&x->names);
	spill_release(&x->data);
	x->stop = 0;
	x->copied = false;
}

/*
 * The archive walked once and copied; or, when it expands too much or no
 * temporary file can be made, an index that says so (`copied` false), so
 * that it is not walked again to find that out.
 */
static struct arc_index *
index_build(const char *archive_path, const struct stat *st)
{
	struct arc_index *x = xcalloc(1, sizeof(*x));
	struct index_build b = { x, ARC_INDEX_FLOOR, false };
	x->path = xstrdup(archive_path);
	x->st = *st;
	strmap_init(&x->names);
	spill_init(&x->data);
	if ((uint64_t)st->st_size <= UINT64_MAX / ARC_INDEX_RATIO &&
	    (uint64_t)st->st_size * ARC_INDEX_RATIO > b.room)
		b.room = (uint64_t)st->st_size * ARC_INDEX_RATIO;
	if (spill_open(&x->data, NULL) < 0)
		return x;   /* read as it is */
	x->stop = walk_members(archive_path, index_member, &b, &x->refused, &x->why);
	x->copied = true;
	if (b.gave_up)
		index_uncopied(x);
	return x;
}

static bool
same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

/* Keep `x` first among the indexes kept, dropping the oldest that nobody holds. */
static void
index_keep(struct arc_index *x)
{
	size_t slot = ARC_INDEX_KEEP;
	for (size_t i = ARC_INDEX_KEEP; i-- > 0 && slot == ARC_INDEX_KEEP;)
		if (!kept_index[i] || kept_index[i]->users == 0)
			slot = i;
	if (slot == ARC_INDEX_KEEP)
		return;   /* every one is in use: `x` lives while it is held */
	if (kept_index[slot])
		index_free(kept_index[slot]);
	memmove(kept_index + 1, kept_index, slot * sizeof(*kept_index));
	kept_index[0] = x;
	x->kept = true;
}

/*
 * The index of a regular file `archive_path`, held (index_drop() it), or
 * NULL when it is no regular file. Read it only when `copied`.
 */
static struct arc_index *
index_hold(const char *archive_path)
{
	struct stat st;
	struct arc_index *x = NULL;
	if (stat(archive_path, &st) < 0 || !S_ISREG(st.st_mode))
		return NULL;
	pthread_mutex_lock(&index_lock);
	for (size_t i = 0; i < ARC_INDEX_KEEP && !x; i++)
		if (kept_index[i] && strcmp(kept_index[i]->path, archive_path) == 0 &&
		    same_file(&kept_index[i]->st, &st))
			x = kept_index[i];
	if (!x) {
		x = index_build(archive_path, &st);
		index_keep(x);
	}
	x->users++;
	pthread_mutex_unlock(&index_lock);
	return x;
}

static void
index_drop(struct arc_index *x)
{
	pthread_mutex_lock(&index_lock);
	if (--x->users == 0 && !x->kept)
		index_free(x);
	pthread_mutex_unlock(&index_lock);
}

void
arc_index_forget(void)
{
	pthread_mutex_lock(&index_lock);
	for (size_t i = 0; i < ARC_INDEX_KEEP; i++) {
		struct arc_index *x = kept_index[i];
		if (!x)
			continue;
		x->kept = false;
		if (x->users == 0)
			index_free(x);
		kept_index[i] = NULL;
	}
	pthread_mutex_unlock(&index_lock);
}

/* A reader of the entry `e` of the held index `x` (the reader holds it now). */
static struct arc_reader *
index_reader(struct arc_index *x, const struct arc_entry *e, const char *archive_path)
{
	struct arc_reader *r = xcalloc(1, sizeof(*r));
	r->idx = x;
	r->off = e->off;
	r->left = e->size;
	r->path = archive_path;
	r->fd = -1;
	return r;
}

struct arc_reader *
arc_reader_member(const char *archive_path, const char *member, struct diag *err)
{
	const char *why;
	struct strbuf sb = STRBUF_INIT;
	char *want = member_name_normal(member, &why);
	struct arc_reader *r = NULL;
	if (!want) {
		diag_set(err, DIAG_DATA, archive_path, 0, 0, "the member '%s' %s",
			 shown_member(&sb, member), why);
		strbuf_release(&sb);
		return NULL;
	}
	struct arc_index *x = index_hold(archive_path);
	bool copied = x && x->copied;
	const size_t *at = copied ? strmap_get(&x->names, want, strlen(want)) : NULL;
	if (at) {
		r = index_reader(x, &x->v[*at], archive_path);
	} else if (copied && x->stop == 0) {
		diag_set(err, DIAG_NOINPUT, archive_path, 0, 0,
			 "the archive holds no file '%s'", shown_member(&sb, member));
		index_drop(x);
	} else {
		/* Not indexed, or not past a member the walk stopped at: look the archive through. */
		if (x)
			index_drop(x);
		r = walk_to_member(archive_path, want, member, err);
	}
	free(want);
	strbuf_release(&sb);
	return r;
}

/* Up to `n` bytes of an indexed member's copy. */
static ssize_t
index_read(struct arc_reader *r, void *buf, size_t n, struct diag *err)
{
	if (n > r->left)
		n = (size_t)r->left;
	if (n && spill_read(&r->idx->data, r->off, buf, n, err) < 0) {
		diag_set_path(err, r->path);
		return -1;
	}
	r->off += n;
	r->left -= n;
	return (ssize_t)n;
}

ssize_t
arc_reader_read(struct arc_reader *r, void *buf, size_t n, struct diag *err)
{
	if (r->gzip)
		return gz_read(r, buf, n, err);
	if (r->idx)
		return index_read(r, buf, n, err);
	la_ssize_t got = archive_read_data(r->a, buf, n);
	if (got < 0)
		return arc_error(r->a, DIAG_DATA, r->path,
				 "cannot read archive member", err);
	return (ssize_t)got;
}

void
arc_reader_free(struct arc_reader *r)
{
	if (!r)
		return;
	if (r->owns && r->a)
		archive_read_free(r->a);
	if (r->idx)
		index_drop(r->idx);
	if (r->zs_live)
		inflateEnd(&r->zs);
	free(r->prefix);
	free(r->block);
	free(r);
}

/* The walk over an index: its members, then how the walk that made it stopped. */
static int
index_walk(struct arc_index *x, const char *archive_path, arc_member_fn fn, void *ctx,
	   bool *refused, struct diag *err)
{
	for (size_t i = 0; i < x->n; i++) {
		struct arc_reader view = { .idx = x, .off = x->v[i].off, .left = x->v[i].size,
					   .path = archive_path, .fd = -1 };
		if (fn(ctx, x->v[i].name, &view, err) < 0)
			return -1;
	}
	if (x->stop < 0) {
		*err = x->why;
		diag_set_path(err, archive_path);
		*refused = x->refused;
	}
	return x->stop;
}

int
arc_scan_members(const char *archive_path, arc_member_fn fn, void *ctx, bool *refused,
		 struct diag *err)
{
	struct arc_index *x = index_hold(archive_path);
	bool r = false;
	int rc = x && x->copied ? index_walk(x, archive_path, fn, ctx, &r, err)
		   : walk_members(archive_path, fn, ctx, &r, err);
	if (x)
		index_drop(x);
	if (refused)
		*refused = r;
	return rc;
}

int
arc_for_each_member(const char *archive_path, arc_member_fn fn, void *ctx, struct diag *err)
{
	return arc_scan_members(archive_path, fn, ctx, NULL, err);
}

#define TAR_BLOCK 512u
#define TAR_CHKSUM_AT 148u
#define TAR_CHKSUM_LEN 8u

/*
 * tar's rule for a header block: the checksum field holds octal digits
 * (space or NUL padded) equal to the sum of the block's bytes with the
 * field itself counted as spaces; bytes summed unsigned, or signed as some
 * old tars did. libarchive's tar reader takes an input only if its first
 * block passes this (an all-zero block, the end mark, does not: there is
 * no member to read).
 */
static bool
tar_checksum_ok(const unsigned char *h)
{
	long want = 0, sum_u = 0, sum_s = 0;
	size_t i = TAR_CHKSUM_AT, end = TAR_CHKSUM_AT + TAR_CHKSUM_LEN;

	for (size_t j = i; j < end; j++)
		if (h[j] != ' ' && h[j] != '\0' && (h[j] < '0' || h[j] > '7'))
			return false;
	while (i < end && h[i] == ' ')
		i++;
	while (i < end && h[i] >= '0' && h[i] <= '7')
		want = want * 8 + (h[i++] - '0');
	for (i = 0; i < TAR_BLOCK; i++) {
		bool field = i >= TAR_CHKSUM_AT && i < end;
		sum_u += field ? ' ' : h[i];
		sum_s += field ? ' ' : (signed char)h[i];
	}
	return want == sum_u || want == sum_s;
}

/* Up to `n` decoded bytes from the start of `r`: the count, or -1 on an error. */
static ssize_t
read_start(struct arc_reader *r, unsigned char *buf, size_t n)
{
	struct diag err;
	size_t got = 0;
	while (got < n) {
		ssize_t k = arc_reader_read(r, buf + got, n - got, &err);
		if (k < 0)
			return -1;
		if (k == 0)
			break;
		got += (size_t)k;
	}
	return (ssize_t)got;
}

/*
 * Can `path` be a tar or tar.gz archive at all? Decided without libarchive
 * (loaded on first use, util/lazylib.h), so that every plain or
 * gzip-compressed text capture is read without it: a tar archive is a
 * regular file whose first block (after gzip decoding) is 512 bytes whose
 * checksum holds. Only a file that passes, or a gzip stream that fails
 * early (libarchive says why), goes on to libarchive. A pipe or device is
 * never taken for an archive: looking would consume the bytes that reading
 * it as a capture needs (`iotally vmmap <(cat dump)`).
 */
static bool
may_be_tar(const char *path)
{
	unsigned char head[TAR_BLOCK];
	struct stat st;
	ssize_t got;
	int fd;

	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return false;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;   /* nor could libarchive open it */
	got = pread(fd, head, TAR_BLOCK, 0);
	if (got >= 2 && arc_is_gzip(head, (size_t)got)) {
		struct arc_reader *gz = arc_reader_gunzip_fd(fd, NULL, 0, path, NULL);
		got = gz ? read_start(gz, head, TAR_BLOCK) : -1;
		arc_reader_free(gz);
	}
	close(fd);
	return got < 0 || ((size_t)got == TAR_BLOCK && tar_checksum_ok(head));
}

bool
arc_is_tar_file(const char *path)
{
	if (!may_be_tar(path))
		return false;
	struct archive *a = archive_read_new();
	struct archive_entry *e;
	bool is_tar = false;

	archive_read_support_filter_gzip(a);
	archive_read_support_filter_none(a);
	archive_read_support_format_tar(a);
	archive_read_support_format_gnutar(a);
	if (archive_read_open_filename(a, path, ARC_BLOCK) == ARCHIVE_OK) {
		int rc = archive_read_next_header(a, &e);
		is_tar = rc == ARCHIVE_OK || rc == ARCHIVE_WARN;
	}
	archive_read_free(a);
	return is_tar;
}
