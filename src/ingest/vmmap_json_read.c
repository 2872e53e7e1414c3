#include "ingest/vmmap_json_read.h"

#include "ingest/jsondoc.h"
#include "model/gpu.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>


static int
purge_from_key(const char *s, enum vmmap_purge *p)
{
	int state = s && s[0] && !s[1] ? vmmap_purge_from_char(s[0]) : -1;
	if (state < 0)
		return -1;
	*p = (enum vmmap_purge)state;
	return 0;
}

/*
 * The types the JSON was made for, added to the capture's filter; *gpu_left_out
 * when they leave the GPU types out (the JSON's own list, whatever the reader
 * selected already).
 */
static int
read_types(const json_t *root, struct vmmap_capture *cap, const char *path,
	   bool *gpu_left_out, struct diag *err)
{
	json_t *types, *v;
	size_t i;
	struct vmmap_filter own;
	if (json_doc_array(root, "types", path, "", &types, err) < 0)
		return -1;
	vmmap_filter_init(&own);
	json_array_foreach(types, i, v) {
		const char *s = json_string_value(v);
		if (!s) {
			vmmap_filter_release(&own);
			return diag_set(err, DIAG_DATA, path, 0, 0,
					"JSON member 'types[%zu]' is not a string", i);
		}
		if (strcmp(s, "*") == 0) {
			cap->filter.all = own.all = true;
		} else {
			vmmap_filter_add(&cap->filter, s, json_string_length(v));
			vmmap_filter_add(&own, s, json_string_length(v));
		}
	}
	*gpu_left_out = !gpu_types_selected(&own);
	vmmap_filter_release(&own);
	return 0;
}

static int
read_header(const json_t *o, struct vmmap_dump *d, const char *path, const char *where,
	    struct diag *err)
{
	json_t *proc, *header, *fields, *v;
	const char *name, *key, *rf;
	size_t len;
	if (json_doc_object(o, "process", path, where, false, &proc, err) < 0 ||
	    json_doc_str(proc, "name", path, where, true, &name, &len, err) < 0 ||
	    json_doc_object(o, "header", path, where, false, &header, err) < 0 ||
	    json_doc_object(header, "fields", path, where, false, &fields, err) < 0 ||
	    json_doc_str(header, "report_format", path, where, true, &rf, NULL, err) < 0)
		return -1;
	if (name)
		d->process = xmemdup0(name, len);
	if (json_is_integer(json_object_get(proc, "pid")) &&
	    json_doc_u64(proc, "pid", path, where, &d->pid, err) == 0)
		d->has_pid = true;
	if (json_is_integer(json_object_get(header, "page_size")) &&
	    json_doc_u64(header, "page_size", path, where, &d->page_size, err) < 0)
		return -1;
	if (rf)
		d->report_format = xstrdup(rf);
	json_object_foreach(fields, key, v) {
		if (!json_is_string(v))
			return diag_set(err, DIAG_DATA, path, 0, 0,
					"JSON member '%s.header.fields.%s' is not a string", where, key);
		vmmap_dump_set_field(d, key, strlen(key), json_string_value(v),
				     json_string_length(v));
	}
	return 0;
}

/*
 * A group's figure of a column that region lines of format 2.2/2.3 do not
 * print: null there (unknown, never 0). `place` is its 1-based place in
 * [VSIZE RSDNT DIRTY SWAP]; *columns keeps the fewest any group has.
 */
static int
read_line_figure(const json_t *g, const char *key, unsigned place, const char *path,
		 const char *at, uint64_t *out, unsigned *columns, struct diag *err)
{
	*out = 0;
	if (json_is_null(json_object_get(g, key))) {
		if (*columns >= place)
			*columns = place - 1;
		return 0;
	}
	return json_doc_u64(g, key, path, at, out, err);
}

/*
 * The dump's region-line count and how many size columns its lines print,
 * so that a figure the lines did not have stays unknown when read back.
 * Documents without a "lines" member (older writers) leave both unset.
 */
static int
read_line_counts(const json_t *o, struct vmmap_dump *d, unsigned columns, const char *path,
		 const char *where, struct diag *err)
{
	const json_t *lines = json_object_get(o, "lines");
	if (!json_is_object(lines) || !json_is_integer(json_object_get(lines, "regions")))
		return 0;
	char at[64];
	snprintf(at, sizeof(at), "%s.lines", where);
	if (json_doc_u64(lines, "regions", path, at, &d->region_lines, err) < 0)
		return -1;
	d->max_size_columns = d->region_lines ? columns : 0;
	return 0;
}

static int
read_groups(const json_t *o, struct vmmap_capture *cap, struct vmmap_dump *d,
	    const char *path, const char *where, struct diag *err)
{
	json_t *groups, *g;
	size_t i;
	char at[96];
	if (json_doc_array(o, "groups", path, where, &groups, err) < 0)
		return -1;
	unsigned columns = 4;   /* of VSIZE RSDNT DIRTY SWAP, as region lines print them */
	json_array_foreach(groups, i, g) {
		struct vmmap_amounts a;
		const char *type, *purge;
		size_t tlen;
		enum vmmap_purge p;
		snprintf(at, sizeof(at), "%s.groups[%zu]", where, i);
		if (json_doc_str(g, "type", path, at, false, &type, &tlen, err) < 0 ||
		    json_doc_str(g, "purge", path, at, false, &purge, NULL, err) < 0 ||
		    json_doc_u64(g, "count", path, at, &a.count, err) < 0 ||
		    json_doc_u64(g, "vsize", path, at, &a.vsize, err) < 0 ||
		    read_line_figure(g, "resident", 2, path, at, &a.resident, &columns, err) < 0 ||
		    read_line_figure(g, "dirty", 3, path, at, &a.dirty, &columns, err) < 0 ||
		    read_line_figure(g, "swapped", 4, path, at, &a.swapped, &columns, err) < 0)
			return -1;
		if (purge_from_key(purge, &p) < 0)
			return diag_set(err, DIAG_DATA, path, 0, 0,
					"JSON member '%s.purge' is not N, V, E or '-'", at);
		if (vmmap_dump_add_group(cap, d, type, tlen, p, &a, path, err) < 0)
			return -1;
	}
	return read_line_counts(o, d, columns, path, where, err);
}

static int
read_histogram(const json_t *o, struct vmmap_capture *cap, struct vmmap_dump *d,
	       const char *path, const char *where, struct diag *err)
{
	json_t *hist, *b, *purge;
	size_t i;
	char at[96];
	if (json_doc_array(o, "histogram", path, where, &hist, err) < 0)
		return -1;
	json_array_foreach(hist, i, b) {
		const char *type;
		size_t tlen;
		uint64_t vsize, count, sum = 0, counts[VMMAP_PURGE_STATES];
		snprintf(at, sizeof(at), "%s.histogram[%zu]", where, i);
		if (json_doc_str(b, "type", path, at, false, &type, &tlen, err) < 0 ||
		    json_doc_u64(b, "vsize", path, at, &vsize, err) < 0 ||
		    json_doc_u64(b, "count", path, at, &count, err) < 0 ||
		    json_doc_object(b, "purge", path, at, false, &purge, err) < 0)
			return -1;
		bool capped = false;
		for (int p = 0; p < VMMAP_PURGE_STATES; p++) {
			const char key[2] = { vmmap_purge_char((enum vmmap_purge)p), '\0' };
			if (json_doc_u64(purge, key, path, at, &counts[p], err) < 0)
				return -1;
			bytes_add_capped(&sum, counts[p], &capped);
		}
		if (capped || sum != count)
			return diag_set(err, DIAG_DATA, path, 0, 0,
					"JSON member '%s': count %" PRIu64 " is not the sum of its "
					"purge counts (%" PRIu64 ")", at, count, sum);
		if (vmmap_dump_add_bucket(cap, d, type, tlen, vsize, counts, path, err) < 0)
			return -1;
	}
	return 0;
}

/* A summary row's figure: absent (null) when vmmap's table has no such column. */
static int
read_summary_figure(const json_t *row, const char *key, const char *path, const char *at,
		    uint64_t *out, bool *present, struct diag *err)
{
	*present = false;
	if (json_is_null(json_object_get(row, key)))
		return 0;
	*present = true;
	return json_doc_u64(row, key, path, at, out, err);
}

/*
 * A dump without region lines (vmmap -summary, a crash report's summary)
 * has only its summary rows to count from: they are read back, figures in
 * bytes as vmmap's table rounded them, so that its GPU memory is what the
 * dump said, never "0 B in 0 regions". A dump with region lines counts
 * from its groups, as before.
 */
static int
read_summary_rows(const json_t *o, struct vmmap_dump *d, const char *path, const char *where,
		  struct diag *err)
{
	static const char *const cols[VMMAP_COL_SIZES] = {
		"virtual", "resident", "dirty", "swapped", "volatile", "nonvol", "empty",
	};
	json_t *rows = json_object_get(o, "summary_rows"), *v;
	size_t i;
	char at[96];
	if (!json_is_array(rows))
		return 0;
	json_array_foreach(rows, i, v) {
		struct vmmap_summary_row row;
		bool present;
		memset(&row, 0, sizeof(row));
		snprintf(at, sizeof(at), "%s.summary_rows[%zu]", where, i);
		if (json_doc_str(v, "type", path, at, false, &row.name, &row.name_len, err) < 0)
			return -1;
		for (int c = 0; c < VMMAP_COL_SIZES; c++) {
			if (read_summary_figure(v, cols[c], path, at, &row.value[c], &present,
						err) < 0)
				return -1;
			if (present)
				row.present |= 1u << c;
		}
		if (read_summary_figure(v, "count", path, at, &row.count, &row.has_count, err) < 0)
			return -1;
		if (json_is_integer(json_object_get(v, "line")) &&
		    json_doc_u64(v, "line", path, at, &row.line, err) < 0)
			return -1;
		vmmap_dump_add_summary_row(d, &row);
	}
	return 0;
}

int
vmmap_json_read(struct line_reader *r, struct vmmap_capture *cap, struct diag *err)
{
	json_t *root, *dumps, *o, *src;
	size_t i;
	char where[32];
	int rc = -1;

	if (json_doc_load_schema(r, VMMAP_SCHEMA, &root, err) < 0)
		return -1;
	bool gpu_left_out = false;
	if (read_types(root, cap, r->path, &gpu_left_out, err) < 0 ||
	    json_doc_array(root, "dumps", r->path, "", &dumps, err) < 0)
		goto out;
	if (json_doc_object(root, "source", r->path, "", false, &src, err) < 0)
		goto out;
	cap->partial = json_is_true(json_object_get(src, "partial"));
	/*
	 * iotally's JSON of a dump carries the summary rows of the types it was
	 * made for, whole; made for types that leave the GPU types out, it says
	 * nothing of GPU memory (model/gpu.h).
	 */
	json_array_foreach(dumps, i, o) {
		snprintf(where, sizeof(where), "dumps[%zu]", i);
		struct vmmap_dump *d = vmmap_capture_new_dump(cap, 0);
		d->summary_complete = true;
		d->gpu_left_out = gpu_left_out;
		if (read_header(o, d, r->path, where, err) < 0 ||
		    read_groups(o, cap, d, r->path, where, err) < 0 ||
		    read_histogram(o, cap, d, r->path, where, err) < 0 ||
		    (!d->region_lines && read_summary_rows(o, d, r->path, where, err) < 0))
			goto out;
	}
	rc = 0;
out:
	json_decref(root);
	return rc;
}
