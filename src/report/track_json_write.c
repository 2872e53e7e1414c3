#include "report/track_json_write.h"

#include "report/json_stream.h"
#include "report/jsontext.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>

static json_t *
jview(const struct track_record *r, struct track_text t)
{
	return json_textn(track_str(r, t), t.len);
}

static json_t *
frame_json(const struct track_record *r, const struct track_frame *f)
{
	json_t *o = json_object();
	json_object_set_new_nocheck(o, "index", json_uint(f->index));
	json_object_set_new_nocheck(o, "module", jview(r, f->module));
	json_object_set_new_nocheck(o, "address", json_hex(f->address));
	json_object_set_new_nocheck(o, "symbol", jview(r, f->symbol));
	/* Offsets are hex in the capture and can be any 64-bit value: keep them as text. */
	json_object_set_new_nocheck(o, "offset", f->has_offset ? json_hex(f->offset) : json_null());
	json_object_set_new_nocheck(o, "source", f->has_source ? jview(r, f->source) : json_null());
	json_object_set_new_nocheck(o, "user", json_boolean(track_frame_is_user(r, f)));
	return o;
}

static json_t *
process_json(const struct track_record *r, struct track_text name, int64_t pid, bool exited)
{
	json_t *o = json_object();
	json_object_set_new_nocheck(o, "name", exited ? json_null() : jview(r, name));
	json_object_set_new_nocheck(o, "pid", json_integer((json_int_t)pid));
	json_object_set_new_nocheck(o, "exited", json_boolean(exited));
	return o;
}

static json_t *
record_json(const struct track_capture *cap, const struct track_record *r)
{
	json_t *o = json_object(), *frames = json_array();
	bool map = r->type == TRACK_RECORD_MAP;
	size_t clen;
	const char *cat = track_record_category(r, cap->queue, &clen);

	json_object_set_new_nocheck(o, "type", json_string_nocheck(map ? "mapping" : "allocation"));
	json_object_set_new_nocheck(o, "index", json_uint(r->index));
	json_object_set_new_nocheck(o, "bytes", json_uint(r->bytes));
	if (map) {
		json_object_set_new_nocheck(o, "size", json_null());
		json_object_set_new_nocheck(o, "count", json_null());
		json_object_set_new_nocheck(o, "address", json_hex(r->map_address));
		json_object_set_new_nocheck(o, "task", process_json(r, r->map_process, r->map_pid, false));
	} else {
		json_t *size = json_array();
		json_array_append_new(size, json_uint(r->size[0]));
		json_array_append_new(size, json_uint(r->size[1]));
		json_object_set_new_nocheck(o, "size", size);
		json_object_set_new_nocheck(o, "count", json_integer((json_int_t)r->count));
		json_object_set_new_nocheck(o, "address", json_null());
		json_object_set_new_nocheck(o, "task", json_null());
	}
	json_object_set_new_nocheck(o, "category", cat ? json_textn(cat, clen) : json_null());
	json_object_set_new_nocheck(o, "process", r->has_trailer
		? process_json(r, r->trailer_process, r->trailer_pid, r->trailer_exited)
		: json_null());
	for (size_t i = 0; i < r->nframes; i++)
		json_array_append_new(frames, frame_json(r, &r->frames[i]));
	json_object_set_new_nocheck(o, "frames", frames);
	json_object_set_new_nocheck(o, "line", json_uint(r->line));
	return o;
}

/* Listed records are read back one at a time while the document is written. */
struct record_source {
	const struct track_capture *cap;
	struct track_record rec;
};

static json_t *
listed_record_json(void *ctx, size_t i, struct diag *err)
{
	struct record_source *src = ctx;
	if (track_listing_read(&src->cap->listing, i, &src->rec, err) < 0)
		return NULL;
	return record_json(src->cap, &src->rec);
}

static json_t *
groups_json(const struct track_capture *cap, uint64_t top)
{
	const struct track_group **g;
	size_t n = track_grouping_sorted(&cap->grouping, &g);
	json_t *arr = json_array();
	if (top && n > top)
		n = (size_t)top;
	for (size_t i = 0; i < n; i++) {
		json_t *o = json_object();
		if (cap->by == TRACK_BY_SYMBOL) {
			json_object_set_new_nocheck(o, "name", json_text(g[i]->symbol));
			json_object_set_new_nocheck(o, "module", json_text(g[i]->name));
			json_object_set_new_nocheck(o, "self_bytes", json_uint(g[i]->self_bytes));
		} else {
			json_object_set_new_nocheck(o, "name", json_text(g[i]->name));
		}
		json_object_set_new_nocheck(o, "bytes", json_uint(g[i]->bytes));
		json_object_set_new_nocheck(o, "records", json_uint(g[i]->records));
		json_object_set_new_nocheck(o, "count", json_integer((json_int_t)g[i]->count));
		json_array_append_new(arr, o);
	}
	free(g);
	return arr;
}

static json_t *
suppressed_json(const struct track_capture *cap)
{
	json_t *o = json_object(), *pats = json_array();
	json_object_set_new_nocheck(o, "records", json_uint(cap->suppressed_records));
	json_object_set_new_nocheck(o, "bytes", json_uint(cap->suppressed_bytes));
	for (size_t i = 0; cap->suppress && i < cap->suppress->len; i++) {
		const struct suppress_pattern *p = &cap->suppress->items[i];
		json_t *po = json_object();
		json_object_set_new_nocheck(po, "pattern", json_text(p->text));
		json_object_set_new_nocheck(po, "regex", json_boolean(p->regex));
		json_object_set_new_nocheck(po, "line", json_uint(p->line));
		json_object_set_new_nocheck(po, "records", json_uint(p->records));
		json_object_set_new_nocheck(po, "bytes", json_uint(p->bytes));
		json_array_append_new(pats, po);
	}
	json_object_set_new_nocheck(o, "patterns", pats);
	return o;
}

static json_t *
images_json(const struct track_capture *cap)
{
	json_t *arr = json_array();
	for (size_t i = 0; i < cap->nimages; i++) {
		const struct track_image *m = &cap->images[i];
		json_t *o = json_object();
		json_object_set_new_nocheck(o, "start", json_hex(m->start));
		json_object_set_new_nocheck(o, "end", json_hex(m->end));
		json_object_set_new_nocheck(o, "name", json_text(m->name));
		json_object_set_new_nocheck(o, "uuid", json_text(m->uuid));
		json_object_set_new_nocheck(o, "path", json_text(m->path));
		json_array_append_new(arr, o);
	}
	return arr;
}

static json_t *
opt_text(const char *s)
{
	return s ? json_text(s) : json_null();
}

int
track_json_write(FILE *out, const struct track_capture *cap,
		 const struct track_json_opts *opts, struct diag *err)
{
	json_t *root = json_document_new(TRACK_SCHEMA), *src = json_object(), *total = json_object();

	json_object_set_new_nocheck(src, "path", json_text(opts->path));
	json_object_set_new_nocheck(src, "layout", json_string_nocheck(track_layout_name(cap->layout)));
	json_object_set_new_nocheck(src, "command", opt_text(cap->command));
	json_object_set_new_nocheck(src, "partial", json_boolean(cap->partial));
	json_object_set_new_nocheck(root, "source", src);
	json_object_set_new_nocheck(root, "kind", opt_text(track_kind_name(cap->kind)));
	json_object_set_new_nocheck(root, "by", opt_text(track_by_name(cap->by)));
	if (cap->by == TRACK_BY_NONE)
		json_object_set_new_nocheck(root, "records", json_array());   /* streamed */
	else
		json_object_set_new_nocheck(root, "groups", groups_json(cap, opts->top));
	json_object_set_new_nocheck(total, "shown", json_uint(cap->shown_bytes));
	json_object_set_new_nocheck(total, "shown_records", json_uint(cap->shown_records));
	json_object_set_new_nocheck(total, "printed", cap->has_total ? json_uint(cap->total) : json_null());
	json_object_set_new_nocheck(total, "capture",
		cap->sum_overflow && !cap->has_total ? json_null() : json_uint(track_capture_total(cap)));
	json_object_set_new_nocheck(total, "capture_records", json_uint(cap->nrecords));
	json_object_set_new_nocheck(root, "total", total);
	json_object_set_new_nocheck(root, "suppressed", suppressed_json(cap));
	json_object_set_new_nocheck(root, "images", images_json(cap));

	if (cap->by != TRACK_BY_NONE) {
		int rc = json_document_write(out, root);
		if (rc < 0)
			diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot write JSON output");
		return rc;
	}
	struct record_source rs = { .cap = cap };
	track_record_init(&rs.rec);
	int rc = json_document_write_streamed(out, root, "records",
					      track_listing_count(&cap->listing),
					      listed_record_json, &rs, err);
	track_record_release(&rs.rec);
	return rc;
}
