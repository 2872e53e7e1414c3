/*
 * The parallel ordered map (app/parallel.h): worker threads take items in
 * index order from one counter, put each result in a ring of `window`
 * slots, and the calling thread emits the slots in index order.
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
	pthread_cond_t finished;   /* an item's result is in its slot */
	/* Under lock: */
	size_t next_start;         /* the next item a worker takes */
	size_t next_emit;          /* the next item the calling thread emits */
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
		pthread_cond_signal(&m->finished);
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
 * The calling thread: each item's result in index order, emitted outside the
 * lock. The item counts as in flight until its emit() returns: the window
 * bounds the results held, the one being printed included.
 */
static int
emit_in_order(struct map *m, app_parallel_emit_fn emit)
{
	int rc = 0;
	for (size_t i = 0; i < m->n && rc == 0; i++) {
		struct slot *s = &m->slots[i % m->window];
		pthread_mutex_lock(&m->lock);
		while (!s->done)
			pthread_cond_wait(&m->finished, &m->lock);
		void *result = s->result;
		*s = (struct slot){ NULL, false };
		pthread_mutex_unlock(&m->lock);
		rc = emit(m->ctx, i, result);
		pthread_mutex_lock(&m->lock);
		m->next_emit = i + 1;
		m->stop = rc != 0;
		pthread_cond_broadcast(&m->space);
		pthread_mutex_unlock(&m->lock);
	}
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
	pthread_t *threads = xcalloc(jobs, sizeof(*threads));
	unsigned started = 0;
	while (started < jobs && pthread_create(&threads[started], NULL, worker, &m) == 0)
		started++;

	int rc;
	if (started == 0) {
		rc = map_in_turn(n, work, emit, ctx);
	} else {
		rc = emit_in_order(&m, emit);
		for (unsigned t = 0; t < started; t++)
			pthread_join(threads[t], NULL);
		/* After a stop: the items started and never emitted. */
		for (size_t i = m.next_emit; i < m.next_start; i++) {
			struct slot *s = &m.slots[i % m.window];
			if (s->done && drop)
				drop(ctx, i, s->result);
		}
	}
	free(threads);
	pthread_cond_destroy(&m.finished);
	pthread_cond_destroy(&m.space);
	pthread_mutex_destroy(&m.lock);
	free(m.slots);
	return rc;
}
