/*
 * libFuzzer harness: util/jsonstr.h over any bytes. The result is always
 * valid UTF-8 (jansson, strict, takes it), valid input comes back byte for
 * byte, and escaping the result again changes nothing.
 */

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "util/jsonstr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t len;
	char *out = utf8_escape_invalid((const char *)data, size, &len);
	json_t *j = json_stringn(out, len);
	if (!j)
		abort();
	json_decref(j);
	json_t *in = json_stringn((const char *)data, size);
	if (in && memchr(data, 0, size) == NULL && (len != size || memcmp(out, data, size) != 0))
		abort();
	json_decref(in);
	size_t len2;
	char *again = utf8_escape_invalid(out, len, &len2);
	if (len2 != len || memcmp(again, out, len) != 0)
		abort();
	free(again);
	free(out);
	return 0;
}
