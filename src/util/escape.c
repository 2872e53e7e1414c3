#include "util/escape.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/*
 * Length of the valid UTF-8 sequence of a code point U+0080 or above at
 * p (n bytes left): 2 to 4, or 0 when p[0] begins none (a continuation
 * byte, an overlong form, a surrogate, past U+10FFFF, cut short).
 */
static size_t
utf8_seq_len(const unsigned char *p, size_t n)
{
	unsigned c = p[0];
	if (c < 0xc2)   /* ASCII, continuation bytes, overlong C0/C1 leads */
		return 0;
	if (c < 0xe0)
		return n >= 2 && (p[1] & 0xc0) == 0x80 ? 2 : 0;
	if (c < 0xf0) {
		if (n < 3 || (p[1] & 0xc0) != 0x80 || (p[2] & 0xc0) != 0x80)
			return 0;
		if ((c == 0xe0 && p[1] < 0xa0) ||    /* overlong */
		    (c == 0xed && p[1] >= 0xa0))     /* surrogates D800-DFFF */
			return 0;
		return 3;
	}
	if (c < 0xf5) {
		if (n < 4 || (p[1] & 0xc0) != 0x80 || (p[2] & 0xc0) != 0x80 ||
		    (p[3] & 0xc0) != 0x80)
			return 0;
		if ((c == 0xf0 && p[1] < 0x90) ||    /* overlong */
		    (c == 0xf4 && p[1] >= 0x90))     /* past U+10FFFF */
			return 0;
		return 4;
	}
	return 0;
}

/* A two-byte sequence of a C1 control, U+0080-U+009F. */
static bool
is_c1(const unsigned char *p, size_t len)
{
	return len == 2 && p[0] == 0xc2 && p[1] < 0xa0;
}

#if defined(__SSE2__)
/* Bit i set: byte i of the 16 at p is not printable ASCII (0x20-0x7e). */
static inline unsigned
unprintable16(const unsigned char *p)
{
	/* Printable ASCII is above 0x1f as a signed byte, and not 0x7f. */
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
	unsigned ok = (unsigned)_mm_movemask_epi8(_mm_cmpgt_epi8(v, _mm_set1_epi8(0x1f)));
	return (~ok & 0xffffu) |
	       (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(0x7f)));
}
#endif

/* The first byte at or after i that is not printable ASCII, or n. */
static inline size_t
skip_printable(const unsigned char *p, size_t i, size_t n)
{
#if defined(__SSE2__)
	if (n >= 16) {
		while (n - i >= 16) {
			unsigned bad = unprintable16(p + i);
			if (bad)
				return i + (size_t)__builtin_ctz(bad);
			i += 16;
		}
		if (i == n)
			return n;
		/* The last 16 bytes, overlapping what was scanned: no byte loop. */
		unsigned bad = unprintable16(p + n - 16) >> (16 - (n - i));
		return bad ? i + (size_t)__builtin_ctz(bad) : n;
	}
#endif
	while (i < n && p[i] >= 0x20 && p[i] < 0x7f)
		i++;
	return i;
}

size_t
escape_clean_len(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;
	while ((i = skip_printable(p, i, n)) < n) {
		if (p[i] < 0x80)
			return i;   /* C0 or DEL */
		size_t len = utf8_seq_len(p + i, n - i);
		if (len == 0 || is_c1(p + i, len))
			return i;
		i += len;
	}
	return n;
}

/*
 * The escaped form of the unit at p (a control byte, an invalid byte or a
 * C1 sequence) in buf; returns its length and sets *used to the input
 * bytes it stands for. p is not clean: escape_clean_len(p, n) == 0.
 */
static size_t
escape_unit(const unsigned char *p, size_t n, char buf[8], size_t *used)
{
	static const char hex[] = "0123456789abcdef";
	size_t len = p[0] >= 0x80 ? utf8_seq_len(p, n) : 0;
	size_t k = len ? len : 1;   /* a C1 sequence, else one byte */
	for (size_t i = 0; i < k; i++) {
		buf[4 * i] = '\\';
		buf[4 * i + 1] = 'x';
		buf[4 * i + 2] = hex[p[i] >> 4];
		buf[4 * i + 3] = hex[p[i] & 0xf];
	}
	*used = k;
	return 4 * k;
}

void
escape_add(struct strbuf *out, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	while (n) {
		size_t k = escape_clean_len((const char *)p, n);
		strbuf_add(out, p, k);
		p += k;
		n -= k;
		if (!n)
			break;
		char buf[8];
		size_t used, len = escape_unit(p, n, buf, &used);
		strbuf_add(out, buf, len);
		p += used;
		n -= used;
	}
}

void
escape_addstr(struct strbuf *out, const char *s)
{
	escape_add(out, s, strlen(s));
}

void
escape_add_cut(struct strbuf *out, const char *s, size_t n, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;
	while (i < n) {
		size_t len = p[i] >= 0x80 ? utf8_seq_len(p + i, n - i) : 0;
		size_t k = len ? len : 1;
		if (k > max - i)
			break;
		i += k;
	}
	escape_add(out, s, i);
	if (i < n)
		strbuf_addstr(out, "...");
}

/* The rest of escape_write() from the first byte to escape, k. */
static void
write_escaped(FILE *out, const unsigned char *p, size_t n, size_t k)
{
	for (;;) {
		if (k)
			fwrite(p, 1, k, out);
		p += k;
		n -= k;
		if (!n)
			return;
		char buf[8];
		size_t used, len = escape_unit(p, n, buf, &used);
		fwrite(buf, 1, len, out);
		p += used;
		n -= used;
		k = escape_clean_len((const char *)p, n);
	}
}

void
escape_write(FILE *out, const char *s, size_t n)
{
	size_t k = escape_clean_len(s, n);
	if (k == n) {   /* the common case: one write, as without escaping */
		fwrite(s, 1, n, out);
		return;
	}
	write_escaped(out, (const unsigned char *)s, n, k);
}

void
escape_puts(FILE *out, const char *s)
{
	escape_write(out, s, strlen(s));
}

const char *
escape_str(struct strbuf *tmp, const char *s)
{
	if (!s)
		return NULL;
	size_t n = strlen(s);
	if (escape_is_clean(s, n))
		return s;
	strbuf_reset(tmp);
	escape_add(tmp, s, n);
	return tmp->buf;
}

/* A byte a POSIX shell takes as part of a word, unquoted. */
static bool
shell_plain(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr("_./-+:=,@%", c));
}

/* Clean text inside $'...': a backslash and a quote escaped. */
static void
shell_ansi_add(struct strbuf *out, const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '\\' || p[i] == '\'')
			strbuf_addch(out, '\\');
		strbuf_addch(out, (char)p[i]);
	}
}

void
escape_add_shell_word(struct strbuf *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);
	bool plain = n > 0;
	for (size_t i = 0; i < n && plain; i++)
		plain = shell_plain(p[i]);
	if (plain) {
		strbuf_add(out, s, n);
	} else if (escape_is_clean(s, n)) {
		strbuf_addch(out, '\'');
		for (size_t i = 0; i < n; i++) {
			if (p[i] == '\'')
				strbuf_addstr(out, "'\\''");
			else
				strbuf_addch(out, (char)p[i]);
		}
		strbuf_addch(out, '\'');
	} else {
		/* $'...' reads \xNN back as the byte: the word is exact and no
		 * control byte reaches the terminal. */
		strbuf_addstr(out, "$'");
		while (n) {
			size_t k = escape_clean_len((const char *)p, n);
			shell_ansi_add(out, p, k);
			p += k;
			n -= k;
			if (!n)
				break;
			char buf[8];
			size_t used, len = escape_unit(p, n, buf, &used);
			strbuf_add(out, buf, len);
			p += used;
			n -= used;
		}
		strbuf_addch(out, '\'');
	}
}

void
escape_vline(FILE *out, const char *fmt, va_list ap)
{
	struct strbuf msg = STRBUF_INIT, line = STRBUF_INIT;
	strbuf_vaddf(&msg, fmt, ap);
	escape_add(&line, msg.buf, msg.len);
	strbuf_addch(&line, '\n');
	fwrite(line.buf, 1, line.len, out);
	strbuf_release(&msg);
	strbuf_release(&line);
}
