/*
 * The parallel ordered map (app/parallel.h): the calling thread and
 * jobs - 1 worker threads take items in index order from one counter and
 * put each result in a ring of `window` slots; the calling thread emits the
 * slots in index order, and works on an item itself whenever the next one
 * to emit is not done yet.
 *
 * Why the caller works too: a separate emitting thread is one more thread
 * than processors for -j N, and it slept and was woken for every item (a
 * futex call, a context switch and an interprocessor wake-up each), which
 * cost the run about as much system time as reading its inputs. Now a
 * thread sleeps only when it can do nothing: a worker when the window is
 * full, the caller when every item in the window is started and the next
 * one to emit is still being worked on; and a thread is woken only when
 * what it waits for happened.
 */

#include "app/parallel.h"

#include "util/xalloc.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

struct slot {
	void *result;
	bool done;
};

struct map {
	size_t n, window;
	app_parallel_work_fn work;
	void *ctx;
	pthread_mutex_t lock;
	pthread_cond_t space;      /* a slot was freed, or the map stopped */
	pthread_cond_t finished;   /* the next item to emit is in its slot */
	/* Under lock: */
	size_t next_start;         /* the next item a thread takes */
	size_t next_emit;          /* the next item the calling thread emits */
	size_t workers_waiting;    /* workers asleep on `space` */
	bool caller_waiting;       /* the calling thread asleep on `finished` */
	bool stop;
	struct slot *slots;        /* item i in slots[i % window] */
};

unsigned
app_parallel_default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		return 1;
	return n > (long)APP_PARALLEL_MAX_JOBS ? APP_PARALLEL_MAX_JOBS : (unsigned)n;
}

size_t
app_parallel_window(unsigned jobs)
{
	return 2 * (size_t)(jobs ? jobs : 1);
}

/* Under lock: item next_start may start (its slot is free: item next_start - window is emitted). */
static bool
may_start(const struct map *m)
{
	return !m->stop && m->next_start < m->n && m->next_start < m->next_emit + m->window;
}

/* Take item next_start, work it outside the lock, put its result in its slot. Under lock. */
static void
work_one(struct map *m)
{
	size_t i = m->next_start++;
	pthread_mutex_unlock(&m->lock);
	void *result = m->work(m->ctx, i);
	pthread_mutex_lock(&m->lock);
	m->slots[i % m->window] = (struct slot){ result, true };
	if (i == m->next_emit && m->caller_waiting)
		pthread_cond_signal(&m->finished);
}

static void *
worker(void *arg)
{
	struct map *m = arg;
	pthread_mutex_lock(&m->lock);
	for (;;) {
		while (!m->stop && m->next_start < m->n && !may_start(m)) {
			m->workers_waiting++;
			pthread_cond_wait(&m->space, &m->lock);
			m->workers_waiting--;
		}
		if (!may_start(m))
			break;
		work_one(m);
	}
	pthread_mutex_unlock(&m->lock);
	return NULL;
}

static int
map_in_turn(size_t n, app_parallel_work_fn work, app_parallel_emit_fn emit, void *ctx)
{
	for (size_t i = 0; i < n; i++) {
		int rc = emit(ctx, i, work(ctx, i));
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * The calling thread: emit the next item when it is done (outside the
 * lock), else work on the next item to start, else sleep until the next
 * item to emit is done. The item counts as in flight until its emit()
 * returns: the window bounds the results held, the one being printed
 * included. With no worker thread this is the plain loop.
 */
static int
run_caller(struct map *m, app_parallel_emit_fn emit)
{
	int rc = 0;
	pthread_mutex_lock(&m->lock);
	while (m->next_emit < m->n) {
		struct slot *s = &m->slots[m->next_emit % m->window];
		if (s->done) {
			size_t i = m->next_emit;
			void *result = s->result;
			*s = (struct slot){ NULL, false };
			pthread_mutex_unlock(&m->lock);
			rc = emit(m->ctx, i, result);
			pthread_mutex_lock(&m->lock);
			m->next_emit = i + 1;
			m->stop = rc != 0;
			if (m->workers_waiting || m->stop)
				pthread_cond_broadcast(&m->space);
			if (m->stop)
				break;
		} else if (may_start(m)) {
			work_one(m);
		} else {
			m->caller_waiting = true;
			pthread_cond_wait(&m->finished, &m->lock);
			m->caller_waiting = false;
		}
	}
	pthread_mutex_unlock(&m->lock);
	return rc;
}

int
app_parallel_map(size_t n, const struct app_parallel_opts *opts, app_parallel_work_fn work,
		 app_parallel_emit_fn emit, app_parallel_drop_fn drop, void *ctx)
{
	unsigned jobs = opts->jobs ? opts->jobs : 1;
	if (jobs > APP_PARALLEL_MAX_JOBS)
		jobs = APP_PARALLEL_MAX_JOBS;
	if ((size_t)jobs > n)
		jobs = (unsigned)n;
	if (jobs <= 1)
		return map_in_turn(n, work, emit, ctx);

	struct map m = {
		.n = n,
		.window = opts->window ? opts->window : app_parallel_window(jobs),
		.work = work,
		.ctx = ctx,
	};
	m.slots = xcalloc(m.window, sizeof(*m.slots));
	pthread_mutex_init(&m.lock, NULL);
	pthread_cond_init(&m.space, NULL);
	pthread_cond_init(&m.finished, NULL);
	/* The calling thread is one of the `jobs`. */
	pthread_t *threads = xcalloc(jobs - 1, sizeof(*threads));
	unsigned started = 0;
	while (started < jobs - 1 && pthread_create(&threads[started], NULL, worker, &m) == 0)
		started++;

	int rc = run_caller(&m, emit);
	for (unsigned t = 0; t < started; t++)
		pthread_join(threads[t], NULL);
	/* After a stop: the items started and never emitted. */
	for (size_t i = m.next_emit; i < m.next_start; i++) {
		struct slot *s = &m.slots[i % m.window];
		if (s->done && drop)
			drop(ctx, i, s->result);
	}
	free(threads);
	pthread_cond_destroy(&m.finished);
	pthread_cond_destroy(&m.space);
	pthread_mutex_destroy(&m.lock);
	free(m.slots);
	return rc;
}
