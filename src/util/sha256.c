#include "util/sha256.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void
die(const char *what)
{
	fprintf(stderr, "iotally: fatal: SHA-256: %s failed\n", what);
	abort();
}

void
sha256_begin(struct sha256 *h)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	if (!ctx || EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1)
		die("init");
	h->ctx = ctx;
}

void
sha256_add(struct sha256 *h, const void *p, size_t n)
{
	if (n && EVP_DigestUpdate(h->ctx, p, n) != 1)
		die("update");
}

void
sha256_end_hex(struct sha256 *h, char hex[SHA256_HEX_SIZE])
{
	static const char digits[] = "0123456789abcdef";
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int len = 0;
	if (EVP_DigestFinal_ex(h->ctx, md, &len) != 1 || len != 32)
		die("final");
	EVP_MD_CTX_free(h->ctx);
	h->ctx = NULL;
	for (unsigned i = 0; i < len; i++) {
		hex[2 * i] = digits[md[i] >> 4];
		hex[2 * i + 1] = digits[md[i] & 15];
	}
	hex[64] = '\0';
}

int
sha256_file_hex(const char *path, char hex[SHA256_HEX_SIZE], uint64_t *bytes, struct diag *err)
{
	char buf[1 << 16];
	struct sha256 h;
	uint64_t total = 0;
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return diag_set(err, DIAG_NOINPUT, path, 0, 0, "cannot open: %s", strerror(errno));
	sha256_begin(&h);
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			close(fd);
			sha256_end_hex(&h, hex);
			return diag_set(err, DIAG_NOINPUT, path, 0, 0, "cannot read: %s",
					strerror(e));
		}
		if (n == 0)
			break;
		sha256_add(&h, buf, (size_t)n);
		total += (uint64_t)n;
	}
	close(fd);
	sha256_end_hex(&h, hex);
	if (bytes)
		*bytes = total;
	return 0;
}
