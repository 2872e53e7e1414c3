#include "util/strbuf.h"

#include "util/xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char strbuf_empty[1];

void
strbuf_init(struct strbuf *sb)
{
	sb->buf = strbuf_empty;
	sb->len = 0;
	sb->alloc = 0;
}

void
strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb);
}

void
strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->alloc)
		sb->buf[0] = '\0';
}

void
strbuf_grow(struct strbuf *sb, size_t extra)
{
	if (extra > SIZE_MAX - sb->len - 1)
		xdie("buffer size overflow");
	size_t need = sb->len + extra + 1;
	if (need <= sb->alloc)
		return;
	char *old = sb->alloc ? sb->buf : NULL;
	sb->buf = xgrow(old, &sb->alloc, need, 1);
	if (!old)
		sb->buf[sb->len] = '\0';
}

void
strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	if (len)
		memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void
strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void
strbuf_addch(struct strbuf *sb, char c)
{
	strbuf_grow(sb, 1);
	sb->buf[sb->len++] = c;
	sb->buf[sb->len] = '\0';
}

void
strbuf_addchars(struct strbuf *sb, char c, size_t n)
{
	strbuf_grow(sb, n);
	memset(sb->buf + sb->len, c, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void
strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	/* No caller passes NULL; saying so keeps gcc's UBSan build (-Werror)
	 * from seeing a null format on its instrumented path. */
	if (!fmt)
		return;
	va_copy(cp, ap);
	int n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	strbuf_grow(sb, (size_t)n);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void
strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

char *
strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *s;
	if (len)
		*len = sb->len;
	if (sb->alloc)
		s = sb->buf;
	else
		s = xmemdup0("", 0);
	strbuf_init(sb);
	return s;
}

char *
strbuf_path_join(const char *dir, const char *member)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	strbuf_add(&sb, dir, n);
	if (n && dir[n - 1] != '/')
		strbuf_addch(&sb, '/');
	strbuf_addstr(&sb, member);
	return strbuf_detach(&sb, NULL);
}

void
strbuf_add_u64(struct strbuf *sb, uint64_t v)
{
	char d[20];   /* UINT64_MAX has 20 digits */
	size_t n = sizeof(d);
	do {
		d[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	strbuf_add(sb, d + n, sizeof(d) - n);
}

void
strbuf_add_i64(struct strbuf *sb, int64_t v)
{
	if (v >= 0) {
		strbuf_add_u64(sb, (uint64_t)v);
		return;
	}
	strbuf_addch(sb, '-');
	/* -(v + 1) + 1 in unsigned: INT64_MIN has no positive int64_t. */
	strbuf_add_u64(sb, (uint64_t)(-(v + 1)) + 1);
}
