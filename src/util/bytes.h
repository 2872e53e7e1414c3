#ifndef IOTALLY_UTIL_BYTES_H
#define IOTALLY_UTIL_BYTES_H

/*
 * One byte arithmetic for the whole program.
 *
 * Every byte count and every sum of byte counts stays at or below BYTES_MAX
 * (2^63 - 1), so that JSON's signed 64-bit integers carry it exactly. No Mac
 * has 8 EiB of address space: a larger figure only comes from corrupt or
 * hostile input, and is either an error or reported as capped, never wrapped.
 *
 * Two ways to add:
 *   bytes_add()         checked: the sum, or false with *sum unchanged when it
 *                       would pass BYTES_MAX. For sums a report shows: the
 *                       caller turns false into an input error.
 *   bytes_add_capped()  saturating: the sum, held at BYTES_MAX when it would
 *                       pass it, and *capped set (never cleared). For sums
 *                       only compared or summarised: the caller reports the
 *                       flag ("at least ...", a warning) instead of a figure.
 */

#include <stdbool.h>
#include <stdint.h>

#define BYTES_MAX ((uint64_t)INT64_MAX)

static inline bool
bytes_fit(uint64_t v)
{
	return v <= BYTES_MAX;
}

static inline bool
bytes_add(uint64_t *sum, uint64_t v)
{
	uint64_t s;
	if (__builtin_add_overflow(*sum, v, &s) || s > BYTES_MAX)
		return false;
	*sum = s;
	return true;
}

static inline void
bytes_add_capped(uint64_t *sum, uint64_t v, bool *capped)
{
	if (!bytes_add(sum, v)) {
		*sum = BYTES_MAX;
		*capped = true;
	}
}

#endif
