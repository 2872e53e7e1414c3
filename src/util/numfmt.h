#ifndef IOTALLY_UTIL_NUMFMT_H
#define IOTALLY_UTIL_NUMFMT_H

/*
 * Numbers as printf writes them, without printf: the writers print
 * thousands of figures a capture (histogram rows, vmmap sizes in diffs),
 * and printf's multi-precision float path was most of their time.
 */

#include <stddef.h>

/*
 * printf's "%*.*f" of v (width, decimals 0 to 3) into out, NUL-terminated,
 * and its length: the same bytes as glibc's printf (the exact binary value
 * rounded once, ties to even), by integer arithmetic for finite values from
 * 0 to 2^60; printf itself formats the others.
 */
#define NUMFMT_FIXED_MAX 64
size_t numfmt_fixed(char out[NUMFMT_FIXED_MAX], double v, int width, int decimals);

#endif
