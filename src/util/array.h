#ifndef IOTALLY_UTIL_ARRAY_H
#define IOTALLY_UTIL_ARRAY_H

/*
 * ARRAY_SIZE(a): the number of elements of an array, for tables whose length
 * the compiler knows (option tables, keyword lists). Given a pointer instead
 * of an array it fails to compile rather than answer sizeof(pointer) / size.
 */

#include <stdlib.h>
#include <string.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]) + ARRAY_MUST_BE_ARRAY_(a))

#define ARRAY_MUST_BE_ARRAY_(a) \
	(0 * sizeof(struct { int not_an_array : 1 - 2 * \
		__builtin_types_compatible_p(__typeof__(a), __typeof__(&(a)[0])); }))

/*
 * qsort() and memcpy() of an array that may be empty. An empty array is
 * often NULL (never allocated), and the C library declares both pointers
 * nonnull whatever the length: NULL with a length of 0 is undefined
 * behaviour (UBSan aborts on it). So an empty array is not passed at all:
 * for the arrays that may be empty and never allocated.
 */
static inline void
array_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

/* Copy n elements of `size` bytes (dst holds them: n * size does not overflow). */
static inline void
array_copy(void *dst, const void *src, size_t n, size_t size)
{
	if (n)
		memcpy(dst, src, n * size);
}

#endif
