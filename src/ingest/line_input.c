#include "ingest/line_input.h"

#include "util/view.h"

#include <string.h>

/* A leading comment line: its first byte is '#'. */
static bool
is_comment(const char *p, size_t len)
{
	return len && p[0] == '#';
}

/* Nothing but spaces, tabs and a CR. */
static bool
is_blank(const char *p, size_t len)
{
	return view_rtrim(p, len) == 0;
}

bool
line_input_is_empty(const char *p, size_t n)
{
	const char *end = p + n;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = (size_t)((nl ? nl : end) - p);
		if (!is_comment(p, len) && !is_blank(p, len))
			return false;
		p = nl ? nl + 1 : end;
	}
	return true;
}

int
line_input_begin(struct line_input *in, struct line_reader *r, struct diag *err)
{
	memset(in, 0, sizeof(*in));
	in->reader = r;
	in->path = r->path;
	return input_detect_reader(r, &in->kind, err);
}

int
line_input_next_leading(struct line_input *in, struct line *ln, struct diag *err)
{
	int rc;
	while ((rc = line_reader_next(in->reader, ln, err)) > 0) {
		if (is_comment(ln->p, ln->len))
			continue;
		if (!is_blank(ln->p, ln->len))
			in->past_comments = true;
		return 1;
	}
	return rc;
}
