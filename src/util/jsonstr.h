#ifndef IOTALLY_UTIL_JSONSTR_H
#define IOTALLY_UTIL_JSONSTR_H

/*
 * JSON strings that cannot be refused. jansson's json_string() returns
 * NULL for text that is not valid UTF-8 (a process name is whatever bytes
 * the process chose), and json_object_set_new() with NULL drops the key:
 * a manifest would lose `target` and fail its own schema. Every string a
 * writer takes from the outside goes through here instead.
 *
 * The rule (docs/json/bundle.md): valid UTF-8 (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF) is kept byte for byte;
 * every byte that does not start or belong to a valid sequence becomes
 * the four characters `\xNN` (NN: two upper-case hex digits), the way
 * iotally shows invalid bytes everywhere. A text that already held
 * `\xNN` literally reads the same: the escape is for people, not a round
 * trip.
 */

#include <stddef.h>

#include <jansson.h>

/* Length of the valid UTF-8 sequence at p[0..n), or 0 when p[0] does not start one. */
size_t utf8_sequence_len(const unsigned char *p, size_t n);
/* `s` (n bytes) as valid UTF-8, invalid bytes as `\xNN`; NUL-terminated, owned. */
char *utf8_escape_invalid(const char *s, size_t n, size_t *out_len);
/* A JSON string of `s` by that rule; never NULL (NULL `s` gives JSON null). */
json_t *json_string_safe(const char *s);

#endif
