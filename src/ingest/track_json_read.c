#include "ingest/track_json_read.h"

#include "ingest/jsondoc.h"
#include "ingest/track_command.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>


static void
read_kind(const json_t *root, struct track_capture *cap)
{
	const char *k = json_string_value(json_object_get(root, "kind"));
	cap->kind = !k ? TRACK_KIND_UNKNOWN
		  : strcmp(k, "track") == 0 ? TRACK_KIND_TRACK
		  : strcmp(k, "leaks") == 0 ? TRACK_KIND_LEAKS
		  : strcmp(k, "maps") == 0 ? TRACK_KIND_MAPS : TRACK_KIND_UNKNOWN;
}

static int
read_source(const json_t *root, struct track_capture *cap, const char *path,
	    struct diag *err)
{
	json_t *src;
	const char *cmd, *layout;
	size_t n;
	if (json_doc_object(root, "source", path, "", false, &src, err) < 0 ||
	    json_doc_str(src, "command", path, "source", true, &cmd, &n, err) < 0 ||
	    json_doc_str(src, "layout", path, "source", false, &layout, NULL, err) < 0)
		return -1;
	if (cmd)
		track_command_read(cap, cmd, n);
	read_kind(root, cap);
	cap->layout = strcmp(layout, track_layout_name(TRACK_LAYOUT_97)) == 0 ? TRACK_LAYOUT_97
		    : strcmp(layout, track_layout_name(TRACK_LAYOUT_105)) == 0 ? TRACK_LAYOUT_105
		    : TRACK_LAYOUT_108;
	cap->partial = json_is_true(json_object_get(src, "partial"));
	return 0;
}

static int
read_images(const json_t *root, struct track_capture *cap, const char *path,
	    struct diag *err)
{
	json_t *images, *o;
	size_t i;
	char at[48];
	if (json_doc_array(root, "images", path, "", &images, err) < 0)
		return -1;
	json_array_foreach(images, i, o) {
		struct track_image img = { 0 };
		const char *name, *uuid, *ipath;
		bool has;
		snprintf(at, sizeof(at), "images[%zu]", i);
		if (json_doc_hex(o, "start", path, at, &img.start, &has, err) < 0 ||
		    json_doc_hex(o, "end", path, at, &img.end, &has, err) < 0 ||
		    json_doc_str(o, "name", path, at, false, &name, NULL, err) < 0 ||
		    json_doc_str(o, "uuid", path, at, false, &uuid, NULL, err) < 0 ||
		    json_doc_str(o, "path", path, at, false, &ipath, NULL, err) < 0)
			return -1;
		img.name = xstrdup(name);
		img.uuid = xstrdup(uuid);
		img.path = xstrdup(ipath);
		track_capture_add_image(cap, &img);
	}
	return 0;
}

static int
read_process(const json_t *o, const char *key, struct track_record *r, bool trailer,
	     const char *path, const char *at, struct diag *err)
{
	json_t *p;
	const char *name;
	size_t n;
	int64_t pid;
	if (json_doc_object(o, key, path, at, trailer, &p, err) < 0)
		return -1;
	if (!p)
		return 0;
	if (json_doc_str(p, "name", path, at, true, &name, &n, err) < 0 ||
	    json_doc_i64(p, "pid", path, at, &pid, err) < 0)
		return -1;
	struct track_text t = track_record_add_text(r, name ? name : "", name ? n : 0);
	if (trailer) {
		r->has_trailer = true;
		r->trailer_exited = json_is_true(json_object_get(p, "exited"));
		r->trailer_process = t;
		r->trailer_pid = pid;
		r->trailer_at = r->nframes;
	} else {
		r->map_process = t;
		r->map_pid = pid;
	}
	return 0;
}

static int
read_frame(const json_t *o, struct track_record *r, const char *path, const char *at,
	   struct diag *err)
{
	const char *module, *symbol, *source;
	size_t ml, sl, srcl;
	uint64_t index;
	bool has;
	struct track_frame f = { 0 };
	if (json_doc_u64(o, "index", path, at, &index, err) < 0 ||
	    json_doc_str(o, "module", path, at, false, &module, &ml, err) < 0 ||
	    json_doc_str(o, "symbol", path, at, false, &symbol, &sl, err) < 0 ||
	    json_doc_str(o, "source", path, at, true, &source, &srcl, err) < 0 ||
	    json_doc_hex(o, "address", path, at, &f.address, &has, err) < 0 ||
	    json_doc_hex(o, "offset", path, at, &f.offset, &f.has_offset, err) < 0)
		return -1;
	if (!has)
		return diag_set(err, DIAG_DATA, path, 0, 0, "JSON member '%s.address' is null", at);
	f.index = index;
	f.module = track_record_add_text(r, module, ml);
	f.symbol = track_record_add_text(r, symbol, sl);
	if (source) {
		f.has_source = true;
		f.source = track_record_add_text(r, source, srcl);
	}
	*track_record_add_frame(r) = f;
	return 0;
}

static int
read_alloc(const json_t *o, struct track_record *r, const char *path, const char *at,
	   struct diag *err)
{
	json_t *size = json_object_get(o, "size");
	if (!json_is_array(size) || json_array_size(size) != 2 ||
	    !json_is_integer(json_array_get(size, 0)) || !json_is_integer(json_array_get(size, 1)) ||
	    json_integer_value(json_array_get(size, 0)) < 0 ||
	    json_integer_value(json_array_get(size, 1)) < 0)
		return diag_set(err, DIAG_DATA, path, 0, 0,
				"JSON member '%s.size' is not two non-negative integers", at);
	r->type = TRACK_RECORD_ALLOC;
	r->size[0] = (uint64_t)json_integer_value(json_array_get(size, 0));
	r->size[1] = (uint64_t)json_integer_value(json_array_get(size, 1));
	return json_doc_i64(o, "count", path, at, &r->count, err);
}

static int
read_record(const json_t *o, size_t i, struct track_record *r, const char *path,
	    struct diag *err)
{
	char at[48];
	const char *type;
	json_t *frames, *f;
	size_t k;
	bool has;
	snprintf(at, sizeof(at), "records[%zu]", i);
	if (json_doc_str(o, "type", path, at, false, &type, NULL, err) < 0 ||
	    json_doc_u64(o, "index", path, at, &r->index, err) < 0 ||
	    json_doc_u64(o, "bytes", path, at, &r->bytes, err) < 0 ||
	    json_doc_u64(o, "line", path, at, &r->line, err) < 0 ||
	    json_doc_array(o, "frames", path, at, &frames, err) < 0)
		return -1;
	if (strcmp(type, "mapping") == 0) {
		r->type = TRACK_RECORD_MAP;
		if (json_doc_hex(o, "address", path, at, &r->map_address, &has, err) < 0 ||
		    read_process(o, "task", r, false, path, at, err) < 0)
			return -1;
	} else if (strcmp(type, "allocation") == 0) {
		if (read_alloc(o, r, path, at, err) < 0)
			return -1;
	} else {
		return diag_set(err, DIAG_DATA, path, 0, 0,
				"JSON member '%s.type' is not 'allocation' or 'mapping'", at);
	}
	json_array_foreach(frames, k, f) {
		char fat[80];
		snprintf(fat, sizeof(fat), "%s.frames[%zu]", at, k);
		if (read_frame(f, r, path, fat, err) < 0)
			return -1;
	}
	r->seq = i;
	return read_process(o, "process", r, true, path, at, err);
}

static int
read_records(const json_t *root, struct track_capture *cap, const char *path,
	     struct diag_list *notes, struct diag *err)
{
	json_t *recs, *o, *total;
	size_t i;
	uint64_t listed;
	struct track_record r;
	int rc = 0;
	if (!json_object_get(root, "records"))
		return diag_set(err, DIAG_DATA, path, 0, 0,
				"is a grouped report (--by %s), which holds no call sites: "
				"diff reads the listing ('iotally track --format json' without --by)",
				json_string_value(json_object_get(root, "by")) ?
				json_string_value(json_object_get(root, "by")) : "?");
	if (json_doc_array(root, "records", path, "", &recs, err) < 0 ||
	    json_doc_object(root, "total", path, "", false, &total, err) < 0 ||
	    json_doc_u64(total, "capture_records", path, "total", &listed, err) < 0)
		return -1;
	if (json_is_integer(json_object_get(total, "printed"))) {
		cap->has_total = true;
		if (json_doc_u64(total, "printed", path, "total", &cap->total, err) < 0)
			return -1;
	}
	track_record_init(&r);
	json_array_foreach(recs, i, o) {
		track_record_reset(&r);
		if (read_record(o, i, &r, path, err) < 0 ||
		    track_capture_add_record(cap, &r, path, err) < 0) {
			rc = -1;
			break;
		}
	}
	track_record_release(&r);
	if (rc == 0 && json_array_size(recs) < listed)
		diag_list_add(notes, DIAG_NOTE, path, 0,
			      "the report lists %zu of the capture's %" PRIu64 " records (made "
			      "with --top, filters or suppressions): the diff covers those listed",
			      json_array_size(recs), listed);
	return rc;
}

int
track_json_read(struct line_reader *r, struct track_capture *cap, struct diag_list *notes,
		struct diag *err)
{
	json_t *root;
	int rc = -1;
	if (json_doc_load_schema(r, TRACK_SCHEMA, &root, err) < 0)
		return -1;
	if (read_source(root, cap, r->path, err) < 0 || read_images(root, cap, r->path, err) < 0 ||
	    read_records(root, cap, r->path, notes, err) < 0)
		goto out;
	rc = 0;
out:
	json_decref(root);
	return rc;
}
