#ifndef IOTALLY_APP_PARALLEL_H
#define IOTALLY_APP_PARALLEL_H

/*
 * A parallel ordered map: the one way a command reads many inputs on
 * several processors (`-j N`) and still prints exactly what one processor
 * prints.
 *
 *     for i in 0 .. n-1:  emit(ctx, i, work(ctx, i))
 *
 * work(i) runs on up to `jobs` worker threads, in any order and at the same
 * time as other items; emit(i, result) runs on the calling thread, strictly
 * for i = 0, 1, 2, ... in that order. At most `window` items are started and
 * not yet emitted (emit() returned) at any time: a worker waits before
 * starting item i until emit(i - window) has returned, so the memory the
 * results hold is bounded by `window` results, not by n.
 *
 * The calling thread sleeps until a batch of items is ready to emit (half
 * the window, in index order, or the last items), not once per item, so the
 * window is several items per worker (APP_PARALLEL_WINDOW_PER_JOB).
 *
 * With jobs == 1 no thread is made: work(i) then emit(i), in the calling
 * thread, one item after the other, as a plain loop would.
 *
 * Failures. An item that fails is not a failure of the map: work() puts it
 * in its result and emit() says it in its turn (the items after it are still
 * read, as a loop that reads inputs one by one goes on after one fails).
 * emit() returning non-zero stops the map (standard output cannot be
 * written): no item is started after that, the items already
 * started are finished and handed to drop() (never to emit()), and
 * app_parallel_map() returns emit's value. A thread that cannot be created
 * leaves fewer workers; with none, the map runs as with jobs == 1.
 *
 * What work() may touch. It runs beside other work() calls: it reads `ctx`
 * (shared, not written), writes only its own item and its result, and
 * prints nothing on standard output or error itself (cli/ captures what a
 * command's reader prints per item: util/outbuf.h). The layers below are
 * safe for that: see "The thread-safety audit" in docs/parallel.md
 * for what was shared and how it is kept safe (lazily loaded libraries,
 * PCRE2 match data, libxml2's initialisation, the message buffers of
 * model/gpu.c and model/footprint.c). Bundle members a line reader maps
 * (util/linereader.h line_reader_map_member()) must be mapped before the
 * map starts and unmapped after it returns.
 *
 * Adopting it in a command that loops over inputs (trend's samples in
 * app/trend_inputs.c, the fleet signatures' series, report's series), as
 * app/sources_read.c (app_sources_read_each) and app/diff_pairs_run.c (diff_run_pairs) do:
 *   1. Split the loop body into work(i) -- open, parse, compute what is
 *      printed (the model, a verdict, the output bytes) -- and emit(i) --
 *      print it, count, keep the first error's status, add JUnit cases,
 *      anything that depends on earlier items or on the order.
 *   2. work(i) returns a heap object that emit() or drop() frees; it writes
 *      only item i's own slots (results[i]), copies what it must change of
 *      shared options, and prints nothing directly: in cli/, start a buffer
 *      (outbuf_start(), util/outbuf.h) around what it prints through
 *      outbuf_out()/outbuf_err()/cli_msg() and replay it in emit().
 *   3. Take -j N with cli_parse_jobs() (cli/inputs.h; 0 = not given =
 *      app_parallel_default_jobs()) and call app_parallel_map(n, &opts,
 *      work, emit, drop, ctx) with opts.jobs = N, opts.window =
 *      app_parallel_window(N). With N == 1 the map is the plain loop.
 *   4. In emit(), stop (return non-zero) when the output cannot be written.
 *   5. Add the command to tests/parallel-identical.py: its output at -j 2
 *      and -j 8 must be byte for byte that of -j 1; run it in the
 *      ThreadSanitizer build (meson setup -Db_sanitize=thread).
 */

#include <stddef.h>

/* Runs on a worker: item i's result (NULL is a result too). */
typedef void *(*app_parallel_work_fn)(void *ctx, size_t i);
/* Runs on the calling thread, in order: 0 to go on, non-zero to stop. */
typedef int (*app_parallel_emit_fn)(void *ctx, size_t i, void *result);
/* Frees the result of an item started before a stop and never emitted. */
typedef void (*app_parallel_drop_fn)(void *ctx, size_t i, void *result);

struct app_parallel_opts {
	unsigned jobs;     /* worker threads, 1 or more (1: no thread) */
	size_t window;     /* items started and not yet emitted, at most; 0: app_parallel_window() */
};

/* The largest -j a command takes: more threads than this buys nothing. */
#define APP_PARALLEL_MAX_JOBS 256u

/* The number of processors online (at least 1, at most APP_PARALLEL_MAX_JOBS): -j's default. */
unsigned app_parallel_default_jobs(void);

/*
 * Items in flight per worker. The calling thread is woken when half the
 * window is finished, so a worker has window / 2 / jobs = 4 items of its own
 * to go on with meanwhile; a result is one input's output, not its model
 * (that is freed in work()), so the memory held stays bounded by jobs models
 * and window outputs.
 */
#define APP_PARALLEL_WINDOW_PER_JOB 8u

/* The window used for `jobs` workers: APP_PARALLEL_WINDOW_PER_JOB x jobs. */
size_t app_parallel_window(unsigned jobs);

/* The run of finished items that wakes the calling thread: half the window (at least 1). */
size_t app_parallel_batch(size_t window);

/* Run the map over items 0 .. n-1. 0, or the non-zero value of the emit() that stopped it. */
int app_parallel_map(size_t n, const struct app_parallel_opts *opts, app_parallel_work_fn work,
		     app_parallel_emit_fn emit, app_parallel_drop_fn drop, void *ctx);

#endif
