#ifndef IOTALLY_UTIL_OUTBUF_H
#define IOTALLY_UTIL_OUTBUF_H

/*
 * What a command prints while it reads one input on a worker thread (-j N,
 * app/parallel.h), kept for the calling thread to print in the input's
 * turn. Every write of the reading path goes to outbuf_out() or outbuf_err()
 * (cli_msg() and cli_print_diag() to outbuf_err()): standard output and
 * standard error, or, on a thread that started a buffer, that buffer. The
 * buffer keeps the two streams apart and the order of their pieces, so
 * replaying it writes the same bytes to each stream, interleaved as the
 * reader wrote them (a terminal shows warnings beside their input's rows,
 * as with -j 1).
 */

#include <stdio.h>

struct outbuf;

/* This thread's standard output and standard error, or its buffer's. */
FILE *outbuf_out(void);
FILE *outbuf_err(void);
/* `f` (an output file of the command), or, on a thread with a buffer, the
 * buffer's output, which the caller replays to `f`. */
FILE *outbuf_out_or(FILE *f);

/* From now on this thread's outbuf_out()/outbuf_err() write into a new buffer. */
struct outbuf *outbuf_start(void);
/* Back to the standard streams on this thread; the buffer keeps its bytes. */
void outbuf_stop(struct outbuf *b);
/* Write what the buffer holds to `out` and `err`, in order, and free it. */
void outbuf_replay(struct outbuf *b, FILE *out, FILE *err);
/* Free a buffer without writing it. */
void outbuf_free(struct outbuf *b);

#endif
