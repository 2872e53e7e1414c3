/*
 * The parallel ordered map (app/parallel.h): worker threads take items in
 * index order from one counter and put each result in a ring of `window`
 * slots; the calling thread emits the slots in index order.
 *
 * The calling thread is woken once per batch, not once per item. Workers
 * keep `done_to`, the end of the run of finished items that starts at the
 * next item to emit, and wake the calling thread only when it sleeps and
 * that run has reached `batch` items (half the window) or the last item.
 * Woken, it emits the whole run and whatever finished meanwhile, and sleeps
 * again only when nothing is left to emit. Waking it for every item cost
 * about three context switches per item, each taking a processor from a
 * worker; it is never stuck: with batch <= window, workers that cannot
 * start an item (the window is full, or no item is left) have finished
 * every item they started, so the run is at least a batch long or reaches
 * the last item, and the worker that finished it woke the calling thread.
 *
 * Workers never write the output: one blocked in write() would hold the
 * items behind it (measured: `vmmap --format ndjson -j 2` 1.08x slower).
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
	size_t n, window, batch;
	app_parallel_work_fn work;
	void *ctx;
	pthread_mutex_t lock;
	pthread_cond_t space;      /* a slot was freed, or the map stopped */
	pthread_cond_t ready;      /* a batch is ready to emit, or the last item */
	/* Under lock: */
	size_t next_start;         /* the next item a worker takes */
	size_t next_emit;          /* the next item the calling thread emits */
	size_t done_to;            /* items next_emit .. done_to - 1 are finished */
	unsigned waiting_for_space;/* workers asleep on `space` */
	bool emitter_asleep;       /* the calling thread sleeps on `ready` */
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
	return APP_PARALLEL_WINDOW_PER_JOB * (size_t)(jobs ? jobs : 1);
}

size_t
app_parallel_batch(size_t window)
{
	return window > 1 ? window / 2 : 1;
}

/* Under lock, on a worker: item i is finished; wake the calling thread if a batch is ready. */
static void
finish_item(struct map *m, size_t i, void *result)
{
	m->slots[i % m->window] = (struct slot){ result, true };
	if (i != m->done_to)
		return;
	while (m->done_to < m->next_start && m->slots[m->done_to % m->window].done)
		m->done_to++;
	if (m->emitter_asleep &&
	    (m->done_to - m->next_emit >= m->batch || m->done_to == m->n))
		pthread_cond_signal(&m->ready);
}

static void *
worker(void *arg)
{
	struct map *m = arg;
	pthread_mutex_lock(&m->lock);
	for (;;) {
		/* Item i may start once item i - window is emitted: its slot is free. */
		while (!m->stop && m->next_start < m->n &&
		       m->next_start >= m->next_emit + m->window) {
			m->waiting_for_space++;
			pthread_cond_wait(&m->space, &m->lock);
			m->waiting_for_space--;
		}
		if (m->stop || m->next_start >= m->n)
			break;
		size_t i = m->next_start++;
		pthread_mutex_unlock(&m->lock);
		void *result = m->work(m->ctx, i);
		pthread_mutex_lock(&m->lock);
		finish_item(m, i, result);
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

/* Under lock: sleep until a batch is ready to emit (or the last item); the end of the run. */
static size_t
wait_for_batch(struct map *m)
{
	if (m->done_to == m->next_emit) {
		m->emitter_asleep = true;
		while (m->done_to - m->next_emit < m->batch && m->done_to < m->n)
			pthread_cond_wait(&m->ready, &m->lock);
		m->emitter_asleep = false;
	}
	return m->done_to;
}

/* Emit item i, whose result is in its slot, and free the slot. */
static int
emit_one(struct map *m, app_parallel_emit_fn emit, size_t i)
{
	struct slot *s = &m->slots[i % m->window];
	void *result = s->result;
	*s = (struct slot){ NULL, false };
	int rc = emit(m->ctx, i, result);
	pthread_mutex_lock(&m->lock);
	m->next_emit = i + 1;
	m->stop = rc != 0;
	if (m->waiting_for_space)
		pthread_cond_broadcast(&m->space);
	pthread_mutex_unlock(&m->lock);
	return rc;
}

/*
 * The calling thread: each run of finished items in index order, emitted
 * outside the lock (workers write the slots of items next_emit .. done_to
 * - 1 no more). An item counts as in flight until its emit() returns: the
 * window bounds the results held, the one being printed included, and a
 * worker waiting for a slot is woken as soon as one is free.
 */
static int
emit_in_order(struct map *m, app_parallel_emit_fn emit)
{
	int rc = 0;
	size_t i = 0;
	while (i < m->n && rc == 0) {
		pthread_mutex_lock(&m->lock);
		size_t end = wait_for_batch(m);
		pthread_mutex_unlock(&m->lock);
		for (; i < end && rc == 0; i++)
			rc = emit_one(m, emit, i);
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
	m.batch = app_parallel_batch(m.window);
	m.slots = xcalloc(m.window, sizeof(*m.slots));
	pthread_mutex_init(&m.lock, NULL);
	pthread_cond_init(&m.space, NULL);
	pthread_cond_init(&m.ready, NULL);
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
	pthread_cond_destroy(&m.ready);
	pthread_cond_destroy(&m.space);
	pthread_mutex_destroy(&m.lock);
	free(m.slots);
	return rc;
}
