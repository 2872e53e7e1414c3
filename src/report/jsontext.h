#ifndef IOTALLY_REPORT_JSONTEXT_H
#define IOTALLY_REPORT_JSONTEXT_H

/*
 * JSON strings from capture bytes. Captures are bytes, JSON wants UTF-8:
 * invalid sequences become U+FFFD so a stray Latin-1 byte in a path or a
 * symbol never loses the document.
 */

#include <jansson.h>
#include <stddef.h>

json_t *json_text(const char *s);
json_t *json_textn(const char *s, size_t n);

#endif
