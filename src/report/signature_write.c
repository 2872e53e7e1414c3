#include "report/signature_write.h"

#include "report/jsontext.h"
#include "report/ndjson.h"
#include "report/report_md_write.h"
#include "util/escape.h"

#include <stdint.h>

/* Growth saturates in the model; JSON integers stop at 2^63 - 1. */
static json_int_t
json_clamp(uint64_t v)
{
	return v > INT64_MAX ? INT64_MAX : (json_int_t)v;
}

void
signature_line_add(struct strbuf *sb, const struct signature *s, bool markdown)
{
	if (!s || !signature_has(s))
		return;
	if (markdown) {
		strbuf_addf(sb, "**Signature:** `%s` ", s->id);
		report_md_escape(s->label, 0, sb);
		strbuf_addstr(sb, " (" SIGNATURE_RULE ")\n\n");
		return;
	}
	strbuf_addf(sb, "Signature: %s  ", s->id);
	escape_addstr(sb, s->label);
	strbuf_addstr(sb, " (" SIGNATURE_RULE ")\n\n");
}

json_t *
signature_json(const struct signature *s)
{
	if (!s || !signature_has(s))
		return json_null();
	json_t *o = json_object(), *comps = json_array();
	json_object_set_new_nocheck(o, "id", json_string_nocheck(s->id));
	json_object_set_new_nocheck(o, "rule", json_string_nocheck(SIGNATURE_RULE));
	json_object_set_new_nocheck(o, "label", json_text(s->label));
	json_object_set_new_nocheck(o, "canonical", json_text(s->canonical));
	json_object_set_new_nocheck(o, "growth_bytes", json_integer(json_clamp(s->growth_bytes)));
	json_object_set_new_nocheck(o, "growth_count", json_integer(json_clamp(s->growth_count)));
	for (size_t i = 0; i < s->n; i++) {
		const struct signature_component *c = &s->c[i];
		json_t *e = json_object();
		json_object_set_new_nocheck(e, "section",
					    json_string_nocheck(signature_section_name(c->section)));
		json_object_set_new_nocheck(e, "key", json_text(c->key));
		json_object_set_new_nocheck(e, "label", json_text(c->label));
		json_object_set_new_nocheck(e, "bytes", json_integer(json_clamp(c->bytes)));
		json_object_set_new_nocheck(e, "count", json_integer(json_clamp(c->count)));
		json_array_append_new(comps, e);
	}
	json_object_set_new_nocheck(o, "components", comps);
	return o;
}

void
signature_ndjson_set(struct ndjson_row *row, const struct signature *s)
{
	bool has = s && signature_has(s);
	ndjson_set(row, "signature_id", has ? json_string_nocheck(s->id) : json_null());
	ndjson_set(row, "signature_label", has ? json_text(s->label) : json_null());
	ndjson_set(row, "signature_rule", has ? json_string_nocheck(SIGNATURE_RULE) : json_null());
	/* The canonical text, so that `iotally signatures` can check the id it reads back. */
	ndjson_set(row, "signature", has ? json_text(s->canonical) : json_null());
}
