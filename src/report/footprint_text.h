#ifndef IOTALLY_REPORT_FOOTPRINT_TEXT_H
#define IOTALLY_REPORT_FOOTPRINT_TEXT_H

/*
 * footprint captures as text tables or GitHub Markdown (the same tables):
 * per process its header figures, footprint:gpu.dirty and its category
 * table (the GPU categories of model/gpu.h, or every one), then, for
 * several processes, their sum. A figure shows how exact it is: "5439920 B"
 * exact, "~922 MiB" rounded by footprint (the JSON gives the bound),
 * ">=" a lower bound (rows elided), "?" not in the capture.
 */

#include <stdbool.h>
#include <stdio.h>

#include "model/footprint.h"

struct footprint_text_opts {
	bool all_categories;   /* every category, not only the GPU ones */
	bool markdown;
};

void footprint_text_write(FILE *out, const struct footprint_capture *cap,
			  const struct footprint_text_opts *opts);

/* Does the selection (GPU categories, or all) show this category? */
bool footprint_category_shown(const struct footprint_category *c, bool all_categories);

#endif
