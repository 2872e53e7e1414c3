#include "report/textfmt.h"

#include "util/escape.h"
#include "util/numfmt.h"
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

size_t
text_fixed(char out[TEXT_FIXED_MAX], double v, int width, int decimals)
{
	return numfmt_fixed(out, v, width, decimals);
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
