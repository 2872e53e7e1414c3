/* madvise() is no POSIX function: its declaration needs the default names. */
#define _DEFAULT_SOURCE

#include "util/xalloc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#ifdef __linux__
#include <sys/mman.h>
#include <unistd.h>
#endif

void
xdie(const char *fmt, ...)
{
	va_list ap;
	fputs("iotally: fatal: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

static void
die_oom(size_t size)
{
	xdie("out of memory allocating %zu bytes", size);
}

void *
xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		die_oom(size);
	return p;
}

void *
xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (!p)
		die_oom(nmemb * size);
	return p;
}

void *
xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);
	if (!p)
		die_oom(size);
	return p;
}

void *
xgrow(void *ptr, size_t *alloc, size_t need, size_t elem)
{
	size_t n = *alloc;
	if (need <= n)
		return ptr;
	if (n < 8)
		n = 8;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			die_oom(SIZE_MAX);
		n *= 2;
	}
	if (elem && n > SIZE_MAX / elem)
		die_oom(SIZE_MAX);
	*alloc = n;
	return xrealloc(ptr, n * elem);
}

char *
xstrdup(const char *s)
{
	return xmemdup0(s, strlen(s));
}

char *
xmemdup0(const void *p, size_t len)
{
	if (len == SIZE_MAX)
		die_oom(len);
	char *s = xmalloc(len + 1);
	if (len)
		memcpy(s, p, len);
	s[len] = '\0';
	return s;
}

void
xalloc_keep_freed_memory(void)
{
#ifdef __GLIBC__
	/* Setting either turns glibc's adaptive thresholds off: set both, or
	 * neither where 32 MiB is past what this glibc takes (32-bit). */
	if (mallopt(M_MMAP_THRESHOLD, 32 << 20))
		mallopt(M_TRIM_THRESHOLD, 64 << 20);
#endif
}

bool
xalloc_prefault(void *p, size_t n)
{
#ifdef __linux__
	/* Linux 5.14's value, where the C library's headers are older; an
	 * older kernel refuses it (EINVAL) and the pages fault one by one. */
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
	long sz = sysconf(_SC_PAGESIZE);   /* no cache: readers on threads call this */
	uintptr_t page = sz > 0 ? (uintptr_t)sz : 4096;
	/* Whole pages that hold [p, p + n): the first may hold the bytes of
	 * another allocation too, which populating leaves as they are. */
	uintptr_t a = (uintptr_t)p & ~(page - 1);
	uintptr_t b = ((uintptr_t)p + n) & ~(page - 1);
	return b > a && madvise((void *)a, b - a, MADV_POPULATE_WRITE) == 0;
#else
	(void)p;
	(void)n;
	return false;
#endif
}
