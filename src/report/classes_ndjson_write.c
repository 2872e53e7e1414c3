#include "report/classes_ndjson_write.h"

#include "report/jsontext.h"
#include "report/ndjson.h"

/* The keys every row has, up to the snapshot's own; s NULL: the input row. */
static struct ndjson_row *
row_start(const char *row, const char *path, const char *status, const char *error,
	  size_t index, const struct classes_snapshot *s)
{
	struct ndjson_row *o = ndjson_row_new(CLASSES_NDJSON_SCHEMA, row, path, "classes");
	ndjson_set(o, "status", json_string_nocheck(status));
	ndjson_set(o, "error", ndjson_text_or_null(error));
	ndjson_set(o, "snapshot", ndjson_uint_or_null(s != NULL, index));
	ndjson_set(o, "format", s ? json_string_nocheck(classes_source_name(s->source))
				  : json_null());
	return o;
}

/* class and count; how many classes and the allocation totals of the snapshot row. */
static void
set_rest(struct ndjson_row *o, const struct class_count *c, const struct classes_snapshot *alloc,
	 json_t *count, json_t *classes)
{
	ndjson_set(o, "class", c ? json_textn(c->name, c->len) : json_null());
	ndjson_set(o, "count", count);
	ndjson_set(o, "classes", classes);
	for (int k = 0; k < ALLOC_KINDS; k++)
		ndjson_set(o, alloc_kind_name((enum alloc_kind)k), alloc && alloc->alloc_present[k]
					     ? json_integer((json_int_t)alloc->alloc[k])
					     : json_null());
}

int
classes_ndjson_write(FILE *out, const struct classes_ndjson_input *in)
{
	const char *status = in->s->truncated ? "partial" : "ok";
	struct ndjson_row *o = row_start("input", in->path, status, NULL, 0, NULL);
	set_rest(o, NULL, NULL, json_null(), json_null());
	if (ndjson_row_write(out, o) < 0)
		return -1;
	o = row_start("snapshot", in->path, status, NULL, in->index, in->s);
	set_rest(o, NULL, in->s, json_null(), json_uint(in->n));
	if (ndjson_row_write(out, o) < 0)
		return -1;
	for (size_t i = 0; i < in->n; i++) {
		const struct class_count *c = in->v[i];
		o = row_start("class", in->path, status, NULL, in->index, in->s);
		set_rest(o, c, NULL, c->state == CLASS_COUNT_OK ? json_integer((json_int_t)c->value)
								: json_null(),
			 json_null());
		if (ndjson_row_write(out, o) < 0)
			return -1;
	}
	return 0;
}

int
classes_ndjson_write_error(FILE *out, const char *path, const char *error)
{
	struct ndjson_row *o = row_start("input", path, "error", error, 0, NULL);
	set_rest(o, NULL, NULL, json_null(), json_null());
	return ndjson_row_write(out, o);
}
