#include "report/report_text.h"

#include "util/size.h"

#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at p (n bytes left), or 0. */
static size_t
utf8_len(const unsigned char *p, size_t n, uint32_t *cp)
{
	unsigned char c = p[0];
	size_t len;
	uint32_t v, min;
	if (c < 0x80) {
		*cp = c;
		return 1;
	} else if ((c & 0xe0) == 0xc0) {
		len = 2, v = c & 0x1f, min = 0x80;
	} else if ((c & 0xf0) == 0xe0) {
		len = 3, v = c & 0x0f, min = 0x800;
	} else if ((c & 0xf8) == 0xf0) {
		len = 4, v = c & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		v = (v << 6) | (p[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return len;
}

void
report_text_clean(const char *s, size_t max_chars, struct strbuf *out)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), chars = 0;
	while (n > 0) {
		if (max_chars && chars == max_chars) {
			strbuf_addstr(out, "\xe2\x80\xa6");
			return;
		}
		uint32_t cp;
		size_t len = utf8_len(p, n, &cp);
		if (len == 0) {
			strbuf_addstr(out, "\xef\xbf\xbd");
			len = 1;
		} else if (cp == '\t' || cp == '\n' || cp == '\r') {
			strbuf_addch(out, ' ');
		} else if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || cp == 0x2028 ||
			   cp == 0x2029) {
			strbuf_addstr(out, "\xef\xbf\xbd");
		} else {
			strbuf_add(out, p, len);
		}
		p += len;
		n -= len;
		chars++;
	}
}

int
report_cell_is_figure(const struct report_cell *c)
{
	return c->kind == REPORT_CELL_COUNT || c->kind == REPORT_CELL_BYTES ||
	       c->kind == REPORT_CELL_DCOUNT || c->kind == REPORT_CELL_DBYTES;
}

void
report_cell_figure(const struct report_cell *c, struct strbuf *out)
{
	char b[32];
	switch (c->kind) {
	case REPORT_CELL_COUNT:
		strbuf_addf(out, "%" PRId64, c->value);
		break;
	case REPORT_CELL_DCOUNT:
		if (c->value)
			strbuf_addf(out, "%+" PRId64, c->value);
		else
			strbuf_addch(out, '0');
		break;
	case REPORT_CELL_BYTES:
		if (c->value < 0) {
			size_format_binary_delta(c->value, b);
		} else {
			size_format_binary((uint64_t)c->value, b);
		}
		strbuf_addstr(out, b);
		break;
	case REPORT_CELL_DBYTES:
		size_format_binary_delta(c->value, b);
		strbuf_addstr(out, b);
		break;
	default:
		break;
	}
}

void
report_cell_exact(const struct report_cell *c, struct strbuf *out)
{
	if (c->kind == REPORT_CELL_BYTES || c->kind == REPORT_CELL_DBYTES)
		strbuf_addf(out, "%s%" PRId64 " bytes",
			    c->kind == REPORT_CELL_DBYTES && c->value > 0 ? "+" : "", c->value);
	else if (report_cell_is_figure(c))
		report_cell_figure(c, out);
}
