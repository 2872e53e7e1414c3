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
 * starting item i until emit(i - window) has returned, so the memory the results hold is bounded by
 * `window` results, not by n.
 *
 * With jobs == 1 no thread is made: work(i) then emit(i), in the calling
 * thread, one item after the other, as a plain loop would.
 *
 * Failures. An item that fails is not a failure of the map: work() puts it
 * in its result and emit() says it in its turn (the items after it are still
 * read, as a loop that reads inputs one by one goes on after one fails).
 * emit() returning non-zero stops the map (standard output closed, a gate
 * that stops everything): no item is started after that, the items already
 * started are finished and handed to drop() (never to emit()), and
 * app_parallel_map() returns emit's value. A thread that cannot be created
 * leaves fewer workers; with none, the map runs as with jobs == 1.
 *
 * What work() may touch. It runs beside other work() calls: it reads `ctx`
 * (shared, not written), writes only its own item and its result, and
 * prints nothing on standard output or error itself (cli/ captures what a
 * command's reader prints per item: cli/outbuf.h). The layers below are
 * safe for that: see "Reading on several threads" in docs/architecture.md
 * for what was shared and how it is kept safe (lazily loaded libraries,
 * PCRE2 match data, libxml2's initialisation, the message buffers of
 * model/gpu.c and model/footprint.c). Bundle members a line reader maps
 * (util/linereader.h line_reader_map_member()) must be mapped before the
 * map starts and unmapped after it returns.
 *
 * Adopting it in a command that loops over inputs (trend's samples, the
 * signatures' series, report's series):
 *   1. Split the loop body into work (open, parse, build what is printed:
 *      the model, or the output bytes) and emit (print, count, keep the
 *      first error's status, write JUnit cases) -- everything that depends
 *      on the order or on earlier items goes into emit.
 *   2. Results of work are heap objects that emit (or drop) frees; what
 *      work must print goes into the result (cli/outbuf.h captures a
 *      reader's stdout/stderr per item and replays it in emit).
 *   3. Take -j N with cli_parse_jobs() (cli/options.h) and call
 *      app_parallel_map(n, &opts, ...) with opts.jobs = N and the window
 *      app_parallel_window(N).
 *   4. Test: -j 1 and -j 2 byte-identical (tests/parallel-identical.py
 *      takes a command line).
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
	size_t window;     /* items started and not yet emitted, at most; 0: 2 x jobs */
};

/* The largest -j a command takes: more threads than this buys nothing. */
#define APP_PARALLEL_MAX_JOBS 256u

/* The number of processors online (at least 1, at most APP_PARALLEL_MAX_JOBS): -j's default. */
unsigned app_parallel_default_jobs(void);

/* The window used for `jobs` workers: 2 x jobs, so a worker rarely waits for the printer. */
size_t app_parallel_window(unsigned jobs);

/* Run the map over items 0 .. n-1. 0, or the non-zero value of the emit() that stopped it. */
int app_parallel_map(size_t n, const struct app_parallel_opts *opts, app_parallel_work_fn work,
		     app_parallel_emit_fn emit, app_parallel_drop_fn drop, void *ctx);

#endif
