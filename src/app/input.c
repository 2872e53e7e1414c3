/*
 * Recognising an input from its first bytes, and the sentences said of
 * what no command reads.
 */

#include "app/input.h"

#include "app/kind.h"
#include "ingest/line_input.h"
#include "util/diag.h"
#include "util/linereader.h"

#include <stdio.h>
#include <string.h>

const char *
app_command_for_kind(enum input_kind kind)
{
	const struct kind *k = kind_command_for_input(kind);
	return k ? k->name : NULL;
}

int
app_input_peek(struct line_reader *r, struct app_input *in, struct diag *err)
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

bool
app_input_is_kind_json(const struct app_input *in)
{
	return in->kind == INPUT_IOTALLY_JSON && in->schema[0] &&
	       kind_for_input(in->kind, in->schema) != NULL;
}

bool
app_foreign_sentence(const struct app_input *in, char *out, size_t n)
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

