#ifndef IOTALLY_UTIL_XALLOC_H
#define IOTALLY_UTIL_XALLOC_H

/*
 * Allocation wrappers that never return NULL: running out of memory prints
 * one message on stderr and aborts (exit status 70 is not reachable from a
 * state where malloc fails, and a half-built report would lie).
 * Sizes are checked for multiplication overflow.
 */

#include <stddef.h>
#include <stdnoreturn.h>

/*
 * The one fatal message below cli/: "iotally: fatal: MESSAGE" on stderr,
 * then abort(). Only for states the program cannot go on from (out of
 * memory, a buffer size past SIZE_MAX); bad input is never fatal.
 */
noreturn void xdie(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
/* Grow an array to hold at least `need` elements of `elem` bytes, doubling. */
void *xgrow(void *ptr, size_t *alloc, size_t need, size_t elem);
char *xstrdup(const char *s);
char *xmemdup0(const void *p, size_t len);

#endif
