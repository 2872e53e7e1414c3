#include "report/jsonfmt.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s[i] (at most n - i bytes), or 0. */
static size_t
utf8_seq(const char *s, size_t i, size_t n)
{
	unsigned char c = (unsigned char)s[i];
	size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 :
		     (c >> 3) == 30 ? 4 : 0;
	bool ok = len && i + len <= n && !(c == 0);
	for (size_t k = 1; ok && k < len; k++)
		ok = ((unsigned char)s[i + k] & 0xc0) == 0x80;
	if (ok && len > 1) {
		/* jansson knows overlong forms and surrogates; ask it. */
		json_t *probe = json_stringn(s + i, len);
		ok = probe != NULL;
		json_decref(probe);
	}
	return ok ? len : 0;
}

json_t *
json_text_n(const char *s, size_t n)
{
	json_t *j = json_stringn(s, n);
	if (j)
		return j;
	char *fixed = malloc(n * 3 + 1);
	if (!fixed)
		return json_null();
	size_t o = 0;
	for (size_t i = 0; i < n;) {
		size_t len = utf8_seq(s, i, n);
		if (len) {
			memcpy(fixed + o, s + i, len);
			o += len;
			i += len;
		} else {
			memcpy(fixed + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		}
	}
	j = json_stringn(fixed, o);
	free(fixed);
	return j ? j : json_null();
}

json_t *
json_text(const char *s)
{
	return json_text_n(s, strlen(s));
}
