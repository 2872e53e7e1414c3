#include "report/classes_ndjson_write.h"

#include "report/ndjson.h"

/* The keys every row has, up to the snapshot's own; s NULL: the input row. */
static struct ndjson_row *
row_start(const char *row, const struct ndjson_source *src, const char *status, const char *error,
	  size_t index, const struct classes_snapshot *s)
{
	struct ndjson_row *o = ndjson_row_new_at(CLASSES_NDJSON_SCHEMA, row, src, "classes");
	ndjson_set_text(o, "status", status);
	ndjson_set_text(o, "error", error);
	ndjson_set_uint(o, "snapshot", s != NULL, index);
	ndjson_set_text(o, "format", s ? classes_source_name(s->source) : NULL);
	return o;
}

/*
 * class and count (null unless has_count); how many classes (null unless
 * has_classes) and the allocation totals of the snapshot row. Written
 * straight into the row (report/ndjson.h's typed setters): no jansson value
 * per key, a dozen keys a class row.
 */
static void
set_rest(struct ndjson_row *o, const struct class_count *c, const struct classes_snapshot *alloc,
	 bool has_count, int64_t count, bool has_classes, uint64_t classes)
{
	if (c)
		ndjson_set_textn(o, "class", c->name, c->len);
	else
		ndjson_set_null(o, "class");
	ndjson_set_int(o, "count", has_count, count);
	ndjson_set_uint(o, "classes", has_classes, classes);
	for (int k = 0; k < ALLOC_KINDS; k++)
		ndjson_set_int(o, alloc_kind_name((enum alloc_kind)k),
			       alloc && alloc->alloc_present[k], (int64_t)(alloc ? alloc->alloc[k] : 0));
}

int
classes_ndjson_write(FILE *out, const struct classes_ndjson_input *in)
{
	const char *status = in->s->truncated ? "partial" : "ok";
	struct ndjson_row *o = row_start("input", in->src, status, NULL, 0, NULL);
	set_rest(o, NULL, NULL, false, 0, false, 0);
	if (ndjson_row_write(out, o) < 0)
		return -1;
	o = row_start("snapshot", in->src, status, NULL, in->index, in->s);
	set_rest(o, NULL, in->s, false, 0, true, in->n);
	if (ndjson_row_write(out, o) < 0)
		return -1;
	for (size_t i = 0; i < in->n; i++) {
		const struct class_count *c = in->v[i];
		o = row_start("class", in->src, status, NULL, in->index, in->s);
		set_rest(o, c, NULL, c->state == CLASS_COUNT_OK, (int64_t)c->value, false, 0);
		if (ndjson_row_write(out, o) < 0)
			return -1;
	}
	return 0;
}

int
classes_ndjson_write_error(FILE *out, const struct ndjson_source *src, const char *error)
{
	struct ndjson_row *o = row_start("input", src, "error", error, 0, NULL);
	set_rest(o, NULL, NULL, false, 0, false, 0);
	return ndjson_row_write(out, o);
}
