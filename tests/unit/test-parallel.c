/*
 * The parallel ordered map (app/parallel.h): results emitted in index order
 * whatever order workers finish in, an item's failure emitted in its turn
 * with the items after it, a stop by emit() that starts nothing more and
 * hands every started result to drop() (each result freed exactly once),
 * never more than `window` items in flight, and -j 1 run without threads.
 * The calling thread sleeps about once per batch of items, not per item.
 */
#define _GNU_SOURCE   /* getrusage(RUSAGE_THREAD) */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pthread.h>
#include <sys/resource.h>
#include <cmocka.h>

#include "app/parallel.h"

struct run {
	size_t n;
	size_t fail_at;       /* work() of this item fails: its result says so */
	size_t stop_at;       /* emit() of this item returns 7 (SIZE_MAX: never) */
	long work_ns;         /* work() lasts about this long (varied per item) */
	long emit_ns;         /* and emit() this long */
	pthread_mutex_t lock;
	size_t next;          /* the item emit() expects next */
	size_t in_flight, max_in_flight;
	size_t made, freed, dropped;
	bool out_of_order;
	pthread_t caller;
	bool worker_thread_seen;
};

struct result {
	size_t i;
	bool failed;
};

static void
pause_ns(long ns)
{
	if (ns <= 0)
		return;
	struct timespec ts = { ns / 1000000000L, ns % 1000000000L };
	nanosleep(&ts, NULL);
}

static void *
work(void *ctx, size_t i)
{
	struct run *r = ctx;
	pthread_mutex_lock(&r->lock);
	if (++r->in_flight > r->max_in_flight)
		r->max_in_flight = r->in_flight;
	r->made++;
	if (!pthread_equal(pthread_self(), r->caller))
		r->worker_thread_seen = true;
	pthread_mutex_unlock(&r->lock);
	/* Later items of each group of 4 finish first: workers overtake each other. */
	pause_ns(r->work_ns * (long)(4 - i % 4));
	struct result *res = malloc(sizeof(*res));
	res->i = i;
	res->failed = i == r->fail_at;
	return res;
}

static void
release(struct run *r, struct result *res)
{
	pthread_mutex_lock(&r->lock);
	r->in_flight--;
	r->freed++;
	pthread_mutex_unlock(&r->lock);
	free(res);
}

static int
emit(void *ctx, size_t i, void *result)
{
	struct run *r = ctx;
	struct result *res = result;
	if (i != r->next || res->i != i)
		r->out_of_order = true;
	r->next = i + 1;
	assert_true(pthread_equal(pthread_self(), r->caller));
	assert_int_equal(res->failed, i == r->fail_at);
	release(r, res);
	pause_ns(r->emit_ns);
	return i == r->stop_at ? 7 : 0;
}

static void
drop(void *ctx, size_t i, void *result)
{
	struct run *r = ctx;
	struct result *res = result;
	assert_true(i > r->stop_at);
	assert_int_equal(res->i, i);
	r->dropped++;
	release(r, res);
}

static void
run_init(struct run *r, size_t n)
{
	memset(r, 0, sizeof(*r));
	r->n = n;
	r->fail_at = SIZE_MAX;
	r->stop_at = SIZE_MAX;
	pthread_mutex_init(&r->lock, NULL);
	r->caller = pthread_self();
}

static void
test_order_and_failure(void **state)
{
	(void)state;
	static const unsigned jobs[] = { 2, 3, 8 };
	for (size_t k = 0; k < sizeof(jobs) / sizeof(jobs[0]); k++) {
		struct run r;
		run_init(&r, 200);
		r.fail_at = 37;
		r.work_ns = 20000;
		struct app_parallel_opts o = { .jobs = jobs[k] };
		assert_int_equal(app_parallel_map(r.n, &o, work, emit, drop, &r), 0);
		assert_false(r.out_of_order);
		assert_int_equal(r.next, r.n);      /* the items after the failure too */
		assert_int_equal(r.made, r.n);
		assert_int_equal(r.freed, r.n);
		assert_int_equal(r.dropped, 0);
		assert_true(r.worker_thread_seen);
		assert_true(r.max_in_flight <= app_parallel_window(jobs[k]));
	}
}

static void
test_stop_drops_started(void **state)
{
	(void)state;
	struct run r;
	run_init(&r, 500);
	r.stop_at = 5;
	r.work_ns = 50000;
	struct app_parallel_opts o = { .jobs = 4, .window = 6 };
	assert_int_equal(app_parallel_map(r.n, &o, work, emit, drop, &r), 7);
	assert_int_equal(r.next, 6);            /* nothing emitted after the stop */
	assert_int_equal(r.freed, r.made);      /* every result emitted or dropped once */
	assert_int_equal(r.made, 6 + r.dropped);
	/* Started items lie within the window of the last one emitted. */
	assert_true(r.made <= 6 + 6);
}

static void
test_window_bound(void **state)
{
	(void)state;
	/* A slow printer: workers run ahead until the window holds them back. */
	static const size_t windows[] = { 1, 3, 5 };
	for (size_t k = 0; k < sizeof(windows) / sizeof(windows[0]); k++) {
		struct run r;
		run_init(&r, 60);
		r.emit_ns = 2000000;
		struct app_parallel_opts o = { .jobs = 3, .window = windows[k] };
		assert_int_equal(app_parallel_map(r.n, &o, work, emit, drop, &r), 0);
		assert_false(r.out_of_order);
		assert_true(r.max_in_flight <= windows[k]);
		/* ... and it is reached, so the bound is what held them. */
		assert_int_equal(r.max_in_flight, windows[k]);
	}
}

static void
test_one_job_is_a_loop(void **state)
{
	(void)state;
	struct run r;
	run_init(&r, 50);
	r.fail_at = 0;
	struct app_parallel_opts o = { .jobs = 1 };
	assert_int_equal(app_parallel_map(r.n, &o, work, emit, drop, &r), 0);
	assert_false(r.out_of_order);
	assert_false(r.worker_thread_seen);
	assert_int_equal(r.max_in_flight, 1);   /* work(i), then emit(i), then work(i + 1) */
	assert_int_equal(r.freed, r.n);
	/* No items: nothing runs. */
	run_init(&r, 0);
	o.jobs = 4;
	assert_int_equal(app_parallel_map(0, &o, work, emit, drop, &r), 0);
	assert_int_equal(r.made, 0);
}

static void
test_defaults(void **state)
{
	(void)state;
	unsigned j = app_parallel_default_jobs();
	assert_true(j >= 1 && j <= APP_PARALLEL_MAX_JOBS);
	assert_int_equal(app_parallel_window(2), 2 * APP_PARALLEL_WINDOW_PER_JOB);
	/* A batch never exceeds the window: else the printer could sleep on a
	 * batch that the workers, held back by the window, never finish. */
	for (size_t w = 1; w <= 64; w++)
		assert_true(app_parallel_batch(w) >= 1 && app_parallel_batch(w) <= w);
	assert_int_equal(app_parallel_batch(16), 8);
}

/*
 * Many items that take no time: the hand-over between workers and the
 * printer, not the work, is what runs, with windows smaller than, equal to
 * and larger than the batch, at several -j. A lost wake-up hangs (the test
 * times out); a slot emitted before it is written or twice is out of order.
 */
static void
test_many_tiny_items(void **state)
{
	(void)state;
	static const unsigned jobs[] = { 2, 3, 8 };
	static const size_t windows[] = { 0, 1, 2, 7 };
	for (size_t k = 0; k < sizeof(jobs) / sizeof(jobs[0]); k++) {
		for (size_t w = 0; w < sizeof(windows) / sizeof(windows[0]); w++) {
			struct run r;
			run_init(&r, 20000);
			r.fail_at = 12345;
			struct app_parallel_opts o = { .jobs = jobs[k], .window = windows[w] };
			assert_int_equal(app_parallel_map(r.n, &o, work, emit, drop, &r), 0);
			assert_false(r.out_of_order);
			assert_int_equal(r.next, r.n);
			assert_int_equal(r.freed, r.n);
			size_t window = windows[w] ? windows[w] : app_parallel_window(jobs[k]);
			assert_true(r.max_in_flight <= window);
		}
	}
}

/* A stop with the default window: nothing starts beyond the window of the stop. */
static void
test_stop_default_window(void **state)
{
	(void)state;
	struct run r;
	run_init(&r, 2000);
	r.stop_at = 40;
	r.work_ns = 10000;
	struct app_parallel_opts o = { .jobs = 2 };
	assert_int_equal(app_parallel_map(r.n, &o, work, emit, drop, &r), 7);
	assert_int_equal(r.next, 41);
	assert_int_equal(r.freed, r.made);
	assert_int_equal(r.made, 41 + r.dropped);
	assert_true(r.made <= 41 + app_parallel_window(2));
}

#ifdef RUSAGE_THREAD
static long
caller_sleeps(void)
{
	struct rusage ru;
	getrusage(RUSAGE_THREAD, &ru);
	return ru.ru_nvcsw;
}

/*
 * Workers slower than the printer: the calling thread has to wait for
 * them. Woken for every finished item it slept 213 times for these 400
 * items (measured with a batch of 1); woken once per batch, about n / batch
 * times (50 at -j 2; measured 56). Voluntary context switches of the calling
 * thread count its sleeps; the bound leaves room for a contended lock.
 */
static void
test_caller_woken_per_batch(void **state)
{
	(void)state;
	struct run r;
	run_init(&r, 400);
	r.work_ns = 50000;
	struct app_parallel_opts o = { .jobs = 2 };
	long before = caller_sleeps();
	assert_int_equal(app_parallel_map(r.n, &o, work, emit, drop, &r), 0);
	long slept = caller_sleeps() - before;
	assert_false(r.out_of_order);
	size_t batch = app_parallel_batch(app_parallel_window(2));
	print_message("calling thread slept %ld times for %zu items (batch %zu)\n", slept, r.n,
		      batch);
	assert_true((size_t)slept <= 2 * (r.n / batch) + 8);
}
#endif

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order_and_failure),
		cmocka_unit_test(test_stop_drops_started),
		cmocka_unit_test(test_window_bound),
		cmocka_unit_test(test_one_job_is_a_loop),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_many_tiny_items),
		cmocka_unit_test(test_stop_default_window),
#ifdef RUSAGE_THREAD
		cmocka_unit_test(test_caller_woken_per_batch),
#endif
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
