#ifndef IOTALLY_UTIL_SHA256_H
#define IOTALLY_UTIL_SHA256_H

/*
 * SHA-256 (FIPS 180-4) of bytes and files, as lowercase hex. Used for the
 * per-file checksums of capture bundles. The digest is nettle's: a small
 * library (libarchive loads it too), where libcrypto cost every command
 * about a millisecond of dynamic loading. nettle is linked as usual, not
 * loaded on first use (util/lazylib.h).
 */

#include <stddef.h>
#include <stdint.h>

#include <nettle/sha2.h>

#include "util/diag.h"

#define SHA256_HEX_SIZE 65   /* 64 hex digits and a NUL */

struct sha256 {
	struct sha256_ctx ctx;
};

void sha256_begin(struct sha256 *h);
void sha256_add(struct sha256 *h, const void *p, size_t n);
/* Writes the digest into hex; begin again to reuse the state. */
void sha256_end_hex(struct sha256 *h, char hex[SHA256_HEX_SIZE]);

/*
 * Digest and size of an open descriptor, read to its end and closed; `path`
 * names it in messages. 0, or -1 with DIAG_NOINPUT.
 */
int sha256_fd_hex(int fd, const char *path, char hex[SHA256_HEX_SIZE], uint64_t *bytes,
		  struct diag *err);

#endif
