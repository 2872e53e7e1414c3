#ifndef IOTALLY_UTIL_DATETIME_H
#define IOTALLY_UTIL_DATETIME_H

/*
 * Capture times as the captures print them. vmmap's "Date/Time:" header
 * reads "2026-09-05 12:23:00.508 +0000": a date, a time with optional
 * milliseconds, and an optional UTC offset (absent: taken as UTC).
 */

#include <stdbool.h>
#include <stdint.h>

/* Milliseconds since 1970-01-01 UTC; false when `s` is not that form. */
bool datetime_parse(const char *s, int64_t *ms);

#endif
