#include "report/track_folded.h"

#include "util/escape.h"
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
	struct strbuf stack = STRBUF_INIT;
	for (size_t i = 0; i < n; i++) {
		strbuf_reset(&stack);
		track_grouping_folded_text(&cap->grouping, g[i], &stack);
		/* Frame names from the input: one line per stack, whatever they hold. */
		escape_write(out, stack.buf, stack.len);
		fprintf(out, " %" PRIu64 "\n", g[i]->bytes);
	}
	strbuf_release(&stack);
	free(g);
}
