#ifndef IOTALLY_UTIL_LINEREADER_H
#define IOTALLY_UTIL_LINEREADER_H

/*
 * Streams an input (a file, or "-" for standard input) line by line
 * through one fixed buffer, so memory does not grow with the input:
 * reads large blocks, splits at '\n', strips one trailing '\r' and a
 * UTF-8 byte-order mark at the start of the input. A gzip-compressed
 * input (file or standard input) is decompressed as it is read: lines,
 * line numbers and byte counts are those of the decompressed text, and a
 * corrupt or truncated stream is a read error (DIAG_DATA).
 *
 * A line longer than `max_line` bytes is delivered cut to `max_line`
 * bytes with `overlong` set, and the rest of it is skipped unread by the
 * caller. A line view is valid until the next call.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/arcread.h"
#include "util/diag.h"

#define LINE_READER_DEFAULT_MAX (1u << 20)

struct line {
	const char *p;      /* not NUL-terminated */
	size_t len;         /* without '\n' and a trailing '\r' */
	uint64_t no;        /* 1-based line number */
	bool overlong;      /* cut at max_line bytes */
	bool has_nul;       /* holds a NUL byte */
	bool unterminated;  /* last line, no '\n' after it */
	/* The first byte of the line that is the reader's mark
	 * (line_reader_set_mark), found in the same pass as the line's end;
	 * NULL when the line has none (or no mark was set). */
	const char *mark;
};

struct line_reader {
	const char *path;   /* borrowed; "-" for standard input */
	int fd;
	bool owns_fd;
	char *buf;
	size_t cap, pos, end;
	size_t cap_max;     /* max_line + one block: what cap may grow to */
	size_t max_line;
	uint64_t lineno;
	uint64_t bytes_read;
	bool eof;
	bool skipping;      /* discarding the tail of an overlong line */
	bool started;       /* the BOM check has been done */
	bool sniffed;       /* the gzip check has been done */
	bool compressed;    /* the input is gzip-compressed */
	struct arc_reader *arc;  /* decoder of a compressed input or archive member; owned */
	char mark;          /* '\n' (none) unless line_reader_set_mark() */
};

/*
 * Make line_reader_open(name) read the file `member` of the tar or tar.gz
 * file `archive` (all three copied), so that a capture packed in a bundle
 * archive opens like a file in every command. Process-wide; later mappings
 * of the same name win. line_reader_unmap_all() frees the table.
 */
void line_reader_map_member(const char *name, const char *archive, const char *member);
/*
 * Make line_reader_open(name) open the file `rel` beneath the bundle
 * folder `root` (util/beneath.h: no link followed, a regular file only).
 */
void line_reader_map_folder_file(const char *name, const char *root, const char *rel);
/* A descriptor for a name mapped to a folder's file, else open(path); -1 with *err. */
int line_reader_open_mapped_fd(const char *path, struct diag *err);
void line_reader_unmap_all(void);

/* Open `path` ("-" = stdin). Fails with DIAG_NOINPUT for a missing file or a directory. */
int line_reader_open(struct line_reader *r, const char *path, size_t max_line,
		     struct diag *err);
/* Read from an already open descriptor, which the reader does not close. */
void line_reader_from_fd(struct line_reader *r, int fd, const char *path,
			 size_t max_line);
/*
 * Read the decoded bytes of `arc` (taking ownership), e.g. one member of a
 * bundle archive; no further gzip check.
 */
void line_reader_from_archive(struct line_reader *r, struct arc_reader *arc,
			      const char *path, size_t max_line);
/* Read from a copy of `n` bytes in memory (fuzzing, tests, nested inputs). */
void line_reader_from_memory(struct line_reader *r, const void *data, size_t n,
			     const char *path, size_t max_line);
/*
 * Let lines of up to `max_line` bytes through whole from here on (a
 * smaller value changes nothing): a reader of one input kind applies its
 * kind's limit to whatever reader the command opened. Line views and peeked
 * bytes from earlier calls become invalid.
 */
void line_reader_raise_max(struct line_reader *r, size_t max_line);
/*
 * From the next line on, report in each line the place of its first byte
 * `c` (struct line.mark), found in the pass that finds the line's end: a
 * parser that looks for that byte first need not scan the line again.
 */
void line_reader_set_mark(struct line_reader *r, char c);
/* 1: *ln holds a line; 0: end of input; -1: read error in *err. */
int line_reader_next(struct line_reader *r, struct line *ln, struct diag *err);
/*
 * Look at the start of the input without consuming it: fills the buffer
 * with up to `want` bytes (fewer at end of input). Only before the first
 * line_reader_next(). 0 or -1.
 */
int line_reader_peek(struct line_reader *r, size_t want, const char **p,
		     size_t *n, struct diag *err);
void line_reader_close(struct line_reader *r);

#endif
