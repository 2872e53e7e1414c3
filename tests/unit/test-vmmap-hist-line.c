/*
 * The histogram row formatter (report/vmmap_hist_line.c) against glibc's
 * printf of the same format: ties in the last decimal (both ways of
 * rounding to even), sizes and products at and past 2^53 (where the
 * integer paths give way to text_fixed), counts wider than the four-byte
 * field, zeros, and every bar length.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "report/vmmap_hist_line.h"

/* The row as printf writes it: the format the report always used. */
static size_t
reference_row(char *out, size_t size, const struct vmmap_hist_bucket *b, uint64_t count,
	      unsigned bar)
{
	unsigned __int128 mem = (unsigned __int128)b->vsize * count;
	int n = snprintf(out, size,
			 "%8.1f KB | %4" PRIu64 " entries (N:%4" PRIu64 " V:%4" PRIu64
			 " E:%4" PRIu64 " -:%4" PRIu64 ") | %7.2f MB | ",
			 (double)b->vsize / 1024.0, count,
			 (uint64_t)b->purge[VMMAP_PURGE_N], (uint64_t)b->purge[VMMAP_PURGE_V],
			 (uint64_t)b->purge[VMMAP_PURGE_E], (uint64_t)b->purge[VMMAP_PURGE_NONE],
			 (double)mem / 1048576.0);
	assert_true(n > 0 && (size_t)n + bar + 2 < size);
	memset(out + n, '*', bar);
	out[(size_t)n + bar] = '\n';
	return (size_t)n + bar + 1;
}

static void
check_row(uint64_t vsize, uint32_t count, unsigned bar)
{
	struct vmmap_hist_bucket b;
	memset(&b, 0, sizeof(b));
	b.vsize = vsize;
	b.purge[VMMAP_PURGE_N] = count / 2;
	b.purge[VMMAP_PURGE_V] = count / 3;
	b.purge[VMMAP_PURGE_E] = count / 7;
	b.purge[VMMAP_PURGE_NONE] = count - b.purge[0] - b.purge[1] - b.purge[2];
	char want[1024], got[VMMAP_HIST_LINE_MAX + 1];
	size_t wn = reference_row(want, sizeof(want), &b, count, bar);
	size_t gn = vmmap_hist_line(got, &b, bar);
	want[wn] = got[gn] = '\0';
	assert_string_equal(got, want);
}

static void
test_rows_match_printf(void **state)
{
	(void)state;
	static const uint64_t sizes[] = {
		0, 1, 51, 52, 256, 768, 1024, 1075, 1126, 4096, 16384, 16435,
		UINT64_C(1) << 20, (UINT64_C(1) << 20) + 5243, 3 * (UINT64_C(1) << 30),
		(UINT64_C(1) << 53) - 1, UINT64_C(1) << 53, (UINT64_C(1) << 53) + 1,
		(UINT64_C(1) << 53) + 3, UINT64_C(1) << 62, (UINT64_C(1) << 63) - 1,
		UINT64_MAX,
	};
	/* Up to the most a bucket holds (VMMAP_HIST_COUNT_MAX). */
	static const uint32_t counts[] = {
		0, 1, 2, 3, 9999, 10000, 123456789, UINT32_C(1) << 31,
		VMMAP_HIST_COUNT_MAX - 1, VMMAP_HIST_COUNT_MAX,
	};
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]); k++)
			check_row(sizes[i], counts[k], (unsigned)((i + k) % (VMMAP_HIST_BAR_MAX + 1)));
	/* Every tie of the two figures' last decimal below 2^22, and its neighbours. */
	for (uint64_t v = 0; v < (UINT64_C(1) << 22); v += 256) {
		check_row(v, 1, 0);
		check_row(v + 1, 1, 0);
		check_row(v, 5, VMMAP_HIST_BAR_MAX);
	}
	/* Products near 2^53 from sizes below it. */
	check_row((UINT64_C(1) << 52) + 1, 2, 1);
	check_row((UINT64_C(1) << 52) - 1, 2, 1);
	check_row(UINT64_C(3) << 50, 3, 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_match_printf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
