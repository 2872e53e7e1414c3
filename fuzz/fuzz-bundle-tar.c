/*
 * libFuzzer harness: tar and tar.gz bundles. The bytes are written to a
 * file in a private scratch folder and read by arc_for_each_member(),
 * arc_reader_member() and bundle_open(). Checks the member name rule
 * (util/member_name.h) from outside: every name handed to the callback is
 * in normal form, relative, without a ".." component, and never seen
 * twice; and a member read alone by arc_reader_member() has the bytes the
 * walk read for it.
 */

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz-scratch.h"
#include "ingest/bundle.h"
#include "util/arcread.h"
#include "util/linereader.h"
#include "util/member_name.h"
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Bytes read per member: a gzip bomb stops here, not at the end of memory. */
#define MEMBER_READ_MAX (1u << 20)
#define NAMES_MAX 256

struct walk {
	char *names[NAMES_MAX];
	size_t n;
	struct strbuf first;   /* the first member's bytes (up to MEMBER_READ_MAX) */
	bool first_whole;      /* read to its end without an error */
};

static bool
has_dotdot(const char *name)
{
	for (const char *p = name; *p;) {
		const char *e = strchr(p, '/');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len == 2 && p[0] == '.' && p[1] == '.')
			return true;
		p += len + (e ? 1 : 0);
	}
	return false;
}

/* All of a reader's bytes up to MEMBER_READ_MAX: 1 at the end, 0 cut short, -1 error. */
static int
read_member(struct arc_reader *a, struct strbuf *out, struct diag *err)
{
	char buf[4096];
	for (;;) {
		ssize_t n = arc_reader_read(a, buf, sizeof(buf), err);
		if (n < 0)
			return -1;
		if (n == 0)
			return 1;
		if (out->len + (size_t)n > MEMBER_READ_MAX)
			return 0;
		strbuf_add(out, buf, (size_t)n);
	}
}

static int
on_member(void *ctx, const char *name, struct arc_reader *data, struct diag *err)
{
	struct walk *w = ctx;
	const char *why = NULL;
	char *normal = member_name_normal(name, &why);
	FUZZ_CHECK(normal && strcmp(normal, name) == 0);
	free(normal);
	FUZZ_CHECK(name[0] != '\0' && name[0] != '/' && !has_dotdot(name));
	for (size_t i = 0; i < w->n; i++)
		FUZZ_CHECK(strcmp(w->names[i], name) != 0);
	if (w->n < NAMES_MAX)
		w->names[w->n++] = strdup(name);
	if (w->n == 1) {
		int rc = read_member(data, &w->first, err);
		w->first_whole = rc == 1;
		return rc < 0 ? -1 : 0;
	}
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[96];
	struct walk w = { .n = 0, .first = STRBUF_INIT };
	struct diag err;

	if (!path[0])
		scratch_path(path, sizeof(path), "bundle.tar");
	scratch_write(path, data, size);

	int rc = arc_for_each_member(path, on_member, &w, &err);
	if (rc < 0)
		FUZZ_CHECK(err.code != 0 && err.msg[0]);
	if (w.n > 0 && w.first_whole) {
		/* The same member read alone: the same bytes. */
		struct arc_reader *a = arc_reader_member(path, w.names[0], &err);
		FUZZ_CHECK(a != NULL);
		struct strbuf again = STRBUF_INIT;
		FUZZ_CHECK(read_member(a, &again, &err) == 1);
		FUZZ_CHECK(again.len == w.first.len &&
			   memcmp(again.buf, w.first.buf, again.len) == 0);
		strbuf_release(&again);
		arc_reader_free(a);
	}
	for (size_t i = 0; i < w.n; i++)
		free(w.names[i]);
	strbuf_release(&w.first);

	(void)arc_is_tar_file(path);
	struct bundle b;
	if (bundle_open(path, &b, &err) < 0)
		FUZZ_CHECK(err.code != 0 && err.msg[0]);
	bundle_release(&b);
	line_reader_unmap_all();
	arc_index_forget();   /* the next input is written at the same path */
	return 0;
}
