#include "ingest/line_input.h"

#include "util/view.h"

#include <string.h>

int
line_input_begin(struct line_input *in, struct line_reader *r, struct diag *err)
{
	memset(in, 0, sizeof(*in));
	in->reader = r;
	in->path = r->path;
	return input_detect_reader(r, &in->kind, err);
}

int
line_input_next(struct line_input *in, struct line *ln, struct diag *err)
{
	int rc;
	while ((rc = line_reader_next(in->reader, ln, err)) > 0) {
		if (in->past_comments)
			return 1;
		if (ln->len && ln->p[0] == '#')
			continue;
		if (view_rtrim(ln->p, ln->len))
			in->past_comments = true;
		return 1;
	}
	return rc;
}
