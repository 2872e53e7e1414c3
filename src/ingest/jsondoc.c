#include "ingest/jsondoc.h"

#include "util/size.h"
#include "util/strbuf.h"

#include <string.h>

int
json_doc_load(struct line_reader *r, json_t **root, struct diag *err)
{
	struct strbuf text = STRBUF_INIT;
	struct line ln;
	json_error_t jerr;
	int rc;

	*root = NULL;
	while ((rc = line_reader_next(r, &ln, err)) > 0) {
		if (ln.has_nul || ln.overlong) {
			rc = diag_set(err, DIAG_DATA, r->path, ln.no, 0, "%s in a JSON document",
				      ln.has_nul ? "NUL byte" : "line longer than 1 MiB");
			goto out;
		}
		strbuf_add(&text, ln.p, ln.len);
		strbuf_addch(&text, '\n');
	}
	if (rc < 0)
		goto out;
	*root = json_loadb(text.buf, text.len, JSON_REJECT_DUPLICATES, &jerr);
	if (!*root) {
		rc = diag_set(err, DIAG_DATA, r->path, (uint64_t)(jerr.line > 0 ? jerr.line : 0),
			      (uint64_t)(jerr.column > 0 ? jerr.column : 0),
			      "not valid JSON: %s", jerr.text);
		goto out;
	}
	if (!json_is_object(*root)) {
		json_decref(*root);
		*root = NULL;
		rc = diag_set(err, DIAG_DATA, r->path, 0, 0, "the JSON document is not an object");
		goto out;
	}
	rc = 0;
out:
	strbuf_release(&text);
	return rc;
}

const char *
json_doc_schema(const json_t *root)
{
	return json_string_value(json_object_get(root, "schema"));
}

int
json_doc_load_schema(struct line_reader *r, const char *schema, json_t **root,
		     struct diag *err)
{
	if (json_doc_load(r, root, err) < 0)
		return -1;
	const char *have = json_doc_schema(*root);
	if (have && strcmp(have, schema) == 0)
		return 0;
	diag_set(err, DIAG_DATA, r->path, 0, 0, "schema '%s' is not '%s'",
		 have ? have : "(none)", schema);
	json_decref(*root);
	*root = NULL;
	return -1;
}

static int
bad(const char *path, const char *where, const char *key, const char *what, struct diag *err)
{
	return diag_set(err, DIAG_DATA, path, 0, 0, "JSON member '%s%s%s' %s", where,
			*where ? "." : "", key, what);
}

int
json_doc_i64(const json_t *obj, const char *key, const char *path, const char *where,
	     int64_t *out, struct diag *err)
{
	const json_t *v = json_object_get(obj, key);
	if (!json_is_integer(v))
		return bad(path, where, key, v ? "is not an integer" : "is missing", err);
	*out = (int64_t)json_integer_value(v);
	return 0;
}

int
json_doc_u64(const json_t *obj, const char *key, const char *path, const char *where,
	     uint64_t *out, struct diag *err)
{
	int64_t v;
	if (json_doc_i64(obj, key, path, where, &v, err) < 0)
		return -1;
	if (v < 0)
		return bad(path, where, key, "is negative", err);
	*out = (uint64_t)v;
	return 0;
}

int
json_doc_str(const json_t *obj, const char *key, const char *path, const char *where,
	     bool nullable, const char **out, size_t *len, struct diag *err)
{
	const json_t *v = json_object_get(obj, key);
	*out = NULL;
	if (len)
		*len = 0;
	if (nullable && json_is_null(v))
		return 0;
	if (!json_is_string(v))
		return bad(path, where, key, v ? "is not a string" : "is missing", err);
	*out = json_string_value(v);
	if (len)
		*len = json_string_length(v);
	return 0;
}

int
json_doc_hex(const json_t *obj, const char *key, const char *path, const char *where,
	     uint64_t *out, bool *present, struct diag *err)
{
	const char *s;
	size_t n;
	*present = false;
	*out = 0;
	if (json_doc_str(obj, key, path, where, true, &s, &n, err) < 0)
		return -1;
	if (!s)
		return 0;
	if (n < 3 || s[0] != '0' || s[1] != 'x' || parse_u64_hex(s + 2, n - 2, out) != SIZE_OK)
		return bad(path, where, key, "is not a '0x' hexadecimal number", err);
	*present = true;
	return 0;
}

int
json_doc_array(const json_t *obj, const char *key, const char *path, const char *where,
	       json_t **out, struct diag *err)
{
	json_t *v = json_object_get(obj, key);
	if (!json_is_array(v))
		return bad(path, where, key, v ? "is not an array" : "is missing", err);
	*out = v;
	return 0;
}

int
json_doc_object(const json_t *obj, const char *key, const char *path, const char *where,
		bool nullable, json_t **out, struct diag *err)
{
	json_t *v = json_object_get(obj, key);
	*out = NULL;
	if (nullable && json_is_null(v))
		return 0;
	if (!json_is_object(v))
		return bad(path, where, key, v ? "is not an object" : "is missing", err);
	*out = v;
	return 0;
}
