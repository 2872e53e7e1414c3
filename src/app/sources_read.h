#ifndef IOTALLY_APP_SOURCES_READ_H
#define IOTALLY_APP_SOURCES_READ_H

/*
 * The one input path of the commands that read captures (a kind's own
 * command): every source of app/sources.h opened, looked at (app/input.h),
 * refused when empty and handed to the command's reader the same way.
 *
 * Several sources are read one after the other: one that fails is said on
 * standard error (with its file and line) and the others are still read.
 * The exit status is the first error's (util/diag.h); when some of several
 * inputs failed, a closing warning says the results are partial. What is
 * said goes through util/outbuf.h, so with -j N each source's output and
 * messages come in its turn, as with -j 1.
 */

#include <stdio.h>

#include "app/kind_command.h"
#include "app/sources.h"
#include "util/diag.h"

struct app_sources_reading {
	const char *command;        /* the kind's command: messages, which inputs are skipped */
	size_t max_line;            /* as line_reader_open() takes it */
	/*
	 * Read a source whose reader is open and not empty (the reader prints
	 * its warnings). 0; -1 with *err set, said by say_failure; or an exit
	 * status above 0 when the reader has printed its error itself. With
	 * -j above 1 it runs on worker threads: it must not write to `ctx` and
	 * prints only through outbuf_out()/outbuf_err().
	 */
	int (*read)(void *ctx, struct app_source *src, struct diag *err);
	/* Say a source's failure (kind_io's say_failure): its exit status. */
	int (*say_failure)(const char *command, const struct app_source *src,
			   const struct diag *err);
	/* The row of a source that failed (--format ndjson), or NULL. */
	kind_error_row_fn error_row;
	void *ctx;
};

/*
 * Read every source of `s` in order, up to s->jobs at once (0: one per
 * processor; app/parallel.h); a source that fails gets its error row on
 * standard output. Returns the first error's exit status, or 0.
 */
int app_sources_read_each(struct app_sources *s, const struct app_sources_reading *r);

/*
 * The one rule for an empty input (no bytes, or only blank lines and
 * leading comment lines: ingest/line_input.h), in every command, said on
 * `f`: "the input is empty", with why command `command` (NULL: none) can
 * find one empty, since an empty file cannot be told from a capture that
 * failed before it wrote anything.
 */
void app_say_empty(FILE *f, const char *command, const char *path);

#endif
