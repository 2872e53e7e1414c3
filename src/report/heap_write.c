/*
 * The heap kind's writers (report/heap_write.h). Text figures go through
 * size_format_text() (one byte formatter); JSON and NDJSON carry exact
 * bytes, with "rounded" saying when heap printed them human-readable (-H).
 */

#include "report/heap_write.h"

#include "report/jsontext.h"
#include "report/texttable.h"
#include "util/size.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

bool
heap_row_matches(const struct heap_row *r, const char *match)
{
	return !match || strstr(r->name, match) != NULL;
}

static void
add_bytes(struct text_table *t, int64_t v, unsigned flags)
{
	char buf[32];
	size_format_text(v, flags, buf);
	text_table_add(t, buf);
}

void
heap_text_write(FILE *out, const struct heap_capture *cap, const struct heap_write_opts *o)
{
	static const char *const head[] = { "COUNT", "BYTES", "AVG", "CLASS", "TYPE", "BINARY" };
	unsigned rf = cap->rounded ? SIZE_TEXT_ROUNDED : 0;
	const char *proc = heap_header_value(cap, "Process");
	struct text_table t;
	if (o->markdown)
		fputs("## heap\n\n", out);
	if (proc) {
		struct text_table h;
		static const char *const hh[] = { "PROCESS", "ALL ZONES" };
		text_table_init(&h, 2, hh, "ll");
		text_table_add(&h, proc);
		char b[32];
		size_format_text((int64_t)heap_total_figure(cap, HEAP_BYTES), rf, b);
		text_table_addf(&h, "%llu nodes, %s%s",
				(unsigned long long)heap_total_figure(cap, HEAP_COUNT), b,
				cap->has_all ? "" : " (the table's sum)");
		text_table_write(out, &h, o->markdown);
		text_table_release(&h);
		fputc('\n', out);
	}
	text_table_init(&t, 6, head, "rrrlll");
	size_t *order = heap_rows_ordered(cap);
	size_t shown = 0, left = 0;
	for (size_t i = 0; i < cap->nrows; i++) {
		const struct heap_row *r = &cap->rows[order[i]];
		if (!heap_row_matches(r, o->match))
			continue;
		if (o->top && shown >= o->top) {
			left++;
			continue;
		}
		shown++;
		text_table_add_u64(&t, r->count);
		add_bytes(&t, (int64_t)r->bytes, rf);
		add_bytes(&t, r->count ? (int64_t)(r->bytes / r->count) : 0, SIZE_TEXT_ROUNDED & rf);
		text_table_add(&t, r->name);
		text_table_add(&t, r->type);
		text_table_add(&t, r->binary);
	}
	free(order);
	text_table_write(out, &t, o->markdown);
	text_table_release(&t);
	if (left)
		fprintf(out, "%s%zu more row%s (--top)\n", o->markdown ? "\n" : "", left,
			left == 1 ? "" : "s");
	if (cap->partial)
		fprintf(out, "%spartial: lines of the table were not read (see the warnings)\n",
			o->markdown ? "\n" : "");
}

static json_t *
row_json(const struct heap_row *r)
{
	json_t *o = json_object();
	json_object_set_new_nocheck(o, "class", json_text(r->name));
	json_object_set_new_nocheck(o, "type", r->type[0] ? json_text(r->type) : json_null());
	json_object_set_new_nocheck(o, "binary", r->binary[0] ? json_text(r->binary) : json_null());
	json_object_set_new_nocheck(o, "count", json_uint(r->count));
	json_object_set_new_nocheck(o, "bytes", json_uint(r->bytes));
	return o;
}

int
heap_json_write(FILE *out, const struct heap_capture *cap, const char *path,
		const struct heap_write_opts *o)
{
	json_t *root = json_document_new(HEAP_SCHEMA);
	json_t *hdr = json_object(), *zones = json_array(), *rows = json_array();
	json_object_set_new_nocheck(root, "source", json_text(path));
	for (size_t i = 0; i < cap->nheader; i++)
		json_object_set_new(hdr, cap->header[i].key, json_text(cap->header[i].value));
	json_object_set_new_nocheck(root, "header", hdr);
	for (size_t i = 0; i < cap->nzones; i++) {
		const struct heap_zone *z = &cap->zones[i];
		json_t *zo = json_object();
		json_object_set_new_nocheck(zo, "name", json_text(z->name));
		json_object_set_new_nocheck(zo, "nodes", json_uint(z->nodes));
		json_object_set_new_nocheck(zo, "malloced", z->has_malloced ? json_uint(z->malloced)
									    : json_null());
		json_array_append_new(zones, zo);
	}
	json_object_set_new_nocheck(root, "zones", zones);
	json_object_set_new_nocheck(root, "all_nodes",
				    cap->has_all ? json_uint(cap->all_nodes) : json_null());
	json_object_set_new_nocheck(root, "all_bytes",
				    cap->has_all ? json_uint(cap->all_bytes) : json_null());
	json_object_set_new_nocheck(root, "rounded", json_boolean(cap->rounded));
	json_object_set_new_nocheck(root, "partial", json_boolean(cap->partial));
	size_t *order = heap_rows_ordered(cap);
	size_t shown = 0;
	for (size_t i = 0; i < cap->nrows; i++) {
		const struct heap_row *r = &cap->rows[order[i]];
		if (!heap_row_matches(r, o->match) || (o->top && shown >= o->top))
			continue;
		shown++;
		json_array_append_new(rows, row_json(r));
	}
	free(order);
	json_object_set_new_nocheck(root, "classes", rows);
	return json_document_write(out, root);
}

static struct ndjson_row *
row_start(const char *row, const struct ndjson_source *src, const char *status,
	  const char *error)
{
	struct ndjson_row *o = ndjson_row_new_at(HEAP_NDJSON_SCHEMA, row, src, "heap");
	ndjson_set(o, "status", json_string_nocheck(status));
	ndjson_set(o, "error", ndjson_text_or_null(error));
	return o;
}

static void
set_row(struct ndjson_row *o, const struct heap_capture *cap, const struct heap_row *r)
{
	ndjson_set(o, "process", ndjson_text_or_null(cap ? heap_header_value(cap, "Process")
							 : NULL));
	ndjson_set(o, "class", ndjson_text_or_null(r ? r->name : NULL));
	ndjson_set(o, "type", ndjson_text_or_null(r && r->type[0] ? r->type : NULL));
	ndjson_set(o, "binary", ndjson_text_or_null(r && r->binary[0] ? r->binary : NULL));
	if (r) {
		ndjson_set(o, "count", json_uint(r->count));
		ndjson_set(o, "bytes", json_uint(r->bytes));
	} else {
		ndjson_set(o, "count", cap ? json_uint(heap_total_figure(cap, HEAP_COUNT))
					   : json_null());
		ndjson_set(o, "bytes", cap ? json_uint(heap_total_figure(cap, HEAP_BYTES))
					   : json_null());
	}
	ndjson_set(o, "rounded", cap ? json_boolean(cap->rounded) : json_null());
}

int
heap_ndjson_write(FILE *out, const struct heap_capture *cap, const struct ndjson_source *src,
		  const struct heap_write_opts *o)
{
	const char *status = cap->partial ? "partial" : "ok";
	struct ndjson_row *row = row_start("input", src, status, NULL);
	set_row(row, cap, NULL);
	if (ndjson_row_write(out, row) < 0)
		return -1;
	size_t *order = heap_rows_ordered(cap);
	size_t shown = 0;
	int rc = 0;
	for (size_t i = 0; i < cap->nrows && rc == 0; i++) {
		const struct heap_row *r = &cap->rows[order[i]];
		if (!heap_row_matches(r, o->match) || (o->top && shown >= o->top))
			continue;
		shown++;
		row = row_start("class", src, status, NULL);
		set_row(row, cap, r);
		rc = ndjson_row_write(out, row);
	}
	free(order);
	return rc;
}

int
heap_ndjson_write_error(FILE *out, const struct ndjson_source *src, const char *error)
{
	struct ndjson_row *row = row_start("input", src, "error", error);
	set_row(row, NULL, NULL);
	return ndjson_row_write(out, row);
}

/* ---- a pair ---- */

static const char *
row_change(const struct heap_diff_row *r)
{
	return !r->in_before ? "new" : !r->in_after ? "gone"
		: heap_diff_row_changed(r) ? "changed" : "same";
}

static json_t *
triple(uint64_t before, uint64_t after)
{
	json_t *o = json_object();
	json_object_set_new_nocheck(o, "before", json_uint(before));
	json_object_set_new_nocheck(o, "after", json_uint(after));
	json_object_set_new_nocheck(o, "delta", json_integer((json_int_t)after - (json_int_t)before));
	return o;
}

json_t *
heap_diff_json(const struct heap_diff *d)
{
	json_t *body = json_object(), *rows = json_array(), *fig = json_object();
	json_object_set_new_nocheck(fig, "nodes", triple(heap_total_figure(d->before, HEAP_COUNT),
							 heap_total_figure(d->after, HEAP_COUNT)));
	json_object_set_new_nocheck(fig, "bytes", triple(heap_total_figure(d->before, HEAP_BYTES),
							 heap_total_figure(d->after, HEAP_BYTES)));
	json_object_set_new_nocheck(body, "figures", fig);
	for (size_t i = 0; i < d->nrows; i++) {
		const struct heap_diff_row *r = &d->rows[i];
		json_t *o = json_object();
		json_object_set_new_nocheck(o, "class", json_text(r->name));
		json_object_set_new_nocheck(o, "type", r->type[0] ? json_text(r->type) : json_null());
		json_object_set_new_nocheck(o, "binary",
					    r->binary[0] ? json_text(r->binary) : json_null());
		json_object_set_new_nocheck(o, "change", json_string_nocheck(row_change(r)));
		json_object_set_new_nocheck(o, "count", triple(r->before_count, r->after_count));
		json_object_set_new_nocheck(o, "bytes", triple(r->before_bytes, r->after_bytes));
		json_array_append_new(rows, o);
	}
	json_object_set_new_nocheck(body, "classes", rows);
	json_object_set_new_nocheck(body, "rounded",
				    json_boolean(d->before->rounded || d->after->rounded));
	return body;
}
