#include "model/diff_footprint.h"

#include "util/bytes.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

static int
add_row(struct diff_footprint *d, const char *category, const char *metric,
	enum footprint_field f, struct footprint_figure before, struct footprint_figure after,
	struct diag *err)
{
	d->rows = xgrow(d->rows, &d->alloc, d->nrows + 1, sizeof(*d->rows));
	struct diff_footprint_row *r = &d->rows[d->nrows++];
	memset(r, 0, sizeof(*r));
	r->category = category;
	r->metric = metric;
	r->field = f;
	r->before = before;
	r->after = after;
	if (!before.known || !after.known)
		return 0;
	/* Both at most 2^63 - 1 (util/bytes.h): the difference fits in int64_t. */
	r->delta = (int64_t)after.value - (int64_t)before.value;
	r->slack = before.slack;
	if (!bytes_add(&r->slack, after.slack))
		return diag_set(err, DIAG_DATA, NULL, 0, 0,
				"footprint figures whose bounds pass 2^63 - 1 bytes");
	r->has_delta = true;
	return 0;
}

static bool
either_has_column(const struct diff_footprint *d, int f)
{
	return ((d->before->columns | d->after->columns) & (1u << f)) != 0;
}

static int
add_category(struct diff_footprint *d, const char *name, struct diag *err)
{
	size_t len = strlen(name);
	for (int f = 0; f < FOOTPRINT_FIELDS; f++) {
		if (!either_has_column(d, f))
			continue;
		if (add_row(d, name, NULL, (enum footprint_field)f,
			    footprint_process_figure(d->before, name, len, f),
			    footprint_process_figure(d->after, name, len, f), err) < 0)
			return -1;
	}
	return 0;
}

int
diff_footprint_compare(struct diff_footprint *d, const struct footprint_process *before,
		       const struct footprint_process *after, struct diag *err)
{
	static const char *const wide[] = {
		"footprint", "phys_footprint", "phys_footprint_peak", GPU_FAMILY ".dirty",
	};
	memset(d, 0, sizeof(*d));
	d->before = before;
	d->after = after;
	for (size_t i = 0; i < sizeof(wide) / sizeof(wide[0]); i++) {
		struct footprint_figure b, a;
		footprint_metric(before, wide[i], &b, NULL);
		footprint_metric(after, wide[i], &a, NULL);
		if (add_row(d, NULL, wide[i], FOOTPRINT_DIRTY, b, a, err) < 0)
			return -1;
	}
	for (size_t k = 0; k < before->ncats; k++)
		if (add_category(d, before->cats[k].name, err) < 0)
			return -1;
	for (size_t k = 0; k < after->ncats; k++) {
		const char *n = after->cats[k].name;
		if (!footprint_process_find(before, n, strlen(n)) && add_category(d, n, err) < 0)
			return -1;
	}
	return 0;
}

void
diff_footprint_release(struct diff_footprint *d)
{
	free(d->rows);
	memset(d, 0, sizeof(*d));
}

int
diff_footprint_metric(const struct diff_footprint *d, const char *metric,
		      struct footprint_figure *before, struct footprint_figure *after,
		      const char **missing, struct diag *err)
{
	*missing = NULL;
	if (footprint_metric(d->before, metric, before, err) < 0 ||
	    footprint_metric(d->after, metric, after, err) < 0)
		return -1;
	if (!before->known)
		*missing = "BEFORE";
	else if (!after->known)
		*missing = "AFTER";
	return 0;
}
