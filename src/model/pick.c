#include "model/pick.h"

#include <inttypes.h>

int
capture_pick_nth(size_t have, uint64_t want, const char *option, const char *unit,
		 const char *path, size_t *index, struct diag *err)
{
	if (want == 0)
		want = 1;
	if (have == 0)
		return diag_set(err, DIAG_DATA, path, 0, 0, "holds no %s", unit);
	if (want > have)
		return diag_set(err, DIAG_USAGE, path, 0, 0,
				"%s %" PRIu64 " asked for, but the input holds %zu %s%s",
				option, want, have, unit, have == 1 ? "" : "s");
	*index = (size_t)(want - 1);
	return 0;
}
