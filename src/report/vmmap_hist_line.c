#include "report/vmmap_hist_line.h"

#include "report/textfmt.h"

#include <stdint.h>
#include <string.h>

/* Below 2^53 a size converts to double exactly: the integer paths apply. */
#define EXACT_LIMIT ((uint64_t)1 << 53)

/*
 * "%*.*f" of the integer n / 10^decimals (n already rounded), right-aligned
 * to width: the digits of n with the point put in, at least one before it.
 * Written from the right into a scratch buffer, then copied after the
 * padding in two block moves: a row has six such fields, and byte loops
 * for the digits' order and the padding were half of the histogram's
 * writing time.
 */
static char *
put_fixed(char *o, uint64_t n, int width, int decimals)
{
	char tmp[32];
	char *end = tmp + sizeof(tmp), *p = end;
	int k = 0;   /* digits written */
	do {
		*--p = (char)('0' + (unsigned)(n % 10));
		n /= 10;
		if (++k == decimals)
			*--p = '.';
	} while (n || k <= decimals);
	size_t len = (size_t)(end - p);
	if (len < (size_t)width) {
		memset(o, ' ', (size_t)width - len);
		o += (size_t)width - len;
	}
	memcpy(o, p, len);
	return o + len;
}

/* x / 2^shift rounded to an integer, ties to even (x below 2^64). */
static uint64_t
shift_round_even(uint64_t x, unsigned shift)
{
	uint64_t q = x >> shift, r = x & (((uint64_t)1 << shift) - 1);
	uint64_t half = (uint64_t)1 << (shift - 1);
	return q + (r > half || (r == half && (q & 1)));
}

/* "%8.1f" of vsize / 1024.0. */
static char *
put_kb(char *o, uint64_t vsize)
{
	if (vsize < EXACT_LIMIT)   /* tenths of KiB: vsize * 10 / 2^10 = vsize * 5 / 2^9 */
		return put_fixed(o, shift_round_even(vsize * 5, 9), 8, 1);
	char buf[TEXT_FIXED_MAX];
	size_t n = text_fixed(buf, (double)vsize / 1024.0, 8, 1);
	memcpy(o, buf, n);
	return o + n;
}

/* "%7.2f" of mem / 1048576.0 (mem converted to double first). */
static char *
put_mb(char *o, unsigned __int128 mem)
{
	if (mem < EXACT_LIMIT)     /* hundredths of MiB: mem * 100 / 2^20, below 2^60 */
		return put_fixed(o, shift_round_even((uint64_t)mem * 100, 20), 7, 2);
	char buf[TEXT_FIXED_MAX];
	size_t n = text_fixed(buf, (double)mem / 1048576.0, 7, 2);
	memcpy(o, buf, n);
	return o + n;
}

/* "%4llu": below 10^4 four bytes of padding written at once, then the digits. */
static char *
put_count(char *o, uint64_t v)
{
	if (v < 10000) {
		memcpy(o, "    ", 4);
		char *p = o + 4;
		do {
			*--p = (char)('0' + (unsigned)(v % 10));
			v /= 10;
		} while (v);
		return o + 4;
	}
	return put_fixed(o, v, 4, 0);
}

static char *
put_str(char *o, const char *s, size_t n)
{
	memcpy(o, s, n);
	return o + n;
}

#define PUT_LIT(o, lit) put_str((o), (lit), sizeof(lit) - 1)

size_t
vmmap_hist_line(char out[VMMAP_HIST_LINE_MAX], const struct vmmap_hist_bucket *b,
		unsigned bar)
{
	uint64_t count = vmmap_hist_bucket_count(b);
	unsigned __int128 mem = (unsigned __int128)b->vsize * count;
	char *o = out;
	o = put_kb(o, b->vsize);
	o = PUT_LIT(o, " KB | ");
	o = put_count(o, count);
	o = PUT_LIT(o, " entries (N:");
	o = put_count(o, b->purge[VMMAP_PURGE_N]);
	o = PUT_LIT(o, " V:");
	o = put_count(o, b->purge[VMMAP_PURGE_V]);
	o = PUT_LIT(o, " E:");
	o = put_count(o, b->purge[VMMAP_PURGE_E]);
	o = PUT_LIT(o, " -:");
	o = put_count(o, b->purge[VMMAP_PURGE_NONE]);
	o = PUT_LIT(o, ") | ");
	o = put_mb(o, mem);
	o = PUT_LIT(o, " MB | ");
	if (bar > VMMAP_HIST_BAR_MAX)
		bar = VMMAP_HIST_BAR_MAX;
	memset(o, '*', bar);
	o += bar;
	*o++ = '\n';
	return (size_t)(o - out);
}
