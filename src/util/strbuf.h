#ifndef IOTALLY_UTIL_STRBUF_H
#define IOTALLY_UTIL_STRBUF_H

/*
 * Growable byte buffer. Invariants: `buf` is never NULL and is always
 * NUL-terminated at `buf[len]` (it may also hold NUL bytes before that).
 * A zeroed struct is not valid: use STRBUF_INIT or strbuf_init().
 * The buffer owns its memory; strbuf_release() frees it and re-initialises.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

struct strbuf {
	char *buf;
	size_t len;
	size_t alloc;
};

extern char strbuf_empty[];
#define STRBUF_INIT { strbuf_empty, 0, 0 }

void strbuf_init(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
void strbuf_reset(struct strbuf *sb);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, char c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* Append `n` copies of `c`. */
void strbuf_addchars(struct strbuf *sb, char c, size_t n);
/* Append v in decimal, as printf's "%" PRIu64 / "%" PRId64 print it (no
 * format string parsed: the NDJSON rows append thousands of figures). */
void strbuf_add_u64(struct strbuf *sb, uint64_t v);
void strbuf_add_i64(struct strbuf *sb, int64_t v);
/* Take ownership of the bytes; the strbuf is re-initialised. */
char *strbuf_detach(struct strbuf *sb, size_t *len);
/*
 * "DIR/member" (new, owned): DIR's trailing slashes become one ("out//" and
 * "out" give "out/member", "/" gives "/member"); "member" when DIR is "".
 */
char *strbuf_path_join(const char *dir, const char *member);

#endif
