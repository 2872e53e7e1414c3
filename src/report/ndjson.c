#include "report/ndjson.h"

#include "report/jsontext.h"

json_t *
ndjson_row_new(const char *schema, const char *row, const char *source, const char *kind)
{
	json_t *o = json_object();
	json_object_set_new_nocheck(o, "schema", json_string_nocheck(schema));
	json_object_set_new_nocheck(o, "row", json_string_nocheck(row));
	json_object_set_new_nocheck(o, "source", json_text(source));
	json_object_set_new_nocheck(o, "kind", kind ? json_string_nocheck(kind) : json_null());
	return o;
}

void
ndjson_set(json_t *row, const char *key, json_t *v)
{
	json_object_set_new_nocheck(row, key, v);
}

json_t *
ndjson_text_or_null(const char *s)
{
	return s ? json_text(s) : json_null();
}

json_t *
ndjson_uint_or_null(bool has, uint64_t v)
{
	return has ? json_uint(v) : json_null();
}

int
ndjson_row_write(FILE *out, json_t *row)
{
	int rc = json_dumpf(row, out, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(row);
	if (rc < 0 || fputc('\n', out) == EOF || ferror(out))
		return -1;
	return 0;
}
