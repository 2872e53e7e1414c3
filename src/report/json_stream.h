#ifndef IOTALLY_REPORT_JSON_STREAM_H
#define IOTALLY_REPORT_JSON_STREAM_H

/*
 * A JSON document whose one large member, an array of the root object, is
 * written element by element, so that memory holds one element at a time
 * instead of the whole tree (a listing of 200,000 records).
 *
 * The bytes are exactly those json_document_write() (report/jsontext.h)
 * would write with the elements in the array: the root (with the member as
 * an empty array placeholder) is dumped as text and the elements are
 * written where the placeholder is, each indented to its depth.
 */

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "util/diag.h"

/* Element i as a new reference, or NULL with *err set. */
typedef json_t *(*json_stream_element_fn)(void *ctx, size_t i, struct diag *err);

/*
 * Print root, with its member `key` (an empty array in root) holding the n
 * elements element(ctx, 0..n-1), and free it. 0, or -1 with *err set
 * (DIAG_IOERR when writing fails).
 */
int json_document_write_streamed(FILE *out, json_t *root, const char *key, size_t n,
				 json_stream_element_fn element, void *ctx, struct diag *err);

#endif
