#ifndef IOTALLY_UTIL_ARRAY_H
#define IOTALLY_UTIL_ARRAY_H

/*
 * ARRAY_SIZE(a): the number of elements of an array, for tables whose length
 * the compiler knows (option tables, keyword lists). Given a pointer instead
 * of an array it fails to compile rather than answer sizeof(pointer) / size.
 */

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]) + ARRAY_MUST_BE_ARRAY_(a))

#define ARRAY_MUST_BE_ARRAY_(a) \
	(0 * sizeof(struct { int not_an_array : 1 - 2 * \
		__builtin_types_compatible_p(__typeof__(a), __typeof__(&(a)[0])); }))

#endif
