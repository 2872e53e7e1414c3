/*
 * The summary-row reader's fast path (vmmap_table.c fast_row) against its
 * general path, and the general path against the plain split of every
 * token: on every row below, on every combination of a name, a set of
 * column figures and an ending, and on generated lines of mixed words,
 * vmmap_table_parse_row(), vmmap_table_parse_row_general() and
 * vmmap_table_parse_row_reference() must answer alike (return value,
 * reason, every field of the row). Then rows whose figures are known by
 * construction, read through the public entry point.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ingest/vmmap_grammar.h"
#include "util/array.h"

static void
layout(struct vmmap_table_layout *t, const char *above, const char *head)
{
	vmmap_table_layout_from(t, above, strlen(above), head, strlen(head));
}

typedef int (*row_reader)(const char *, size_t, const struct vmmap_table_layout *,
			  struct vmmap_summary_row *, const char **);

/* Two readers on one line: the same answer, to the byte. */
static void
assert_readers_agree(const char *line, const struct vmmap_table_layout *t, row_reader ra_fn,
		     row_reader rb_fn, const char *what)
{
	struct vmmap_summary_row a, b;
	const char *wa = NULL, *wb = NULL;
	memset(&a, 0x5a, sizeof(a));
	memset(&b, 0x5a, sizeof(b));
	size_t n = strlen(line);
	int ra = ra_fn(line, n, t, &a, &wa);
	int rb = rb_fn(line, n, t, &b, &wb);
	if (ra != rb)
		fail_msg("'%s': %d, %s %d", line, ra, what, rb);
	if (ra < 0) {
		assert_ptr_equal(wa, wb);
		return;
	}
	if (a.name != b.name || a.name_len != b.name_len)
		fail_msg("'%s': name '%.*s', %s '%.*s'", line, (int)a.name_len, a.name, what,
			 (int)b.name_len, b.name);
	assert_int_equal(a.present, b.present);
	for (int c = 0; c < VMMAP_COL_SIZES; c++)
		if (a.value[c] != b.value[c])
			fail_msg("'%s': column %d is %llu, %s %llu", line, c,
				 (unsigned long long)a.value[c], what,
				 (unsigned long long)b.value[c]);
	assert_memory_equal(a.virtual_text, b.virtual_text, sizeof(a.virtual_text));
	assert_int_equal(a.has_count, b.has_count);
	assert_int_equal(a.count, b.count);
}

/*
 * The fast path against the general path, and the general path (its
 * one-pass turn-away of lines without a run of figures, its read from the
 * right) against the plain split of every token.
 */
static void
assert_paths_agree(const char *line, const struct vmmap_table_layout *t)
{
	assert_readers_agree(line, t, vmmap_table_parse_row, vmmap_table_parse_row_general,
			     "general path");
	assert_readers_agree(line, t, vmmap_table_parse_row_general,
			     vmmap_table_parse_row_reference, "the split of every token");
}

static const char *const names[] = {
	"IOAccelerator (graphics)", "Memory Tag 241", "MALLOC_TINY", "STACK GUARD",
	"foo 1.9G", "foo 448K", "foo 12.", "foo .5", "foo 2560", "foo\r", "\r", "[ IOKit[x]",
	"IOKit]", "IOKit[1.9G", "a", "  indented name", "x\ty", "name 99999999999999999999K", "",
};

/* Figures, each used in every column of one row. */
static const char *const figures[] = {
	"0K", "64K", "1.9G", "448K", "2560", "53.7M", "1.5T", "12.", ".5K", "5.K", "7B",
	"1.25G", "123456789012345", "1234567890123456", "123456789012.3K", "8388608T",
	"8388607T", "8388607.99T", "8191.99P", "1.2.3K", "K", ".", "-1K", "1k", "[16K",
	"16K]", "16K[", "0x10", "99999999999999999999", "9007199254740993", "0.05G",
	"17179869183.9G", "1[16K", "5]16K", "[[1.9G",
};

/* What the row ends with after its columns. */
static const char *const endings[] = {
	"", " ", "   \t", "  (see below)", "  12", "  1.5G", "]", " ]", "\r",
	/* vmmap's notes, which the fast path cuts, and near misses. */
	"        see MALLOC ZONE table below", " reserved VM address space (unallocated)  ",
	"\tsee MALLOC ZONE table below\r", "see MALLOC ZONE table below",
	" xsee MALLOC ZONE table below", " reserved VM address space (unallocated) 12",
	" 5 see MALLOC ZONE table below", " 1.5G reserved VM address space (unallocated)",
	" see MALLOC ZONE table below see MALLOC ZONE table below",
};

static void
test_combinations(void **state)
{
	(void)state;
	struct vmmap_table_layout t[6];
	layout(&t[0], "                    VIRTUAL RESIDENT    DIRTY  SWAPPED VOLATILE   NONVOL    EMPTY   REGION ",
	       "REGION TYPE            SIZE     SIZE     SIZE     SIZE     SIZE     SIZE     SIZE    COUNT (non-coalesced) ");
	layout(&t[1], "", "REGION TYPE             [ VIRTUAL]");
	layout(&t[2], "", "REGION TYPE  VIRTUAL RESIDENT");
	layout(&t[3], "", "REGION TYPE  VIRTUAL  REGION COUNT");
	layout(&t[4], "", "REGION TYPE  VIRTUAL VIRTUAL  COUNT");
	layout(&t[5], "", "REGION TYPE  VIRTUAL RESIDENT DIRTY SWAPPED VOLATILE NONVOL EMPTY");
	assert_int_equal(t[0].ncols, 7);
	assert_true(t[0].has_count);
	assert_true(t[1].bracketed);
	assert_int_equal(t[4].ncols, 2);

	char line[512];
	for (size_t l = 0; l < ARRAY_SIZE(t); l++)
		for (size_t ni = 0; ni < ARRAY_SIZE(names); ni++)
			for (size_t fi = 0; fi < ARRAY_SIZE(figures); fi++)
				for (size_t ei = 0; ei < ARRAY_SIZE(endings); ei++) {
					size_t n = (size_t)snprintf(line, sizeof(line), "%s",
								    names[ni]);
					/* The figure in one column, "1.9G" in the others. */
					for (unsigned c = 0; c < t[l].ncols; c++)
						n += (size_t)snprintf(line + n, sizeof(line) - n,
								      "  %8s", c == fi % t[l].ncols ?
								      figures[fi] : "1.9G");
					if (t[l].has_count)
						n += (size_t)snprintf(line + n, sizeof(line) - n,
								      "  %s", fi % 3 ? "1454" :
								      figures[fi]);
					snprintf(line + n, sizeof(line) - n, "%s", endings[ei]);
					assert_paths_agree(line, &t[l]);
				}
}

/*
 * Decimals: the fast path reads "D.D" and "D.DD" below 2^43 bytes in
 * integers, above in doubles as size_parse_vmmap does. Figures of every
 * unit, from a fixed sequence and around each unit's 2^43 boundary.
 */
static void
test_decimals(void **state)
{
	(void)state;
	struct vmmap_table_layout t;
	layout(&t, "", "REGION TYPE  VIRTUAL RESIDENT DIRTY SWAPPED VOLATILE NONVOL EMPTY REGION");
	static const char units[] = { 'B', 'K', 'M', 'G', 'T', '\0' };
	static const unsigned shifts[] = { 0, 10, 20, 30, 40, 0 };
	char line[256];
	uint64_t x = 88172645463325252u;
	for (size_t u = 0; u < ARRAY_SIZE(units); u++)
		for (unsigned frac = 1; frac <= 3; frac++)
			for (int i = 0; i < 3000; i++) {
				x ^= x << 13;
				x ^= x >> 7;
				x ^= x << 17;
				uint64_t pow = frac == 1 ? 10 : frac == 2 ? 100 : 1000;
				/* Half near 2^43 bytes, half spread over 1 to 15 digits. */
				uint64_t edge = ((UINT64_C(1) << 43) >> shifts[u]) * pow;
				uint64_t mant = i % 2 ? edge - 50 + x % 100 :
					x % (UINT64_C(1) << (x >> 58) % 50);
				if (mant >= UINT64_C(1000000000000000))
					mant %= UINT64_C(1000000000000000);
				char fig[40];
				int n = snprintf(fig, sizeof(fig), "%llu.%0*llu",
						 (unsigned long long)(mant / pow), (int)frac,
						 (unsigned long long)(mant % pow));
				if (units[u])
					fig[n] = units[u], fig[n + 1] = '\0';
				snprintf(line, sizeof(line), "IOKit  %s  0K  %s  0K  0K  0K  0K  7",
					 fig, fig);
				assert_paths_agree(line, &t);
			}
}

/*
 * vmmap's "%.1f" figures, which the fast path reads as one 8-byte word:
 * every byte value in every place of a figure of one to three digits
 * with a unit, in a column far from the line's start and in the first
 * column right after a one-byte name (fewer than 8 bytes before the
 * figure's end, where the word would start before the line). A byte that
 * is no digit must send the figure to the general path's answer, never
 * read as one, and one that borrows or carries must not change its
 * neighbours' value.
 */
static void
test_tenths_bytes(void **state)
{
	(void)state;
	struct vmmap_table_layout t;
	layout(&t, "", "REGION TYPE  VIRTUAL RESIDENT DIRTY SWAPPED VOLATILE NONVOL EMPTY REGION");
	static const char *const tenths[] = { "7.5", "48.8", "414.4", "0.0", "999.9" };
	static const char *const units = "BKMGT";
	char line[256], fig[16];
	for (size_t f = 0; f < ARRAY_SIZE(tenths); f++)
		for (size_t at = 0; at < strlen(tenths[f]); at++)
			for (unsigned b = 1; b < 256; b++) {
				if (b == '\n')
					continue;
				size_t n = strlen(tenths[f]);
				memcpy(fig, tenths[f], n);
				fig[at] = (char)b;
				fig[n] = units[(at + b) % 5];
				fig[n + 1] = '\0';
				snprintf(line, sizeof(line), "IOKit  1.9G  %s  0K  0K  0K  0K  0K  7", fig);
				assert_paths_agree(line, &t);
				snprintf(line, sizeof(line), "I %s  1.9G  0K  0K  0K  0K  0K  7", fig);
				assert_paths_agree(line, &t);
			}
}

/* -pages tables: page counts, never read by the fast path. */
static void
test_pages(void **state)
{
	(void)state;
	struct vmmap_table_layout t;
	layout(&t, "", "REGION TYPE  VIRTUAL PAGES  RESIDENT PAGES  COUNT");
	assert_true(t.pages);
	t.page_size = 16384;
	const char *rows[] = {
		"IOKit   12   3   4", "IOKit   0.25   3   4", "IOKit   12K   3   4",
		"Memory Tag 241   99999999999999999   3   4",
	};
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++)
		assert_paths_agree(rows[i], &t);
	struct vmmap_summary_row row;
	const char *why;
	assert_int_equal(vmmap_table_parse_row(rows[0], strlen(rows[0]), &t, &row, &why), 0);
	assert_int_equal(row.value[VMMAP_COL_VIRTUAL], 12 * 16384);
	assert_int_equal(vmmap_table_parse_row(rows[2], strlen(rows[2]), &t, &row, &why), -1);
}

/* Long names: the general split keeps 64 tokens, and the fast path knows it. */
static void
test_token_limit(void **state)
{
	(void)state;
	struct vmmap_table_layout t;
	layout(&t, "", "REGION TYPE  VIRTUAL RESIDENT DIRTY SWAPPED VOLATILE NONVOL EMPTY REGION");
	char line[1024];
	for (int words = 50; words < 62; words++) {
		size_t n = 0;
		for (int i = 0; i < words; i++)
			n += (size_t)snprintf(line + n, sizeof(line) - n, "w ");
		snprintf(line + n, sizeof(line) - n, "16K 8K 8K 0K 0K 0K 0K 3");
		assert_paths_agree(line, &t);
		/* Each word one byte longer: fewer tokens in as many bytes. */
		n = 0;
		for (int i = 0; i < words; i++)
			n += (size_t)snprintf(line + n, sizeof(line) - n, "ww ");
		snprintf(line + n, sizeof(line) - n, "16K 8K 8K 0K 0K 0K 0K 3");
		assert_paths_agree(line, &t);
		/* A note's five words count too (the fast path cuts them off). */
		n = 0;
		for (int i = 0; i < words - 6; i++)
			n += (size_t)snprintf(line + n, sizeof(line) - n, "w ");
		snprintf(line + n, sizeof(line) - n,
			 "16K 8K 8K 0K 0K 0K 0K 3 see MALLOC ZONE table below");
		assert_paths_agree(line, &t);
	}
}

/*
 * Lines of any mix of figures, near-figures and words, with every kind of
 * separator (the lines a dump holds besides its rows are each tried as a
 * row without a header too), on the layouts of every width: the three
 * readers must agree on each.
 */
static void
test_mixed_lines(void **state)
{
	(void)state;
	static const char *const words[] = {
		"1.9G", "0K", "2445", "12.", "..", "K", "[16K", "16K]", "7B", "x", "(see", "below)",
		"2026-09-05", "Tag", "241", "1.2.3", "0x10", ".5", "5.K", "1k", "[", "]", "[[",
		"1[2", "3]4", "99999999999999999999", "8388608T", "Version:", "SM=COW",
	};
	static const char *const seps[] = { " ", "  ", "\t", "   ", " [", "] ", "]" };
	struct vmmap_table_layout t[4];
	layout(&t[0], "", "REGION TYPE  VIRTUAL RESIDENT DIRTY SWAPPED VOLATILE NONVOL EMPTY REGION");
	layout(&t[1], "", "REGION TYPE             [ VIRTUAL]");
	layout(&t[2], "", "REGION TYPE  VIRTUAL  REGION COUNT");
	layout(&t[3], "", "REGION TYPE  VIRTUAL RESIDENT");
	uint64_t x = 2463534242u;
	char line[1024];
	unsigned outcomes[ARRAY_SIZE(t)][3] = { { 0 } };
	for (int i = 0; i < 60000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		uint64_t r = x;
		size_t nwords = (size_t)(r % 14);
		size_t n = 0;
		for (size_t w = 0; w < nwords; w++) {
			r = r * 6364136223846793005u + 1442695040888963407u;
			/* Runs of figures are most of what the readers decide on. */
			const char *word = (r >> 40) % 3 ? words[(r >> 20) % 5 + ((r >> 30) % 2 ? 0 : 6)] :
							   words[(r >> 20) % ARRAY_SIZE(words)];
			n += (size_t)snprintf(line + n, sizeof(line) - n, "%s%s",
					      w ? seps[(r >> 50) % ARRAY_SIZE(seps)] : "", word);
		}
		line[n] = '\0';
		for (size_t l = 0; l < ARRAY_SIZE(t); l++) {
			assert_paths_agree(line, &t[l]);
			struct vmmap_summary_row row;
			const char *why;
			int rc = vmmap_table_parse_row_reference(line, n, &t[l], &row, &why);
			outcomes[l][rc == 0 ? 0 : rc == -1 ? 1 : 2]++;
		}
	}
	/* Each layout saw rows read, rows refused and lines turned away. */
	for (size_t l = 0; l < ARRAY_SIZE(t); l++)
		for (int k = 0; k < 3; k++)
			if (outcomes[l][k] < 100)
				fail_msg("layout %zu: outcome %d only %u times", l, k, outcomes[l][k]);
}

/* Figures known by construction, through the public entry point. */
static void
test_values(void **state)
{
	(void)state;
	struct vmmap_table_layout t;
	struct vmmap_summary_row row;
	const char *why;
	layout(&t, "", "REGION TYPE  VIRTUAL RESIDENT DIRTY SWAPPED VOLATILE NONVOL EMPTY REGION");

	const char *a = "Memory Tag 241     1.9G   448K  53.7M   1.5T   7B  2560  0K   4743 ";
	assert_int_equal(vmmap_table_parse_row(a, strlen(a), &t, &row, &why), 0);
	assert_int_equal(row.name_len, strlen("Memory Tag 241"));
	assert_memory_equal(row.name, "Memory Tag 241", row.name_len);
	assert_int_equal(row.value[VMMAP_COL_VIRTUAL], (uint64_t)(1.9 * 1073741824.0));
	assert_int_equal(row.value[VMMAP_COL_RESIDENT], 448 * 1024);
	assert_int_equal(row.value[VMMAP_COL_DIRTY], (uint64_t)(53.7 * 1048576.0));
	assert_int_equal(row.value[VMMAP_COL_SWAPPED], (uint64_t)(1.5 * 1099511627776.0));
	assert_int_equal(row.value[VMMAP_COL_VOLATILE], 7);
	assert_int_equal(row.value[VMMAP_COL_NONVOL], 2560);
	assert_int_equal(row.value[VMMAP_COL_EMPTY], 0);
	assert_int_equal(row.present, (1u << VMMAP_COL_SIZES) - 1);
	assert_string_equal(row.virtual_text, "1.9G");
	assert_true(row.has_count);
	assert_int_equal(row.count, 4743);

	/* 8388608T is 2^63 bytes: past the limit, refused with its reason. */
	const char *big = "IOKit  8388608T  0K  0K  0K  0K  0K  0K  1";
	assert_int_equal(vmmap_table_parse_row(big, strlen(big), &t, &row, &why), -1);
	assert_non_null(strstr(why, "larger than 2^63 bytes"));
	/* One terabyte less is read. */
	const char *max = "IOKit  8388607T  0K  0K  0K  0K  0K  0K  1";
	assert_int_equal(vmmap_table_parse_row(max, strlen(max), &t, &row, &why), 0);
	assert_int_equal(row.value[VMMAP_COL_VIRTUAL], UINT64_C(8388607) << 40);

	/* A name whose last word is a figure with a unit: a column too many. */
	const char *extra = "foo 1.9G  16K  0K  0K  0K  0K  0K  0K  1";
	assert_int_equal(vmmap_table_parse_row(extra, strlen(extra), &t, &row, &why), -1);
	assert_non_null(strstr(why, "more figures"));

	/* A note after the columns: the row is read before it. */
	const char *note = "IOSurface  2.6G  2.6G  2.6G  0K  0K  2.6G  0K  662  (see below)";
	assert_int_equal(vmmap_table_parse_row(note, strlen(note), &t, &row, &why), 0);
	assert_int_equal(row.count, 662);
	assert_int_equal(row.name_len, strlen("IOSurface"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_combinations),
		cmocka_unit_test(test_decimals),
		cmocka_unit_test(test_tenths_bytes),
		cmocka_unit_test(test_pages),
		cmocka_unit_test(test_token_limit),
		cmocka_unit_test(test_mixed_lines),
		cmocka_unit_test(test_values),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
