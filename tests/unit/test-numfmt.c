/*
 * numfmt_fixed() against printf, the reference it must equal byte for
 * byte: every width and decimal count it takes and some it hands to
 * printf, zero and negative zero, exact ties at every decimal count,
 * integers and halves around 2^53, values near 2^60 (where the integer
 * path ends and its digits pass 2^64), integers of every width (INT64_MAX,
 * INT64_MIN's magnitude and UINT64_MAX among them) and byte counts of every
 * width over 2^10, 2^20, 2^30 and 2^40.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "util/numfmt.h"

static void
check(double v, int width, int decimals)
{
	char got[NUMFMT_FIXED_MAX], want[NUMFMT_FIXED_MAX];
	size_t n = numfmt_fixed(got, v, width, decimals);
	snprintf(want, sizeof(want), "%*.*f", width, decimals, v);
	if (strcmp(got, want) != 0 || n != strlen(want))
		fail_msg("%%%d.%df of %a: got '%s' (%zu), printf '%s'", width, decimals, v, got,
			 n, want);
}

static void
check_all_forms(double v)
{
	for (int d = 0; d <= 4; d++)
		for (int w = 0; w <= 18; w += 3)
			check(v, w, d);
}

static void
test_edges(void **state)
{
	(void)state;
	static const double edges[] = {
		0.0, -0.0, 0.05, 0.125, 0.375, 0.25, 0.75, 0.5, 1.5, 2.5, 0.005, 0.015, 0.0005,
		0.9995, 0.995, 9.995, 99.995, 999.95, 9999.5, 1e-300, 5e-324, 0x1p52, 0x1p52 + 0.5,
		0x1p53, 0x1p53 + 2, 0x1p60, 0x1p60 - 256, 0x1p60 + 256, 0x1p61, 0x1p63, 0x1p64,
		1e30, -1.5, 12345678.125, 4095.9999999, 1.0 / 3.0,
		(double)INT64_MAX, (double)INT64_MIN, (double)UINT64_MAX,
	};
	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
		check_all_forms(edges[i]);
	/* Widths past what the integer path takes go to printf, still equal. */
	check(1.5, 16, 2);
	check(1.5, 40, 1);
}

static void
test_generated(void **state)
{
	(void)state;
	uint64_t x = UINT64_C(0x9E3779B97F4A7C15);
	for (int i = 0; i < 100000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		uint64_t bytes = x >> (x & 63);
		check_all_forms((double)bytes);
		check((double)bytes / 1024.0, 8, 1);
		check((double)bytes / 1048576.0, 7, 2);
		check((double)bytes / 1073741824.0, 0, 1);
		check((double)bytes / 1099511627776.0, 0, 3);
		/* Odd multiples of half the last decimal's unit: ties. */
		double odd = (double)((bytes >> 20) | 1);
		check(odd / 2.0, 0, 0);
		check(odd / 4.0, 0, 1);
		check(odd / 8.0, 0, 2);
		check(odd / 16.0, 0, 3);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_generated),
	};
	return cmocka_run_group_tests_name("numfmt", tests, NULL, NULL);
}
