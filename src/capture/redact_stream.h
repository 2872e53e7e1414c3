#ifndef IOTALLY_CAPTURE_REDACT_STREAM_H
#define IOTALLY_CAPTURE_REDACT_STREAM_H

/*
 * One file read in chunks that end on the safe cuts of capture/redact.h,
 * so each pass of `iotally redact` holds about one chunk, not the file.
 * The chunks are handed on in order and cover the input exactly.
 */

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "util/diag.h"

/* The default chunk size: a chunk is this, or less, or more when no cut is safe. */
#define REDACT_CHUNK (1u << 20)

/* Up to n bytes into buf: their count, 0 at the end, or -1 with *err. */
typedef ssize_t (*redact_read_fn)(void *ctx, void *buf, size_t n, struct diag *err);
/* One chunk: 0, or -1 with *err (which stops the reading). */
typedef int (*redact_chunk_fn)(void *ctx, const char *p, size_t n, struct diag *err);

/*
 * Reads everything `read` gives and hands it to `fn` in chunks of about
 * `chunk` bytes cut by redactor_safe_cut(), or in one chunk when `whole`.
 * 0, or -1 with *err from either function.
 */
int redact_stream(redact_read_fn read, void *rctx, size_t chunk, bool whole,
		  redact_chunk_fn fn, void *fctx, struct diag *err);

#endif
