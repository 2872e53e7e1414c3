#include "util/numfmt.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const uint32_t pow10_small[] = { 1, 10, 100, 1000 };

/*
 * v * 10^decimals rounded to an integer, ties to even, from v's exact
 * binary value m * 2^e (m below 2^53). False when v is not a finite
 * non-negative number small enough for 128 bits: printf formats those.
 */
static bool
scaled_round(double v, int decimals, unsigned __int128 *n)
{
	if (signbit(v) || !(v >= 0.0) || v > 0x1p60)
		return false;
	if (v == 0.0) {
		*n = 0;
		return true;
	}
	int exp;
	double fr = frexp(v, &exp);
	uint64_t m = (uint64_t)ldexp(fr, 53);   /* exact: fr has 53 bits */
	int e = exp - 53;
	unsigned __int128 q = (unsigned __int128)m * pow10_small[decimals];
	if (e >= 0) {
		*n = q << e;   /* below 2^53 * 10^3 * 2^7: no overflow */
		return true;
	}
	int s = -e;
	if (s >= 120) {        /* q < 2^63 <= half of 2^s */
		*n = 0;
		return true;
	}
	unsigned __int128 half = (unsigned __int128)1 << (s - 1);
	unsigned __int128 r = q & ((half << 1) - 1);
	q >>= s;
	if (r > half || (r == half && (q & 1)))
		q++;
	*n = q;
	return true;
}

/* n's decimal digits, least significant first, at least `least` of them;
 * their count. 64-bit division while n fits (no 128-bit library call). */
static size_t
digits_reversed(unsigned __int128 n, size_t least, char d[48])
{
	size_t nd = 0;
	while (n > UINT64_MAX) {
		d[nd++] = (char)('0' + (unsigned)(n % 10));
		n /= 10;
	}
	uint64_t s = (uint64_t)n;
	do {
		d[nd++] = (char)('0' + (unsigned)(s % 10));
		s /= 10;
	} while (s || nd < least);
	return nd;
}

size_t
numfmt_fixed(char out[NUMFMT_FIXED_MAX], double v, int width, int decimals)
{
	unsigned __int128 n;
	if (decimals < 0 || decimals > 3 || width < 0 || width > NUMFMT_FIXED_MAX - 48 ||
	    !scaled_round(v, decimals, &n)) {
		int len = snprintf(out, NUMFMT_FIXED_MAX, "%*.*f", width, decimals, v);
		return len < 0 ? 0 : (size_t)len < NUMFMT_FIXED_MAX ? (size_t)len
								      : NUMFMT_FIXED_MAX - 1;
	}
	char digits[48];
	/* At least decimals + 1 digits: "0.05", not ".05". */
	size_t nd = digits_reversed(n, (size_t)decimals + 1, digits);
	size_t len = nd + (decimals ? 1 : 0);
	size_t pad = (size_t)width > len ? (size_t)width - len : 0;
	char *o = out;
	memset(o, ' ', pad);
	o += pad;
	for (size_t i = nd; i-- > 0;) {
		*o++ = digits[i];
		if (i == (size_t)decimals && decimals)
			*o++ = '.';
	}
	*o = '\0';
	return (size_t)(o - out);
}
