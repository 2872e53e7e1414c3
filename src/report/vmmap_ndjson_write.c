#include "report/vmmap_ndjson_write.h"

#include "report/jsontext.h"
#include "report/ndjson.h"
#include "model/gpu.h"
#include "util/size.h"

#include <stdlib.h>
#include <string.h>

/* The column of the dump's "Physical footprint" header, as vmmap prints it. */
#define FOOTPRINT_COLUMN "footprint"

/* What a row says about its dump (NULL: the input row). */
struct dump_cols {
	size_t index;                  /* 1-based */
	const struct vmmap_dump *d;
};

/* The keys every row has, up to the dump's own columns. */
static struct ndjson_row *
row_start(const char *row, const struct ndjson_source *src, const char *status, const char *error,
	  const struct dump_cols *dc)
{
	struct ndjson_row *o = ndjson_row_new_at(VMMAP_NDJSON_SCHEMA, row, src, "vmmap");
	const struct vmmap_dump *d = dc ? dc->d : NULL;
	const char *fp = d ? vmmap_dump_field(d, "Physical footprint") : NULL;
	uint64_t fp_bytes = 0;
	bool has_fp = fp && size_parse_vmmap(fp, strlen(fp), &fp_bytes) == SIZE_OK &&
		      fp_bytes <= BYTES_MAX;
	ndjson_set_text(o, "status", status);
	ndjson_set_text(o, "error", error);
	ndjson_set_uint(o, "dump", dc != NULL, dc ? dc->index : 0);
	ndjson_set_text(o, "process", d ? d->process : NULL);
	ndjson_set_uint(o, "pid", d && d->has_pid, d ? d->pid : 0);
	ndjson_set_text(o, "captured", d ? vmmap_dump_field(d, "Date/Time") : NULL);
	ndjson_set_text(o, "os_version", d ? vmmap_dump_field(d, "OS Version") : NULL);
	ndjson_set_uint(o, "page_size", d && d->page_size, d ? d->page_size : 0);
	ndjson_set_uint(o, FOOTPRINT_COLUMN, has_fp, fp_bytes);
	return o;
}

/* The figures of a row; NULL `a`: none (the input row). A column the
 * dump's region lines do not print (format 2.2/2.3) is null, never 0. */
static void
set_amounts(struct ndjson_row *o, const char *type, const char *purge, const struct vmmap_amounts *a,
	    const struct vmmap_dump *d)
{
	ndjson_set_text(o, "type", type);
	ndjson_set_text(o, "purge", purge);
	ndjson_set_uint(o, "count", a != NULL, a ? a->count : 0);
	ndjson_set_uint(o, "vsize", a != NULL, a ? a->vsize : 0);
	ndjson_set_uint(o, "resident", a && vmmap_dump_lines_have(d, VMMAP_FIELD_RESIDENT),
			a ? a->resident : 0);
	ndjson_set_uint(o, "dirty", a && vmmap_dump_lines_have(d, VMMAP_FIELD_DIRTY),
			a ? a->dirty : 0);
	ndjson_set_uint(o, "swapped", a && vmmap_dump_lines_have(d, VMMAP_FIELD_SWAPPED),
			a ? a->swapped : 0);
	ndjson_set_null(o, "volatile");
	ndjson_set_null(o, "nonvol");
	ndjson_set_null(o, "empty");
	if (a)
		ndjson_set_bool(o, "rounded", false);
	else
		ndjson_set_null(o, "rounded");
}

/*
 * The dump's gpu family (model/gpu.h, docs/gpu.md): the same figures as the
 * diff gates vmmap:gpu.FIELD and the report headline, from the region lines
 * or, in a summary-only dump, vmmap's rounded summary table; null where the
 * dump does not have the figure.
 */
static int
write_gpu(FILE *out, const struct ndjson_source *src, const char *status, const struct dump_cols *dc)
{
	static const struct { const char *key; enum vmmap_metric_field f; } cols[] = {
		{ "count", VMMAP_FIELD_COUNT }, { "vsize", VMMAP_FIELD_VSIZE },
		{ "resident", VMMAP_FIELD_RESIDENT }, { "dirty", VMMAP_FIELD_DIRTY },
		{ "swapped", VMMAP_FIELD_SWAPPED },
	};
	struct ndjson_row *o = row_start("gpu", src, status, NULL, dc);
	bool any_rounded = false;
	ndjson_set_null(o, "type");
	ndjson_set_null(o, "purge");
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) {
		uint64_t v = 0;
		bool rounded;
		bool known = vmmap_dump_gpu_figure(dc->d, cols[i].f, &v, &rounded);
		any_rounded |= known && rounded;
		ndjson_set_uint(o, cols[i].key, known, v);
	}
	ndjson_set_null(o, "volatile");
	ndjson_set_null(o, "nonvol");
	ndjson_set_null(o, "empty");
	ndjson_set_bool(o, "rounded", any_rounded);
	return ndjson_row_write(out, o);
}

static int
write_groups(FILE *out, const struct ndjson_source *src, const char *status, const struct dump_cols *dc)
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
			struct ndjson_row *o = row_start("group", src, status, NULL, dc);
			set_amounts(o, types[i]->name, purge, a, dc->d);
			rc = ndjson_row_write(out, o);
		}
	}
	free(types);
	return rc;
}

/* vmmap's summary rows of the selected types: rounded figures, as printed. */
static int
write_summary(FILE *out, const struct ndjson_source *src, const char *status, const struct dump_cols *dc,
	      const struct vmmap_filter *f)
{
	static const char *const names[VMMAP_COL_SIZES] = {
		"vsize", "resident", "dirty", "swapped", "volatile", "nonvol", "empty",
	};
	int rc = 0;
	for (size_t i = 0; i < dc->d->nrows && rc == 0; i++) {
		const struct vmmap_summary_row *r = &dc->d->rows[i];
		if (!vmmap_dump_row_selected(dc->d, f, i))
			continue;
		struct ndjson_row *o = row_start("summary", src, status, NULL, dc);
		ndjson_set_text(o, "type", r->name);
		ndjson_set_null(o, "purge");
		ndjson_set_uint(o, "count", r->has_count, r->count);
		for (int c = 0; c < VMMAP_COL_SIZES; c++)
			ndjson_set_uint(o, names[c], (r->present & (1u << c)) != 0, r->value[c]);
		ndjson_set_bool(o, "rounded", true);
		rc = ndjson_row_write(out, o);
	}
	return rc;
}

static int
write_dump(FILE *out, const struct vmmap_capture *cap, const struct ndjson_source *src, const char *status,
	   const struct dump_cols *dc)
{
	struct vmmap_amounts total = vmmap_dump_total(dc->d);
	struct ndjson_row *o = row_start("dump", src, status, NULL, dc);
	set_amounts(o, NULL, NULL, &total, dc->d);
	if (ndjson_row_write(out, o) < 0 || write_gpu(out, src, status, dc) < 0 ||
	    write_groups(out, src, status, dc) < 0)
		return -1;
	return write_summary(out, src, status, dc, &cap->filter);
}

int
vmmap_ndjson_write(FILE *out, const struct vmmap_capture *cap, const struct ndjson_source *src, size_t only)
{
	const char *status = cap->partial ? "partial" : "ok";
	struct ndjson_row *o = row_start("input", src, status, NULL, NULL);
	set_amounts(o, NULL, NULL, NULL, NULL);
	if (ndjson_row_write(out, o) < 0)
		return -1;
	for (size_t i = 0; i < cap->ndumps; i++) {
		struct dump_cols dc = { .index = i + 1, .d = cap->dumps[i] };
		if (only && only != i + 1)
			continue;
		if (write_dump(out, cap, src, status, &dc) < 0)
			return -1;
	}
	return 0;
}

int
vmmap_ndjson_write_error(FILE *out, const struct ndjson_source *src, const char *error)
{
	struct ndjson_row *o = row_start("input", src, "error", error, NULL);
	set_amounts(o, NULL, NULL, NULL, NULL);
	return ndjson_row_write(out, o);
}
