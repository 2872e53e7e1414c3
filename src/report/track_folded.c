#include "report/track_folded.h"

#include "util/strbuf.h"

#include <inttypes.h>
#include <stdlib.h>

void
track_folded_write(FILE *out, const struct track_capture *cap, uint64_t top)
{
	const struct track_group **g;
	size_t n = track_grouping_sorted(&cap->grouping, &g);
	if (top && n > top)
		n = (size_t)top;
	struct strbuf line = STRBUF_INIT;
	for (size_t i = 0; i < n; i++) {
		strbuf_reset(&line);
		track_grouping_folded_text(&cap->grouping, g[i], &line);
		strbuf_addf(&line, " %" PRIu64 "\n", g[i]->bytes);
		fwrite(line.buf, 1, line.len, out);
	}
	strbuf_release(&line);
	free(g);
}
