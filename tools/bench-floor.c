/*
 * The floor of any line reader, for tools/bench-vmmap and tools/bench-parallel:
 * read each file in 256 KiB blocks, find every '\n' with memchr, print how
 * many in all files (as the total line of wc -l).
 * Nothing is parsed, copied or kept. `grep -c NEEDLE` is not this floor: it
 * skips most bytes of a line (Boyer-Moore) and does no per-line work, so
 * iotally's ratio to grep mixes two costs; its ratio to this program is the
 * cost of parsing alone, and this program's ratio to grep that of splitting
 * lines alone.
 *
 *   bench-floor FILE...
 *
 * Many files are for the commands that read folders: `cat` of their bytes
 * also writes every byte to a pipe, which no reader of them does, so this
 * is the closer floor for them too.
 *
 *   bench-floor --fields FILE...
 *
 * The floor of a table reader: also split every line into its fields
 * (runs of bytes other than blank and tab) and read the last field's
 * leading digits as a number (as `awk '{n += $NF}'` does, less its
 * decimals and signs); print the lines, the fields and the sum. A
 * summary row's reader must at least do this (it must find where the
 * name ends and the columns start, and read them), which neither grep
 * nor the line floor does. One plain loop over each line's bytes, as
 * anyone would write it: no vector code. tests/bench-floor.py checks
 * both modes' counts.
 *
 * Built by tools/bench-vmmap and tools/bench-parallel (cc -O2), never by the
 * project's build. Exit
 * status as iotally's (sysexits): 64 usage, 66 the file cannot be opened,
 * 71 a line too long for memory, 74 a read or write error; each with a
 * message naming the file.
 */

#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

/* Twice util/linereader.c's block: the floor must not pay for smaller reads. */
#define BLOCK_SIZE (1u << 18)

static char block[BLOCK_SIZE];

static int
say_error(const char *path, const char *what, int err, int status)
{
	fprintf(stderr, "bench-floor: %s: error: %s: %s\n", path, what, strerror(err));
	return status;
}

/* The '\n' bytes in buf[0, n). */
static uint64_t
count_line_ends(const char *buf, size_t n)
{
	uint64_t lines = 0;
	const char *p = buf, *end = buf + n;
	const char *nl;

	while ((nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		lines++;
		p = nl + 1;
	}
	return lines;
}

/* What a pass over the files counts: lines, and with --fields the fields
 * and the sum of each line's last field. */
struct tally {
	bool fields_too;
	uint64_t lines, fields, sum;
	/* A line cut by a block's end, until its '\n' comes. */
	char *carry;
	size_t ncarry, carry_alloc;
};

/* Splits the line [p, e) into fields, adds their number and the last
 * one's leading digits (wrapping, as the sum is only a check) to t. */
static void
tally_fields(struct tally *t, const char *p, const char *e)
{
	const char *last = NULL, *last_end = e;
	bool in = false;
	for (; p < e; p++) {
		bool blank = *p == ' ' || *p == '\t';
		if (!blank && !in) {
			last = p;
			in = true;
			t->fields++;
		} else if (blank && in) {
			last_end = p;
			in = false;
		}
	}
	if (in)
		last_end = e;
	uint64_t v = 0;
	for (const char *q = last; q && q < last_end && (unsigned)(*q - '0') < 10; q++)
		v = v * 10 + (unsigned)(*q - '0');
	t->sum += v;
}

/* Keeps [p, e) for the line the next block ends: 0, or ENOMEM. */
static int
tally_carry(struct tally *t, const char *p, const char *e)
{
	size_t n = (size_t)(e - p);
	if (t->ncarry + n > t->carry_alloc) {
		size_t want = (t->ncarry + n) * 2;
		char *c = realloc(t->carry, want);
		if (!c)
			return ENOMEM;
		t->carry = c;
		t->carry_alloc = want;
	}
	memcpy(t->carry + t->ncarry, p, n);
	t->ncarry += n;
	return 0;
}

/* The lines (and fields) of buf[0, n) into t: 0, or ENOMEM. */
static int
tally_block(struct tally *t, const char *buf, size_t n)
{
	if (!t->fields_too) {
		t->lines += count_line_ends(buf, n);
		return 0;
	}
	const char *p = buf, *end = buf + n;
	const char *nl;
	while ((nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		t->lines++;
		if (t->ncarry) {
			if (tally_carry(t, p, nl) != 0)
				return ENOMEM;
			tally_fields(t, t->carry, t->carry + t->ncarry);
			t->ncarry = 0;
		} else {
			tally_fields(t, p, nl);
		}
		p = nl + 1;
	}
	return tally_carry(t, p, end);
}

/* The last line of a file when it has no '\n' (fields only: wc -l does
 * not count it either). */
static void
tally_file_end(struct tally *t)
{
	if (t->ncarry)
		tally_fields(t, t->carry, t->carry + t->ncarry);
	t->ncarry = 0;
}

/* Tallies the open file fd: 0, or the errno of a failed read. */
static int
read_tally(int fd, struct tally *t)
{
	for (;;) {
		ssize_t n = read(fd, block, sizeof block);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		if (n == 0)
			break;
		int err = tally_block(t, block, (size_t)n);
		if (err != 0)
			return err;
	}
	tally_file_end(t);
	return 0;
}

/* Adds the file at path to t: 0, or the exit status. */
static int
tally_file(const char *path, struct tally *t)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return say_error(path, "cannot open", errno, EX_NOINPUT);

	int err = read_tally(fd, t);
	close(fd);
	if (err == ENOMEM)
		return say_error(path, "a line does not fit in memory", err, EX_OSERR);
	if (err != 0)
		return say_error(path, "cannot be read", err, EX_IOERR);
	return 0;
}

int
main(int argc, char **argv)
{
	struct tally t = { 0 };
	int first = 1;
	if (argc > 1 && strcmp(argv[1], "--fields") == 0) {
		t.fields_too = true;
		first = 2;
	}
	if (argc <= first) {
		fprintf(stderr, "usage: bench-floor [--fields] FILE...\n");
		return EX_USAGE;
	}
	for (int i = first; i < argc; i++) {
		int status = tally_file(argv[i], &t);
		if (status != 0)
			return status;
	}
	free(t.carry);
	int w = t.fields_too ? printf("%" PRIu64 " %" PRIu64 " %" PRIu64 "\n", t.lines, t.fields, t.sum)
			     : printf("%" PRIu64 "\n", t.lines);
	if (w < 0 || fflush(stdout) != 0)
		return say_error("standard output", "cannot be written", errno, EX_IOERR);
	return 0;
}
