#include "report/vmmap_ndjson_write.h"

#include "report/jsontext.h"
#include "report/ndjson.h"
#include "model/gpu.h"
#include "util/size.h"

#include <stdlib.h>
#include <string.h>

/* What a row says about its dump (NULL: the input row). */
struct dump_cols {
	size_t index;                  /* 1-based */
	const struct vmmap_dump *d;
};

/* The keys every row has, up to the dump's own columns. */
static json_t *
row_start(const char *row, const char *path, const char *status, const char *error,
	  const struct dump_cols *dc)
{
	json_t *o = ndjson_row_new(VMMAP_NDJSON_SCHEMA, row, path, "vmmap");
	const struct vmmap_dump *d = dc ? dc->d : NULL;
	const char *fp = d ? vmmap_dump_field(d, "Physical footprint") : NULL;
	uint64_t fp_bytes = 0;
	bool has_fp = fp && size_parse_vmmap(fp, strlen(fp), &fp_bytes) == SIZE_OK &&
		      fp_bytes <= BYTES_MAX;
	ndjson_set(o, "status", json_string_nocheck(status));
	ndjson_set(o, "error", ndjson_text_or_null(error));
	ndjson_set(o, "dump", ndjson_uint_or_null(dc != NULL, dc ? dc->index : 0));
	ndjson_set(o, "process", ndjson_text_or_null(d ? d->process : NULL));
	ndjson_set(o, "pid", ndjson_uint_or_null(d && d->has_pid, d ? d->pid : 0));
	ndjson_set(o, "captured", ndjson_text_or_null(d ? vmmap_dump_field(d, "Date/Time") : NULL));
	ndjson_set(o, "os_version", ndjson_text_or_null(d ? vmmap_dump_field(d, "OS Version") : NULL));
	ndjson_set(o, "page_size", ndjson_uint_or_null(d && d->page_size, d ? d->page_size : 0));
	ndjson_set(o, "footprint", ndjson_uint_or_null(has_fp, fp_bytes));
	return o;
}

/* The figures of a row; NULL `a`: none (the input row). A column the
 * dump's region lines do not print (format 2.2/2.3) is null, never 0. */
static void
set_amounts(json_t *o, const char *type, const char *purge, const struct vmmap_amounts *a,
	    const struct vmmap_dump *d)
{
	ndjson_set(o, "type", ndjson_text_or_null(type));
	ndjson_set(o, "purge", ndjson_text_or_null(purge));
	ndjson_set(o, "count", ndjson_uint_or_null(a != NULL, a ? a->count : 0));
	ndjson_set(o, "vsize", ndjson_uint_or_null(a != NULL, a ? a->vsize : 0));
	ndjson_set(o, "resident", ndjson_uint_or_null(a && vmmap_dump_lines_have(d, VMMAP_FIELD_RESIDENT),
						      a ? a->resident : 0));
	ndjson_set(o, "dirty", ndjson_uint_or_null(a && vmmap_dump_lines_have(d, VMMAP_FIELD_DIRTY),
						   a ? a->dirty : 0));
	ndjson_set(o, "swapped", ndjson_uint_or_null(a && vmmap_dump_lines_have(d, VMMAP_FIELD_SWAPPED),
						     a ? a->swapped : 0));
	ndjson_set(o, "volatile", json_null());
	ndjson_set(o, "nonvol", json_null());
	ndjson_set(o, "empty", json_null());
	ndjson_set(o, "rounded", a ? json_false() : json_null());
}

/*
 * The dump's gpu family (model/gpu.h, docs/gpu.md): the same figures as the
 * diff gates vmmap:gpu.FIELD and the report headline, from the region lines
 * or, in a summary-only dump, vmmap's rounded summary table; null where the
 * dump does not have the figure.
 */
static int
write_gpu(FILE *out, const char *path, const char *status, const struct dump_cols *dc)
{
	static const struct { const char *key; enum vmmap_metric_field f; } cols[] = {
		{ "count", VMMAP_FIELD_COUNT }, { "vsize", VMMAP_FIELD_VSIZE },
		{ "resident", VMMAP_FIELD_RESIDENT }, { "dirty", VMMAP_FIELD_DIRTY },
		{ "swapped", VMMAP_FIELD_SWAPPED },
	};
	json_t *o = row_start("gpu", path, status, NULL, dc);
	bool any_rounded = false;
	ndjson_set(o, "type", json_null());
	ndjson_set(o, "purge", json_null());
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) {
		uint64_t v;
		bool rounded;
		bool known = vmmap_dump_gpu_figure(dc->d, cols[i].f, &v, &rounded);
		any_rounded |= known && rounded;
		ndjson_set(o, cols[i].key, ndjson_uint_or_null(known, v));
	}
	ndjson_set(o, "volatile", json_null());
	ndjson_set(o, "nonvol", json_null());
	ndjson_set(o, "empty", json_null());
	ndjson_set(o, "rounded", json_boolean(any_rounded));
	return ndjson_row_write(out, o);
}

static int
write_groups(FILE *out, const char *path, const char *status, const struct dump_cols *dc)
{
	const struct vmmap_type_stats **types;
	size_t n = vmmap_dump_sorted_types(dc->d, &types);
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		for (int k = 0; k < VMMAP_PURGE_STATES && rc == 0; k++) {
			enum vmmap_purge p = vmmap_purge_order[k];
			const struct vmmap_amounts *a = &types[i]->by_purge[p];
			char purge[2] = { vmmap_purge_char(p), '\0' };
			if (!a->count)
				continue;
			json_t *o = row_start("group", path, status, NULL, dc);
			set_amounts(o, types[i]->name, purge, a, dc->d);
			rc = ndjson_row_write(out, o);
		}
	}
	free(types);
	return rc;
}

/* vmmap's summary rows of the selected types: rounded figures, as printed. */
static int
write_summary(FILE *out, const char *path, const char *status, const struct dump_cols *dc,
	      const struct vmmap_filter *f)
{
	static const char *const names[VMMAP_COL_SIZES] = {
		"vsize", "resident", "dirty", "swapped", "volatile", "nonvol", "empty",
	};
	int rc = 0;
	for (size_t i = 0; i < dc->d->nrows && rc == 0; i++) {
		const struct vmmap_summary_row *r = &dc->d->rows[i];
		if (!vmmap_filter_selects(f, r->name, strlen(r->name)))
			continue;
		json_t *o = row_start("summary", path, status, NULL, dc);
		ndjson_set(o, "type", json_text(r->name));
		ndjson_set(o, "purge", json_null());
		ndjson_set(o, "count", ndjson_uint_or_null(r->has_count, r->count));
		for (int c = 0; c < VMMAP_COL_SIZES; c++)
			ndjson_set(o, names[c], ndjson_uint_or_null((r->present & (1u << c)) != 0,
								    r->value[c]));
		ndjson_set(o, "rounded", json_true());
		rc = ndjson_row_write(out, o);
	}
	return rc;
}

static int
write_dump(FILE *out, const struct vmmap_capture *cap, const char *path, const char *status,
	   const struct dump_cols *dc)
{
	struct vmmap_amounts total = vmmap_dump_total(dc->d);
	json_t *o = row_start("dump", path, status, NULL, dc);
	set_amounts(o, NULL, NULL, &total, dc->d);
	if (ndjson_row_write(out, o) < 0 || write_gpu(out, path, status, dc) < 0 ||
	    write_groups(out, path, status, dc) < 0)
		return -1;
	return write_summary(out, path, status, dc, &cap->filter);
}

int
vmmap_ndjson_write(FILE *out, const struct vmmap_capture *cap, const char *path, size_t only)
{
	const char *status = cap->partial ? "partial" : "ok";
	json_t *o = row_start("input", path, status, NULL, NULL);
	set_amounts(o, NULL, NULL, NULL, NULL);
	if (ndjson_row_write(out, o) < 0)
		return -1;
	for (size_t i = 0; i < cap->ndumps; i++) {
		struct dump_cols dc = { .index = i + 1, .d = cap->dumps[i] };
		if (only && only != i + 1)
			continue;
		if (write_dump(out, cap, path, status, &dc) < 0)
			return -1;
	}
	return 0;
}

int
vmmap_ndjson_write_error(FILE *out, const char *path, const char *error)
{
	json_t *o = row_start("input", path, "error", error, NULL);
	set_amounts(o, NULL, NULL, NULL, NULL);
	return ndjson_row_write(out, o);
}
