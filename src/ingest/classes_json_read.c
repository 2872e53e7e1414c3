#include "ingest/classes_json_read.h"

#include "ingest/jsondoc.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>


static int
source_kind(const char *s, enum classes_source *out)
{
	for (int k = CLASSES_SRC_IOREG_TEXT; k <= CLASSES_SRC_KEXT_INFO; k++)
		if (strcmp(s, classes_source_name((enum classes_source)k)) == 0) {
			*out = (enum classes_source)k;
			return 0;
		}
	return -1;
}

/* "name": count | null; null is a count the capture could not read. */
static int
read_counts(const json_t *obj, struct classes_snapshot *s, const char *path,
	    const char *where, struct diag *err)
{
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)obj, key, v) {
		if (json_is_null(v)) {
			classes_snapshot_add(s, key, strlen(key), 0, CLASS_COUNT_UNREADABLE, 0);
			continue;
		}
		if (!json_is_integer(v))
			return diag_set(err, DIAG_DATA, path, 0, 0,
					"JSON member '%s.%s' is not an integer or null", where, key);
		classes_snapshot_add(s, key, strlen(key), (int64_t)json_integer_value(v),
				     CLASS_COUNT_OK, 0);
	}
	return 0;
}

static int
read_query(const json_t *snap, struct classes_snapshot *s, const char *path,
	   struct diag *err)
{
	json_t *q, *e;
	size_t i;
	char at[48];
	if (json_doc_array(snap, "query", path, "snapshots[0]", &q, err) < 0)
		return -1;
	s->query = true;
	json_array_foreach(q, i, e) {
		const char *name;
		size_t n;
		snprintf(at, sizeof(at), "snapshots[0].query[%zu]", i);
		if (json_doc_str(e, "name", path, at, false, &name, &n, err) < 0)
			return -1;
		if (!json_is_true(json_object_get(e, "found")))
			continue;
		json_t *c = json_object_get(e, "count");
		classes_snapshot_add(s, name, n, json_is_integer(c) ? json_integer_value(c) : 0,
				     json_is_integer(c) ? CLASS_COUNT_OK : CLASS_COUNT_UNREADABLE, 0);
	}
	return 0;
}

static int
read_alloc(const json_t *snap, struct classes_snapshot *s, const char *path,
	   struct diag *err)
{
	json_t *a;
	if (json_doc_object(snap, "allocation", path, "snapshots[0]", false, &a, err) < 0)
		return -1;
	for (int k = 0; k < ALLOC_KINDS; k++) {
		const char *key = alloc_kind_name((enum alloc_kind)k);
		if (!json_object_get(a, key))
			continue;
		if (json_doc_i64(a, key, path, "snapshots[0].allocation", &s->alloc[k], err) < 0)
			return -1;
		s->alloc_present[k] = true;
	}
	return 0;
}

static void
note_selection(const json_t *snap, struct classes_snapshot *s, const char *path,
	       struct diag_list *notes)
{
	const json_t *t = json_object_get(snap, "totals");
	json_int_t all = json_integer_value(json_object_get(t, "classes"));
	json_int_t sel = json_integer_value(json_object_get(t, "selected"));
	if (json_object_get(snap, "query"))
		diag_list_add(notes, DIAG_NOTE, path, 0,
			      "the report answers a class-names query: the diff covers the "
			      "classes it names");
	else if (sel < all) {
		s->query = true;
		diag_list_add(notes, DIAG_NOTE, path, 0,
			      "the report lists %" PRId64 " of the snapshot's %" PRId64 " classes "
			      "(made with --match, --nonzero or --top): only those are compared",
			      (int64_t)sel, (int64_t)all);
	}
}

static int
read_snapshot(const json_t *snap, struct classes_capture *cap, struct classes_capture *direct,
	      const char *path, struct diag_list *notes, struct diag *err)
{
	json_t *src, *classes, *d;
	const char *kind;
	enum classes_source source;
	if (json_doc_object(snap, "source", path, "snapshots[0]", false, &src, err) < 0 ||
	    json_doc_str(src, "kind", path, "snapshots[0].source", false, &kind, NULL, err) < 0)
		return -1;
	if (source_kind(kind, &source) < 0)
		return diag_set(err, DIAG_DATA, path, 0, 0,
				"JSON member 'snapshots[0].source.kind' is not a capture kind");
	struct classes_snapshot *s = classes_capture_add(cap, source, 0);
	s->truncated = json_is_true(json_object_get(src, "truncated"));
	s->has_classes = true;
	classes = json_object_get(snap, "classes");
	if (classes) {
		if (!json_is_object(classes))
			return diag_set(err, DIAG_DATA, path, 0, 0,
					"JSON member 'snapshots[0].classes' is not an object");
		if (read_counts(classes, s, path, "snapshots[0].classes", err) < 0)
			return -1;
	} else if (read_query(snap, s, path, err) < 0) {
		return -1;
	}
	if (read_alloc(snap, s, path, err) < 0)
		return -1;
	note_selection(snap, s, path, notes);
	d = json_object_get(snap, "direct");
	if (d) {
		if (!json_is_object(d))
			return diag_set(err, DIAG_DATA, path, 0, 0,
					"JSON member 'snapshots[0].direct' is not an object");
		struct classes_snapshot *ds = classes_capture_add(direct, source, 0);
		memcpy(ds->alloc, s->alloc, sizeof(ds->alloc));
		memcpy(ds->alloc_present, s->alloc_present, sizeof(ds->alloc_present));
		return read_counts(d, ds, path, "snapshots[0].direct", err);
	}
	return 0;
}

int
classes_json_read(struct line_reader *r, struct classes_capture *cap,
		  struct classes_capture *direct, struct diag_list *notes, struct diag *err)
{
	json_t *root, *snaps;
	int rc = -1;
	if (json_doc_load_schema(r, CLASSES_SCHEMA, &root, err) < 0)
		return -1;
	if (json_doc_array(root, "snapshots", r->path, "", &snaps, err) < 0)
		goto out;
	if (json_array_size(snaps) != 1) {
		diag_set(err, DIAG_DATA, r->path, 0, 0,
			 "JSON member 'snapshots' holds %zu snapshots, not one",
			 json_array_size(snaps));
		goto out;
	}
	rc = read_snapshot(json_array_get(snaps, 0), cap, direct, r->path, notes, err);
out:
	json_decref(root);
	return rc;
}
