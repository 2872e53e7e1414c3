#include "report/classes_json_write.h"

#include "report/jsontext.h"

#include <jansson.h>
#include <string.h>

/* A count: the signed 32-bit counter, the 64-bit value as read when it is not one, or null. */
static json_t *
count_json(const struct class_count *c)
{
	if (c->state != CLASS_COUNT_OK)
		return json_null();
	return json_integer((json_int_t)c->value);
}

static json_t *
source_json(const struct classes_snapshot *s)
{
	json_t *o = json_object();
	json_object_set_new_nocheck(o, "kind", json_string_nocheck(classes_source_name(s->source)));
	json_object_set_new_nocheck(o, "line", s->line ? json_integer((json_int_t)s->line)
						       : json_null());
	json_object_set_new_nocheck(o, "hex", json_boolean(s->hex));
	json_object_set_new_nocheck(o, "query", json_boolean(s->query));
	json_object_set_new_nocheck(o, "truncated", json_boolean(s->truncated));
	return o;
}

static json_t *
allocation_json(const struct classes_snapshot *s)
{
	json_t *o = json_object();
	for (int k = 0; k < ALLOC_KINDS; k++)
		if (s->alloc_present[k])
			json_object_set_new_nocheck(o, alloc_kind_name((enum alloc_kind)k),
						    json_integer((json_int_t)s->alloc[k]));
	return o;
}

static json_t *
totals_json(const struct classes_snapshot *s, size_t selected)
{
	json_int_t classes = 0, nonzero = 0, negative = 0, unreadable = 0;
	for (size_t i = 0; i < s->nclasses; i++) {
		const struct class_count *c = &s->classes[i];
		int32_t v;
		if (c->state == CLASS_COUNT_ABSENT)
			continue;
		classes++;
		nonzero += class_count_is_nonzero(c);
		negative += class_count_is_negative(c);
		unreadable += !class_count_as_int32(c, &v);
	}
	json_t *o = json_object();
	json_object_set_new_nocheck(o, "classes", json_integer(classes));
	json_object_set_new_nocheck(o, "selected", json_integer((json_int_t)selected));
	json_object_set_new_nocheck(o, "nonzero", json_integer(nonzero));
	json_object_set_new_nocheck(o, "negative", json_integer(negative));
	json_object_set_new_nocheck(o, "unreadable", json_integer(unreadable));
	return o;
}

static json_t *
classes_map(const struct class_count *const *v, size_t n)
{
	json_t *o = json_object();
	for (size_t i = 0; i < n; i++) {
		json_t *name = json_textn(v[i]->name, v[i]->len);
		const char *key = json_is_string(name) ? json_string_value(name) : "";
		json_object_set_new(o, key, count_json(v[i]));
		json_decref(name);
	}
	return o;
}

static json_t *
query_json(const struct classes_snapshot *s, char *const *names, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++) {
		const struct class_count *c = classes_snapshot_find(s, names[i], strlen(names[i]));
		bool found = c && c->state != CLASS_COUNT_ABSENT;
		json_t *o = json_object();
		json_object_set_new_nocheck(o, "name", json_text(names[i]));
		json_object_set_new_nocheck(o, "found", json_boolean(found));
		json_object_set_new_nocheck(o, "count", found ? count_json(c) : json_null());
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *
direct_map(const struct hierarchy *h, const struct classes_snapshot *s,
	   const struct class_count *const *v, size_t n)
{
	json_t *o = json_object();
	for (size_t i = 0; i < n; i++) {
		size_t cls = hierarchy_find(h, v[i]->name, v[i]->len);
		int64_t direct;
		uint64_t live;
		if (cls == HIER_NONE || !hierarchy_direct_count(h, cls, s, &direct, &live))
			continue;
		json_t *name = json_textn(v[i]->name, v[i]->len);
		json_object_set_new(o, json_is_string(name) ? json_string_value(name) : "",
				    json_integer((json_int_t)direct));
		json_decref(name);
	}
	return o;
}

int
classes_json_write(FILE *out, const struct classes_snapshot *s,
		   const struct classes_json_opts *opts)
{
	json_t *root = json_document_new(CLASSES_SCHEMA), *src = json_object(), *snaps = json_array();
	json_t *snap = json_object();

	json_object_set_new_nocheck(src, "path", json_text(opts->path));
	json_object_set_new_nocheck(src, "snapshots", json_integer((json_int_t)opts->nsnapshots));
	json_object_set_new_nocheck(root, "source", src);

	json_object_set_new_nocheck(snap, "index", json_integer((json_int_t)opts->index));
	json_object_set_new_nocheck(snap, "source", source_json(s));
	if (opts->nquery)
		json_object_set_new_nocheck(snap, "query", query_json(s, opts->query, opts->nquery));
	else
		json_object_set_new_nocheck(snap, "classes", classes_map(opts->v, opts->n));
	if (opts->direct && !opts->nquery)
		json_object_set_new_nocheck(snap, "direct",
					    direct_map(opts->direct, s, opts->v, opts->n));
	json_object_set_new_nocheck(snap, "allocation", allocation_json(s));
	json_object_set_new_nocheck(snap, "totals", totals_json(s, opts->nquery ? 0 : opts->n));
	json_array_append_new(snaps, snap);
	json_object_set_new_nocheck(root, "snapshots", snaps);

	return json_document_write(out, root);
}
