#ifndef IOTALLY_UTIL_SHA256_H
#define IOTALLY_UTIL_SHA256_H

/*
 * SHA-256 of bytes and files, as lowercase hex (OpenSSL's EVP interface;
 * its types stay in sha256.c). Used for the per-file checksums of capture
 * bundles. Out of memory or a failing digest context aborts like xmalloc.
 */

#include <stddef.h>
#include <stdint.h>

#include "util/diag.h"

#define SHA256_HEX_SIZE 65   /* 64 hex digits and a NUL */

struct sha256 {
	void *ctx;   /* EVP_MD_CTX */
};

void sha256_begin(struct sha256 *h);
void sha256_add(struct sha256 *h, const void *p, size_t n);
/* Writes the digest into hex and frees the context. */
void sha256_end_hex(struct sha256 *h, char hex[SHA256_HEX_SIZE]);

/* Digest and size of a whole file. 0, or -1 with DIAG_NOINPUT. */
int sha256_file_hex(const char *path, char hex[SHA256_HEX_SIZE], uint64_t *bytes,
		    struct diag *err);

#endif
