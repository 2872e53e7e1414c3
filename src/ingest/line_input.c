#include "ingest/line_input.h"

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
	return line_reader_next(in->reader, ln, err);
}
