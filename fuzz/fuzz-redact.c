/*
 * libFuzzer harness: redaction (capture/redact.c) run as `iotally redact`
 * runs it on one file (capture/redact_stream.c): a collect pass, then an
 * apply pass, both in chunks cut by redactor_safe_cut(). The input is the
 * fuzzer's bytes after two planted lines, a serial number under its key
 * and a home folder path:
 *
 *   "IOPlatformSerialNumber" = "C02PLNT7SER1"
 *   /Users/plantedusr/Library
 *
 * The rules must remove both values everywhere they stand as whole words
 * (the known-value rule), so the output never holds either as a whole
 * word; and the output and the hit counts do not depend on the chunk size
 * (whole, 4 KiB, and a few bytes) nor on how many bytes each read gives.
 * Then the tree form (redact_run) on a folder of two files, the planted
 * lines in one and the fuzzer's bytes in the other: the values found in
 * the first are removed from the second, whatever the chunk size.
 */

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "capture/redact.h"
#include "capture/redact_stream.h"
#include "capture/redact_tree.h"
#include "fuzz-scratch.h"
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char planted_lines[] = "\"IOPlatformSerialNumber\" = \"C02PLNT7SER1\"\n"
				    "/Users/plantedusr/Library\n";
static const char *const planted[] = { "C02PLNT7SER1", "plantedusr" };

struct source {
	const char *p;
	size_t n, at, step;
};

static ssize_t
source_read(void *ctx, void *buf, size_t n, struct diag *err)
{
	struct source *s = ctx;
	(void)err;
	size_t take = s->n - s->at;
	if (take > n)
		take = n;
	if (take > s->step)
		take = s->step;
	memcpy(buf, s->p + s->at, take);
	s->at += take;
	return (ssize_t)take;
}

static int
collect_chunk(void *ctx, const char *p, size_t n, struct diag *err)
{
	(void)err;
	redact_found_collect(ctx, p, n);
	return 0;
}

struct apply {
	const struct redactor *rd;
	struct strbuf *out;
	uint64_t *hits;
};

static int
apply_chunk(void *ctx, const char *p, size_t n, struct diag *err)
{
	struct apply *a = ctx;
	(void)err;
	redactor_apply(a->rd, p, n, a->out, a->hits);
	return 0;
}

/* Both passes over `text` in chunks of `chunk` bytes (0: whole), reads of `step` bytes. */
static void
redact_chunked(const char *text, size_t n, size_t chunk, size_t step, struct strbuf *out,
	       uint64_t hits[REDACT_NRULES])
{
	struct redact_found found;
	struct redactor rd;
	struct diag err;
	struct source src = { text, n, 0, step };

	redact_found_init(&found);
	FUZZ_CHECK(redact_stream(source_read, &src, chunk ? chunk : REDACT_CHUNK, chunk == 0,
				 collect_chunk, &found, &err) == 0);
	redactor_init(&rd);
	redact_found_add_to(&found, &rd);
	redact_found_release(&found);

	struct apply a = { &rd, out, hits };
	src.at = 0;
	bool whole = chunk == 0 || !redactor_line_local(&rd);
	FUZZ_CHECK(redact_stream(source_read, &src, chunk ? chunk : REDACT_CHUNK, whole,
				 apply_chunk, &a, &err) == 0);
	redactor_release(&rd);
}

static bool
word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* Does `v` stand in out[0..n) as a whole word? */
static bool
holds_word(const char *out, size_t n, const char *v)
{
	size_t vlen = strlen(v);
	for (size_t i = 0; i + vlen <= n; i++)
		if (memcmp(out + i, v, vlen) == 0 && (i == 0 || !word_char(out[i - 1])) &&
		    (i + vlen == n || !word_char(out[i + vlen])))
			return true;
	return false;
}

/* The redacted copy of b.txt when IN (a.txt: planted lines, b.txt: data) is redacted to OUT. */
static void
redact_folder(const char *in, const char *out, size_t chunk, struct strbuf *got)
{
	struct redact_opts o = { .input = in, .output = out, .chunk = chunk };
	struct redact_result res;
	struct diag_list warnings;
	struct diag err;
	char path[256];

	diag_list_init(&warnings, 20);
	memset(&res, 0, sizeof(res));
	FUZZ_CHECK(redact_run(&o, &res, &warnings, &err) == 0);
	redact_result_release(&res);
	diag_list_release(&warnings);
	snprintf(path, sizeof(path), "%s/b.txt", out);
	FILE *f = fopen(path, "rb");
	FUZZ_CHECK(f != NULL);
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(got, buf, n);
	fclose(f);
	FUZZ_CHECK(unlink(path) == 0);
	snprintf(path, sizeof(path), "%s/a.txt", out);
	FUZZ_CHECK(unlink(path) == 0);
	FUZZ_CHECK(rmdir(out) == 0);
}

static void
check_tree(const uint8_t *data, size_t size)
{
	static char in[96], out[96], a[128], b[128];
	if (!in[0]) {
		scratch_path(in, sizeof(in), "in");
		scratch_path(out, sizeof(out), "out");
		snprintf(a, sizeof(a), "%s/a.txt", in);
		snprintf(b, sizeof(b), "%s/b.txt", in);
		if (mkdir(in, 0700) != 0)
			abort();
		scratch_write(a, (const uint8_t *)planted_lines, sizeof(planted_lines) - 1);
	}
	scratch_write(b, data, size);
	struct strbuf whole = STRBUF_INIT, small = STRBUF_INIT;
	redact_folder(in, out, 0, &whole);
	redact_folder(in, out, 1 + size % 29, &small);
	for (size_t i = 0; i < sizeof(planted) / sizeof(planted[0]); i++)
		FUZZ_CHECK(!holds_word(whole.buf, whole.len, planted[i]));
	FUZZ_CHECK(small.len == whole.len && memcmp(small.buf, whole.buf, whole.len) == 0);
	strbuf_release(&whole);
	strbuf_release(&small);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 1 << 16)
		return 0;   /* the few-byte chunks make longer inputs slow, not more interesting */
	size_t plen = sizeof(planted_lines) - 1;
	char *text = malloc(plen + size + 1);
	memcpy(text, planted_lines, plen);
	memcpy(text + plen, data, size);
	size_t n = plen + size;

	struct strbuf whole = STRBUF_INIT, big = STRBUF_INIT, small = STRBUF_INIT;
	uint64_t hw[REDACT_NRULES] = { 0 }, hb[REDACT_NRULES] = { 0 }, hs[REDACT_NRULES] = { 0 };
	redact_chunked(text, n, 0, n + 1, &whole, hw);
	redact_chunked(text, n, 4096, 1000, &big, hb);
	redact_chunked(text, n, 1 + size % 31, 1 + size % 7, &small, hs);

	for (size_t i = 0; i < sizeof(planted) / sizeof(planted[0]); i++)
		FUZZ_CHECK(!holds_word(whole.buf, whole.len, planted[i]));
	FUZZ_CHECK(big.len == whole.len && memcmp(big.buf, whole.buf, whole.len) == 0);
	FUZZ_CHECK(small.len == whole.len && memcmp(small.buf, whole.buf, whole.len) == 0);
	FUZZ_CHECK(memcmp(hw, hb, sizeof(hw)) == 0 && memcmp(hw, hs, sizeof(hw)) == 0);

	strbuf_release(&whole);
	strbuf_release(&big);
	strbuf_release(&small);
	free(text);
	check_tree(data, size);
	return 0;
}
