/*
 * The text report's hand-formatted sizes and summary rows
 * (report/textfmt.c text_fixed_mb, report/vmmap_text.c) against what
 * glibc's printf writes: every rounding tie of the last decimal (bytes =
 * an odd multiple of 2^17: x.xx5 MiB exactly) both ways to even, every
 * size below 2^20, sizes spread over all magnitudes, the 2^53 edge where
 * the integer path gives way to text_fixed(); and whole rows against the
 * fprintf code the report used before (text_pad_right, "%5" PRIu64,
 * "%10s"), with names short, long, non-ASCII and with control bytes.
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

#include "report/textfmt.h"
#include "report/vmmap_text.h"

static void
check_mb(uint64_t bytes)
{
	char want[128], got[TEXT_FIXED_MAX];
	snprintf(want, sizeof(want), "%7.2f MB", (double)bytes / 1048576.0);
	size_t n = text_fixed_mb(got, bytes);
	assert_int_equal(n, strlen(got));
	if (strcmp(got, want) != 0)
		fail_msg("bytes %" PRIu64 ": got '%s', printf '%s'", bytes, got, want);
}

/* A deterministic 64-bit generator (splitmix64): the same values every run. */
static uint64_t
next_u64(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static void
test_mb_matches_printf(void **state)
{
	(void)state;
	/* Ties: bytes * 100 / 2^20 ends in exactly one half. */
	for (uint64_t j = 1; j < 400000; j += 2)
		check_mb(j << 17);
	/* Ties far up, where the integer part is large. */
	for (uint64_t j = (UINT64_C(1) << 35) + 1; j < (UINT64_C(1) << 35) + 20001; j += 2)
		check_mb(j << 17);
	for (uint64_t b = 0; b < (UINT64_C(1) << 20); b++)
		check_mb(b);
	/* Around the 2^53 edge and the top of the range. */
	for (uint64_t d = 0; d < 4096; d++) {
		check_mb((UINT64_C(1) << 53) - d);
		check_mb((UINT64_C(1) << 53) + d);
		check_mb(UINT64_MAX - d);
	}
	uint64_t s = 42;
	for (int i = 0; i < 2000000; i++) {
		uint64_t v = next_u64(&s);
		check_mb(v >> (v & 63));
	}
}

/* The row as the report's fprintf code wrote it. */
static char *
reference_row(const struct vmmap_summary_row *row, size_t *len)
{
	char *buf = NULL;
	FILE *out = open_memstream(&buf, len);
	assert_non_null(out);
	text_pad_right(out, row->name, 26);
	if (row->has_count)
		fprintf(out, " | %5" PRIu64, row->count);
	else
		fprintf(out, " | %5s", "-");
	for (int c = 0; c < VMMAP_COL_SIZES; c++) {
		fputs(" | ", out);
		if (row->present & (1u << c))
			fprintf(out, "%7.2f MB", (double)row->value[c] / 1048576.0);
		else
			fprintf(out, "%10s", "-");
	}
	fputc('\n', out);
	fclose(out);
	return buf;
}

static void
check_row(const struct vmmap_summary_row *row)
{
	size_t wn;
	char *want = reference_row(row, &wn);
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "before|");   /* appended, not written over */
	vmmap_text_add_summary_row(&sb, row);
	assert_int_equal(sb.len, 7 + wn);
	assert_memory_equal(sb.buf, "before|", 7);
	if (memcmp(sb.buf + 7, want, wn) != 0)
		fail_msg("got '%s', want '%s'", sb.buf + 7, want);
	strbuf_release(&sb);
	free(want);
}

static void
test_rows_match_fprintf(void **state)
{
	(void)state;
	static const char *const names[] = {
		"IOAccelerator", "", "a", "IOAccelerator (graphics)", "exactly twenty-six chars!!",
		"a name longer than the twenty-six characters of the column",
		"R\xc3\xa9gion \xe6\x97\xa5\xe6\x9c\xac", ("ctl\x01" "byte\x1b[31m"), "bad utf8 \xff\xfe",
		"Memory Tag 241",
	};
	uint64_t s = 7;
	for (size_t k = 0; k < 20000; k++) {
		struct vmmap_summary_row row;
		memset(&row, 0, sizeof(row));
		row.name = names[k % (sizeof(names) / sizeof(names[0]))];
		row.name_len = strlen(row.name);
		if (k % 97 == 0) {   /* a NUL in the name: shown up to it, as before */
			row.name = "NUL\0after";
			row.name_len = 9;
		}
		uint64_t r = next_u64(&s);
		row.has_count = (r & 7) != 0;
		row.count = (r >> 8) >> ((r >> 3) & 63);
		row.present = (unsigned)(next_u64(&s) & ((1u << VMMAP_COL_SIZES) - 1));
		if (k % 3 == 0)
			row.present = (1u << VMMAP_COL_SIZES) - 1;
		for (int c = 0; c < VMMAP_COL_SIZES; c++) {
			uint64_t v = next_u64(&s);
			row.value[c] = v >> (v & 63);
		}
		/* As vmmap_dump_add_summary_row() keeps the row: to its first NUL. */
		row.text_len = strnlen(row.name, row.name_len);
		check_row(&row);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mb_matches_printf),
		cmocka_unit_test(test_rows_match_fprintf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
