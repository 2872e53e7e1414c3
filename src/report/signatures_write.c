#include "report/signatures_write.h"

#include "report/jsontext.h"
#include "report/ndjson.h"
#include "report/texttable.h"
#include "util/size.h"
#include "util/strbuf.h"

#include <stdint.h>
#include <string.h>

static json_int_t
clamp(uint64_t v)
{
	return v > INT64_MAX ? INT64_MAX : (json_int_t)v;
}

/* "a, b, c" of a list; "-" when empty. */
static void
join(struct strbuf *sb, const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		strbuf_addf(sb, "%s%s", i ? ", " : "", v[i]);
	if (n == 0)
		strbuf_addch(sb, '-');
}

static void
examples(struct strbuf *sb, const struct signature_bucket *b,
	 const struct signature_record *recs)
{
	size_t n = b->count < SIGNATURES_EXAMPLES ? b->count : SIGNATURES_EXAMPLES;
	for (size_t i = 0; i < n; i++)
		strbuf_addf(sb, "%s%s", i ? ", " : "", recs[b->members[i]].name);
	if (b->count > n)
		strbuf_addf(sb, " (+%zu)", b->count - n);
}

/* The median growth: bytes when the bucket's signature counts bytes, else a count. */
static void
growth(struct strbuf *sb, const struct signature_bucket *b)
{
	char s[32];
	if (b->median_bytes) {
		size_format_binary(b->median_bytes, s);
		strbuf_addf(sb, "+%s", s);
	} else {
		strbuf_addf(sb, "+%llu", (unsigned long long)b->median_count);
	}
}

void
signatures_write_text(FILE *out, const struct signature_buckets *b,
		      const struct signature_record *recs, bool markdown)
{
	static const char *const headers[] = {
		"COUNT", "ID", "SIGNATURE", "MEDIAN GROWTH", "OS VERSIONS", "MACHINES",
		"FIRST", "LAST", "EXAMPLES",
	};
	fprintf(out, "%s%zu pair%s: %zu with growth in %zu bucket%s, %zu without growth, %zu "
		"could not be compared (rule " SIGNATURE_RULE ")%s\n\n",
		markdown ? "**iotally signatures:** " : "iotally signatures: ", b->records,
		b->records == 1 ? "" : "s", b->grew, b->n, b->n == 1 ? "" : "s", b->no_growth,
		b->failed, b->partial ? "; partial: an input could not be read to its end" : "");
	if (b->n == 0)
		return;
	struct text_table t;
	text_table_init(&t, 9, headers, "rllrlllll");
	for (size_t i = 0; i < b->n; i++) {
		const struct signature_bucket *k = &b->b[i];
		struct strbuf sb = STRBUF_INIT;
		text_table_addf(&t, "%zu", k->count);
		text_table_add(&t, k->first_record->id);
		text_table_add(&t, k->first_record->label);
		growth(&sb, k);
		text_table_add(&t, sb.buf);
		strbuf_reset(&sb);
		join(&sb, k->os_versions, k->nos);
		text_table_add(&t, sb.buf);
		strbuf_reset(&sb);
		join(&sb, k->machines, k->nmachines);
		text_table_add(&t, sb.buf);
		text_table_add(&t, k->first ? k->first : "-");
		text_table_add(&t, k->last ? k->last : "-");
		strbuf_reset(&sb);
		examples(&sb, k, recs);
		text_table_add(&t, sb.buf);
		strbuf_release(&sb);
	}
	text_table_write(out, &t, markdown);
	text_table_release(&t);
}

static json_t *
text_array(const char *const *v, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_text(v[i]));
	return a;
}

static json_t *
text_or_null(const char *s)
{
	return s ? json_text(s) : json_null();
}

int
signatures_write_json(FILE *out, const struct signature_buckets *b,
		      const struct signature_record *recs)
{
	json_t *root = json_document_new(SIGNATURES_SCHEMA), *arr = json_array();
	json_object_set_new_nocheck(root, "rule", json_string_nocheck(SIGNATURE_RULE));
	json_object_set_new_nocheck(root, "pairs", json_integer(clamp(b->records)));
	json_object_set_new_nocheck(root, "grew", json_integer(clamp(b->grew)));
	json_object_set_new_nocheck(root, "no_growth", json_integer(clamp(b->no_growth)));
	json_object_set_new_nocheck(root, "failed", json_integer(clamp(b->failed)));
	json_object_set_new_nocheck(root, "partial", json_boolean(b->partial));
	for (size_t i = 0; i < b->n; i++) {
		const struct signature_bucket *k = &b->b[i];
		const struct signature_record *r = k->first_record;
		json_t *o = json_object(), *ex = json_array();
		json_object_set_new_nocheck(o, "id", json_string_nocheck(r->id));
		json_object_set_new_nocheck(o, "rule", json_text(r->rule));
		json_object_set_new_nocheck(o, "label", json_text(r->label));
		json_object_set_new_nocheck(o, "canonical", text_or_null(r->canonical));
		json_object_set_new_nocheck(o, "count", json_integer(clamp(k->count)));
		size_t n = k->count < SIGNATURES_EXAMPLES ? k->count : SIGNATURES_EXAMPLES;
		for (size_t j = 0; j < n; j++)
			json_array_append_new(ex, json_text(recs[k->members[j]].name));
		json_object_set_new_nocheck(o, "examples", ex);
		json_object_set_new_nocheck(o, "os_versions", text_array(k->os_versions, k->nos));
		json_object_set_new_nocheck(o, "machines", text_array(k->machines, k->nmachines));
		json_object_set_new_nocheck(o, "first", text_or_null(k->first));
		json_object_set_new_nocheck(o, "last", text_or_null(k->last));
		json_object_set_new_nocheck(o, "median_growth_bytes", json_integer(clamp(k->median_bytes)));
		json_object_set_new_nocheck(o, "median_growth_count", json_integer(clamp(k->median_count)));
		json_array_append_new(arr, o);
	}
	json_object_set_new_nocheck(root, "buckets", arr);
	return json_document_write(out, root);
}

int
signatures_write_ndjson(FILE *out, const struct signature_record *recs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct signature_record *r = &recs[i];
		struct ndjson_row *o = ndjson_row_new(SIGNATURES_NDJSON_SCHEMA, "pair",
					   r->after ? r->after : r->name, r->kind);
		ndjson_set(o, "baseline", ndjson_text_or_null(r->before));
		ndjson_set(o, "pair", ndjson_text_or_null(r->name));
		ndjson_set(o, "status", json_string_nocheck(r->error ? "error" : "ok"));
		ndjson_set(o, "error", ndjson_text_or_null(r->error));
		ndjson_set(o, "grew", json_boolean(r->grew));
		ndjson_set(o, "signature_id", r->grew ? json_string_nocheck(r->id) : json_null());
		ndjson_set(o, "signature_label", ndjson_text_or_null(r->grew ? r->label : NULL));
		ndjson_set(o, "signature_rule", ndjson_text_or_null(r->grew ? r->rule : NULL));
		ndjson_set(o, "signature", ndjson_text_or_null(r->grew ? r->canonical : NULL));
		ndjson_set(o, "growth_bytes", ndjson_uint_or_null(r->grew, r->growth_bytes));
		ndjson_set(o, "growth_count", ndjson_uint_or_null(r->grew, r->growth_count));
		ndjson_set(o, "os_version", ndjson_text_or_null(r->os_version));
		ndjson_set(o, "machine", ndjson_text_or_null(r->machine));
		ndjson_set(o, "captured", ndjson_text_or_null(r->captured));
		if (ndjson_row_write(out, o) < 0)
			return -1;
	}
	return 0;
}
