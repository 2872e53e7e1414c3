#include "util/sha256.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static const uint32_t round_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
	0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
	0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
	0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
	0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
	0xc67178f2,
};

static uint32_t
rotr(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

static uint32_t
load_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* One 64-byte block into the state (FIPS 180-4, 6.2.2). */
static void
compress(uint32_t state[8], const unsigned char *block)
{
	uint32_t w[64];
	for (int t = 0; t < 16; t++)
		w[t] = load_be32(block + 4 * t);
	for (int t = 16; t < 64; t++) {
		uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
		uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
		w[t] = w[t - 16] + s0 + w[t - 7] + s1;
	}
	uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
	uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
	for (int t = 0; t < 64; t++) {
		uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) +
			      round_k[t] + w[t];
		uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
		h = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	state[0] += a;
	state[1] += b;
	state[2] += c;
	state[3] += d;
	state[4] += e;
	state[5] += f;
	state[6] += g;
	state[7] += h;
}

void
sha256_begin(struct sha256 *h)
{
	static const uint32_t initial[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};
	memcpy(h->state, initial, sizeof(initial));
	h->bytes = 0;
}

void
sha256_add(struct sha256 *h, const void *p, size_t n)
{
	const unsigned char *s = p;
	size_t have = (size_t)(h->bytes % 64);
	h->bytes += n;
	if (have) {
		size_t take = 64 - have < n ? 64 - have : n;
		memcpy(h->block + have, s, take);
		s += take;
		n -= take;
		if (have + take < 64)
			return;
		compress(h->state, h->block);
	}
	for (; n >= 64; s += 64, n -= 64)
		compress(h->state, s);
	if (n)
		memcpy(h->block, s, n);
}

void
sha256_end_hex(struct sha256 *h, char hex[SHA256_HEX_SIZE])
{
	static const char digits[] = "0123456789abcdef";
	/* 0x80, zeros to 56 mod 64, the length in bits as a big-endian 64-bit number. */
	uint64_t bits = h->bytes * 8;
	unsigned char pad[72] = { 0x80 };
	size_t have = (size_t)(h->bytes % 64);
	size_t padlen = have < 56 ? 56 - have : 120 - have;
	for (int i = 0; i < 8; i++)
		pad[padlen + (size_t)i] = (unsigned char)(bits >> (56 - 8 * i));
	sha256_add(h, pad, padlen + 8);
	for (int i = 0; i < 32; i++) {
		unsigned char byte = (unsigned char)(h->state[i / 4] >> (24 - 8 * (i % 4)));
		hex[2 * i] = digits[byte >> 4];
		hex[2 * i + 1] = digits[byte & 15];
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
