#include "report/track_folded.h"

#include <inttypes.h>
#include <stdlib.h>

void
track_folded_write(FILE *out, const struct track_capture *cap, uint64_t top)
{
	const struct track_group **g;
	size_t n = track_capture_sorted_groups(cap, &g);
	if (top && n > top)
		n = (size_t)top;
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s %" PRIu64 "\n", g[i]->name, g[i]->bytes);
	free(g);
}
