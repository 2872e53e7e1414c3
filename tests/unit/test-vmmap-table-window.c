/*
 * The summary-row fast path's two parts against their plain forms
 * (vmmap_table.c; the file is included to reach the static functions):
 *
 * - window_tokens(), a row's last tokens from bit masks of its last 128
 *   bytes, against scan_tokens(), the same tokens found one after another:
 *   where the window answers, the same answer and the same bounds; it may
 *   leave a line to scan_tokens() only when the line is longer than the
 *   window. Generated lines of every length from 0 to past 128 bytes, of
 *   words, figures, runs of blanks and tabs, brackets and '\r'.
 * - fast_size() against size_parse_vmmap(), the general path's reader:
 *   every figure it reads has size_parse_vmmap()'s value, and every figure
 *   of vmmap's own forms (0K, 448K, 48.8G, 1.25T, 2560, 7B) it does read;
 *   at a line's start and with 8 bytes before it (where "48.8G" is read
 *   as one word), alike.
 * - popcount16() against a bit-by-bit count of every 16-bit mask.
 * - may_have_figures(), the general path's first count, against a plain
 *   count; a line it turns away is one the general path's plain form
 *   refuses for want of columns.
 *
 * The row readers as a whole are held to the general path by
 * test-vmmap-table.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/ingest/vmmap_table.c"
#include "util/array.h"

static uint64_t rng = 88172645463325252u;

static uint64_t
next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

#if defined(ROW_WINDOW)
static const char *const pieces[] = {
	"IOKit", "Memory", "Tag", "241", "(graphics)", "0K", "48.8G", "11.4G", "414.4M", "2445",
	"123456789012345", "7B", "[", "]", "[16K", "16K]", "x\r", "\r", "SM=COW", "a",
};

/* Blanks: a space, a tab, or a run of them (vmmap pads its columns). */
static size_t
add_blanks(char *line, size_t n, size_t cap)
{
	uint64_t r = next();
	size_t run = r % 4 == 0 ? 1 + (r >> 8) % 40 : 1 + (r >> 8) % 9;
	for (size_t i = 0; i < run && n < cap; i++)
		line[n++] = (r >> (16 + i % 40)) % 7 == 0 ? '\t' : ' ';
	return n;
}

/* The window's answer and scan_tokens()'s, for `need` tokens of line. */
static int
compare_tokens(const char *line, size_t len, size_t need)
{
	struct row_tokens a, b;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	bool scanned = scan_tokens(line, len, need, &a);
	int w = window_tokens(line, len, need, &b);
	if (w < 0) {
		if (len <= ROW_WINDOW)
			fail_msg("'%.*s' (%zu bytes, %zu tokens): left to the scan", (int)len, line,
				 len, need);
		return w;
	}
	if (w != (int)scanned)
		fail_msg("'%.*s' (%zu bytes, %zu tokens): window %d, scan %d", (int)len, line, len,
			 need, w, (int)scanned);
	if (!scanned)
		return w;
	for (size_t j = 0; j <= need; j++)
		if (a.p[j] != b.p[j] || a.e[j] != b.e[j])
			fail_msg("'%.*s' (%zu tokens): token %zu is [%td, %td) by the scan, "
				 "[%td, %td) by the window", (int)len, line, need, j,
				 a.p[j] - line, a.e[j] - line, b.p[j] - line, b.e[j] - line);
	return w;
}

static void
test_window_against_scan(void **state)
{
	(void)state;
	/* Each line stands alone in the buffer's last bytes, so that a read
	 * past its end or before its start is one AddressSanitizer sees. */
	static char buf[400];
	char line[400];
	unsigned answers[3] = { 0 };
	for (int i = 0; i < 300000; i++) {
		uint64_t r = next();
		size_t cap = 1 + r % 300, n = 0;
		if (r >> 60 == 0)
			n = add_blanks(line, n, cap);   /* an indent */
		while (n < cap) {
			const char *p = pieces[next() % ARRAY_SIZE(pieces)];
			size_t pl = strlen(p);
			if (pl > cap - n)
				pl = cap - n;
			memcpy(line + n, p, pl);
			n += pl;
			if ((next() & 7) != 0)
				n = add_blanks(line, n, cap);
		}
		/* Most lines end in a token, as rows trimmed by the reader. */
		if ((r >> 32) % 4 && n > 0)
			while (n > 1 && (line[n - 1] == ' ' || line[n - 1] == '\t'))
				n--;
		char *at = buf + sizeof(buf) - n;
		memcpy(at, line, n);
		size_t need = 1 + (r >> 40) % ROW_NEED_MAX;
		answers[compare_tokens(at, n, need) + 1]++;
	}
	/* Each answer came up: lines left to the scan, refused, and read. */
	for (int a = 0; a < 3; a++)
		if (answers[a] < 1000)
			fail_msg("answer %d only %u times", a - 1, answers[a]);
}

/* Every length around the blocks' edges and the window's, every place of
 * a bracket and of a tab in a row of vmmap's shape. */
static void
test_window_edges(void **state)
{
	(void)state;
	static char buf[300];
	const char *row = "IOAccelerator (graphics)  24.6G    12.2G     9.5G     7.5G    16.9G    "
			  "12.2G       0K     2060";
	char line[300];
	for (size_t pad = 0; pad < 160; pad++) {
		size_t n = 0;
		for (; n < pad; n++)
			line[n] = n % 5 ? 'x' : ' ';
		n += (size_t)snprintf(line + n, sizeof(line) - n, "%s", row);
		for (size_t cut = 0; cut <= n; cut += 1 + cut / 40) {
			const char *tail = line + cut;
			size_t len = n - cut;
			char *at = buf + sizeof(buf) - len;
			memcpy(at, tail, len);
			for (size_t need = 1; need <= ROW_NEED_MAX; need++)
				compare_tokens(at, len, need);
			/* A bracket, then a tab, at each place. */
			for (size_t k = 0; k < len; k += 3) {
				char was = at[k];
				at[k] = k % 2 ? ']' : '[';
				compare_tokens(at, len, 8);
				at[k] = '\t';
				compare_tokens(at, len, 8);
				at[k] = was;
			}
		}
		/* The whole row, when it fits the window, is read by it. */
		if (n <= ROW_WINDOW) {
			struct row_tokens k;
			char *at = buf + sizeof(buf) - n;
			memcpy(at, line, n);
			assert_int_equal(window_tokens(at, n, 8, &k), 1);
			assert_ptr_equal(k.p[0], at + n - 4);
		}
	}
}
#endif

#if defined(__SSE2__) && !defined(VMMAP_TABLE_SCALAR)
/* popcount16(), may_have_figures()' count of a block's mask, against a
 * bit-by-bit count for every 16-bit mask (a full block of digits or
 * blanks too, which the lines below seldom hold). */
static void
test_popcount16(void **state)
{
	(void)state;
	for (unsigned x = 0; x <= 0xffffu; x++) {
		unsigned plain = 0;
		for (unsigned b = x; b; b >>= 1)
			plain += b & 1u;
		if (popcount16(x) != plain)
			fail_msg("popcount16(%#x) = %u, not %u", x, popcount16(x), plain);
	}
}
#endif

/*
 * may_have_figures() against a plain count of digits and token ends, at
 * every length around its 16-byte blocks; and where it turns a line away,
 * the general path's plain form refuses it too, with the same reason.
 */
static void
test_figures(void **state)
{
	(void)state;
	static const char alphabet[] = "0123456789 \t]x[.K/\xb0\xb9";
	static char buf[200];
	struct vmmap_table_layout t;
	const char *head = "REGION TYPE  VIRTUAL RESIDENT DIRTY SWAPPED VOLATILE NONVOL EMPTY REGION";
	vmmap_table_layout_from(&t, "", 0, head, strlen(head));
	unsigned turned = 0, let = 0;
	for (int i = 0; i < 200000; i++) {
		uint64_t r = next();
		size_t len = r % 120;
		/* Mostly letters, some digits and blanks: near the thresholds. */
		unsigned weight = 2 + (unsigned)((r >> 8) % 12);
		char *line = buf + sizeof(buf) - len;
		size_t digits = 0, ends = 0;
		for (size_t k = 0; k < len; k++) {
			uint64_t s = next();
			char c = s % weight == 0 ? alphabet[(s >> 8) % (sizeof(alphabet) - 1)] : 'a';
			line[k] = c;
			digits += c >= '0' && c <= '9';
			ends += c == ' ' || c == '\t' || c == ']';
		}
		size_t need = 1 + (r >> 20) % 8;
		bool plain = digits >= need && ends >= need;
		if (may_have_figures(line, line + len, need) != plain)
			fail_msg("'%.*s' (%zu bytes, need %zu): %zu digits, %zu ends, counted %d",
				 (int)len, line, len, need, digits, ends, (int)!plain);
		if (plain) {
			let++;
			continue;
		}
		turned++;
		struct vmmap_summary_row row;
		const char *why = NULL, *gwhy = NULL;
		if (need == 8 && vmmap_table_parse_row_reference(line, len, &t, &row, &why) != -2)
			fail_msg("'%.*s': turned away, but the plain split reads it", (int)len, line);
		if (need == 8) {
			assert_int_equal(vmmap_table_parse_row_general(line, len, &t, &row, &gwhy), -2);
			assert_ptr_equal(why, gwhy);
		}
	}
	if (turned < 10000 || let < 10000)
		fail_msg("turned away %u, let through %u", turned, let);
}

/* size_parse_vmmap()'s value, where fast_size() reads one. */
static bool
compare_size(const char *fig)
{
	size_t n = strlen(fig);
	uint64_t fast = 0, general = 0, wide = 0;
	/* In an allocation of its exact size: a read past either end shows
	 * under AddressSanitizer. Alone (the line starts with it: no 8-byte
	 * word ends at it), then after 8 blanks (the word read of "%.1f"
	 * figures): the same answer. */
	char *exact = malloc(n + 8);
	assert_non_null(exact);
	memcpy(exact, fig, n);
	bool ok = fast_size(exact, exact, exact + n, &fast);
	memset(exact, ' ', 8);
	memcpy(exact + 8, fig, n);
	bool wide_ok = fast_size(exact, exact + 8, exact + 8 + n, &wide);
	free(exact);
	if (ok != wide_ok || (ok && fast != wide))
		fail_msg("'%s': %d %llu at the line's start, %d %llu after 8 blanks", fig, ok,
			 (unsigned long long)fast, wide_ok, (unsigned long long)wide);
	if (!ok)
		return false;
	int rc = size_parse_vmmap(fig, n, &general);
	if (rc != SIZE_OK || general > BYTES_MAX)
		fail_msg("'%s': read as %llu by the fast path, refused (%d) by the general one",
			 fig, (unsigned long long)fast, rc);
	if (fast != general)
		fail_msg("'%s': %llu by the fast path, %llu by the general one", fig,
			 (unsigned long long)fast, (unsigned long long)general);
	return true;
}

static void
test_sizes(void **state)
{
	(void)state;
	static const char *const units[] = { "", "B", "K", "M", "G", "T", "k", "P", "KB", "X" };
	static const char *const junk[] = { "", "-", "+", " ", "..", "x", "\r", "1.2.", "e5" };
	char fig[64];
	/* vmmap's own forms: each is read. */
	for (unsigned u = 0; u < 6; u++)
		for (unsigned v = 0; v < 1000; v++) {
			snprintf(fig, sizeof(fig), "%u%s", v, units[u]);
			assert_true(compare_size(fig));
			snprintf(fig, sizeof(fig), "%u.%u%s", v, v % 10, units[u]);
			assert_true(compare_size(fig));
			snprintf(fig, sizeof(fig), "%u.%02u%s", v % 100, v % 100, units[u]);
			assert_true(compare_size(fig));
		}
	assert_true(compare_size("123456789012345"));
	assert_true(compare_size("12."));
	assert_true(compare_size(".5K"));
	/* Any mix of digits, a point or two, units and junk: same value or
	 * left to the general path. */
	for (int i = 0; i < 400000; i++) {
		uint64_t r = next();
		size_t n = 0, digits = r % 19;
		if ((r >> 8) % 11 == 0)
			n += (size_t)snprintf(fig + n, sizeof(fig) - n, "%s",
					      junk[(r >> 12) % ARRAY_SIZE(junk)]);
		for (size_t d = 0; d < digits; d++) {
			uint64_t s = next();
			fig[n++] = (char)('0' + s % 10);
			if ((s >> 8) % 9 == 0)
				fig[n++] = '.';
		}
		n += (size_t)snprintf(fig + n, sizeof(fig) - n, "%s",
				      units[(r >> 20) % ARRAY_SIZE(units)]);
		if ((r >> 30) % 13 == 0)
			n += (size_t)snprintf(fig + n, sizeof(fig) - n, "%s",
					      junk[(r >> 34) % ARRAY_SIZE(junk)]);
		fig[n] = '\0';
		if (n)
			compare_size(fig);
	}
	/* Past 2^63 bytes: never read. */
	assert_false(compare_size("8388608T"));
	assert_true(compare_size("8388607T"));
	assert_false(compare_size("K"));
	assert_false(compare_size("."));
}

/* The table headers and lines above them vmmap prints, and shapes that
 * read the line above (bare SIZE words) or fall on the memo's size limit. */
static const char *const layout_lines[] = {
	"",
	"REGION TYPE                      VIRTUAL",
	"REGION TYPE                        SIZE     SIZE     SIZE     SIZE     SIZE     SIZE"
	"     SIZE    COUNT (non-coalesced)",
	"REGION TYPE                        SIZE     SIZE",
	"REGION TYPE                        SIZE",
	"REGION TYPE                      [ VIRTUAL/RESIDENT/SWAPPED]  REGION COUNT",
	"REGION TYPE        [ VIRTUAL] [RESIDENT] [   DIRTY] [ SWAPPED]",
	"REGION TYPE    VIRTUAL RESIDENT DIRTY SWAPPED VOLATILE NONVOL EMPTY REGION",
	"REGION TYPE         PAGES    PAGES  COUNT",
	"                                   VIRTUAL RESIDENT    DIRTY  SWAPPED VOLATILE"
	"   NONVOL    EMPTY   REGION ",
	"                                   VIRTUAL RESIDENT    DIRTY   REGION ",
	"                                   RESIDENT VIRTUAL",
	"                                   EMPTY",
};

static void
check_layout(const struct vmmap_table_layout *got, const struct vmmap_table_layout *want)
{
	assert_int_equal(got->ncols, want->ncols);
	for (unsigned i = 0; i < want->ncols; i++)
		assert_int_equal(got->cols[i], want->cols[i]);
	assert_int_equal(got->has_count, want->has_count);
	assert_int_equal(got->bracketed, want->bracketed);
	assert_int_equal(got->pages, want->pages);
	assert_int_equal(got->page_size, want->page_size);
}

/*
 * The layout memo against vmmap_table_layout_from() on random sequences
 * of header and above lines: each line one of vmmap's, perhaps with a
 * byte changed (a column name misspelt, a word split), padded to lengths
 * around the memo's limit, or repeated as it is in a file of many dumps.
 */
static void
test_layout_memo(void **state)
{
	(void)state;
	static char lines[2][VMMAP_LAYOUT_MEMO_MAX + 8];
	struct vmmap_table_layout_memo memo;
	memset(&memo, 0, sizeof(memo));
	size_t n[2] = { 0, 0 }, hits = 0;
	for (int round = 0; round < 200000; round++) {
		for (int w = 0; w < 2; w++) {
			uint64_t r = next();
			if (round > 0 && r % 4 != 0)
				continue;   /* the same line as last time, mostly */
			const char *src = layout_lines[(r >> 8) % ARRAY_SIZE(layout_lines)];
			n[w] = strlen(src);
			memcpy(lines[w], src, n[w]);
			if ((r >> 16) % 4 == 0 && n[w] > 0)
				lines[w][(r >> 20) % n[w]] = " SEVIRTUALZ"[(r >> 40) % 11];
			if ((r >> 24) % 8 == 0) {
				/* Blanks up to one byte either side of the memo's limit. */
				size_t to = VMMAP_LAYOUT_MEMO_MAX - 1 + (r >> 28) % 3;
				while (n[w] < to)
					lines[w][n[w]++] = ' ';
			}
		}
		struct vmmap_table_layout want, got;
		vmmap_table_layout_from(&want, lines[1], n[1], lines[0], n[0]);
		bool hit = memo.valid && memo.head_len == n[0] && memo.above_len == n[1];
		vmmap_table_layout_memo_from(&memo, &got, lines[1], n[1], lines[0], n[0]);
		hits += hit;
		check_layout(&got, &want);
	}
	/* The memo was used (most rounds repeat the last lines). */
	assert_true(hits > 100000);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
#if defined(ROW_WINDOW)
		cmocka_unit_test(test_window_against_scan),
		cmocka_unit_test(test_window_edges),
#endif
#if defined(__SSE2__) && !defined(VMMAP_TABLE_SCALAR)
		cmocka_unit_test(test_popcount16),
#endif
		cmocka_unit_test(test_figures),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_layout_memo),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
