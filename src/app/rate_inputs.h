#ifndef IOTALLY_APP_RATE_INPUTS_H
#define IOTALLY_APP_RATE_INPUTS_H

/*
 * The operands of `iotally rate` as trend's inputs (app/trend_run.h): a
 * series or a bundle stays itself (trend opens it), a plain folder of
 * captures stands for its captures in name order (ingest/capture_dir.h:
 * iteration k is the k-th name), a file or '-' for itself.
 */

#include <stddef.h>

#include "util/diag.h"

struct rate_operands {
	const char **paths;      /* what trend reads, in iteration order */
	size_t n, alloc;
	char **owned;            /* paths made from folders */
	size_t nowned, owned_alloc;
};

/* 0, or -1 with *err (DIAG_NOINPUT) when a folder cannot be listed. */
int rate_operands_expand(const char *const *ops, size_t n, struct rate_operands *out,
			 struct diag *err);
void rate_operands_release(struct rate_operands *r);

#endif
