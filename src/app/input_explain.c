/*
 * What an input is, from its content (app/input_explain.h).
 */

#include "app/input_explain.h"

#include "app/kind.h"
#include "ingest/detect.h"
#include "util/linereader.h"
#include "util/spill.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* iotally JSON of no kind (a diff, a trend): a result no command reads back. */
static void
say_json_result(const struct app_input *in, struct strbuf *msg)
{
	struct strbuf kinds = STRBUF_INIT;
	kind_list_commands(&kinds);
	strbuf_addf(msg, "this is iotally JSON output%s%s%s, a result rather than a capture: "
		    "no command reads it back (the JSON of %s is read by 'diff', 'report' and "
		    "'trend')", in->schema[0] ? " (schema '" : "", in->schema,
		    in->schema[0] ? "')" : "", kinds.buf);
	strbuf_release(&kinds);
}

bool
app_input_explain(const char *command, const struct app_input *in, const struct diag *err,
		  struct strbuf *msg)
{
	const char *reader = app_command_for_kind(in->kind);
	char foreign[512];

	/* A whole-input refusal; for another tool's report, any refusal. */
	if (err && (err->code != DIAG_DATA || (err->line != 0 && in->foreign == FOREIGN_NONE &&
					       in->kind != INPUT_TOOL_REPORT)))
		return false;
	if (app_foreign_sentence(in, foreign, sizeof(foreign)))
		strbuf_addf(msg, "%s", foreign);
	else if (in->kind == INPUT_IOTALLY_JSON && app_input_is_kind_json(in))
		strbuf_addf(msg, "this is iotally JSON output (schema '%s'): 'iotally diff', "
			    "'iotally report' and 'iotally trend' read it, with other captures or "
			    "reports of its kind", in->schema);
	else if (in->kind == INPUT_IOTALLY_JSON)
		say_json_result(in, msg);
	else if (reader && (!command || strcmp(reader, command) != 0))
		strbuf_addf(msg, "this is %s: 'iotally %s' reads it%s%s%s",
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
 * command. *start is where reading begins.
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

int
app_input_detect(const char *path, struct app_input *in, struct diag *err)
{
	struct line_reader r;
	off_t start = 0;
	bool is_stdin = strcmp(path, "-") == 0;

	if (is_stdin && make_stdin_rereadable(&start, err) < 0)
		return -1;
	if (line_reader_open(&r, path, 0, err) < 0)
		return -1;
	int rc = app_input_peek(&r, in, err);
	line_reader_close(&r);
	if (rc == 0 && is_stdin && lseek(STDIN_FILENO, start, SEEK_SET) < 0)
		return diag_set(err, DIAG_NOINPUT, "-", 0, 0,
				"cannot read standard input again: %s", strerror(errno));
	return rc;
}
