/*
 * The parallel ordered map (app/parallel.h): worker threads take items in
 * index order from one counter and put each result in a ring of `window`
 * slots. The results are emitted in index order by whichever worker holds
 * the emitter's turn: the one that finished the next item to emit takes
 * the turn when no one holds it, emits that item and every following one
 * already finished, and gives the turn back. No thread is woken to print a
 * result: a worker sleeps only when the window is full, and the calling
 * thread only waits for the workers to end. (A printer thread woken per
 * item cost ~3.5 context switches an item, and a third thread on the
 * workers' processors.)
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
	app_parallel_emit_fn emit;
	void *ctx;
	pthread_mutex_t lock;
	pthread_cond_t space;      /* a slot was freed, or the map stopped */
	/* Under lock: */
	size_t next_start;         /* the next item a worker takes */
	size_t next_emit;          /* the next item to emit */
	bool emitting;             /* a worker holds the emitter's turn */
	bool stop;
	int rc;                    /* the value of the emit() that stopped the map */
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

/*
 * Under the lock, by the worker that takes the emitter's turn: emit the
 * finished items from next_emit on, in order, each outside the lock. Only
 * one thread holds the turn, and each emit() takes it under the lock the
 * previous one gave it back under, so the emits see each other's writes as
 * calls on one thread would. Whoever stores the result of item next_emit
 * while no one holds the turn takes it, so a finished item never waits for
 * a thread to be woken.
 */
static void
emit_finished(struct map *m)
{
	m->emitting = true;
	while (!m->stop && m->next_emit < m->n && m->slots[m->next_emit % m->window].done) {
		size_t i = m->next_emit;
		struct slot *s = &m->slots[i % m->window];
		void *result = s->result;
		*s = (struct slot){ NULL, false };
		pthread_mutex_unlock(&m->lock);
		int rc = m->emit(m->ctx, i, result);
		pthread_mutex_lock(&m->lock);
		/* Item i counts as in flight until its emit() returned: the window
		 * bounds the results held, the one being printed included. */
		m->next_emit = i + 1;
		if (rc) {
			m->stop = true;
			m->rc = rc;
		}
		pthread_cond_broadcast(&m->space);
	}
	m->emitting = false;
}

static void *
worker(void *arg)
{
	struct map *m = arg;
	pthread_mutex_lock(&m->lock);
	for (;;) {
		/* Item i may start once item i - window is emitted: its slot is free. */
		while (!m->stop && m->next_start < m->n &&
		       m->next_start >= m->next_emit + m->window)
			pthread_cond_wait(&m->space, &m->lock);
		if (m->stop || m->next_start >= m->n)
			break;
		size_t i = m->next_start++;
		pthread_mutex_unlock(&m->lock);
		void *result = m->work(m->ctx, i);
		pthread_mutex_lock(&m->lock);
		m->slots[i % m->window] = (struct slot){ result, true };
		if (i == m->next_emit && !m->emitting)
			emit_finished(m);
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
		.emit = emit,
		.ctx = ctx,
	};
	m.slots = xcalloc(m.window, sizeof(*m.slots));
	pthread_mutex_init(&m.lock, NULL);
	pthread_cond_init(&m.space, NULL);
	pthread_t *threads = xcalloc(jobs, sizeof(*threads));
	unsigned started = 0;
	while (started < jobs && pthread_create(&threads[started], NULL, worker, &m) == 0)
		started++;

	int rc;
	if (started == 0) {
		rc = map_in_turn(n, work, emit, ctx);
	} else {
		/* The workers emit every item (or stop): the calling thread waits. */
		for (unsigned t = 0; t < started; t++)
			pthread_join(threads[t], NULL);
		rc = m.rc;
		/* After a stop: the items started and never emitted. */
		for (size_t i = m.next_emit; i < m.next_start; i++) {
			struct slot *s = &m.slots[i % m.window];
			if (s->done && drop)
				drop(ctx, i, s->result);
		}
	}
	free(threads);
	pthread_cond_destroy(&m.space);
	pthread_mutex_destroy(&m.lock);
	free(m.slots);
	return rc;
}
