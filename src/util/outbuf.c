/*
 * Per-thread output buffers (util/outbuf.h): two memory streams and the list
 * of their pieces in the order they were written. A piece ends where the
 * reader next asks for the other stream (outbuf_out() or outbuf_err()): at that
 * moment both streams are flushed and whatever each gained is a piece.
 */

#include "util/outbuf.h"

#include "util/xalloc.h"

#include <stdbool.h>
#include <stdlib.h>
#ifdef __GLIBC__
#include <stdio_ext.h>
#endif

enum { OUT, ERR };

struct piece {
	int stream;
	size_t end;      /* the stream's size when the piece ended */
};

struct outbuf {
	FILE *f[2];
	char *buf[2];
	size_t size[2];  /* open_memstream() updates them on fflush() */
	size_t seen[2];  /* bytes already in pieces */
	struct piece *pieces;
	size_t npieces, alloc;
};

static _Thread_local struct outbuf *current;

static void
cut_pieces(struct outbuf *b)
{
	for (int k = OUT; k <= ERR; k++) {
		fflush(b->f[k]);
		if (b->size[k] == b->seen[k])
			continue;
		if (b->npieces && b->pieces[b->npieces - 1].stream == k) {
			b->pieces[b->npieces - 1].end = b->size[k];
		} else {
			b->pieces = xgrow(b->pieces, &b->alloc, b->npieces + 1, sizeof(*b->pieces));
			b->pieces[b->npieces++] = (struct piece){ k, b->size[k] };
		}
		b->seen[k] = b->size[k];
	}
}

FILE *
outbuf_out_or(FILE *f)
{
	if (!current)
		return f;
	cut_pieces(current);
	return current->f[OUT];
}

FILE *
outbuf_out(void)
{
	return outbuf_out_or(stdout);
}

FILE *
outbuf_err(void)
{
	if (!current)
		return stderr;
	cut_pieces(current);
	return current->f[ERR];
}

struct outbuf *
outbuf_start(void)
{
	struct outbuf *b = xcalloc(1, sizeof(*b));
	for (int k = OUT; k <= ERR; k++) {
		if (!(b->f[k] = open_memstream(&b->buf[k], &b->size[k])))
			xdie("out of memory (an input's output buffer)");
#ifdef __GLIBC__
		/* One thread writes these streams (the one reading the input)
		 * and closes them before another replays the bytes: no stdio
		 * lock needed. With threads running, glibc takes it for every
		 * putc and fwrite of the writers, thousands per input. */
		__fsetlocking(b->f[k], FSETLOCKING_BYCALLER);
#endif
	}
	current = b;
	return b;
}

void
outbuf_stop(struct outbuf *b)
{
	cut_pieces(b);
	for (int k = OUT; k <= ERR; k++) {
		fclose(b->f[k]);
		b->f[k] = NULL;
	}
	if (current == b)
		current = NULL;
}

void
outbuf_replay(struct outbuf *b, FILE *out, FILE *err)
{
	size_t from[2] = { 0, 0 };
	for (size_t i = 0; i < b->npieces; i++) {
		const struct piece *p = &b->pieces[i];
		fwrite(b->buf[p->stream] + from[p->stream], 1, p->end - from[p->stream],
		       p->stream == OUT ? out : err);
		from[p->stream] = p->end;
	}
	outbuf_free(b);
}

void
outbuf_free(struct outbuf *b)
{
	if (!b)
		return;
	if (b->f[OUT])
		outbuf_stop(b);
	free(b->buf[OUT]);
	free(b->buf[ERR]);
	free(b->pieces);
	free(b);
}
