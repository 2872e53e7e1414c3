#include "report/ndjson.h"

#include "report/jsontext.h"
#include "util/bytes.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

struct ndjson_row {
	struct strbuf sb;   /* "{" and the keys so far */
	const struct ndjson_source *src;   /* side and pair close the row; NULL: none */
};

/* A row of a vmmap dump is about 450 bytes: one allocation in most rows. */
#define ROW_START_BYTES 512

static void
key(struct ndjson_row *row, const char *k)
{
	if (row->sb.len > 1)
		strbuf_addch(&row->sb, ',');
	json_text_append(&row->sb, k, strlen(k));
	strbuf_addch(&row->sb, ':');
}

struct ndjson_row *
ndjson_row_new(const char *schema, const char *row, const char *source, const char *kind)
{
	struct ndjson_row *r = xmalloc(sizeof(*r));
	r->src = NULL;
	strbuf_init(&r->sb);
	strbuf_grow(&r->sb, ROW_START_BYTES);
	strbuf_addch(&r->sb, '{');
	ndjson_set_text(r, "schema", schema);
	ndjson_set_text(r, "row", row);
	ndjson_set_text(r, "source", source);
	ndjson_set_text(r, "kind", kind);
	return r;
}

struct ndjson_row *
ndjson_row_new_at(const char *schema, const char *row, const struct ndjson_source *src,
		  const char *kind)
{
	struct ndjson_row *r = ndjson_row_new(schema, row, src->path, kind);
	r->src = src;
	return r;
}

void
ndjson_set(struct ndjson_row *row, const char *k, json_t *v)
{
	if (!v)
		return;
	size_t flags = JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY;
	size_t n = json_dumpb(v, NULL, 0, flags);
	key(row, k);
	strbuf_grow(&row->sb, n);
	if (json_dumpb(v, row->sb.buf + row->sb.len, n, flags) == n)
		row->sb.len += n;
	row->sb.buf[row->sb.len] = '\0';
	json_decref(v);
}

void
ndjson_set_null(struct ndjson_row *row, const char *k)
{
	key(row, k);
	strbuf_add(&row->sb, "null", 4);
}

void
ndjson_set_bool(struct ndjson_row *row, const char *k, bool b)
{
	key(row, k);
	if (b)
		strbuf_add(&row->sb, "true", 4);
	else
		strbuf_add(&row->sb, "false", 5);
}

void
ndjson_set_textn(struct ndjson_row *row, const char *k, const char *s, size_t n)
{
	key(row, k);
	json_text_append(&row->sb, s, n);
}

void
ndjson_set_text(struct ndjson_row *row, const char *k, const char *s)
{
	if (s)
		ndjson_set_textn(row, k, s, strlen(s));
	else
		ndjson_set_null(row, k);
}

void
ndjson_set_uint(struct ndjson_row *row, const char *k, bool has, uint64_t v)
{
	if (!has) {
		ndjson_set_null(row, k);
		return;
	}
	assert(bytes_fit(v));   /* as json_uint() */
	key(row, k);
	strbuf_add_u64(&row->sb, v);
}

void
ndjson_set_int(struct ndjson_row *row, const char *k, bool has, int64_t v)
{
	if (!has) {
		ndjson_set_null(row, k);
		return;
	}
	key(row, k);
	strbuf_add_i64(&row->sb, v);
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
ndjson_row_write(FILE *out, struct ndjson_row *row)
{
	if (row->src) {
		ndjson_set_text(row, "side", row->src->side);
		ndjson_set_text(row, "pair", row->src->pair);
	}
	strbuf_add(&row->sb, "}\n", 2);
	bool ok = fwrite(row->sb.buf, 1, row->sb.len, out) == row->sb.len && !ferror(out);
	strbuf_release(&row->sb);
	free(row);
	return ok ? 0 : -1;
}
