/*
 * input_detect()'s binary check, eight bytes at a time (ingest/detect.c),
 * against the same file built with the byte-by-byte check only
 * (INPUT_DETECT_SCALAR, functions renamed ref_*, see meson.build), and
 * both against this file's own count of the rule: a NUL byte, or more than
 * one byte in ten a control byte other than tab, LF, FF and CR, in the
 * first 4096 bytes. Inputs are drawn from bytes that start no other kind
 * (no '{', '[', '<', '=', '+', '-', digits), so an input is INPUT_BINARY
 * exactly when the rule says binary. Each input sits at the end of its own
 * allocation, at every alignment, so ASan sees any read past it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ingest/detect.h"

enum input_kind ref_input_detect(const char *p, size_t n);

#define CHECKED 4096

/* The same inputs on every run. */
#define TEST_RNG_SEED UINT64_C(0x2545F4914F6CDD1D)
#include "test-rng.h"

/* The rule, counted here: binary or not. */
static bool
truth_binary(const unsigned char *p, size_t n)
{
	size_t check = n < CHECKED ? n : CHECKED, odd = 0;
	for (size_t i = 0; i < check; i++) {
		if (p[i] == 0)
			return true;
		if (p[i] < 0x20 && p[i] != '\t' && p[i] != '\n' && p[i] != '\f' && p[i] != '\r')
			odd++;
	}
	return check > 0 && odd * 10 > check;
}

/* Text bytes: letters, blanks, line ends, and the high bytes whose top bit
 * the word test must not take for a control byte (0xA0 and above). */
static unsigned char
text_byte(void)
{
	static const unsigned char extra[] = { ' ', ' ', '\n', '\t', '\r', '\f', 0x20, 0x7f,
					       0x80, 0x9f, 0xa0, 0xdf, 0xe0, 0xff, '.', ':' };
	if (rnd() & 1)
		return (unsigned char)('a' + below(26));
	return extra[below(sizeof(extra))];
}

/* Control bytes text does not hold, the first and last of the range too. */
static unsigned char
odd_byte(void)
{
	static const unsigned char odd[] = { 0x01, 0x02, 0x07, 0x08, 0x0b, 0x0e, 0x1b, 0x1f };
	return odd[below(sizeof(odd))];
}

/* Detects p[0 .. n - 1] at offset `off` of an exact-size allocation. */
static void
check_input(const unsigned char *p, size_t n, size_t off)
{
	char *buf = malloc(off + n + 1);
	assert_non_null(buf);
	memcpy(buf + off, p, n);
	enum input_kind fast = input_detect(buf + off, n);
	enum input_kind ref = ref_input_detect(buf + off, n);
	free(buf);
	if (fast != ref)
		print_error("length %zu offset %zu: fast %d, plain %d\n", n, off, fast, ref);
	assert_int_equal(fast, ref);
	if (n == 0)
		assert_int_equal(fast, INPUT_EMPTY);
	else
		assert_int_equal(fast == INPUT_BINARY, truth_binary(p, n));
}

/*
 * Inputs of every length up to past the checked 4096 bytes, with a share
 * of control bytes around the one-in-ten line, a NUL now and then (also
 * only past the checked bytes), at all eight alignments.
 */
static void
test_random_inputs(void **state)
{
	(void)state;
	static unsigned char in[CHECKED + 300];
	size_t binary = 0, text = 0;
	for (unsigned round = 0; round < 20000; round++) {
		size_t n = round < 4400 ? round % (CHECKED + 300) : below(sizeof(in) + 1);
		/* Odd bytes per thousand: none, around 100 (the line), or many. */
		unsigned per_mille = (unsigned[]){ 0, 80, 95, 100, 101, 105, 120, 400 }[below(8)];
		for (size_t i = 0; i < n; i++)
			in[i] = below(1000) < per_mille ? odd_byte() : text_byte();
		unsigned nul = (unsigned)below(6);
		if (nul == 0 && n)
			in[below(n)] = 0;
		else if (nul == 1 && n > CHECKED)
			in[CHECKED + below(n - CHECKED)] = 0;
		check_input(in, n, round % 8);
		if (n && truth_binary(in, n))
			binary++;
		else
			text++;
	}
	/* Both answers occur often. */
	assert_true(binary > 2000 && text > 2000);
}

/* Exactly at the line: odd * 10 == check is text, one more odd byte binary. */
static void
test_one_in_ten_line(void **state)
{
	(void)state;
	static unsigned char in[CHECKED + 16];
	static const size_t lens[] = { 10, 20, 80, 800, 4090, CHECKED, CHECKED + 10 };
	for (size_t k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
		size_t n = lens[k], check = n < CHECKED ? n : CHECKED;
		for (size_t extra = 0; extra < 2; extra++) {
			memset(in, 'x', n);
			size_t odd = check / 10 + extra;
			/* Nine apart: every place of a word, all below check. */
			for (size_t i = 0; i < odd; i++)
				in[i * 9] = 0x01;
			for (size_t off = 0; off < 8; off++) {
				check_input(in, n, off);
				enum input_kind kind = input_detect((const char *)in, n);
				assert_int_equal(kind == INPUT_BINARY, extra == 1);
			}
		}
	}
}

/* One control byte or NUL at every place of a word, in a short input. */
static void
test_each_place(void **state)
{
	(void)state;
	static const unsigned char probe[] = { 0x00, 0x01, 0x1f, 0x20, '\n', '\t', '\r', '\f',
					       0x7f, 0x80, 0xa0, 0xff };
	unsigned char in[24];
	for (size_t n = 1; n <= sizeof(in); n++)
		for (size_t at = 0; at < n; at++)
			for (size_t b = 0; b < sizeof(probe); b++) {
				memset(in, 'q', n);
				in[at] = probe[b];
				for (size_t off = 0; off < 8; off++)
					check_input(in, n, off);
			}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_inputs),
		cmocka_unit_test(test_one_in_ten_line),
		cmocka_unit_test(test_each_place),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
