/*
 * ingest/line_input: the one rule for leading comment lines. The expected
 * lines are those of each input written out by hand, with their line
 * numbers in the file.
 */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ingest/line_input.h"
#include "util/array.h"

struct want {
	uint64_t no;
	const char *text;
};

/* Every line line_input delivers for `data` (n bytes), compared with `want`. */
static void
check_lines(const char *data, size_t n, const struct want *want, size_t nwant)
{
	struct line_reader r;
	struct line_input in;
	struct line ln;
	struct diag err = { 0 };
	size_t got = 0;
	int rc;
	line_reader_from_memory(&r, data, n, "t", 0);
	assert_int_equal(line_input_begin(&in, &r, &err), 0);
	while ((rc = line_input_next(&in, &ln, &err)) > 0) {
		assert_true(got < nwant);
		assert_int_equal(ln.no, want[got].no);
		assert_int_equal(ln.len, strlen(want[got].text));
		assert_memory_equal(ln.p, want[got].text, ln.len);
		got++;
	}
	assert_int_equal(rc, 0);
	assert_int_equal(got, nwant);
	line_reader_close(&r);
}

#define CHECK(s, w) check_lines(s, sizeof(s) - 1, w, ARRAY_SIZE(w))

static void
test_leading_comments_skipped(void **state)
{
	(void)state;
	static const struct want w[] = { { 3, "" }, { 5, "X" }, { 6, "# later" }, { 7, "Y" } };
	CHECK("# SOURCE: a\n# made with b\n\n# after a blank\nX\n# later\nY\n", w);
}

static void
test_indented_hash_is_not_a_comment(void **state)
{
	(void)state;
	static const struct want w[] = { { 1, " # x" }, { 2, "# y" } };
	CHECK(" # x\n# y\n", w);
}

static void
test_only_comments(void **state)
{
	(void)state;
	/* Comment lines, one with a NUL byte and CR LF, the last unterminated. */
	static const char data[] = "# a\r\n#\0b\n# c";
	check_lines(data, sizeof(data) - 1, NULL, 0);
}

static void
test_no_comments(void **state)
{
	(void)state;
	static const struct want w[] = { { 1, "A" }, { 2, "" }, { 3, "B" } };
	CHECK("A\n\nB", w);
}

static void
test_kind_seen_past_comments(void **state)
{
	(void)state;
	static const char data[] = "# SOURCE: synthetic\n"
				   "0x45000 bytes total\n";
	struct line_reader r;
	struct line_input in;
	struct diag err = { 0 };
	line_reader_from_memory(&r, data, sizeof(data) - 1, "t", 0);
	assert_int_equal(line_input_begin(&in, &r, &err), 0);
	assert_int_equal(in.kind, INPUT_TRACK);
	assert_string_equal(in.path, "t");
	line_reader_close(&r);
}

/*
 * line_input_is_empty() says what line_input_next() does: an input is empty
 * when no line it delivers holds anything but spaces, tabs and a CR. The
 * expected answers are written by hand from the rule.
 */
static void
test_is_empty_agrees_with_next(void **state)
{
	(void)state;
	static const struct {
		const char *data;
		size_t n;
		bool empty;
	} cases[] = {
#define C(s, e) { s, sizeof(s) - 1, e }
		C("", true),
		C("\n", true),
		C(" \t\r\n\n", true),
		C("# a\r\n#\0b\n# c", true),
		C("# SOURCE: x\n\n# after a blank\n \t\n#", true),
		C("A", false),
		C(" # x\n", false),
		C("# a\n\nX\n# b\n", false),
		C("\f\n", false),
		C("# a\n\0\n", false),
		C("\n\n#\n  x", false),
#undef C
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct line_reader r;
		struct line_input in;
		struct line ln;
		struct diag err = { 0 };
		bool delivered_text = false;
		int rc;
		assert_int_equal(line_input_is_empty(cases[i].data, cases[i].n), cases[i].empty);
		line_reader_from_memory(&r, cases[i].data, cases[i].n, "t", 0);
		assert_int_equal(line_input_begin(&in, &r, &err), 0);
		while ((rc = line_input_next(&in, &ln, &err)) > 0)
			delivered_text |= in.past_comments;
		assert_int_equal(rc, 0);
		assert_int_equal(delivered_text, !cases[i].empty);
		line_reader_close(&r);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_leading_comments_skipped),
		cmocka_unit_test(test_indented_hash_is_not_a_comment),
		cmocka_unit_test(test_only_comments),
		cmocka_unit_test(test_no_comments),
		cmocka_unit_test(test_kind_seen_past_comments),
		cmocka_unit_test(test_is_empty_agrees_with_next),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
