#include "model/gpu.h"

#include "model/vmmap.h"
#include "util/array.h"
#include "util/bytes.h"

#include <stdio.h>
#include <string.h>

static bool
starts(const char *name, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	return len >= n && memcmp(name, prefix, n) == 0;
}

static bool
equals(const char *name, size_t len, const char *s)
{
	return strlen(s) == len && memcmp(name, s, len) == 0;
}

/* GPU types whose names are longer than vmmap's type column (docs/gpu.md). */
static const char *const long_gpu_types[] = {
	"owned unmapped (graphics)",
};

bool
gpu_type_counts(const char *name, size_t len)
{
	return starts(name, len, "IOAccelerator") || starts(name, len, "IOSurface") ||
	       equals(name, len, "owned unmapped (graphics)");
}

const char *
gpu_type_full_name(const char *name, size_t len)
{
	if (len != VMMAP_TYPE_COLUMN)
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(long_gpu_types); i++)
		if (strlen(long_gpu_types[i]) > len && memcmp(long_gpu_types[i], name, len) == 0)
			return long_gpu_types[i];
	return NULL;
}

#define BOTH (VMMAP_FROM_LINES | VMMAP_FROM_SUMMARY)

const struct vmmap_field_desc vmmap_fields[VMMAP_FIELDS] = {
	[VMMAP_FIELD_COUNT] = { "count", METRIC_COUNT, false, BOTH, 0, -1, true },
	[VMMAP_FIELD_VSIZE] = { "vsize", METRIC_BYTES, true, BOTH, 1, VMMAP_COL_VIRTUAL, true },
	[VMMAP_FIELD_RESIDENT] = { "resident", METRIC_BYTES, true, BOTH, 2, VMMAP_COL_RESIDENT,
				   true },
	[VMMAP_FIELD_DIRTY] = { "dirty", METRIC_BYTES, true, BOTH, 3, VMMAP_COL_DIRTY, true },
	[VMMAP_FIELD_SWAPPED] = { "swapped", METRIC_BYTES, true, BOTH, 4, VMMAP_COL_SWAPPED,
				  true },
	[VMMAP_FIELD_VOLATILE] = { "volatile", METRIC_BYTES, false, VMMAP_FROM_SUMMARY, 0,
				   VMMAP_COL_VOLATILE, true },
	[VMMAP_FIELD_NONVOLATILE] = { "nonvolatile", METRIC_BYTES, false, VMMAP_FROM_SUMMARY,
				      0, VMMAP_COL_NONVOL, true },
	[VMMAP_FIELD_EMPTY] = { "empty", METRIC_BYTES, false, VMMAP_FROM_SUMMARY, 0,
				VMMAP_COL_EMPTY, true },
};

int
vmmap_field_find(const char *name)
{
	for (int i = 0; i < VMMAP_FIELDS; i++)
		if (strcmp(vmmap_fields[i].name, name) == 0)
			return i;
	return -1;
}

const char *
vmmap_field_list(unsigned sources)
{
	/* Written from the table, so a message never names a field it lacks.
	 * One buffer per thread: inputs are read on several (-j N). */
	static _Thread_local char buf[2][128];
	char *out = buf[sources == VMMAP_FROM_LINES];
	size_t n = 0, k = 0, total = 0;
	for (int i = 0; i < VMMAP_FIELDS; i++)
		total += (vmmap_fields[i].sources & sources) != 0;
	out[0] = '\0';
	for (int i = 0; i < VMMAP_FIELDS; i++) {
		if (!(vmmap_fields[i].sources & sources))
			continue;
		k++;
		const char *sep = k == 1 ? "" : k == total ? " or " : ", ";
		n += (size_t)snprintf(out + n, sizeof(buf[0]) - n, "%s%s", sep,
				      vmmap_fields[i].name);
	}
	return out;
}

uint64_t
vmmap_amounts_field(const struct vmmap_amounts *a, enum vmmap_metric_field f)
{
	switch (f) {
	case VMMAP_FIELD_COUNT: return a->count;
	case VMMAP_FIELD_VSIZE: return a->vsize;
	case VMMAP_FIELD_RESIDENT: return a->resident;
	case VMMAP_FIELD_DIRTY: return a->dirty;
	case VMMAP_FIELD_SWAPPED: return a->swapped;
	default: return 0;
	}
}

bool
vmmap_dump_lines_have(const struct vmmap_dump *d, enum vmmap_metric_field f)
{
	const struct vmmap_field_desc *desc = &vmmap_fields[f];
	if (!d->region_lines)
		return true;
	return (desc->sources & VMMAP_FROM_LINES) && d->max_size_columns >= desc->line_column;
}

bool
vmmap_dump_gpu_absence_known(const struct vmmap_dump *d)
{
	if (!d->gpu_left_out && (d->has_region_section || d->summary_complete))
		return true;
	for (size_t i = 0; i < d->ntypes; i++)
		if (d->types[i].gpu)
			return true;
	for (size_t i = 0; i < d->nrows; i++)
		if (gpu_type_counts(d->rows[i].name, strlen(d->rows[i].name)))
			return true;
	return false;
}

const char *
vmmap_dump_gpu_unknown_why(const struct vmmap_dump *d)
{
	return d->gpu_left_out ? "iotally's JSON, made for other region types than the GPU ones,"
			       : "an excerpt (no region section, no summary table read to its "
				 "TOTAL rows)";
}

bool
gpu_types_selected(const struct vmmap_filter *f)
{
	return f->all || (vmmap_filter_selects(f, "IOAccelerator", strlen("IOAccelerator")) &&
			  vmmap_filter_selects(f, "IOSurface", strlen("IOSurface")));
}

bool
vmmap_dump_gpu_figure(const struct vmmap_dump *d, enum vmmap_metric_field f, uint64_t *out,
		      bool *rounded)
{
	const struct vmmap_field_desc *desc = &vmmap_fields[f];
	uint64_t sum = 0;
	bool capped = false;
	*out = 0;
	*rounded = false;
	if (!vmmap_dump_gpu_absence_known(d))
		return false;
	if (d->region_lines) {
		if (!(desc->sources & VMMAP_FROM_LINES) || !vmmap_dump_lines_have(d, f))
			return false;
		/* Bounded by the dump's counted total: no sum passes BYTES_MAX. */
		for (size_t i = 0; i < d->ntypes; i++) {
			const struct vmmap_type_stats *t = &d->types[i];
			for (int p = 0; t->gpu && p < VMMAP_PURGE_STATES; p++) {
				bytes_add_capped(&sum, vmmap_amounts_field(&t->by_purge[p], f), &capped);
				*rounded |= t->lines_rounded && f == VMMAP_FIELD_VSIZE;
			}
		}
		*out = sum;
		return true;
	}
	if (!d->nrows)
		return false;
	bool table_has = false;
	for (size_t i = 0; i < d->nrows; i++) {
		const struct vmmap_summary_row *r = &d->rows[i];
		int col = desc->summary_column;
		bool has = col < 0 ? r->has_count : (r->present & (1u << col)) != 0;
		table_has |= has;
		if (!gpu_type_counts(r->name, strlen(r->name)))
			continue;
		if (!has)
			return false;
		bytes_add_capped(&sum, col < 0 ? r->count : r->value[col], &capped);
	}
	*out = sum;
	*rounded = true;
	return table_has;
}

/* footprint's GPU categories (docs/footprint.md: what each one is). */
const char *const footprint_gpu_categories[] = {
	"Owned physical footprint (unmapped) (graphics)",
	"IOSurface",
	"IOAccelerator (graphics)",
	"IOAccelerator",
	"IOKit",
};
const size_t footprint_gpu_ncategories = ARRAY_SIZE(footprint_gpu_categories);

bool
footprint_category_is_gpu(const char *name, size_t len)
{
	for (size_t i = 0; i < footprint_gpu_ncategories; i++)
		if (equals(name, len, footprint_gpu_categories[i]))
			return true;
	return false;
}

const struct footprint_field_desc footprint_fields[FOOTPRINT_FIELDS] = {
	[FOOTPRINT_DIRTY] = { "dirty", "Dirty", METRIC_BYTES, true, true },
	[FOOTPRINT_SWAPPED] = { "swapped", "(Swapped)", METRIC_BYTES, false, true },
	[FOOTPRINT_CLEAN] = { "clean", "Clean", METRIC_BYTES, false, true },
	[FOOTPRINT_RECLAIMABLE] = { "reclaimable", "Reclaimable", METRIC_BYTES, false, true },
	[FOOTPRINT_WIRED] = { "wired", "(Wired)", METRIC_BYTES, false, true },
	[FOOTPRINT_REGIONS] = { "regions", "Regions", METRIC_COUNT, false, true },
};

int
footprint_field_find(const char *name, size_t len)
{
	for (int i = 0; i < FOOTPRINT_FIELDS; i++)
		if (equals(name, len, footprint_fields[i].name))
			return i;
	return -1;
}

int
footprint_field_for_column(const char *heading, size_t len)
{
	for (int i = 0; i < FOOTPRINT_FIELDS; i++)
		if (equals(heading, len, footprint_fields[i].column))
			return i;
	return -1;
}
