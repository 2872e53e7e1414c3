#include "util/jsonstr.h"

#include "util/strbuf.h"

#include <stdlib.h>
#include <string.h>

size_t
utf8_sequence_len(const unsigned char *p, size_t n)
{
	if (n == 0)
		return 0;
	unsigned char c = p[0];
	if (c < 0x80)
		return 1;
	size_t len;
	unsigned char lo = 0x80, hi = 0xBF;   /* bounds of the second byte */
	if (c >= 0xC2 && c <= 0xDF) {
		len = 2;
	} else if (c >= 0xE0 && c <= 0xEF) {
		len = 3;
		if (c == 0xE0)
			lo = 0xA0;   /* no overlong forms */
		else if (c == 0xED)
			hi = 0x9F;   /* no surrogates */
	} else if (c >= 0xF0 && c <= 0xF4) {
		len = 4;
		if (c == 0xF0)
			lo = 0x90;
		else if (c == 0xF4)
			hi = 0x8F;   /* nothing above U+10FFFF */
	} else {
		return 0;    /* continuation byte, C0, C1, F5..FF */
	}
	if (n < len || p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (p[i] < 0x80 || p[i] > 0xBF)
			return 0;
	return len;
}

char *
utf8_escape_invalid(const char *s, size_t n, size_t *out_len)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *p = (const unsigned char *)s;
	struct strbuf sb = STRBUF_INIT;
	strbuf_grow(&sb, n);
	size_t i = 0;
	while (i < n) {
		size_t len = utf8_sequence_len(p + i, n - i);
		/* NUL is valid UTF-8 but ends a C string: escaped like an invalid byte. */
		if (len == 0 || p[i] == 0) {
			char esc[4] = { '\\', 'x', hex[p[i] >> 4], hex[p[i] & 15] };
			strbuf_add(&sb, esc, 4);
			i++;
			continue;
		}
		strbuf_add(&sb, s + i, len);
		i += len;
	}
	return strbuf_detach(&sb, out_len);
}

json_t *
json_string_safe(const char *s)
{
	if (!s)
		return json_null();
	size_t len;
	char *text = utf8_escape_invalid(s, strlen(s), &len);
	json_t *j = json_stringn(text, len);
	free(text);
	return j ? j : json_string("");   /* not reached: the text is valid UTF-8 now */
}
