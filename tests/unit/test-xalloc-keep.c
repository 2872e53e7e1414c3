/*
 * util/xalloc.h xalloc_keep_freed_memory(): memory freed by one input is
 * there for the next without the kernel faulting its pages in again, on
 * the calling thread and on a worker thread (its own malloc arena).
 *
 * Each round allocates 16 MiB as 256 blocks of 64 KiB (below glibc's
 * mmap threshold, so they come from the thread's heap), touches every page
 * and frees them all, as reading one input does with its model. With
 * glibc's defaults the freed top of the heap is given back after every
 * round (brk, or madvise on a worker's arena) and every round faults all
 * 4,096 pages again; kept, the rounds after the first fault almost none.
 * Counted with the thread's own minor faults (getrusage RUSAGE_THREAD).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <pthread.h>
#include <sys/resource.h>
#include <cmocka.h>

#include "util/xalloc.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZED 1
#endif
#endif

/* Only glibc's malloc is tuned, and sanitizers bring their own. */
#if defined(__GLIBC__) && !defined(SANITIZED)
#define MEASURED 1
#endif

enum { BLOCKS = 256, BLOCK = 64 << 10, ROUNDS = 5, PAGES = BLOCKS * (BLOCK / 4096) };

#ifdef MEASURED
static long
thread_minor_faults(void)
{
	struct rusage ru;
	getrusage(RUSAGE_THREAD, &ru);
	return ru.ru_minflt;
}

/* Minor faults of rounds 2 .. ROUNDS together. */
static void *
later_rounds_faults(void *out)
{
	static _Thread_local char *blocks[BLOCKS];
	long later = 0;
	for (int round = 0; round < ROUNDS; round++) {
		long before = thread_minor_faults();
		for (int b = 0; b < BLOCKS; b++) {
			blocks[b] = xmalloc(BLOCK);
			memset(blocks[b], round + 1, BLOCK);
		}
		for (int b = BLOCKS - 1; b >= 0; b--)
			free(blocks[b]);
		if (round > 0)
			later += thread_minor_faults() - before;
	}
	*(long *)out = later;
	return NULL;
}
#endif

static void
test_kept_on_each_thread(void **state)
{
	(void)state;
#ifdef MEASURED
	xalloc_keep_freed_memory();
	long caller = -1, worker = -1;
	later_rounds_faults(&caller);
	pthread_t t;
	assert_int_equal(pthread_create(&t, NULL, later_rounds_faults, &worker), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	print_message("minor faults in rounds 2-%d: caller %ld, worker %ld (a round touches %d pages)\n",
		      ROUNDS, caller, worker, PAGES);
	/* Given back each round, they would be (ROUNDS - 1) x PAGES = 16,384. */
	assert_true(caller < PAGES / 8);
	assert_true(worker < PAGES / 8);
#else
	skip();
#endif
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kept_on_each_thread),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
