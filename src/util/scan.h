#ifndef IOTALLY_UTIL_SCAN_H
#define IOTALLY_UTIL_SCAN_H

/*
 * scan_byte(): memchr() for the short spans of the line-by-line hot paths
 * (the end of a line, the "]" of a vmmap region line: typically 80 to 150
 * bytes). A library call costs more than the search on spans this short:
 * on a 250,000-line dump the inline SSE2 loop below took 1.1 ms less CPU
 * than two memchr() calls per line (tools/bench-vmmap). scan_byte2() looks
 * for either of two bytes in one pass (the line reader: a line's end and
 * any NUL byte in it). Where SSE2 is not part of the target, they are
 * memchr(). scan_all_digits() tells a count token from a size.
 */

#include <stddef.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* The first byte c in [p, end), or NULL. Reads no byte outside the span. */
static inline const char *
scan_byte(const char *p, const char *end, char c)
{
#if defined(__SSE2__)
	const __m128i needle = _mm_set1_epi8(c);
	while (end - p >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
		unsigned hits = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, needle));
		if (hits)
			return p + __builtin_ctz(hits);
		p += 16;
	}
	for (; p < end; p++)
		if (*p == c)
			return p;
	return NULL;
#else
	return p < end ? memchr(p, c, (size_t)(end - p)) : NULL;
#endif
}

/* The first byte that is a or b in [p, end), or NULL. Reads no byte outside the span. */
static inline const char *
scan_byte2(const char *p, const char *end, char a, char b)
{
#if defined(__SSE2__)
	const __m128i na = _mm_set1_epi8(a), nb = _mm_set1_epi8(b);
	while (end - p >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
		unsigned hits = (unsigned)_mm_movemask_epi8(
			_mm_or_si128(_mm_cmpeq_epi8(v, na), _mm_cmpeq_epi8(v, nb)));
		if (hits)
			return p + __builtin_ctz(hits);
		p += 16;
	}
	for (; p < end; p++)
		if (*p == a || *p == b)
			return p;
	return NULL;
#else
	const char *pa = scan_byte(p, end, a);
	const char *pb = scan_byte(p, pa ? pa : end, b);
	return pb ? pb : pa;
#endif
}

/* The first byte that is a, b or c in [p, end), or NULL. Reads no byte outside the span. */
static inline const char *
scan_byte3(const char *p, const char *end, char a, char b, char c)
{
#if defined(__SSE2__)
	const __m128i na = _mm_set1_epi8(a), nb = _mm_set1_epi8(b), nc = _mm_set1_epi8(c);
	while (end - p >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
		unsigned hits = (unsigned)_mm_movemask_epi8(_mm_or_si128(
			_mm_or_si128(_mm_cmpeq_epi8(v, na), _mm_cmpeq_epi8(v, nb)),
			_mm_cmpeq_epi8(v, nc)));
		if (hits)
			return p + __builtin_ctz(hits);
		p += 16;
	}
#endif
	for (; p < end; p++)
		if (*p == a || *p == b || *p == c)
			return p;
	return NULL;
}

/* Is [p, p + n) one or more ASCII digits (a count as the tools print it)? */
static inline int
scan_all_digits(const char *p, size_t n)
{
	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (p[i] < '0' || p[i] > '9')
			return 0;
	return 1;
}

#endif
