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
 * Built by tools/bench-vmmap and tools/bench-parallel (cc -O2), never by the
 * project's build. Exit
 * status as iotally's (sysexits): 64 usage, 66 the file cannot be opened,
 * 74 a read or write error; each with a message naming the file.
 */

#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
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

/* Lines of the open file fd into *lines: 0, or the errno of a failed read. */
static int
read_count_lines(int fd, uint64_t *lines)
{
	uint64_t total = 0;

	for (;;) {
		ssize_t n = read(fd, block, sizeof block);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		if (n == 0)
			break;
		total += count_line_ends(block, (size_t)n);
	}
	*lines = total;
	return 0;
}

/* Adds the lines of the file at path to *lines: 0, or the exit status. */
static int
count_file_lines(const char *path, uint64_t *lines)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return say_error(path, "cannot open", errno, EX_NOINPUT);

	uint64_t n = 0;
	int err = read_count_lines(fd, &n);
	close(fd);
	if (err != 0)
		return say_error(path, "cannot be read", err, EX_IOERR);
	*lines += n;
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: bench-floor FILE...\n");
		return EX_USAGE;
	}
	uint64_t lines = 0;
	for (int i = 1; i < argc; i++) {
		int status = count_file_lines(argv[i], &lines);
		if (status != 0)
			return status;
	}
	if (printf("%" PRIu64 "\n", lines) < 0 || fflush(stdout) != 0)
		return say_error("standard output", "cannot be written", errno, EX_IOERR);
	return 0;
}
