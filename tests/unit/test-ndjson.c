/*
 * The NDJSON row writer (report/ndjson.h) and the pieces it appends with,
 * each against an independent truth: decimal figures against snprintf(),
 * strings against jansson's json_dumps() of json_textn() (exhaustively for
 * short strings of the bytes that matter to UTF-8 and JSON escaping), and
 * whole rows against json_dumpf() of the same object built with jansson,
 * the way rows were printed before.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "report/jsontext.h"
#include "report/ndjson.h"
#include "util/array.h"
#include "util/bytes.h"
#include "util/strbuf.h"

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint64_t
next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void
check_u64(uint64_t v)
{
	char want[32];
	snprintf(want, sizeof(want), "%" PRIu64, v);
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "x");
	strbuf_add_u64(&sb, v);
	assert_string_equal(sb.buf + 1, want);
	assert_int_equal(sb.len, 1 + strlen(want));
	strbuf_release(&sb);
}

static void
check_i64(int64_t v)
{
	char want[32];
	snprintf(want, sizeof(want), "%" PRId64, v);
	struct strbuf sb = STRBUF_INIT;
	strbuf_add_i64(&sb, v);
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
}

static void
test_decimal_figures(void **state)
{
	(void)state;
	uint64_t p = 1;
	for (int i = 0; i < 20; i++, p *= 10) {
		check_u64(p - 1);
		check_u64(p);
		check_u64(p + 1);
		check_i64((int64_t)(p - 1));
		check_i64(-(int64_t)p);
		check_i64(-(int64_t)p + 1);
	}
	check_u64(0);
	check_u64(UINT64_MAX);
	check_u64(UINT64_MAX - 1);
	check_u64(INT64_MAX);
	check_u64(BYTES_MAX);
	check_i64(0);
	check_i64(-1);
	check_i64(INT64_MAX);
	check_i64(INT64_MIN);
	check_i64(INT64_MIN + 1);
	for (int i = 0; i < 20000; i++) {
		uint64_t v = next_random() >> (next_random() % 64);
		check_u64(v);
		check_i64((int64_t)v);
		check_i64(-(int64_t)(v >> 1));
	}
}

/* jansson's bytes for the string value json_textn(s, n). */
static void
check_text(const char *s, size_t n)
{
	json_t *j = json_textn(s, n);
	char *want = json_dumps(j, JSON_ENCODE_ANY | JSON_COMPACT);
	assert_non_null(want);
	struct strbuf sb = STRBUF_INIT;
	json_text_append(&sb, s, n);
	if (sb.len != strlen(want) || memcmp(sb.buf, want, sb.len) != 0) {
		char hex[256] = "";
		for (size_t i = 0; i < n && i < 60; i++)
			snprintf(hex + strlen(hex), sizeof(hex) - strlen(hex), "%02x ",
				 (unsigned char)s[i]);
		fail_msg("input %s: got %s, jansson %s", hex, sb.buf, want);
	}
	strbuf_release(&sb);
	free(want);
	json_decref(j);
}

/* Bytes that start, continue, bound or break UTF-8 sequences, and the
 * characters JSON escapes. */
static const unsigned char alphabet[] = {
	0x00, 0x01, 0x08, 0x09, 0x0a, 0x0c, 0x0d, 0x1f, 0x20, '"', '\\', '/', 'a', 0x7f,
	0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xef,
	0xf0, 0xf4, 0xf5, 0xff,
};

static void
test_strings_as_jansson_prints_them(void **state)
{
	(void)state;
	char s[16];
	check_text("", 0);
	for (int c = 0; c < 256; c++) {
		s[0] = (char)c;
		check_text(s, 1);
		s[0] = 'x';
		s[1] = (char)c;
		s[2] = 'y';
		check_text(s, 3);
	}
	const size_t a = ARRAY_SIZE(alphabet);
	for (size_t i = 0; i < a * a * a * a; i++) {
		size_t k = i;
		for (int b = 0; b < 4; b++, k /= a)
			s[b] = (char)alphabet[k % a];
		check_text(s, 4);
		check_text(s, 3);
	}
	/* Valid sequences of every length, cut and joined. */
	static const char *const texts[] = {
		"caf\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xef\xbf\xbd",
		"\xed\x9f\xbf", "\xed\xa0\x80", "\xf4\x8f\xbf\xbf", "\xf4\x90\x80\x80",
		"\xe0\x9f\xbf", "\xc0\xaf", "IOAccelerator (graphics)", "a\"b\\c\n\t\r/",
	};
	for (size_t i = 0; i < ARRAY_SIZE(texts); i++)
		for (size_t n = 0; n <= strlen(texts[i]); n++)
			check_text(texts[i], n);
	for (int i = 0; i < 30000; i++) {
		size_t n = 5 + next_random() % 12;
		for (size_t b = 0; b < n; b++)
			s[b] = (char)alphabet[next_random() % a];
		check_text(s, n);
	}
}

/* What ndjson_row_write() printed, as a string. */
static char *
row_text(struct ndjson_row *row)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(ndjson_row_write(f, row), 0);
	fclose(f);
	return text;
}

/* json_dumpf() of the object with JSON_COMPACT | JSON_PRESERVE_ORDER, and a newline. */
static char *
jansson_text(json_t *o)
{
	char *d = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	assert_non_null(d);
	size_t n = strlen(d);
	char *line = malloc(n + 2);
	assert_non_null(line);
	memcpy(line, d, n);
	memcpy(line + n, "\n", 2);
	free(d);
	json_decref(o);
	return line;
}

static void
test_rows_as_jansson_prints_them(void **state)
{
	(void)state;
	static const char *const sources[] = { "fleet/a1-vmmap.txt", "b\xff\"d\\e\x01", "" };
	for (size_t i = 0; i < ARRAY_SIZE(sources); i++) {
		const char *src = sources[i];
		struct ndjson_row *r = ndjson_row_new("iotally.vmmap.rows/1", "group", src,
						      i == 1 ? NULL : "vmmap");
		ndjson_set_text(r, "status", "ok");
		ndjson_set_text(r, "error", NULL);
		ndjson_set_text(r, "type", "IOAccelerator (graphics)");
		ndjson_set_textn(r, "part", "ab\0cd", 5);
		ndjson_set_uint(r, "count", true, 0);
		ndjson_set_uint(r, "vsize", true, BYTES_MAX);
		ndjson_set_uint(r, "dirty", false, 7);
		ndjson_set_int(r, "delta", true, INT64_MIN);
		ndjson_set_int(r, "grown", true, 12345);
		ndjson_set_int(r, "none", false, 1);
		ndjson_set_null(r, "volatile");
		ndjson_set_bool(r, "rounded", true);
		ndjson_set_bool(r, "partial", false);
		ndjson_set(r, "ratio", json_real(0.1));
		ndjson_set(r, "dropped", NULL);
		ndjson_set(r, "figure", json_integer(-42));
		ndjson_set(r, "name", json_text("x\xc3"));
		char *got = row_text(r);

		json_t *o = json_object();
		json_object_set_new_nocheck(o, "schema", json_string("iotally.vmmap.rows/1"));
		json_object_set_new_nocheck(o, "row", json_string("group"));
		json_object_set_new_nocheck(o, "source", json_text(src));
		json_object_set_new_nocheck(o, "kind", i == 1 ? json_null() : json_string("vmmap"));
		json_object_set_new_nocheck(o, "status", json_string("ok"));
		json_object_set_new_nocheck(o, "error", json_null());
		json_object_set_new_nocheck(o, "type", json_string("IOAccelerator (graphics)"));
		json_object_set_new_nocheck(o, "part", json_textn("ab\0cd", 5));
		json_object_set_new_nocheck(o, "count", json_integer(0));
		json_object_set_new_nocheck(o, "vsize", json_integer((json_int_t)BYTES_MAX));
		json_object_set_new_nocheck(o, "dirty", json_null());
		json_object_set_new_nocheck(o, "delta", json_integer(INT64_MIN));
		json_object_set_new_nocheck(o, "grown", json_integer(12345));
		json_object_set_new_nocheck(o, "none", json_null());
		json_object_set_new_nocheck(o, "volatile", json_null());
		json_object_set_new_nocheck(o, "rounded", json_true());
		json_object_set_new_nocheck(o, "partial", json_false());
		json_object_set_new_nocheck(o, "ratio", json_real(0.1));
		json_object_set_new_nocheck(o, "dropped", NULL);
		json_object_set_new_nocheck(o, "figure", json_integer(-42));
		json_object_set_new_nocheck(o, "name", json_text("x\xc3"));
		char *want = jansson_text(o);
		assert_string_equal(got, want);
		free(got);
		free(want);
	}
}

/* A row that cannot be written says so. */
static void
test_write_error(void **state)
{
	(void)state;
	FILE *f = fopen("/dev/full", "w");
	if (!f)
		skip();
	setvbuf(f, NULL, _IONBF, 0);
	struct ndjson_row *r = ndjson_row_new("s", "input", "p", NULL);
	assert_int_equal(ndjson_row_write(f, r), -1);
	fclose(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decimal_figures),
		cmocka_unit_test(test_strings_as_jansson_prints_them),
		cmocka_unit_test(test_rows_as_jansson_prints_them),
		cmocka_unit_test(test_write_error),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
