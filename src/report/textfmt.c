#include "report/textfmt.h"

#include "util/escape.h"
#include "util/strbuf.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

size_t
text_width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
	return w;
}

void
text_pad_right(FILE *out, const char *s, size_t width)
{
	struct strbuf tmp = STRBUF_INIT;
	const char *shown = escape_str(&tmp, s);
	fputs(shown, out);
	for (size_t w = text_width(shown); w < width; w++)
		fputc(' ', out);
	strbuf_release(&tmp);
}

static double
mib(uint64_t bytes)
{
	/* One rounding (to double), then an exact scaling by 2^-20: the same
	 * value as an exact integer division rounded once. */
	return (double)bytes / 1048576.0;
}

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

size_t
text_fixed(char out[TEXT_FIXED_MAX], double v, int width, int decimals)
{
	unsigned __int128 n;
	if (decimals < 0 || decimals > 3 || width < 0 || width > TEXT_FIXED_MAX - 48 ||
	    !scaled_round(v, decimals, &n)) {
		int len = snprintf(out, TEXT_FIXED_MAX, "%*.*f", width, decimals, v);
		return len < 0 ? 0 : (size_t)len < TEXT_FIXED_MAX ? (size_t)len : TEXT_FIXED_MAX - 1;
	}
	char digits[48];
	size_t nd = 0;
	/* At least decimals + 1 digits: "0.05", not ".05". */
	do {
		digits[nd++] = (char)('0' + (unsigned)(n % 10));
		n /= 10;
	} while (n || nd <= (size_t)decimals);
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

/* Below 2^53 a size converts to double exactly: the integer path applies. */
#define MB_EXACT_LIMIT ((uint64_t)1 << 53)

size_t
text_fixed_mb(char out[TEXT_FIXED_MAX], uint64_t bytes)
{
	if (bytes >= MB_EXACT_LIMIT) {
		size_t n = text_fixed(out, mib(bytes), 7, 2);
		memcpy(out + n, " MB", 4);
		return n + 3;
	}
	/*
	 * Hundredths of MiB: bytes * 100 / 2^20 = bytes * 25 / 2^18 (below
	 * 2^58), rounded to the nearest, ties to even, as printf rounds the
	 * double's exact value (bytes / 2^20 is exact below 2^53).
	 */
	uint64_t x = bytes * 25;
	uint64_t n = x >> 18, r = x & (((uint64_t)1 << 18) - 1);
	const uint64_t half = (uint64_t)1 << 17;
	n += r > half || (r == half && (n & 1));
	char digits[24];
	size_t nd = 0;
	do {
		digits[nd++] = (char)('0' + (unsigned)(n % 10));
		n /= 10;
	} while (n || nd <= 2);
	char *o = out;
	for (size_t len = nd + 1; len < 7; len++)
		*o++ = ' ';
	for (size_t i = nd; i-- > 0;) {
		*o++ = digits[i];
		if (i == 2)
			*o++ = '.';
	}
	memcpy(o, " MB", 4);
	return (size_t)(o - out) + 3;
}

void
text_mb(FILE *out, uint64_t bytes)
{
	char buf[TEXT_FIXED_MAX];
	fwrite(buf, 1, text_fixed_mb(buf, bytes), out);
}

void
text_mb_trim(FILE *out, uint64_t bytes)
{
	char buf[TEXT_FIXED_MAX];
	fwrite(buf, 1, text_fixed(buf, mib(bytes), 0, 2), out);
	fputs(" MB", out);
}

void
text_repeat(FILE *out, char c, size_t n)
{
	while (n--)
		fputc(c, out);
}
