#include "util/lazylib.h"

#include "iotally-config.h"
#include "util/diag.h"
#include "util/strbuf.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdnoreturn.h>

struct lazylib lazylib_libxml2 = {
	IOTALLY_LIBXML2_SONAME, "for XML property lists and JUnit XML", NULL,
};
struct lazylib lazylib_libarchive = {
	IOTALLY_LIBARCHIVE_SONAME, "for tar and tar.gz archives", NULL,
};

/* The message of every load failure, and its exit status. */
static noreturn void
unavailable(const struct lazylib *lib, const char *why)
{
	struct diag d;
	struct strbuf msg = STRBUF_INIT;

	diag_set(&d, DIAG_UNAVAILABLE, NULL, 0, 0, "cannot load %s (%s): %s", lib->soname,
		 lib->used_for, why ? why : "unknown error");
	diag_format(&d, &msg);
	fputs(msg.buf, stderr);
	strbuf_release(&msg);
	exit(d.code);
}

/*
 * Workers of -j N (app/parallel.h) may call a library's first function at
 * the same time: loading and looking up are done under one lock, and each
 * import's pointer is published with release/acquire (util/lazylib.h), so
 * a thread that sees it sees the loaded library too. Two threads may both
 * look a function up; they store the same address.
 */
static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;

lazylib_fn
lazylib_function(struct lazylib *lib, const char *name)
{
	pthread_mutex_lock(&load_lock);
	if (!lib->handle) {
		/* RTLD_LAZY: the library's own calls are bound as they are made. */
		lib->handle = dlopen(lib->soname, RTLD_LAZY | RTLD_LOCAL);
		if (!lib->handle)
			unavailable(lib, dlerror());
	}
	dlerror();
	void *sym = dlsym(lib->handle, name);
	if (!sym)
		unavailable(lib, dlerror());
	pthread_mutex_unlock(&load_lock);
	/* POSIX: dlsym's result converts to the function's pointer type. */
	return (lazylib_fn)sym;
}
