/*
 * The operands of `iotally rate` (app/rate_inputs.h): plain folders of
 * captures listed, everything else as given.
 */

#include "app/rate_inputs.h"

#include "app/sources.h"
#include "ingest/bundle.h"
#include "ingest/capture_dir.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

static void
add(struct rate_operands *r, const char *path)
{
	r->paths = xgrow(r->paths, &r->alloc, r->n + 1, sizeof(*r->paths));
	r->paths[r->n++] = path;
}

/* A folder's captures, each "FOLDER/NAME", in name order. */
static int
add_folder(struct rate_operands *r, const char *dir, struct diag *err)
{
	struct capture_dir d;
	if (capture_dir_list(dir, &d, err) < 0)
		return -1;
	size_t len = strlen(dir);
	bool slash = len && dir[len - 1] == '/';
	for (size_t i = 0; i < d.n; i++) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "%s%s%s", dir, slash ? "" : "/", d.names[i]);
		r->owned = xgrow(r->owned, &r->owned_alloc, r->nowned + 1, sizeof(*r->owned));
		r->owned[r->nowned] = strbuf_detach(&sb, NULL);
		add(r, r->owned[r->nowned++]);
	}
	capture_dir_release(&d);
	return 0;
}

int
rate_operands_expand(const char *const *ops, size_t n, struct rate_operands *out,
		     struct diag *err)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		if (app_operand_is_folder(ops[i]) && !bundle_path_is_bundle(ops[i])) {
			if (add_folder(out, ops[i], err) < 0)
				return -1;
		} else {
			add(out, ops[i]);
		}
	}
	return 0;
}

void
rate_operands_release(struct rate_operands *r)
{
	for (size_t i = 0; i < r->nowned; i++)
		free(r->owned[i]);
	free(r->owned);
	free(r->paths);
	memset(r, 0, sizeof(*r));
}
