#include "util/array.h"
#include "util/numfmt.h"
#include "util/size.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 2^64 as a double: the first value that no longer fits in uint64_t. */
#define TWO_POW_64 18446744073709551616.0

int
parse_u64_dec(const char *p, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	if (n == 0)
		return SIZE_SYNTAX;
	for (size_t i = 0; i < n; i++) {
		unsigned d = (unsigned char)p[i] - '0';
		if (d > 9)
			return SIZE_SYNTAX;
		if (v > (UINT64_MAX - d) / 10)
			return SIZE_OVERFLOW;
		v = v * 10 + d;
	}
	*out = v;
	return SIZE_OK;
}

int
parse_u64_hex(const char *p, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	if (n == 0)
		return SIZE_SYNTAX;
	/* Up to 16 digits cannot overflow; leading zeros may make n larger. */
	if (n > 16)
		while (n > 16 && *p == '0') {
			p++;
			n--;
		}
	for (size_t i = 0; i < n; i++) {
		unsigned c = (unsigned char)p[i];
		unsigned d = c - '0';
		if (d > 9) {
			d = (c | 0x20) - 'a';
			if (d > 5)
				return SIZE_SYNTAX;
			d += 10;
		}
		v = (v << 4) | d;
	}
	if (n > 16)
		return SIZE_OVERFLOW;
	*out = v;
	return SIZE_OK;
}

/*
 * Decimal text to the nearest double, as strtod does in the C locale.
 * Fast path: when the digits fit in 2^53 and there are at most 22 of them
 * after the point, mantissa / 10^k is one correctly rounded IEEE division.
 */
static int
parse_decimal_double(const char *p, size_t n, double *out)
{
	static const double pow10[] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
		1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
	};
	uint64_t mant = 0;
	size_t digits = 0, frac = 0;
	bool dot = false, big = false;

	for (size_t i = 0; i < n; i++) {
		char c = p[i];
		if (c == '.') {
			if (dot)
				return SIZE_SYNTAX;
			dot = true;
			continue;
		}
		if (c < '0' || c > '9')
			return SIZE_SYNTAX;
		digits++;
		if (dot)
			frac++;
		if (mant > (UINT64_MAX - 9) / 10)
			big = true;
		else
			mant = mant * 10 + (uint64_t)(c - '0');
	}
	if (digits == 0)
		return SIZE_SYNTAX;
	if (!big && mant < (1ull << 53) && frac < ARRAY_SIZE(pow10)) {
		*out = (double)mant / pow10[frac];
		return SIZE_OK;
	}
	char tmp[128];
	if (n >= sizeof(tmp))
		return SIZE_OVERFLOW;
	memcpy(tmp, p, n);
	tmp[n] = '\0';
	*out = strtod(tmp, NULL);
	return SIZE_OK;
}

static double
unit_multiplier(char unit)
{
	switch (unit) {
	case 'B':
		return 1.0;
	case 'K':
		return 1024.0;
	case 'M':
		return 1048576.0;
	case 'G':
		return 1073741824.0;
	case 'T':
		return 1099511627776.0;
	default:
		return 0.0;
	}
}

int
size_parse_vmmap(const char *p, size_t n, uint64_t *out)
{
	double mult = 1.0, v;

	/* Fast path for the common "64K" / "0K" / "2560": whole numbers are
	 * exact in a double, so int(float(n) * unit) == n * unit. */
	if (n && n <= 12) {
		uint64_t whole = 0;
		size_t i = 0;
		while (i < n && (unsigned)(p[i] - '0') <= 9)
			whole = whole * 10 + (uint64_t)(p[i++] - '0');
		if (i > 0 && i == n) {
			*out = whole;
			return SIZE_OK;
		}
		if (i > 0 && i + 1 == n && p[i] == 'K') {
			*out = whole << 10;
			return SIZE_OK;
		}
	}
	if (n && (p[n - 1] < '0' || p[n - 1] > '9') && p[n - 1] != '.') {
		mult = unit_multiplier(p[n - 1]);
		if (mult == 0.0)
			return SIZE_SYNTAX;
		n--;
	}
	int rc = parse_decimal_double(p, n, &v);
	if (rc != SIZE_OK)
		return rc;
	double bytes = v * mult;
	if (!(bytes < TWO_POW_64))
		return SIZE_OVERFLOW;
	*out = (uint64_t)bytes;
	return SIZE_OK;
}

/*
 * The figure in the largest unit that keeps it below vmmap's width (bytes
 * below 4 KiB, K below 10000K, then M, G, T with one decimal), as printf
 * would print it ("%llu", "%.0fK", "%.1fM"; the threshold tests are on the
 * same doubles), formatted by numfmt_fixed(): a diff prints two a changed
 * row, and printf's float path was a third of diff's text writer.
 */
void
size_format_vmmap(uint64_t bytes, char out[32])
{
	if (bytes == 0) {
		memcpy(out, "0K", 3);
		return;
	}
	double kb = (double)bytes / 1024.0, v = kb;
	int decimals = 1;
	char unit = 'K';
	if (kb < 4.0) {
		v = (double)bytes;   /* exact: below 4096 */
		decimals = 0;
		unit = '\0';
	} else if (kb < 10000.0) {
		decimals = 0;
	} else if ((v = kb / 1024.0) < 1000.0) {
		unit = 'M';
	} else if ((v /= 1024.0) < 1000.0) {
		unit = 'G';
	} else {
		v /= 1024.0;
		unit = 'T';
	}
	char text[NUMFMT_FIXED_MAX];
	/* At most 2^64 / 2^40 < 10^8 T: "16777216.0T" and its NUL fit in 32. */
	size_t n = numfmt_fixed(text, v, 0, decimals);
	memcpy(out, text, n);
	out[n] = unit;
	out[n + (unit != '\0')] = '\0';
}

static int
unit_shift(const char *s, size_t n, unsigned *shift)
{
	static const char units[] = "BKMGT";
	if (n == 0) {
		*shift = 0;
		return 0;
	}
	char u = (char)(s[0] & ~0x20);
	const char *at = strchr(units, u);
	if (!at || u == '\0')
		return -1;
	*shift = (unsigned)(at - units) * 10;
	const char *rest = s + 1;
	size_t rn = n - 1;
	if (u == 'B')
		return rn == 0 ? 0 : -1;
	if (rn == 0 || (rn == 1 && (rest[0] | 0x20) == 'b'))
		return 0;
	if (rn == 2 && (rest[0] | 0x20) == 'i' && (rest[1] | 0x20) == 'b')
		return 0;
	return -1;
}

int
size_parse_user(const char *s, uint64_t *out)
{
	size_t n = strlen(s);
	if (n > 2 && s[0] == '0' && (s[1] | 0x20) == 'x')
		return parse_u64_hex(s + 2, n - 2, out);

	size_t i = 0;
	unsigned __int128 mant = 0, scale = 1;
	bool dot = false;
	size_t digits = 0;
	for (; i < n && ((s[i] >= '0' && s[i] <= '9') || s[i] == '.'); i++) {
		if (s[i] == '.') {
			if (dot)
				return SIZE_SYNTAX;
			dot = true;
			continue;
		}
		if (++digits > 30)
			return SIZE_OVERFLOW;
		mant = mant * 10 + (unsigned)(s[i] - '0');
		if (dot)
			scale *= 10;
	}
	if (digits == 0)
		return SIZE_SYNTAX;
	unsigned shift;
	if (unit_shift(s + i, n - i, &shift) < 0)
		return SIZE_SYNTAX;
	if (mant > ((unsigned __int128)UINT64_MAX << 20))
		return SIZE_OVERFLOW;
	unsigned __int128 bytes = mant << shift;
	if (bytes % scale != 0)
		return SIZE_SYNTAX;
	bytes /= scale;
	if (bytes > UINT64_MAX)
		return SIZE_OVERFLOW;
	*out = (uint64_t)bytes;
	return SIZE_OK;
}

void
size_format_binary(uint64_t bytes, char out[32])
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	unsigned u = 0;
	while (u < 6 && bytes >> (10 * (u + 1)) != 0)
		u++;
	if (u == 0) {
		snprintf(out, 32, "%" PRIu64 " B", bytes);
		return;
	}
	uint64_t whole = bytes >> (10 * u);
	uint64_t rest = bytes & ((UINT64_C(1) << (10 * u)) - 1);
	/* Hundredths of the unit, rounded half up, and whether that is exact. */
	unsigned __int128 scaled = (unsigned __int128)rest * 100;
	uint64_t cents = (uint64_t)(scaled >> (10 * u));
	bool exact = (scaled & ((UINT64_C(1) << (10 * u)) - 1)) == 0;
	if (!exact && (scaled >> (10 * u - 1)) & 1)
		cents++;
	if (cents == 100) {
		whole++;
		cents = 0;
	}
	const char *approx = exact ? "" : "~";
	if (cents == 0)
		snprintf(out, 32, "%s%" PRIu64 " %s", approx, whole, units[u]);
	else if (cents % 10 == 0)
		snprintf(out, 32, "%s%" PRIu64 ".%u %s", approx, whole, (unsigned)(cents / 10 % 10),
			 units[u]);
	else
		snprintf(out, 32, "%s%" PRIu64 ".%02u %s", approx, whole, (unsigned)(cents % 100),
			 units[u]);
}

void
size_format_binary_delta(int64_t delta, char out[32])
{
	char mag[32];
	uint64_t m = delta < 0 ? (uint64_t)0 - (uint64_t)delta : (uint64_t)delta;
	size_format_binary(m, mag);
	bool approx = mag[0] == '~';
	snprintf(out, 32, "%s%s%s", approx ? "~" : "", delta > 0 ? "+" : delta < 0 ? "-" : "",
		 mag + approx);
}

void
size_format_text(int64_t v, unsigned flags, char out[32])
{
	char mag[32];
	bool sign = (flags & SIZE_TEXT_SIGNED) != 0;
	uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	size_format_binary(m, mag);
	bool approx = mag[0] == '~' || (flags & SIZE_TEXT_ROUNDED);
	const char *digits = mag[0] == '~' ? mag + 1 : mag;
	const char *s = v < 0 ? "-" : sign && v > 0 ? "+" : "";
	snprintf(out, 32, "%s%s%.28s", approx ? "~" : "", s, digits);
}
