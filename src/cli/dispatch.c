/*
 * `iotally FILE|- [options]`: recognise a capture from its content and run
 * the command that reads it, as if that command had been named.
 */

#include "cli/dispatch.h"

#include "cli/commands.h"
#include "ingest/detect.h"
#include "util/diag.h"
#include "util/linereader.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Which command reads each kind of capture. */
static const struct {
	enum input_kind kind;
	const char *command;
} command_for_kind[] = {
	{ INPUT_VMMAP, "vmmap" },
	{ INPUT_IOREG_TEXT, "classes" },
	{ INPUT_XML_PLIST, "classes" },
	{ INPUT_BPLIST, "classes" },
	{ INPUT_IOCLASSCOUNT, "classes" },
	{ INPUT_TRACK, "track" },
};

const char *
cli_command_for_kind(enum input_kind kind)
{
	for (size_t i = 0; i < sizeof(command_for_kind) / sizeof(command_for_kind[0]); i++)
		if (command_for_kind[i].kind == kind)
			return command_for_kind[i].command;
	return NULL;
}

/* Copy the rest of `from` to `to`; 0, or -1 with errno set. */
static int
copy_fd(int from, int to)
{
	char buf[1 << 16];
	for (;;) {
		ssize_t n = read(from, buf, sizeof(buf));
		if (n == 0)
			return 0;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		for (ssize_t done = 0; done < n;) {
			ssize_t w = write(to, buf + done, (size_t)(n - done));
			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0)
				return -1;
			done += w;
		}
	}
}

/*
 * Make standard input readable twice: once to recognise it, once by the
 * command. A regular file is read again from where it started; a pipe or
 * terminal is first copied to an unlinked file in $TMPDIR (default /tmp),
 * which then becomes standard input. *start is where reading begins.
 */
static int
make_stdin_rereadable(off_t *start, struct diag *err)
{
	struct stat st;
	if (fstat(STDIN_FILENO, &st) == 0 && S_ISREG(st.st_mode) &&
	    (*start = lseek(STDIN_FILENO, 0, SEEK_CUR)) >= 0)
		return 0;
	const char *dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";
	size_t len = strlen(dir) + sizeof("/iotally-stdin-XXXXXX");
	char *tmpl = malloc(len);
	if (!tmpl)
		return diag_set(err, DIAG_SOFTWARE, NULL, 0, 0, "out of memory");
	snprintf(tmpl, len, "%s/iotally-stdin-XXXXXX", dir);
	int fd = mkstemp(tmpl);
	int saved = errno;
	if (fd >= 0)
		unlink(tmpl);
	free(tmpl);
	if (fd < 0)
		return diag_set(err, DIAG_NOINPUT, "-", 0, 0,
				"cannot keep standard input to recognise it: a temporary file "
				"in %s: %s (set TMPDIR, or name the command)", dir,
				strerror(saved));
	if (copy_fd(STDIN_FILENO, fd) < 0 || lseek(fd, 0, SEEK_SET) < 0 ||
	    dup2(fd, STDIN_FILENO) < 0) {
		saved = errno;
		close(fd);
		return diag_set(err, DIAG_NOINPUT, "-", 0, 0,
				"cannot keep standard input to recognise it: %s",
				strerror(saved));
	}
	close(fd);
	*start = 0;
	return 0;
}

static int
detect_input(const char *path, enum input_kind *kind, struct diag *err)
{
	struct line_reader r;
	off_t start = 0;
	bool is_stdin = strcmp(path, "-") == 0;

	if (is_stdin && make_stdin_rereadable(&start, err) < 0)
		return -1;
	if (line_reader_open(&r, path, 0, err) < 0)
		return -1;
	int rc = input_detect_reader(&r, kind, err);
	line_reader_close(&r);
	if (rc == 0 && is_stdin && lseek(STDIN_FILENO, start, SEEK_SET) < 0)
		return diag_set(err, DIAG_NOINPUT, "-", 0, 0,
				"cannot read standard input again: %s", strerror(errno));
	return rc;
}

int
cli_run_for_input(int argc, char **argv)
{
	struct diag err;
	enum input_kind kind;

	if (detect_input(argv[1], &kind, &err) < 0) {
		cli_print_diag(&err);
		return err.code;
	}
	if (kind == INPUT_EMPTY) {
		diag_set(&err, DIAG_DATA, argv[1], 0, 0, "the input is empty");
		cli_print_diag(&err);
		return DIAG_DATA;
	}
	const char *name = cli_command_for_kind(kind);
	if (name) {
		const struct command *cmd = cli_find_command(name);
		/* argv becomes "COMMAND FILE options...": operands may come first. */
		argv[0] = (char *)cmd->name;
		return cmd->run(argc, argv);
	}
	diag_set(&err, DIAG_DATA, argv[1], 0, 0,
		 "cannot tell which command reads this file: it looks like %s; name "
		 "the command (iotally --help lists them)", input_kind_describe(kind));
	cli_print_diag(&err);
	return DIAG_DATA;
}

bool
cli_looks_like_path(const char *name)
{
	return strchr(name, '/') || strchr(name, '.');
}
