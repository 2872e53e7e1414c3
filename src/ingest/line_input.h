#ifndef IOTALLY_INGEST_LINE_INPUT_H
#define IOTALLY_INGEST_LINE_INPUT_H

/*
 * How a line-based parser in ingest/ starts on its input and walks its
 * lines, so that every parser does it the same way.
 *
 * line_input_begin() looks at the start of the input (ingest/detect.h)
 * without consuming it, so a parser can say what a file looks like when
 * it holds no capture. line_input_next() then delivers the lines of the
 * line reader, numbered as in the file, with one rule for every kind:
 *
 *   Leading comment lines are not part of the capture. Until the first
 *   line that is neither blank nor a comment, a line whose first byte is
 *   '#' is skipped silently (a note of where the capture came from or how
 *   it was made, such as the corpus' "# SOURCE:" line). No tool output
 *   iotally reads as lines starts a line with '#'. Later '#' lines are
 *   delivered: what they mean is the parser's to say.
 *
 * Other lines before a parser's first recognised line are its preamble:
 * the parser decides (docs/preamble.md, "Input before the capture").
 *
 * The struct borrows the line reader; the caller opens and closes it.
 */

#include <stdbool.h>

#include "ingest/detect.h"
#include "util/diag.h"
#include "util/linereader.h"

struct line_input {
	struct line_reader *reader;   /* borrowed */
	const char *path;             /* the reader's, for messages */
	enum input_kind kind;         /* what the start of the input looks like */
	bool past_comments;           /* a line neither blank nor a comment was delivered */
};

/* 0, or -1 with *err set (a read error). */
int line_input_begin(struct line_input *in, struct line_reader *r, struct diag *err);
/*
 * Do the n bytes at p, the whole of an input, hold nothing but blank lines
 * and leading comment lines (by the rule above)? Such an input holds no
 * capture: every command calls it empty (app/sources_read.h, app_say_empty).
 */
bool line_input_is_empty(const char *p, size_t n);
/*
 * 1: *ln holds the next line that is not a leading comment; 0: end of
 * input; -1: read error in *err. (line_input_next_leading is its part
 * before the first line that is neither blank nor a comment.)
 */
int line_input_next_leading(struct line_input *in, struct line *ln, struct diag *err);
static inline int
line_input_next(struct line_input *in, struct line *ln, struct diag *err)
{
	/* Past the leading comments every line is delivered: no call per line. */
	if (in->past_comments)
		return line_reader_next(in->reader, ln, err);
	return line_input_next_leading(in, ln, err);
}

#endif
