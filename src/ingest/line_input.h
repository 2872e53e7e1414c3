#ifndef IOTALLY_INGEST_LINE_INPUT_H
#define IOTALLY_INGEST_LINE_INPUT_H

/*
 * How a line-based parser in ingest/ starts on its input and walks its
 * lines, so that every parser does it the same way.
 *
 * line_input_begin() looks at the start of the input (ingest/detect.h)
 * without consuming it, so a parser can say what a file looks like when
 * it holds no capture. line_input_next() then delivers the lines of the
 * line reader, numbered as in the file.
 *
 * The struct borrows the line reader; the caller opens and closes it.
 */

#include <stdint.h>

#include "ingest/detect.h"
#include "util/diag.h"
#include "util/linereader.h"

struct line_input {
	struct line_reader *reader;   /* borrowed */
	const char *path;             /* the reader's, for messages */
	enum input_kind kind;         /* what the start of the input looks like */
};

/* 0, or -1 with *err set (a read error). */
int line_input_begin(struct line_input *in, struct line_reader *r, struct diag *err);
/* 1: *ln holds the next line; 0: end of input; -1: read error in *err. */
int line_input_next(struct line_input *in, struct line *ln, struct diag *err);

#endif
