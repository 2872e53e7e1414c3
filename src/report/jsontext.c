#include "report/jsontext.h"

#include "util/bytes.h"
#include "util/jsonstr.h"

#include <assert.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Bytes of the valid UTF-8 sequence at s[i], or 0. */
static size_t
utf8_len(const char *s, size_t i, size_t n)
{
	unsigned char c = (unsigned char)s[i];
	size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 :
		     (c >> 3) == 30 ? 4 : 0;
	bool ok = len && i + len <= n;
	for (size_t k = 1; ok && k < len; k++)
		ok = ((unsigned char)s[i + k] & 0xc0) == 0x80;
	if (ok && len > 1) {
		/* Overlong forms and surrogates: let jansson's own check decide. */
		json_t *probe = json_stringn(s + i, len);
		ok = probe != NULL;
		json_decref(probe);
	}
	return ok ? len : 0;
}

json_t *
json_textn(const char *s, size_t n)
{
	json_t *j = json_stringn(s, n);
	if (j)
		return j;
	char *fixed = malloc(n * 3 + 1);
	if (!fixed)
		return json_null();
	size_t o = 0;
	for (size_t i = 0; i < n;) {
		size_t len = utf8_len(s, i, n);
		if (len && !(len == 1 && s[i] == '\0')) {
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
	return json_textn(s, strlen(s));
}

json_t *
json_uint(uint64_t v)
{
	assert(bytes_fit(v));
	return json_integer((json_int_t)v);
}

json_t *
json_hex(uint64_t v)
{
	char s[24];
	snprintf(s, sizeof(s), "0x%" PRIx64, v);
	return json_string_nocheck(s);
}

json_t *
json_document_new(const char *schema)
{
	json_t *root = json_object();
	json_object_set_new_nocheck(root, "schema", json_string_nocheck(schema));
	return root;
}

int
json_document_write(FILE *out, json_t *root)
{
	int rc = json_dumpf(root, out, JSON_DOCUMENT_FLAGS);
	if (rc == 0 && fputc('\n', out) == EOF)
		rc = -1;
	json_decref(root);
	return rc;
}

/* True when s[0..n) is valid UTF-8 by jansson's rule (NUL allowed). */
static bool
utf8_valid(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	for (size_t i = 0; i < n;) {
		if (p[i] < 0x80) {
			i++;
			continue;
		}
		size_t len = utf8_sequence_len(p + i, n - i);
		if (!len)
			return false;
		i += len;
	}
	return true;
}

/* Valid UTF-8, escaped as jansson's dump escapes it (no JSON_ENSURE_ASCII). */
static void
append_escaped(struct strbuf *sb, const char *s, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t run = 0;   /* start of the bytes not yet appended */
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		strbuf_add(sb, s + run, i - run);
		run = i + 1;
		char esc[6] = { '\\', 0 };
		size_t len = 2;
		switch (c) {
		case '"': esc[1] = '"'; break;
		case '\\': esc[1] = '\\'; break;
		case '\b': esc[1] = 'b'; break;
		case '\f': esc[1] = 'f'; break;
		case '\n': esc[1] = 'n'; break;
		case '\r': esc[1] = 'r'; break;
		case '\t': esc[1] = 't'; break;
		default:
			memcpy(esc + 1, "u00", 3);
			esc[4] = hex[c >> 4];
			esc[5] = hex[c & 15];
			len = 6;
		}
		strbuf_add(sb, esc, len);
	}
	strbuf_add(sb, s + run, n - run);
}

void
json_text_append(struct strbuf *sb, const char *s, size_t n)
{
	strbuf_addch(sb, '"');
	if (utf8_valid(s, n)) {
		append_escaped(sb, s, n);
		strbuf_addch(sb, '"');
		return;
	}
	/* json_textn()'s repair: invalid bytes and NUL become U+FFFD. */
	struct strbuf fixed = STRBUF_INIT;
	strbuf_grow(&fixed, n * 3);
	const unsigned char *p = (const unsigned char *)s;
	for (size_t i = 0; i < n;) {
		size_t len = utf8_sequence_len(p + i, n - i);
		if (len && !(len == 1 && p[i] == 0)) {
			strbuf_add(&fixed, s + i, len);
			i += len;
		} else {
			strbuf_add(&fixed, "\xef\xbf\xbd", 3);
			i++;
		}
	}
	append_escaped(sb, fixed.buf, fixed.len);
	strbuf_release(&fixed);
	strbuf_addch(sb, '"');
}
