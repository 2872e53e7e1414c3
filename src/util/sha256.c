#include "util/sha256.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

void
sha256_begin(struct sha256 *h)
{
	sha256_init(&h->ctx);
}

void
sha256_add(struct sha256 *h, const void *p, size_t n)
{
	sha256_update(&h->ctx, n, p);
}

void
sha256_end_hex(struct sha256 *h, char hex[SHA256_HEX_SIZE])
{
	static const char digits[] = "0123456789abcdef";
	uint8_t digest[SHA256_DIGEST_SIZE];
	sha256_digest(&h->ctx, sizeof(digest), digest);
	for (size_t i = 0; i < sizeof(digest); i++) {
		hex[2 * i] = digits[digest[i] >> 4];
		hex[2 * i + 1] = digits[digest[i] & 15];
	}
	hex[64] = '\0';
}

int
sha256_fd_hex(int fd, const char *path, char hex[SHA256_HEX_SIZE], uint64_t *bytes,
	      struct diag *err)
{
	char buf[1 << 16];
	struct sha256 h;
	uint64_t total = 0;
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
