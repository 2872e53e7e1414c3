/* mincore() and MAP_ANONYMOUS are no POSIX names (test_prefault). */
#define _DEFAULT_SOURCE

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#define TEST_RNG_SEED UINT64_C(88172645463325252)
#include "test-rng.h"

#include "util/bytes.h"
#include "util/diag.h"
#include "util/hashmap.h"
#include "util/outfile.h"
#include "util/scan.h"
#include "util/strbuf.h"
#include "util/suggest.h"
#include "util/xalloc.h"

/* The nearest of `cands` to `word`, as suggest.h picks it; NULL for none. */
static const char *
nearest(const char *word, const char *const *cands, size_t n)
{
	struct suggest s;
	suggest_init(&s, word, strlen(word));
	for (size_t i = 0; i < n; i++)
		suggest_consider(&s, cands[i], strlen(cands[i]));
	return s.best;
}

#ifdef __linux__
/* Pages of [p, p + pages * page) resident now, as mincore() says (its
 * vector is unsigned char here, char on macOS). */
static size_t
resident_pages(void *p, size_t pages, size_t page)
{
	unsigned char vec[64];
	assert_true(pages <= sizeof(vec));
	assert_int_equal(mincore(p, pages * page, vec), 0);
	size_t n = 0;
	for (size_t i = 0; i < pages; i++)
		n += vec[i] & 1;
	return n;
}
#endif

/*
 * xalloc_prefault() leaves every byte as it was, with ranges that start
 * and end inside pages; where it says it mapped them (Linux 5.14 on),
 * mincore() finds those pages resident, and none before it ran.
 */
static void
test_prefault(void **state)
{
	(void)state;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
#ifdef __linux__
	/* Fresh anonymous pages: none resident until touched. */
	char *p = mmap(NULL, 16 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(p != MAP_FAILED);
	assert_int_equal(resident_pages(p, 16, page), 0);
	bool mapped = xalloc_prefault(p + 3 * page + 100, 5 * page);
	if (mapped) {
		/* Pages 3 to 7 (the range's whole pages and the one it starts in). */
		assert_int_equal(resident_pages(p, 3, page), 0);
		assert_int_equal(resident_pages(p + 3 * page, 5, page), 5);
		assert_int_equal(resident_pages(p + 8 * page, 8, page), 0);
	} else {
		print_message("xalloc_prefault: this system maps no pages ahead; "
			      "residency not checked\n");
	}
	for (size_t i = 0; i < 16 * page; i++)
		assert_int_equal(p[i], 0);
	/* Written bytes stay written, across the range's partial pages. */
	for (size_t i = 0; i < 16 * page; i++)
		p[i] = (char)(i * 7 + 1);
	xalloc_prefault(p + 1, 16 * page - 2);
	xalloc_prefault(p + page - 1, 2);
	assert_false(xalloc_prefault(p + 5, 0));
	for (size_t i = 0; i < 16 * page; i++)
		assert_int_equal(p[i], (char)(i * 7 + 1));
	assert_int_equal(munmap(p, 16 * page), 0);
#endif
	/* Heap memory, as the callers pass it. */
	char *h = xmalloc(3 * page + 17);
	memset(h, 0x5a, 3 * page + 17);
	xalloc_prefault(h, 3 * page + 17);
	for (size_t i = 0; i < 3 * page + 17; i++)
		assert_int_equal(h[i], 0x5a);
	free(h);
}

static void
test_suggest(void **state)
{
	(void)state;
	static const char *const types[] = { "IOAccelerator", "IOSurface", "IOAccelerator (graphics)",
					     "MALLOC_SMALL", "__TEXT" };
	/* One deletion, a swap of neighbours, case: each one edit or none. */
	assert_string_equal(nearest("IOSurfce", types, 5), "IOSurface");
	assert_string_equal(nearest("IOSurfcae", types, 5), "IOSurface");
	assert_string_equal(nearest("iosurface", types, 5), "IOSurface");
	assert_string_equal(nearest("IOAcclerator", types, 5), "IOAccelerator");
	/* Too far for its length, or the word itself: nothing. */
	assert_null(nearest("IOSrfc", types, 5));
	assert_null(nearest("IOSurface", types, 5));
	assert_null(nearest("xyz", types, 5));
	assert_null(nearest("", types, 5));
	/* A 4-byte word takes one edit, not two. */
	static const char *const short_[] = { "TEXT", "DATA" };
	assert_string_equal(nearest("TEXX", short_, 2), "TEXT");
	assert_null(nearest("TXXX", short_, 2));
	/* Ties: the first in byte order, whatever the order given. */
	static const char *const ab[] = { "abcf", "abce" }, *const ba[] = { "abce", "abcf" };
	assert_string_equal(nearest("abcd", ab, 2), "abce");
	assert_string_equal(nearest("abcd", ba, 2), "abce");
	/* Words past the bound are not compared. */
	char longw[SUGGEST_MAX_LEN + 2];
	memset(longw, 'a', sizeof(longw) - 1);
	longw[sizeof(longw) - 1] = '\0';
	const char *const one[] = { longw };
	assert_null(nearest(longw + 1, one, 1));
}

static void
test_strbuf(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	assert_string_equal(sb.buf, "");
	strbuf_addstr(&sb, "abc");
	strbuf_addch(&sb, '-');
	strbuf_addf(&sb, "%d", 42);
	strbuf_addchars(&sb, '*', 3);
	assert_string_equal(sb.buf, "abc-42***");
	assert_int_equal(sb.len, 9);
	strbuf_add(&sb, "\0z", 2);
	assert_int_equal(sb.len, 11);
	assert_int_equal(sb.buf[11], '\0');
	strbuf_release(&sb);
	assert_int_equal(sb.len, 0);
}

static void
test_path_join(void **state)
{
	(void)state;
	static const char *const cases[][3] = {
		{ "out", "a.txt", "out/a.txt" },   { "out/", "a.txt", "out/a.txt" },
		{ "out///", "a.txt", "out/a.txt" }, { "/", "a.txt", "/a.txt" },
		{ "//", "a.txt", "/a.txt" },        { "", "a.txt", "a.txt" },
		{ "a/b", "c/d", "a/b/c/d" },        { ".", "x", "./x" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = strbuf_path_join(cases[i][0], cases[i][1]);
		assert_string_equal(got, cases[i][2]);
		free(got);
	}
}

static void
test_bytes(void **state)
{
	(void)state;
	uint64_t sum = BYTES_MAX - 1;
	bool capped = false;
	assert_true(bytes_add(&sum, 1));
	assert_true(sum == BYTES_MAX);
	assert_false(bytes_add(&sum, 1));            /* past 2^63 - 1 */
	assert_true(sum == BYTES_MAX);               /* unchanged */
	sum = 0;
	assert_false(bytes_add(&sum, UINT64_MAX));   /* one figure too large */
	assert_true(sum == 0);
	sum = UINT64_MAX / 2 + 2;                    /* 2^63 + 1: the uint64 sum would wrap */
	assert_false(bytes_add(&sum, UINT64_MAX - 1));
	assert_true(sum == UINT64_MAX / 2 + 2);

	sum = 0x7000000000000000ull;
	bytes_add_capped(&sum, 0x1000, &capped);
	assert_false(capped);
	assert_true(sum == 0x7000000000001000ull);
	bytes_add_capped(&sum, 0x7000000000000000ull, &capped);
	assert_true(capped);
	assert_true(sum == BYTES_MAX);
	bytes_add_capped(&sum, 0, &capped);          /* the flag is never cleared */
	assert_true(capped);
	assert_true(bytes_fit(BYTES_MAX));
	assert_false(bytes_fit(BYTES_MAX + 1));
}

static void
test_diag_format_and_quote(void **state)
{
	(void)state;
	struct diag d;
	struct strbuf sb = STRBUF_INIT;
	diag_set(&d, DIAG_DATA, "f.txt", 12, 3, "bad '%s'", "x");
	diag_format(&d, &sb);
	assert_string_equal(sb.buf, "iotally: f.txt:12:3: error: bad 'x'\n");
	strbuf_reset(&sb);
	diag_set(&d, DIAG_NOINPUT, "-", 0, 0, "gone");
	diag_format(&d, &sb);
	assert_string_equal(sb.buf, "iotally: <stdin>: error: gone\n");
	strbuf_reset(&sb);
	diag_quote(&sb, "a\x01\\b\xff" "cdef", 9, 6);
	assert_string_equal(sb.buf, "a\\x01\\b\\xffc...");
	strbuf_reset(&sb);
	/* Names in a path and a message are escaped when the diag is written. */
	diag_set(&d, DIAG_DATA, "evil\x1b]0;x\x07.txt", 2, 0, "class '%s'", "A\nB\xc2\x9b");
	diag_format(&d, &sb);
	assert_string_equal(sb.buf,
			    "iotally: evil\\x1b]0;x\\x07.txt:2: error: class 'A\\x0aB\\xc2\\x9b'\n");
	strbuf_release(&sb);
}

/*
 * A list filled apart (one input's notes on a worker) and appended in turn is
 * the list that adding every entry to the shared list directly makes: the
 * same entries in the same order, the same dropped count, for every limit
 * and every way of cutting the entries into parts.
 */
static void
test_diag_list_append(void **state)
{
	(void)state;
	const size_t parts[][4] = { { 0, 2, 3, 5 }, { 4, 0, 0, 6 }, { 1, 1, 1, 7 }, { 10, 0, 0, 0 } };
	for (size_t limit = 0; limit <= 6; limit++) {
		for (size_t c = 0; c < sizeof(parts) / sizeof(parts[0]); c++) {
			struct diag_list direct, merged;
			diag_list_init(&direct, limit);
			diag_list_init(&merged, limit);
			int k = 0;
			for (size_t p = 0; p < 4; p++) {
				struct diag_list part;
				diag_list_init(&part, limit);
				for (size_t e = 0; e < parts[c][p]; e++, k++) {
					diag_list_add(&direct, DIAG_NOTE, "in", (uint64_t)k, "n%d", k);
					diag_list_add(&part, DIAG_NOTE, "in", (uint64_t)k, "n%d", k);
				}
				diag_list_append(&merged, &part);
				diag_list_release(&part);
			}
			assert_int_equal(merged.len, direct.len);
			assert_int_equal(merged.dropped, direct.dropped);
			assert_int_equal(merged.len + merged.dropped, 10);
			for (size_t i = 0; i < direct.len; i++) {
				assert_string_equal(diag_list_msg(&merged, i), diag_list_msg(&direct, i));
				assert_int_equal(merged.items[i].line, direct.items[i].line);
			}
			diag_list_release(&direct);
			diag_list_release(&merged);
		}
	}
}

static void
test_diag_list_is_bounded(void **state)
{
	(void)state;
	struct diag_list l;
	diag_list_init(&l, 3);
	for (int i = 0; i < 10; i++)
		diag_list_add(&l, DIAG_WARNING, "p", (uint64_t)i + 1, "w%d", i);
	assert_int_equal(l.len, 3);
	assert_int_equal(l.dropped, 7);
	assert_string_equal(diag_list_msg(&l, 2), "w2");
	diag_list_release(&l);
}

/*
 * An entry read back is the diag diag_set() makes of the same arguments,
 * cuts included (a path past DIAG_PATH_MAX, a message past DIAG_MSG_MAX),
 * and the list holds the entries' text, not a diag's fixed buffers: 200
 * short warnings take a few kilobytes, where 200 diags take 980 KB.
 */
static void
test_diag_list_entries_are_diags(void **state)
{
	(void)state;
	char long_path[DIAG_PATH_MAX + 100], long_word[DIAG_MSG_MAX + 100];
	memset(long_path, 'p', sizeof(long_path) - 1);
	long_path[sizeof(long_path) - 1] = '\0';
	memset(long_word, 'm', sizeof(long_word) - 1);
	long_word[sizeof(long_word) - 1] = '\0';
	const char *paths[] = { "a.txt", NULL, "", long_path, "-" };
	struct diag_list l;
	diag_list_init(&l, 200);
	size_t text = 0;
	for (int i = 0; i < 200; i++) {
		const char *path = paths[i % 5];
		const char *word = i == 7 ? long_word : "row";
		diag_list_add(&l, i % 2 ? DIAG_NOTE : DIAG_WARNING, path, (uint64_t)i, "%s %d", word, i);
		struct diag want, got;
		diag_set(&want, 0, path, (uint64_t)i, 0, "%s %d", word, i);
		want.severity = i % 2 ? DIAG_NOTE : DIAG_WARNING;
		diag_list_get(&l, (size_t)i, &got);
		assert_int_equal(got.code, 0);
		assert_int_equal(got.severity, want.severity);
		assert_int_equal(got.line, want.line);
		assert_int_equal(got.col, 0);
		assert_string_equal(got.msg, want.msg);
		assert_string_equal(diag_list_msg(&l, (size_t)i), want.msg);
		if (diag_path(&want)) {
			assert_string_equal(diag_path(&got), diag_path(&want));
			assert_string_equal(diag_list_path(&l, (size_t)i), diag_path(&want));
			text += strlen(diag_path(&want)) + 1;
		} else {
			assert_null(diag_path(&got));
			assert_null(diag_list_path(&l, (size_t)i));
		}
		text += strlen(want.msg) + 1;
	}
	assert_int_equal(l.text.len, text);
	assert_true(l.text.alloc <= 2 * l.text.len + 64);
	assert_true(sizeof(l.items[0]) <= 48);

	/* A name given to the entries that name no file; the others keep theirs. */
	diag_list_set_path_if_unset(&l, NULL);
	for (size_t i = 0; i < l.len; i++)
		assert_true((diag_list_path(&l, i) == NULL) ==
			    (paths[i % 5] == NULL || paths[i % 5][0] == '\0'));
	diag_list_set_path_if_unset(&l, "pair");
	for (size_t i = 0; i < l.len; i++) {
		struct diag want;
		diag_set(&want, 0, paths[i % 5], 0, 0, "x");
		assert_string_equal(diag_list_path(&l, i), diag_path(&want) ? diag_path(&want) : "pair");
	}
	diag_list_release(&l);

	diag_list_init(&l, 200);
	for (int i = 0; i < 200; i++)
		diag_list_add(&l, DIAG_WARNING, "dump.txt", (uint64_t)i + 1,
			      "line not understood: 'row %d'", i);
	assert_true(l.alloc * sizeof(l.items[0]) + l.text.alloc < 24 * 1024);
	diag_list_release(&l);
}

/*
 * hash_bytes() in its plain form: the tail read by a memcpy into a zeroed
 * word. Its values reach output (the HTML report picks a colour by one), so
 * the inline tail loads must give the same hash for every length and byte,
 * at every alignment.
 */
static uint64_t
plain_hash_bytes(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
	for (; n >= 8; s += 8, n -= 8) {
		uint64_t w;
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
		h ^= h >> 29;
	}
	uint64_t tail = 0;
	memcpy(&tail, s, n);
	h = (h ^ tail) * 0x94d049bb133111ebull;
	return h ^ (h >> 32);
}

static void
test_hash_bytes_tail(void **state)
{
	(void)state;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	unsigned char buf[64];
	for (int round = 0; round < 2000; round++) {
		for (size_t i = 0; i < sizeof(buf); i++) {
			uint64_t x = rnd();
			/* Every byte value, high bit too, and runs of zeros. */
			buf[i] = round % 3 == 0 ? (unsigned char)(x >> 56) & 0x81 : (unsigned char)(x >> 24);
		}
		for (size_t at = 0; at < 8; at++)
			for (size_t n = 0; at + n <= 40; n++)
				assert_int_equal(hash_bytes(buf + at, n), plain_hash_bytes(buf + at, n));
	}
#endif
}

static void
test_maps(void **state)
{
	(void)state;
	struct strmap m;
	struct u64map u;
	bool created;
	strmap_init(&m);
	u64map_init(&u);
	for (size_t i = 0; i < 1000; i++) {
		char key[32];
		snprintf(key, sizeof(key), "type %zu", i);
		*strmap_put(&m, key, strlen(key), &created) = i;
		assert_true(created);
		*u64map_put(&u, (uint64_t)i << 14, &created) = i;
		assert_true(created);
	}
	assert_int_equal(m.len, 1000);
	assert_int_equal(*strmap_get(&m, "type 777", 8), 777);
	assert_null(strmap_get(&m, "type 1000", 9));
	strmap_put(&m, "type 5", 6, &created);
	assert_false(created);
	/* Keys may hold NUL bytes. */
	*strmap_put(&m, "a\0b", 3, &created) = 5;
	assert_null(strmap_get(&m, "a\0c", 3));
	assert_int_equal(*u64map_get(&u, 999ull << 14), 999);
	assert_null(u64map_get(&u, 1));
	strmap_release(&m);
	u64map_release(&u);
}

static size_t
dir_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;
	assert_non_null(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n;
}

static void
file_text(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	size_t got = fread(buf, 1, n - 1, f);
	buf[got] = '\0';
	fclose(f);
}

static void
test_outfile(void **state)
{
	(void)state;
	char dir[] = "/tmp/iotally-outfile-XXXXXX", path[64], text[64];
	struct outfile o;
	struct diag err;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/j.xml", dir);
	FILE *f = fopen(path, "w");
	fputs("old\n", f);
	fclose(f);

	/* Until commit the old file is whole; abort leaves it and no temporary. */
	assert_int_equal(outfile_open(&o, path, &err), 0);
	fputs("new\n", o.fp);
	file_text(path, text, sizeof(text));
	assert_string_equal(text, "old\n");
	assert_int_equal(dir_entries(dir), 2);
	outfile_abort(&o);
	file_text(path, text, sizeof(text));
	assert_string_equal(text, "old\n");
	assert_int_equal(dir_entries(dir), 1);

	assert_int_equal(outfile_open(&o, path, &err), 0);
	fputs("new\n", o.fp);
	assert_int_equal(outfile_commit(&o, &err), 0);
	file_text(path, text, sizeof(text));
	assert_string_equal(text, "new\n");
	assert_int_equal(dir_entries(dir), 1);

	/* A directory that does not exist: an I/O error naming the path. */
	snprintf(path, sizeof(path), "%s/no/j.xml", dir);
	assert_int_equal(outfile_open(&o, path, &err), -1);
	assert_int_equal(err.code, DIAG_IOERR);
	snprintf(path, sizeof(path), "%s/j.xml", dir);
	unlink(path);
	rmdir(dir);
}

/*
 * scan_byte() against a plain loop: every span length up to 70 bytes (past
 * four 16-byte steps), the byte at every position, twice (the first one
 * counts) or not at all. Each span is its own allocation of exactly its
 * length, so a read past its end is an ASan error in the sanitizer builds.
 */
static void
test_scan_byte(void **state)
{
	(void)state;
	for (size_t len = 0; len <= 70; len++) {
		for (size_t at = 0; at <= len; at++) {
			char *buf = malloc(len ? len : 1);
			assert_non_null(buf);
			for (size_t i = 0; i < len; i++)
				buf[i] = (char)('a' + i % 26);
			if (at < len) {
				buf[at] = ']';
				if (at + 5 < len)
					buf[at + 5] = ']';
			}
			const char *want = NULL;
			for (size_t i = 0; i < len && !want; i++)
				if (buf[i] == ']')
					want = buf + i;
			assert_ptr_equal(scan_byte(buf, buf + len, ']'), want);
			/* A span that starts inside the buffer: no byte before p is read. */
			if (len > 3)
				assert_ptr_equal(scan_byte(buf + 3, buf + len, ']'),
						 want && want >= buf + 3 ? want :
						 at + 5 < len && at + 5 >= 3 ? buf + at + 5 : NULL);
			free(buf);
		}
	}
}

/* scan_byte2() against a plain loop, spans and placements as above. */
static void
test_scan_byte2(void **state)
{
	(void)state;
	for (size_t len = 0; len <= 70; len++) {
		for (size_t a = 0; a <= len; a++) {
			for (size_t b = 0; b <= len; b += 7) {
				char *buf = malloc(len ? len : 1);
				assert_non_null(buf);
				memset(buf, 'x', len);
				if (a < len)
					buf[a] = '\n';
				if (b < len)
					buf[b] = '\0';
				const char *want = NULL;
				for (size_t i = 0; i < len && !want; i++)
					if (buf[i] == '\n' || buf[i] == '\0')
						want = buf + i;
				assert_ptr_equal(scan_byte2(buf, buf + len, '\n', '\0'), want);
				free(buf);
			}
		}
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prefault),
		cmocka_unit_test(test_strbuf),
		cmocka_unit_test(test_path_join),
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_diag_format_and_quote),
		cmocka_unit_test(test_diag_list_is_bounded),
		cmocka_unit_test(test_diag_list_entries_are_diags),
		cmocka_unit_test(test_maps),
		cmocka_unit_test(test_hash_bytes_tail),
		cmocka_unit_test(test_suggest),
		cmocka_unit_test(test_diag_list_append),
		cmocka_unit_test(test_outfile),
		cmocka_unit_test(test_scan_byte),
		cmocka_unit_test(test_scan_byte2),
	};
	return cmocka_run_group_tests_name("util", tests, NULL, NULL);
}
