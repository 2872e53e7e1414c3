/*
 * Test shim (LD_PRELOAD, Linux): rename() waits IOTALLY_TEST_SLOW_RENAME
 * seconds before renaming, so a test can signal a command while its
 * temporary output exists and is about to be put in place (`report -o`,
 * `diff --junit`), and check that nothing is left. Not part of iotally.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int rename(const char *from, const char *to);

int
rename(const char *from, const char *to)
{
	int (*real)(const char *, const char *);
	*(void **)&real = dlsym(RTLD_NEXT, "rename");
	const char *wait = getenv("IOTALLY_TEST_SLOW_RENAME");
	if (wait) {
		struct timespec ts = { atoi(wait), 0 };
		nanosleep(&ts, NULL);
	}
	return real(from, to);
}
