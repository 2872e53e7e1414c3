#ifndef IOTALLY_UTIL_VIEW_H
#define IOTALLY_UTIL_VIEW_H

/*
 * Small helpers over (pointer, length) views of input bytes. Parsers walk
 * views instead of copying lines; none of these allocate.
 */

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

static inline bool
view_is_space(char c)
{
	return c == ' ' || c == '\t';
}

static inline size_t
view_rtrim(const char *p, size_t n)
{
	while (n && (view_is_space(p[n - 1]) || p[n - 1] == '\r'))
		n--;
	return n;
}

static inline const char *
view_ltrim(const char *p, const char *end)
{
	while (p < end && view_is_space(*p))
		p++;
	return p;
}

static inline bool
view_starts(const char *p, size_t n, const char *prefix)
{
	size_t m = strlen(prefix);
	return n >= m && memcmp(p, prefix, m) == 0;
}

/* First occurrence of needle in [p, p+n), or NULL. */
static inline const char *
view_find(const char *p, size_t n, const char *needle)
{
	size_t m = strlen(needle);
	if (m == 0 || n < m)
		return m == 0 ? p : NULL;
	const char *end = p + n - m;
	for (const char *q = p; q <= end; q++) {
		q = memchr(q, needle[0], (size_t)(end - q) + 1);
		if (!q)
			return NULL;
		if (memcmp(q, needle, m) == 0)
			return q;
	}
	return NULL;
}

#endif
