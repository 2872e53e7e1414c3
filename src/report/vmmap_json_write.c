#include "report/vmmap_json_write.h"

#include "report/jsontext.h"
#include "model/gpu.h"

#include "util/size.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

static json_t *
jstr_or_null(const char *s)
{
	return s ? json_string_nocheck(s) : json_null();
}

static json_t *
purge_key(enum vmmap_purge p)
{
	char s[2] = { vmmap_purge_char(p), '\0' };
	return json_string_nocheck(s);
}

/*
 * The footprint header is a rounded vmmap size ("1185K", "1.2G"): keep the
 * text, and its byte value, which is only as exact as the text.
 */
static json_t *
footprint_json(const char *text)
{
	uint64_t bytes;
	if (!text)
		return json_null();
	json_t *o = json_object();
	json_object_set_new_nocheck(o, "printed", json_text(text));
	if (size_parse_vmmap(text, strlen(text), &bytes) == SIZE_OK && bytes <= BYTES_MAX)
		json_object_set_new_nocheck(o, "bytes", json_uint(bytes));
	else
		json_object_set_new_nocheck(o, "bytes", json_null());
	return o;
}

static json_t *
header_json(const struct vmmap_dump *d)
{
	json_t *h = json_object();
	json_t *fields = json_object();
	const char *fp = vmmap_dump_field(d, "Physical footprint");
	const char *fpp = vmmap_dump_field(d, "Physical footprint (peak)");

	json_object_set_new_nocheck(h, "os_version", jstr_or_null(NULL));
	if (vmmap_dump_field(d, "OS Version"))
		json_object_set_new_nocheck(h, "os_version", json_text(vmmap_dump_field(d, "OS Version")));
	json_object_set_new_nocheck(h, "code_type", json_null());
	if (vmmap_dump_field(d, "Code Type"))
		json_object_set_new_nocheck(h, "code_type", json_text(vmmap_dump_field(d, "Code Type")));
	json_object_set_new_nocheck(h, "page_size", d->page_size ? json_uint(d->page_size) : json_null());
	json_object_set_new_nocheck(h, "report_format",
				    d->report_format ? json_text(d->report_format) : json_null());
	json_object_set_new_nocheck(h, "physical_footprint", footprint_json(fp));
	json_object_set_new_nocheck(h, "physical_footprint_peak", footprint_json(fpp));
	for (size_t i = 0; i < d->nfields; i++)
		json_object_set_new(fields, d->fields[i].key, json_text(d->fields[i].value));
	json_object_set_new_nocheck(h, "fields", fields);
	return h;
}

static json_t *
summary_json(const struct vmmap_dump *d, const struct vmmap_filter *f)
{
	static const char *const names[VMMAP_COL_SIZES] = {
		"virtual", "resident", "dirty", "swapped", "volatile", "nonvol", "empty",
	};
	json_t *rows = json_array();
	for (size_t i = 0; i < d->nrows; i++) {
		const struct vmmap_summary_row *r = &d->rows[i];
		if (!vmmap_dump_row_selected(d, f, i))
			continue;
		json_t *o = json_object();
		json_object_set_new_nocheck(o, "type", json_text(r->name));
		for (int c = 0; c < VMMAP_COL_SIZES; c++)
			json_object_set_new_nocheck(o, names[c],
				(r->present & (1u << c)) ? json_uint(r->value[c]) : json_null());
		json_object_set_new_nocheck(o, "count", r->has_count ? json_uint(r->count) : json_null());
		json_object_set_new_nocheck(o, "line", json_uint(r->line));
		json_array_append_new(rows, o);
	}
	return rows;
}

/* A region-line figure: null where the dump's lines do not print its column. */
static json_t *
line_figure(const struct vmmap_dump *d, enum vmmap_metric_field f, uint64_t v)
{
	return vmmap_dump_lines_have(d, f) ? json_uint(v) : json_null();
}

static json_t *
groups_json(const struct vmmap_dump *d, const struct vmmap_type_stats **types, size_t n)
{
	json_t *arr = json_array();
	for (size_t i = 0; i < n; i++) {
		for (int k = 0; k < VMMAP_PURGE_STATES; k++) {
			const struct vmmap_amounts *a = &types[i]->by_purge[vmmap_purge_order[k]];
			if (!a->count)
				continue;
			json_t *o = json_object();
			json_object_set_new_nocheck(o, "type", json_text(types[i]->name));
			json_object_set_new_nocheck(o, "purge", purge_key(vmmap_purge_order[k]));
			json_object_set_new_nocheck(o, "count", json_uint(a->count));
			json_object_set_new_nocheck(o, "vsize", json_uint(a->vsize));
			json_object_set_new_nocheck(o, "resident",
						    line_figure(d, VMMAP_FIELD_RESIDENT, a->resident));
			json_object_set_new_nocheck(o, "dirty",
						    line_figure(d, VMMAP_FIELD_DIRTY, a->dirty));
			json_object_set_new_nocheck(o, "swapped",
						    line_figure(d, VMMAP_FIELD_SWAPPED, a->swapped));
			json_array_append_new(arr, o);
		}
	}
	return arr;
}

static json_t *
histogram_json(const struct vmmap_type_stats **types, size_t n)
{
	json_t *arr = json_array();
	for (size_t i = 0; i < n; i++) {
		const struct vmmap_hist_bucket **b;
		size_t nb = vmmap_type_sorted_hist(types[i], &b);
		for (size_t k = 0; k < nb; k++) {
			json_t *o = json_object(), *p = json_object();
			json_object_set_new_nocheck(o, "type", json_text(types[i]->name));
			json_object_set_new_nocheck(o, "vsize", json_uint(b[k]->vsize));
			json_object_set_new_nocheck(o, "count", json_uint(vmmap_hist_bucket_count(b[k])));
			json_object_set_new_nocheck(p, "N", json_uint(b[k]->purge[VMMAP_PURGE_N]));
			json_object_set_new_nocheck(p, "V", json_uint(b[k]->purge[VMMAP_PURGE_V]));
			json_object_set_new_nocheck(p, "E", json_uint(b[k]->purge[VMMAP_PURGE_E]));
			json_object_set_new_nocheck(p, "-", json_uint(b[k]->purge[VMMAP_PURGE_NONE]));
			json_object_set_new_nocheck(o, "purge", p);
			json_array_append_new(arr, o);
		}
		free(b);
	}
	return arr;
}

static json_t *
surfaces_json(const struct vmmap_dump *d)
{
	const struct vmmap_surface_group **g;
	size_t n = vmmap_dump_sorted_surfaces(d, &g);
	json_t *arr = json_array();
	for (size_t i = 0; i < n; i++) {
		json_t *o = json_object();
		json_object_set_new_nocheck(o, "width", json_uint(g[i]->width));
		json_object_set_new_nocheck(o, "height", json_uint(g[i]->height));
		json_object_set_new_nocheck(o, "format", json_text(g[i]->format));
		json_object_set_new_nocheck(o, "count", json_uint(g[i]->count));
		json_object_set_new_nocheck(o, "mapped", json_uint(g[i]->mapped));
		json_object_set_new_nocheck(o, "surface_bytes", json_uint(g[i]->surface_bytes));
		json_object_set_new_nocheck(o, "waste",
			json_integer((json_int_t)g[i]->mapped - (json_int_t)g[i]->surface_bytes));
		json_object_set_new_nocheck(o, "rounded", json_boolean(g[i]->rounded));
		json_array_append_new(arr, o);
	}
	free(g);
	return arr;
}

static json_t *
dump_json(const struct vmmap_capture *cap, const struct vmmap_dump *d,
	  const struct vmmap_json_opts *opts)
{
	json_t *o = json_object(), *proc = json_object(), *lines = json_object();
	const struct vmmap_type_stats **types;
	size_t ntypes = vmmap_dump_sorted_types(d, &types);

	json_object_set_new_nocheck(proc, "name", d->process ? json_text(d->process) : json_null());
	json_object_set_new_nocheck(proc, "pid", d->has_pid ? json_uint(d->pid) : json_null());
	json_object_set_new_nocheck(o, "process", proc);
	json_object_set_new_nocheck(o, "header", header_json(d));
	json_object_set_new_nocheck(o, "summary_rows", summary_json(d, &cap->filter));
	json_object_set_new_nocheck(o, "groups", groups_json(d, types, ntypes));
	json_object_set_new_nocheck(o, "histogram", histogram_json(types, ntypes));
	if (opts->surfaces)
		json_object_set_new_nocheck(o, "surfaces", surfaces_json(d));
	json_object_set_new_nocheck(lines, "first", json_uint(d->first_line));
	json_object_set_new_nocheck(lines, "total", json_uint(d->lines));
	json_object_set_new_nocheck(lines, "regions", json_uint(d->region_lines));
	json_object_set_new_nocheck(lines, "unparsed", json_uint(d->unparsed_lines));
	json_object_set_new_nocheck(o, "lines", lines);
	free(types);
	return o;
}

int
vmmap_json_write(FILE *out, const struct vmmap_capture *cap,
		 const struct vmmap_json_opts *opts)
{
	json_t *root = json_document_new(VMMAP_SCHEMA), *src = json_object(), *types = json_array();
	json_t *dumps = json_array();

	json_object_set_new_nocheck(src, "path", json_text(opts->path));
	json_object_set_new_nocheck(src, "lines", json_uint(cap->lines));
	json_object_set_new_nocheck(src, "partial", json_boolean(cap->partial));
	json_object_set_new_nocheck(root, "source", src);
	if (cap->filter.all)
		json_array_append_new(types, json_string_nocheck("*"));
	for (size_t i = 0; i < cap->filter.ntypes && !cap->filter.all; i++)
		json_array_append_new(types, json_text(cap->filter.types[i]));
	json_object_set_new_nocheck(root, "types", types);
	for (size_t i = 0; i < cap->ndumps; i++)
		json_array_append_new(dumps, dump_json(cap, cap->dumps[i], opts));
	json_object_set_new_nocheck(root, "dumps", dumps);

	return json_document_write(out, root);
}
