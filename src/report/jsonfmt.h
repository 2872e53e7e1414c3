#ifndef IOTALLY_REPORT_JSONFMT_H
#define IOTALLY_REPORT_JSONFMT_H

/*
 * JSON helpers shared by the JSON writers (jansson).
 */

#include <jansson.h>
#include <stddef.h>

/*
 * Bytes from a capture as a JSON string. JSON wants UTF-8: invalid
 * sequences become U+FFFD so one stray Latin-1 byte never loses the
 * document. Never NULL (json_null() when jansson is out of memory).
 */
json_t *json_text_n(const char *s, size_t n);
json_t *json_text(const char *s);

#endif
