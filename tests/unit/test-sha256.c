/*
 * SHA-256 against published digests: the FIPS 180-4 examples ("abc", the
 * 448- and 896-bit messages, a million 'a's; NIST's "SHA-2 examples" and
 * RFC 6234), the empty message, and 'a' repeated across the padding's
 * edges (55, 56, 63, 64, 119, 120 bytes: digests from Python's hashlib).
 * The same messages fed in pieces of every size give the same digest.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/array.h"
#include "util/sha256.h"

static void
digest_of(const char *msg, size_t n, size_t piece, char hex[SHA256_HEX_SIZE])
{
	struct sha256 h;
	sha256_begin(&h);
	for (size_t at = 0; at < n; at += piece)
		sha256_add(&h, msg + at, n - at < piece ? n - at : piece);
	sha256_end_hex(&h, hex);
}

static void
check(const char *msg, size_t n, const char *want)
{
	char hex[SHA256_HEX_SIZE];
	digest_of(msg, n, n ? n : 1, hex);
	assert_string_equal(hex, want);
	for (size_t piece = 1; piece <= 130 && piece < n; piece++) {
		digest_of(msg, n, piece, hex);
		assert_string_equal(hex, want);
	}
}

static void
test_fips_examples(void **state)
{
	(void)state;
	check("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	check("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	static const char m448[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	check(m448, strlen(m448),
	      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	static const char m896[] = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
				   "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
	check(m896, strlen(m896),
	      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

static void
test_million_a(void **state)
{
	(void)state;
	char *a = malloc(1000000);
	memset(a, 'a', 1000000);
	char hex[SHA256_HEX_SIZE];
	digest_of(a, 1000000, 1000000, hex);
	assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	digest_of(a, 1000000, 4093, hex);
	assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	free(a);
}

static void
test_padding_edges(void **state)
{
	(void)state;
	static const struct {
		size_t n;
		const char *want;
	} cases[] = {
		{ 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318" },
		{ 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a" },
		{ 63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34" },
		{ 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb" },
		{ 119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb" },
		{ 120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c" },
	};
	char a[128];
	memset(a, 'a', sizeof(a));
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		check(a, cases[i].n, cases[i].want);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fips_examples),
		cmocka_unit_test(test_million_a),
		cmocka_unit_test(test_padding_edges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
