#ifndef IOTALLY_UTIL_XALLOC_H
#define IOTALLY_UTIL_XALLOC_H

/*
 * Allocation wrappers that never return NULL: running out of memory prints
 * one message on stderr and aborts (exit status 70 is not reachable from a
 * state where malloc fails, and a half-built report would lie).
 * Sizes are checked for multiplication overflow.
 */

#include <stdbool.h>
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

/*
 * Keep freed memory for the next allocation instead of giving it back to
 * the kernel at once (glibc: a fixed mmap threshold of 32 MiB and a trim
 * threshold of 64 MiB, the largest values glibc's own adaptive thresholds
 * reach; elsewhere nothing). Called once at start. Why: a command over
 * thousands of inputs frees each input's model before reading the next,
 * and glibc trimmed the top of the heap after nearly every one -- brk on
 * one thread, madvise(MADV_DONTNEED) on a worker's arena -- so the next
 * input faulted the same pages in again: 200,000 page faults and a third
 * of the CPU time of `diff -j 2` of 2,000 pairs. Peak memory is unchanged
 * (what is kept was in use a moment before); it is only not returned
 * until the process ends or more than 64 MiB is free.
 */
void xalloc_keep_freed_memory(void);

/*
 * Asks the kernel to map the pages of [p, p + n) now, in one call, for
 * memory about to be written: a page's first touch costs a fault each
 * (13 to 14 us on a virtual machine, where one call maps them for 1 to
 * 4 us a page). The bytes are unchanged. True when the call mapped them;
 * false where the system cannot (they then fault as they are touched).
 */
bool xalloc_prefault(void *p, size_t n);

#endif
