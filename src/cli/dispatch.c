/*
 * `iotally FILE|- [options]`: recognise a capture from its content and run
 * the command that reads it, as if that command had been named.
 */

#include "cli/dispatch.h"

#include "cli/commands.h"
#include "cli/diff_kinds.h"
#include "cli/msgs.h"
#include "ingest/detect.h"
#include "ingest/line_input.h"
#include "util/array.h"
#include "util/diag.h"
#include "util/linereader.h"
#include "util/spill.h"

#include <errno.h>
#include <stdio.h>
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
	{ INPUT_FOOTPRINT, "footprint" },
};

const char *
cli_command_for_kind(enum input_kind kind)
{
	for (size_t i = 0; i < ARRAY_SIZE(command_for_kind); i++)
		if (command_for_kind[i].kind == kind)
			return command_for_kind[i].command;
	return NULL;
}

int
cli_input_peek(struct line_reader *r, struct cli_input *in, struct diag *err)
{
	const char *p;
	size_t n;
	memset(in, 0, sizeof(*in));
	if (line_reader_peek(r, INPUT_DETECT_BYTES, &p, &n, err) < 0)
		return -1;
	in->kind = input_detect(p, n);
	if (strcmp(r->path, "-") == 0 && input_is_tar(p, n))
		return diag_set(err, DIAG_DATA, r->path, 0, 0,
				"is a tar archive: capture bundles are not read from standard "
				"input; save it to a file and name the file (or its unpacked folder)");
	if (in->kind != INPUT_BINARY && in->kind != INPUT_BPLIST && input_has_cr_line_ends(p, n))
		return diag_set(err, DIAG_DATA, r->path, 0, 0,
				"its lines end in CR alone (classic Mac OS line ends), which no "
				"vmmap, ioreg or ioclasscount writes: the file was converted on its "
				"way; restore the line ends (tr '\\r' '\\n' < FILE > FIXED) and read that");
	/* Past INPUT_DETECT_BYTES of comments, the reader's own rule applies. */
	in->empty = n < INPUT_DETECT_BYTES && line_input_is_empty(p, n);
	in->foreign = input_foreign_detect(p, n);
	if (in->kind == INPUT_IOTALLY_JSON &&
	    input_iotally_schema(p, n, in->schema, sizeof(in->schema)) < 0)
		in->schema[0] = '\0';
	return 0;
}

bool
cli_refuse_empty(const char *command, const char *path, const struct cli_input *in)
{
	if (!in->empty)
		return false;
	bool track = command && strcmp(command, "track") == 0;
	cli_error(path, 0, "the input is empty%s", track ?
		  " (ioclasscount --track writes nothing when no call site matched, and an "
		  "empty file cannot be told from a capture that failed: nothing to report)" : "");
	return true;
}

static const char *
foreign_advice(enum foreign_kind f)
{
	switch (f) {
	case FOREIGN_SYSTEM_PROFILER:
		return "; for IOKit class counts save 'ioreg -l -w0 -d1' (or 'ioreg -a -l -d1') "
		       "on the Mac and read that with 'iotally classes'";
	case FOREIGN_FOOTPRINT_JSON:
		return "; save footprint's text output instead ('footprint -f bytes -p PID > "
		       "FILE') and read that with 'iotally footprint'";
	case FOREIGN_NONE:
	default:
		return "";
	}
}

/* Is this iotally's JSON of one capture (vmmap, classes, track), which `report` reads? */
static bool
cli_json_report_reads(const struct cli_input *in)
{
	return in->kind == INPUT_IOTALLY_JSON && in->schema[0] &&
	       diff_kind_for_input(in->kind, in->schema) != NULL;
}

bool
cli_foreign_sentence(const struct cli_input *in, char *out, size_t n)
{
	if (in->foreign != FOREIGN_NONE)
		snprintf(out, n, "this is %s, which iotally does not read%s",
			 input_foreign_describe(in->foreign), foreign_advice(in->foreign));
	else if (in->kind == INPUT_TOOL_REPORT)
		snprintf(out, n, "this is %s", input_kind_describe(in->kind));
	else
		return false;
	return true;
}

bool
cli_explain_input(const char *command, const char *path, const struct cli_input *in,
		  const struct diag *err)
{
	const char *reader = cli_command_for_kind(in->kind);
	char foreign[512];

	/* A whole-input refusal; for another tool's report, any refusal. */
	if (err && (err->code != DIAG_DATA || (err->line != 0 && in->foreign == FOREIGN_NONE &&
					       in->kind != INPUT_TOOL_REPORT)))
		return false;
	if (cli_foreign_sentence(in, foreign, sizeof(foreign)))
		cli_error(path, 0, "%s", foreign);
	else if (in->kind == INPUT_IOTALLY_JSON && cli_json_report_reads(in))
		cli_error(path, 0, "this is iotally JSON output (schema '%s'): 'iotally diff', "
			  "'iotally report' and 'iotally trend' read it, with other captures or "
			  "reports of its kind", in->schema);
	else if (in->kind == INPUT_IOTALLY_JSON)
		cli_error(path, 0, "this is iotally JSON output%s%s%s, a result rather than "
			  "a capture: no command reads it back (the JSON of 'iotally vmmap', "
			  "'classes' and 'track' is read by 'diff', 'report' and 'trend')",
			  in->schema[0] ? " (schema '" : "", in->schema, in->schema[0] ? "')" : "");
	else if (reader && (!command || strcmp(reader, command) != 0))
		cli_error(path, 0, "this is %s: 'iotally %s' reads it%s%s%s",
			  input_kind_describe(in->kind), reader, command ? ", not 'iotally " : "",
			  command ? command : "", command ? "'" : "");
	else
		return false;
	return true;
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
	int fd = temp_file_open("stdin");
	if (fd < 0)
		return diag_set(err, DIAG_NOINPUT, "-", 0, 0,
				"cannot keep standard input to recognise it: a temporary file "
				"in %s: %s (set TMPDIR, or name the command)", temp_dir(),
				strerror(errno));
	if (copy_fd(STDIN_FILENO, fd) < 0 || lseek(fd, 0, SEEK_SET) < 0 ||
	    dup2(fd, STDIN_FILENO) < 0) {
		int saved = errno;
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
detect_input(const char *path, struct cli_input *in, struct diag *err)
{
	struct line_reader r;
	off_t start = 0;
	bool is_stdin = strcmp(path, "-") == 0;

	if (is_stdin && make_stdin_rereadable(&start, err) < 0)
		return -1;
	if (line_reader_open(&r, path, 0, err) < 0)
		return -1;
	int rc = cli_input_peek(&r, in, err);
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
	struct cli_input in;

	if (detect_input(argv[1], &in, &err) < 0) {
		cli_print_diag(&err);
		return err.code;
	}
	enum input_kind kind = in.kind;
	if (cli_refuse_empty(NULL, argv[1], &in))
		return DIAG_DATA;
	const char *name = in.foreign == FOREIGN_NONE ? cli_command_for_kind(kind) : NULL;
	/* iotally's JSON of one capture: the report of it (`iotally report FILE.json`). */
	if (!name && cli_json_report_reads(&in))
		name = "report";
	if (!name && cli_explain_input(NULL, argv[1], &in, NULL))
		return DIAG_DATA;
	if (name) {
		const struct command *cmd = cli_find_command(name);
		/* argv becomes "COMMAND FILE options...": operands may come first. */
		argv[0] = (char *)cmd->name;
		return cmd->run(argc, argv);
	}
	cli_error(argv[1], 0, "cannot tell which command reads this file: it looks like %s; "
		  "name the command (iotally --help lists them)", input_kind_describe(kind));
	return DIAG_DATA;
}

bool
cli_looks_like_path(const char *name)
{
	return strchr(name, '/') || strchr(name, '.');
}
