#ifndef IOTALLY_REPORT_JSONTEXT_H
#define IOTALLY_REPORT_JSONTEXT_H

/*
 * The pieces every JSON writer shares.
 *
 * Strings from capture bytes: captures are bytes, JSON wants UTF-8, so
 * invalid sequences become U+FFFD and a stray Latin-1 byte in a path or a
 * symbol never loses the document.
 *
 * Figures: byte counts and counts of the model are at most BYTES_MAX
 * (util/bytes.h), so json_uint() writes them exactly; a larger value is a
 * bug in the model and aborts rather than print a negative number.
 *
 * Documents: json_document_new() starts the root object with its "schema"
 * member (the ids live in model/<kind>.h), json_document_write() prints it
 * the one way all reports are printed (2-space indent, keys in insertion
 * order, a final newline) and frees it.
 */

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/strbuf.h"

json_t *json_text(const char *s);
json_t *json_textn(const char *s, size_t n);
/*
 * Append to sb the bytes jansson prints for json_textn(s, n), quotes
 * included, without building the value (the NDJSON rows, report/ndjson.h).
 * The same rule: valid UTF-8 kept (then '"', '\\' and controls escaped as
 * jansson escapes them), else each invalid byte and each NUL as U+FFFD.
 */
void json_text_append(struct strbuf *sb, const char *s, size_t n);

/* A figure at most BYTES_MAX. */
json_t *json_uint(uint64_t v);
/* "0x1f": addresses and other figures that may pass BYTES_MAX. */
json_t *json_hex(uint64_t v);

/* How every document is printed (report/json_stream.c prints the same way). */
#define JSON_DOCUMENT_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER)

json_t *json_document_new(const char *schema);
/* Print and free root. 0, or -1 when out could not be written. */
int json_document_write(FILE *out, json_t *root);

#endif
