#ifndef IOTALLY_UTIL_DIAG_H
#define IOTALLY_UTIL_DIAG_H

/*
 * Diagnostics. Code below app/ never prints and never exits: it fills a
 * struct diag (one error that stops the work) or appends to a diag_list
 * (warnings and notes that let the work go on). cli/ prints them, and
 * app/ where it reads inputs in turn (on the stream it is handed, or
 * util/outbuf.h's); only cli/ chooses the exit status.
 *
 * Codes follow sysexits.h so that the exit status of the program is the
 * code of its first error.
 *
 * A diag keeps its own copy of the path it names (the input's name as given
 * on the command line, "-" meaning standard input, or a bundle member), so
 * an error can outlive the input, bundle or output file it is about: the
 * error is printed after they are released. Read it with diag_path().
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

enum diag_code {
	DIAG_OK = 0,
	DIAG_GATE = 1,       /* a CI gate tripped */
	DIAG_USAGE = 64,     /* EX_USAGE */
	DIAG_DATA = 65,      /* EX_DATAERR: malformed input */
	DIAG_NOINPUT = 66,   /* EX_NOINPUT: cannot open input */
	DIAG_UNAVAILABLE = 69, /* EX_UNAVAILABLE: a library or step the work needs is not there */
	DIAG_SOFTWARE = 70,  /* EX_SOFTWARE: internal error */
	DIAG_IOERR = 74,     /* EX_IOERR: cannot write output */
};

enum diag_severity {
	DIAG_ERROR,
	DIAG_WARNING,
	DIAG_NOTE,
};

#define DIAG_MSG_MAX 768
/* Longer paths are kept cut, ending in "..." (they are only ever shown). */
#define DIAG_PATH_MAX 4096

struct diag {
	int code;
	enum diag_severity severity;
	char file[DIAG_PATH_MAX]; /* "" = not about a file; see diag_path() */
	uint64_t line;   /* 1-based; 0 = not about a line */
	uint64_t col;    /* 1-based; 0 = not about a column */
	char msg[DIAG_MSG_MAX];
};

/* Fill *d (which may be NULL) and return -1, so callers can `return diag_set(...)`. */
int diag_set(struct diag *d, int code, const char *path, uint64_t line,
	     uint64_t col, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
void diag_clear(struct diag *d);
/* The path the diag names, or NULL when it names none. */
const char *diag_path(const struct diag *d);
/* Name `path` (copied; NULL = none) in the diag. */
void diag_set_path(struct diag *d, const char *path);
/* The same, in a diag that named no file yet. */
void diag_set_path_if_unset(struct diag *d, const char *path);

/*
 * "iotally: PATH:LINE:COL: error: MSG\n"; parts that are unknown are left out.
 * The path and the message are written by util/escape.h's rule: a file name
 * or a name quoted from the input cannot put a control byte on the terminal.
 */
void diag_format(const struct diag *d, struct strbuf *out);
/*
 * The same as one line without the program name and the newline
 * ("PATH:LINE: error: MSG"), for JUnit messages and NDJSON rows. The
 * caller frees it.
 */
char *diag_line(const struct diag *d);
/* The same up to and including "SEVERITY: " (path NULL, line or col 0: left out). */
void diag_format_prefix(struct strbuf *out, enum diag_severity sev, const char *path,
			uint64_t line, uint64_t col);

/* The name users see for an input path ("-" is standard input). */
const char *diag_display_path(const char *path);

/*
 * Append `len` bytes of untrusted input to `out`, quoted for a message by
 * util/escape.h's rule (controls and invalid bytes as \xNN), cut after at
 * most `max` bytes (never inside a UTF-8 sequence) with "..." so a 10 MB
 * line never becomes a 10 MB message.
 */
void diag_quote(struct strbuf *out, const char *p, size_t len, size_t max);

/*
 * A bounded list of warnings and notes. After `limit` entries further ones
 * are only counted in `dropped`, keeping memory flat on hostile input.
 *
 * An entry keeps its path and message in the list's `text`, not in a
 * struct diag: a diag's fixed buffers are 4.9 KB, so a list of 200
 * warnings held a megabyte, nearly all of it blank, and wrote some 240
 * pages the kernel hands out one fault at a time (a file of many
 * captures keeps two such lists). Read an entry with diag_list_msg(),
 * diag_list_path() or diag_list_get().
 */
struct diag_item {
	enum diag_severity severity;
	uint64_t line;   /* as in struct diag */
	uint64_t col;
	size_t path;     /* offset of the path in diag_list.text; SIZE_MAX: none */
	size_t msg;      /* offset of the message in diag_list.text */
};

struct diag_list {
	struct diag_item *items;
	size_t len, alloc;
	size_t limit;
	uint64_t dropped;
	struct strbuf text;
};

void diag_list_init(struct diag_list *list, size_t limit);
void diag_list_release(struct diag_list *list);
void diag_list_add(struct diag_list *list, enum diag_severity sev,
		   const char *path, uint64_t line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/*
 * The closing warning of a parser that skipped `total` lines it did not
 * understand, `shown` of which already got a warning of their own.
 */
void diag_list_add_unparsed(struct diag_list *list, const char *path,
			    uint64_t total, uint64_t shown);
void diag_list_vadd(struct diag_list *list, enum diag_severity sev,
		    const char *path, uint64_t line, const char *fmt, va_list ap)
	__attribute__((format(printf, 5, 0)));
/*
 * Append what `src` holds to `dst`, as if each of src's entries had been
 * added to `dst` in turn and its dropped ones too: the entries past dst's
 * limit and src's dropped count go to dst's dropped. With src's limit at
 * least dst's, a list filled apart (an input read on another thread) and
 * appended in turn is the list that adding to `dst` directly makes.
 */
void diag_list_append(struct diag_list *dst, const struct diag_list *src);
/* Entry i's message, and the path it names (NULL: none). */
const char *diag_list_msg(const struct diag_list *list, size_t i);
const char *diag_list_path(const struct diag_list *list, size_t i);
/* Entry i as a diag (code 0), for the functions that print one. */
void diag_list_get(const struct diag_list *list, size_t i, struct diag *out);
/* Name `path` (NULL: none) in each entry that names no file yet. */
void diag_list_set_path_if_unset(struct diag_list *list, const char *path);

#endif
