/*
 * libFuzzer harness: series and session archives read in place, as every
 * command reads them. The bytes are written as a tar (or tar.gz) file in a
 * private scratch folder and read by bundle_path_is_bundle(), the session
 * readers (session_archive_top(), session_index_read()), bundle_open() of
 * the archive, of "ARCHIVE:DIR" for its samples and of "ARCHIVE:before",
 * ":after" and ":tracking"; each capture is read through its name
 * (line_reader_open()) and checked against the manifest
 * (bundle_verify_capture()). Members that are links, pipes, devices or
 * names the rule refuses must be refused, never followed or read.
 *
 * Checks: every failure says why; a member read by its name has the bytes
 * the walk over the archive read for it (the archive is read once, then
 * its members by name in any order: util/arcread.h); a sample opened alone
 * ("ARCHIVE:DIR") has the captures the series gave it.
 */

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz-scratch.h"
#include "ingest/bundle.h"
#include "ingest/session_read.h"
#include "util/arcread.h"
#include "util/linereader.h"
#include "util/sha256.h"
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Bytes read per member and samples checked: a bomb or a huge series stops here. */
#define MEMBER_READ_MAX (1u << 20)
#define SAMPLES_MAX 64
#define MEMBERS_MAX 256

struct digest {
	char *name;
	char hex[SHA256_HEX_SIZE];
	bool whole;   /* read to its end, under MEMBER_READ_MAX */
};

struct walk {
	struct digest v[MEMBERS_MAX];
	size_t n;
};

/* The digest of a reader's bytes: 1 read to the end, 0 cut at MEMBER_READ_MAX, -1 error. */
static int
digest_reader(struct arc_reader *a, char hex[SHA256_HEX_SIZE], struct diag *err)
{
	char buf[4096];
	struct sha256 h;
	size_t total = 0;
	ssize_t n;
	sha256_begin(&h);
	while ((n = arc_reader_read(a, buf, sizeof(buf), err)) > 0) {
		sha256_add(&h, buf, (size_t)n);
		total += (size_t)n;
		if (total > MEMBER_READ_MAX)
			break;
	}
	sha256_end_hex(&h, hex);
	return n < 0 ? -1 : n == 0 ? 1 : 0;
}

static int
on_member(void *ctx, const char *name, struct arc_reader *data, struct diag *err)
{
	struct walk *w = ctx;
	if (w->n == MEMBERS_MAX)
		return 0;
	struct digest *d = &w->v[w->n++];
	d->name = strdup(name);
	int rc = digest_reader(data, d->hex, err);
	d->whole = rc == 1;
	return rc < 0 ? -1 : 0;
}

/* Every member the walk read whole, read again by its name: the same bytes. */
static void
check_by_name(const char *path, const struct walk *w)
{
	struct diag err;
	for (size_t i = w->n; i-- > 0;) {   /* backwards: not the order of the archive */
		if (!w->v[i].whole)
			continue;
		struct arc_reader *a = arc_reader_member(path, w->v[i].name, &err);
		FUZZ_CHECK(a != NULL);
		char hex[SHA256_HEX_SIZE];
		FUZZ_CHECK(digest_reader(a, hex, &err) == 1);
		FUZZ_CHECK(strcmp(hex, w->v[i].hex) == 0);
		arc_reader_free(a);
	}
}

/* Every capture of `b` read through its name, and checked against its manifest. */
static void
read_captures(const struct bundle *b)
{
	struct diag err;
	struct diag_list warnings;
	diag_list_init(&warnings, 16);
	for (size_t i = 0; i < b->ncaptures; i++) {
		struct line_reader r;
		struct line ln;
		int rc = line_reader_open(&r, b->captures[i].path, 4096, &err);
		if (rc == 0) {
			for (size_t k = 0; k < 100000 && (rc = line_reader_next(&r, &ln, &err)) > 0; k++)
				;
			line_reader_close(&r);
		}
		if (rc < 0)
			FUZZ_CHECK(err.code != 0 && err.msg[0]);
		if (bundle_verify_capture(&b->captures[i], &warnings, &err) < 0)
			FUZZ_CHECK(err.code != 0 && err.msg[0]);
	}
	diag_list_release(&warnings);
}

static bool
same_captures(const struct bundle *a, const struct bundle *b)
{
	if (a->ncaptures != b->ncaptures)
		return false;
	for (size_t i = 0; i < a->ncaptures; i++)
		if (strcmp(a->captures[i].member, b->captures[i].member) != 0 ||
		    strcmp(a->captures[i].archive_member, b->captures[i].archive_member) != 0 ||
		    a->captures[i].bytes != b->captures[i].bytes ||
		    strcmp(a->captures[i].sha256, b->captures[i].sha256) != 0)
			return false;
	return true;
}

/* The sample folder of a series sample: the last folder of its member prefix. */
static void
sample_dir(const struct bundle *s, char *out, size_t n)
{
	const char *top = s->archive_top ? s->archive_top : "";
	size_t len = strlen(top);
	if (len && top[len - 1] == '/')
		len--;
	size_t start = len;
	while (start > 0 && top[start - 1] != '/')
		start--;
	snprintf(out, n, "%.*s", (int)(len - start), top + start);
}

/* "PATH:PART" opened as a command names it. */
static void
open_part(const char *path, const char *part, const struct bundle *want)
{
	struct strbuf name = STRBUF_INIT;
	struct bundle b;
	struct diag err;
	strbuf_addf(&name, "%s:%s", path, part);
	if (bundle_open(name.buf, &b, &err) < 0) {
		FUZZ_CHECK(err.code != 0 && err.msg[0]);
		FUZZ_CHECK(want == NULL);   /* a sample the series opened opens alone */
	} else {
		if (want)
			FUZZ_CHECK(same_captures(want, &b));
		read_captures(&b);
		bundle_release(&b);
	}
	strbuf_release(&name);
}

static void
read_series(const char *path, const struct bundle *b)
{
	char dir[256];
	read_captures(b);
	for (size_t i = 0; i < b->nsamples && i < SAMPLES_MAX; i++) {
		read_captures(&b->samples[i]);
		sample_dir(&b->samples[i], dir, sizeof(dir));
		/* "ARCHIVE:DIR" is cut at its last ':' (a plain name may hold one) */
		if (i < 4 && dir[0] && !strchr(dir, ':'))
			open_part(path, dir, &b->samples[i]);
	}
}

static void
read_session(const char *path)
{
	struct session_index si;
	struct diag err;
	(void)session_path_is_session_archive(path);
	if (session_index_read(path, &si, &err) < 0) {
		FUZZ_CHECK(err.code != 0 && err.msg[0]);
		return;
	}
	session_index_release(&si);
	open_part(path, BUNDLE_SESSION_BEFORE, NULL);
	open_part(path, BUNDLE_SESSION_AFTER, NULL);
	open_part(path, BUNDLE_SESSION_TRACKING, NULL);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[96];
	struct walk w = { .n = 0 };
	struct diag err;

	if (!path[0])
		scratch_path(path, sizeof(path), "series.tar");
	scratch_write(path, data, size);

	if (arc_for_each_member(path, on_member, &w, &err) < 0)
		FUZZ_CHECK(err.code != 0 && err.msg[0]);
	check_by_name(path, &w);
	for (size_t i = 0; i < w.n; i++)
		free(w.v[i].name);

	(void)bundle_path_is_bundle(path);
	char *top = session_archive_top(path);
	if (top) {
		free(top);
		read_session(path);
	} else {
		struct bundle b;
		if (bundle_open(path, &b, &err) < 0)
			FUZZ_CHECK(err.code != 0 && err.msg[0]);
		else
			read_series(path, &b);
		bundle_release(&b);
	}
	line_reader_unmap_all();
	arc_index_forget();   /* the next input is written at the same path */
	return 0;
}
