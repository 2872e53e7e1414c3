#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/escape.h"
#include "util/strbuf.h"

/* escape_add of n bytes, as a C string the caller frees. */
static char *
esc(const char *p, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	escape_add(&sb, p, n);
	return strbuf_detach(&sb, NULL);
}

static void
expect(const char *in, size_t n, const char *want)
{
	char *got = esc(in, n);
	assert_string_equal(got, want);
	free(got);
	/* The stream writer and the buffer writer agree. */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	escape_write(f, in, n);
	fclose(f);
	assert_int_equal(len, strlen(want));
	assert_memory_equal(buf, want, len);
	free(buf);
}

#define EXPECT(lit, want) expect(lit, sizeof(lit) - 1, want)

static void
test_c0_del_and_nul(void **state)
{
	(void)state;
	EXPECT("a\x1b]52;c;aGk=\x07z", "a\\x1b]52;c;aGk=\\x07z");
	EXPECT("tab\there\r\nnext", "tab\\x09here\\x0d\\x0anext");
	EXPECT("del\x7f!", "del\\x7f!");
	EXPECT("nul\0end", "nul\\x00end");
	EXPECT("\x01\x1f", "\\x01\\x1f");
	/* Every C0 byte and DEL, one at a time. */
	for (int c = 0; c < 0x80; c++) {
		char in[1] = { (char)c }, want[8];
		if (c >= 0x20 && c < 0x7f)
			snprintf(want, sizeof(want), "%c", c);
		else
			snprintf(want, sizeof(want), "\\x%02x", c);
		expect(in, 1, want);
	}
}

static void
test_c1_in_utf8(void **state)
{
	(void)state;
	/* U+009B (CSI) and U+0085 (NEL): both bytes shown. */
	EXPECT("a\xc2\x9b" "31mb", "a\\xc2\\x9b31mb");
	EXPECT("\xc2\x85", "\\xc2\\x85");
	EXPECT("\xc2\x80\xc2\x9f", "\\xc2\\x80\\xc2\\x9f");
	/* U+00A0 and up are text. */
	EXPECT("\xc2\xa0\xc3\xa9", "\xc2\xa0\xc3\xa9");
	/* A lone C1 byte (Latin-1 CSI) is not UTF-8. */
	EXPECT("\x9b[2J", "\\x9b[2J");
}

static void
test_invalid_and_overlong(void **state)
{
	(void)state;
	EXPECT("\xc0\x80", "\\xc0\\x80");               /* overlong NUL */
	EXPECT("\xc1\x9b", "\\xc1\\x9b");               /* overlong ESC-like */
	EXPECT("\xe0\x80\x9b", "\\xe0\\x80\\x9b");       /* overlong 3-byte */
	EXPECT("\xf0\x80\x80\x9b", "\\xf0\\x80\\x80\\x9b");
	EXPECT("\xed\xa0\x80", "\\xed\\xa0\\x80");       /* surrogate */
	EXPECT("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80"); /* past U+10FFFF */
	EXPECT("\xf5\x80\x80\x80", "\\xf5\\x80\\x80\\x80");
	EXPECT("\xff\xfe", "\\xff\\xfe");
	EXPECT("a\x80z", "a\\x80z");                    /* lone continuation */
	/* A lead byte followed by a byte that does not continue it: only the lead. */
	EXPECT("\xe2" "A\xe2\x82\xac", "\\xe2A\xe2\x82\xac");
	/* Valid 3- and 4-byte sequences at the edges of their ranges. */
	EXPECT("\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80", "\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80");
	EXPECT("\xf0\x90\x80\x80\xf4\x8f\xbf\xbf", "\xf0\x90\x80\x80\xf4\x8f\xbf\xbf");
}

static void
test_split_sequence_at_end(void **state)
{
	(void)state;
	/* "€" is e2 82 ac: cut short by the end of the text, its bytes are shown. */
	expect("ab\xe2\x82\xac", 4, "ab\\xe2\\x82");
	expect("ab\xe2\x82\xac", 3, "ab\\xe2");
	expect("\xf0\x9f\x98\x80", 3, "\\xf0\\x9f\\x98");
	expect("\xc2\x9b", 1, "\\xc2");
	/* Cutting by length never splits a valid sequence. */
	struct strbuf sb = STRBUF_INIT;
	escape_add_cut(&sb, "ab\xe2\x82\xac" "cd", 7, 4);
	assert_string_equal(sb.buf, "ab...");
	strbuf_reset(&sb);
	escape_add_cut(&sb, "ab\xe2\x82\xac" "cd", 7, 5);
	assert_string_equal(sb.buf, "ab\xe2\x82\xac...");
	strbuf_reset(&sb);
	escape_add_cut(&sb, "a\x1b" "b", 3, 3);
	assert_string_equal(sb.buf, "a\\x1bb");
	strbuf_reset(&sb);
	escape_add_cut(&sb, "a\xc2\x9b" "b", 4, 2);   /* the C1 sequence is one unit */
	assert_string_equal(sb.buf, "a...");
	strbuf_release(&sb);
}

static void
test_clean_names_unchanged(void **state)
{
	(void)state;
	static const char *const names[] = {
		"IOService", "AppleARMIODevice", "IOAccelerator (graphics)",
		"MALLOC_SMALL (empty)", "\\Device\\x1b not an escape", "café ✓ 日本 😀",
		"=HYPERLINK(\"x\")", "",
	};
	struct strbuf tmp = STRBUF_INIT;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t n = strlen(names[i]);
		assert_true(escape_is_clean(names[i], n));
		EXPECT("", "");
		expect(names[i], n, names[i]);
		/* escape_str hands back the same pointer: no copy of clean text. */
		assert_ptr_equal(escape_str(&tmp, names[i]), names[i]);
	}
	assert_null(escape_str(&tmp, NULL));
	assert_string_equal(escape_str(&tmp, "x\ny"), "x\\x0ay");
	strbuf_release(&tmp);
}

/*
 * The wide scan against a plain one: a bad byte at every position of
 * strings longer than one 16-byte block.
 */
static void
test_clean_len_every_position(void **state)
{
	(void)state;
	static const unsigned char bad[] = { 0x00, 0x09, 0x1b, 0x1f, 0x7f, 0x80, 0xc2, 0xff };
	char buf[70];
	for (size_t len = 0; len <= sizeof(buf); len++) {
		memset(buf, 'x', sizeof(buf));
		assert_int_equal(escape_clean_len(buf, len), len);
		for (size_t at = 0; at < len; at++)
			for (size_t b = 0; b < sizeof(bad); b++) {
				memset(buf, 'x', sizeof(buf));
				buf[at] = (char)bad[b];
				assert_int_equal(escape_clean_len(buf, len), at);
			}
	}
	/* Valid multibyte text around a block boundary is clean through. */
	char mb[40];
	memset(mb, 'y', sizeof(mb));
	memcpy(mb + 14, "\xe2\x82\xac", 3);
	assert_int_equal(escape_clean_len(mb, sizeof(mb)), sizeof(mb));
	mb[38] = (char)0xc2;
	mb[39] = (char)0x9b;
	assert_int_equal(escape_clean_len(mb, sizeof(mb)), 38);
}

/*
 * An independent reading of the rule: decode the code point by arithmetic
 * and compare escape_clean_len for every 1- and 2-byte string and every
 * 3- and 4-byte string whose tail bytes are drawn from a set that covers
 * each range boundary.
 */
static size_t
ref_clean(const unsigned char *p, size_t n)
{
	size_t i = 0;
	while (i < n) {
		unsigned c = p[i];
		if (c >= 0x20 && c < 0x7f) {
			i++;
			continue;
		}
		if (c < 0x80)
			return i;
		size_t len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
		if (len == 0 || c > 0xf7 || i + len > n)
			return i;
		uint32_t v = c & (0xff >> (len + 1));
		for (size_t k = 1; k < len; k++) {
			if ((p[i + k] & 0xc0) != 0x80)
				return i;
			v = (v << 6) | (p[i + k] & 0x3f);
		}
		static const uint32_t min[] = { 0, 0, 0x80, 0x800, 0x10000 };
		if (v < min[len] || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff) || v < 0xa0)
			return i;
		i += len;
	}
	return n;
}

static void
test_against_reference(void **state)
{
	(void)state;
	static const unsigned char tails[] = {
		0x00, 0x20, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xff,
	};
	unsigned char s[4];
	for (unsigned a = 0; a < 256; a++) {
		s[0] = (unsigned char)a;
		assert_int_equal(escape_clean_len((char *)s, 1), ref_clean(s, 1));
		for (unsigned b = 0; b < 256; b++) {
			s[1] = (unsigned char)b;
			assert_int_equal(escape_clean_len((char *)s, 2), ref_clean(s, 2));
		}
		for (size_t b = 0; b < sizeof(tails); b++)
			for (size_t c = 0; c < sizeof(tails); c++) {
				s[1] = tails[b];
				s[2] = tails[c];
				assert_int_equal(escape_clean_len((char *)s, 3), ref_clean(s, 3));
				for (size_t d = 0; d < sizeof(tails); d++) {
					s[3] = tails[d];
					assert_int_equal(escape_clean_len((char *)s, 4),
							 ref_clean(s, 4));
				}
			}
	}
}

/* Whatever the input, the output holds no control byte and no invalid UTF-8. */
static void
test_output_is_clean(void **state)
{
	(void)state;
	unsigned char in[512];
	uint32_t x = 12345;
	for (int round = 0; round < 2000; round++) {
		size_t n = (size_t)(round % 97);
		for (size_t i = 0; i < n; i++) {
			x = x * 1103515245u + 12345u;
			in[i] = (unsigned char)(x >> 16);
		}
		char *out = esc((const char *)in, n);
		size_t len = strlen(out);
		assert_int_equal(escape_clean_len(out, len), len);
		/* Escaping is a fixed point on its output. */
		char *again = esc(out, len);
		assert_string_equal(again, out);
		free(again);
		free(out);
	}
}

/*
 * Shell words for pasted commands: each expected word is what bash reads
 * back as the input (checked with bash -c 'printf %s WORD | od -c'):
 * plain, single-quoted, and $'...' for a control byte, whose \xNN bash
 * turns back into the byte.
 */
static void
test_shell_word(void **state)
{
	(void)state;
	static const struct { const char *in, *out; } cases[] = {
		{ "fleet/before/m0001-00581-vmmap.txt", "fleet/before/m0001-00581-vmmap.txt" },
		{ "my captures/a b.txt", "'my captures/a b.txt'" },
		{ "it's", "'it'\\''s'" },
		{ "$(rm -rf ~)", "'$(rm -rf ~)'" },
		{ "", "''" },
		{ "a\x1b]52;c;x\x07", "$'a\\x1b]52;c;x\\x07'" },
		{ "q'\\\n", "$'q\\'\\\\\\x0a'" },
		{ "caf\xc3\xa9 \x01", "$'caf\xc3\xa9 \\x01'" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strbuf sb = STRBUF_INIT;
		escape_add_shell_word(&sb, cases[i].in);
		assert_string_equal(sb.buf, cases[i].out);
		assert_int_equal(escape_clean_len(sb.buf, sb.len), sb.len);
		strbuf_release(&sb);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_c0_del_and_nul),
		cmocka_unit_test(test_c1_in_utf8),
		cmocka_unit_test(test_invalid_and_overlong),
		cmocka_unit_test(test_split_sequence_at_end),
		cmocka_unit_test(test_clean_names_unchanged),
		cmocka_unit_test(test_clean_len_every_position),
		cmocka_unit_test(test_against_reference),
		cmocka_unit_test(test_output_is_clean),
		cmocka_unit_test(test_shell_word),
	};
	return cmocka_run_group_tests_name("escape", tests, NULL, NULL);
}
