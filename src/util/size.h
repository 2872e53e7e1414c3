#ifndef IOTALLY_UTIL_SIZE_H
#define IOTALLY_UTIL_SIZE_H

/*
 * Byte counts as the Apple tools print them, and as users type them.
 * All results are exact 64-bit integers; overflow is an error, never a wrap.
 */

#include <stddef.h>
#include <stdint.h>

enum size_status {
	SIZE_OK = 0,
	SIZE_SYNTAX = -1,
	SIZE_OVERFLOW = -2,
};

/*
 * A vmmap size token: digits with an optional fraction and an optional
 * binary unit B, K, M, G or T ("0K", "2560", "18.5M", "1.5G").
 * The result is computed the way vmmap's readers always have
 * (value as a double, times the unit, truncated), so that a figure derived
 * from a rounded token matches what other tools derive from it.
 */
int size_parse_vmmap(const char *p, size_t n, uint64_t *out);

/* vmmap's own rendering of a byte count ("0K", "3856", "8192K", "18.5M", "1.5G", "2.0T"). */
void size_format_vmmap(uint64_t bytes, char out[32]);

/*
 * A byte count in binary units for people: "0 B", "512 B", "16 KiB",
 * "1.5 MiB", "~1.23 GiB". The unit is the largest whose value is at least
 * 1; up to two decimals, trailing zeros dropped; a leading "~" says the
 * figure is rounded (the exact count is not a multiple of 1/100 unit).
 */
void size_format_binary(uint64_t bytes, char out[32]);

/* A signed byte delta the same way: "+16 KiB", "-1.5 MiB", "~+1.23 MiB", "0 B". */
void size_format_binary_delta(int64_t delta, char out[32]);

/*
 * The one byte formatter of the text outputs (report, diff, trend,
 * footprint, listings): size_format_binary()'s units and rounding, signed
 * with SIZE_TEXT_SIGNED ("+16 KiB"; 0 is "0 B"), and with SIZE_TEXT_ROUNDED
 * marked "~" even when it shows exactly: the figure itself was rounded
 * before it got here (vmmap's "18.5M", footprint's "~922 MiB", a fitted
 * slope), so its last digit is not exact either. Exact bytes go to JSON,
 * NDJSON, CSV and tooltips, never through here.
 */
#define SIZE_TEXT_SIGNED  1u
#define SIZE_TEXT_ROUNDED 2u
void size_format_text(int64_t v, unsigned flags, char out[32]);

/*
 * A size typed by a user: decimal or 0x hex, optional fraction, optional
 * binary unit K, M, G, T with optional "iB"/"B" suffix, case-insensitive
 * ("4096", "0x1000", "64K", "1MiB", "1.5G"). A fraction must give whole bytes.
 */
int size_parse_user(const char *s, uint64_t *out);

/* Unsigned decimal / hexadecimal (no 0x) integers over a view, all bytes used. */
int parse_u64_dec(const char *p, size_t n, uint64_t *out);
int parse_u64_hex(const char *p, size_t n, uint64_t *out);

#endif
