/*
 * A private scratch folder for harnesses whose entry points read files
 * (bundles, archives, gzip streams): made once per process with mkdtemp()
 * and removed at exit, so parallel fuzzers and test runs never share one.
 */
#ifndef IOTALLY_FUZZ_SCRATCH_H
#define IOTALLY_FUZZ_SCRATCH_H

#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* An invariant the harness checks: holds in every build (not assert(), which NDEBUG drops). */
#define FUZZ_CHECK(c) \
	do { \
		if (!(c)) { \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
			abort(); \
		} \
	} while (0)

static char scratch_dir[64];

static inline void
scratch_remove(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch_dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", scratch_dir);
}

static inline const char *
scratch(void)
{
	if (!scratch_dir[0]) {
		const char *t = getenv("TMPDIR");
		snprintf(scratch_dir, sizeof(scratch_dir), "%s/iotally-fuzz-XXXXXX",
			 t && *t && strlen(t) < 32 ? t : "/tmp");
		if (!mkdtemp(scratch_dir))
			abort();
		atexit(scratch_remove);
	}
	return scratch_dir;
}

/* The path `name` inside the scratch folder (a static buffer per call site's copy). */
static inline void
scratch_path(char *out, size_t n, const char *name)
{
	snprintf(out, n, "%s/%s", scratch(), name);
}

/* Write `data` to `path` (made or replaced); aborts when it cannot. */
static inline void
scratch_write(const char *path, const uint8_t *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		abort();
	for (size_t off = 0; off < size;) {
		ssize_t n = write(fd, data + off, size - off);
		if (n <= 0)
			abort();
		off += (size_t)n;
	}
	close(fd);
}

#endif
