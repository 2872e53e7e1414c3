/*
 * NDJSON rows of signatures, read back one line at a time with jansson;
 * nothing is trusted until checked.
 */

#include "ingest/signature_rows_read.h"

#include "model/diff.h"
#include "util/xalloc.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

struct row_ctx {
	const char *path;
	uint64_t line;
	struct diag *err;
};

static int
bad(const struct row_ctx *c, const char *what, const char *key)
{
	return diag_set(c->err, DIAG_DATA, c->path, c->line, 0, "%s%s%s%s", what,
			key ? " '" : "", key ? key : "", key ? "'" : "");
}

/* A string member, or NULL when absent or null (allowed when `nullable`). */
static int
get_str(const struct row_ctx *c, const json_t *o, const char *key, bool nullable,
	const char **out)
{
	const json_t *v = json_object_get(o, key);
	*out = NULL;
	if (!v || json_is_null(v))
		return nullable ? 0 : bad(c, "row lacks the string", key);
	if (!json_is_string(v))
		return bad(c, "row has a non-string", key);
	if (strlen(json_string_value(v)) != json_string_length(v))
		return bad(c, "row has a NUL byte in", key);
	*out = json_string_value(v);
	return 0;
}

static int
get_u64(const struct row_ctx *c, const json_t *o, const char *key, uint64_t *out)
{
	const json_t *v = json_object_get(o, key);
	*out = 0;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return bad(c, "row has a negative or non-integer", key);
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

static bool
is_id(const char *s)
{
	if (strlen(s) != SIGNATURE_ID_DIGITS)
		return false;
	for (const char *p = s; *p; p++)
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
			return false;
	return true;
}

/* "iotsig/" and a version number. */
static bool
is_rule(const char *s)
{
	if (strncmp(s, "iotsig/", 7) != 0 || !s[7])
		return false;
	for (const char *p = s + 7; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	return true;
}

static char *
dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/*
 * Under the current rule a row must give its canonical text: the id is
 * checked against it and the label is made from it, so no row can name a
 * bucket other than its text says (a bucket's label is its first row's).
 * Rows of another rule are bucketed apart with the words they give.
 */
static int
check_current_rule(const struct row_ctx *c, const char *id, const char *canon, char **label)
{
	char want[SIGNATURE_ID_SIZE];
	if (!canon)
		return bad(c, "row lacks the string", "signature");
	if (signature_label_of(canon, label) < 0)
		return bad(c, "row's signature is not its rule followed by a component", NULL);
	signature_id_of(canon, want);
	if (strcmp(want, id) != 0) {
		free(*label);
		*label = NULL;
		return bad(c, "row's signature_id is not the id of its signature", NULL);
	}
	return 0;
}

/* The signature columns both schemas share. */
static int
read_signature(const struct row_ctx *c, const json_t *o, struct signature_record *rec)
{
	const char *id, *rule, *label, *canon = NULL;
	char *own_label = NULL;
	if (get_str(c, o, "signature_id", true, &id) < 0 ||
	    get_str(c, o, "signature_rule", true, &rule) < 0 ||
	    get_str(c, o, "signature_label", true, &label) < 0 ||
	    get_str(c, o, "signature", true, &canon) < 0)
		return -1;
	if (!id) {
		if (rule || label || canon)
			return bad(c, "row has a signature without", "signature_id");
		return 0;
	}
	if (!is_id(id))
		return bad(c, "row's signature_id is not 12 lowercase hex digits", NULL);
	if (!rule || !is_rule(rule))
		return bad(c, "row's signature_rule is not iotsig/N", NULL);
	if (!label)
		return bad(c, "row lacks the string", "signature_label");
	if (strcmp(rule, SIGNATURE_RULE) == 0 && check_current_rule(c, id, canon, &own_label) < 0)
		return -1;
	rec->grew = true;
	memcpy(rec->id, id, SIGNATURE_ID_SIZE);
	rec->rule = xstrdup(rule);
	rec->label = own_label ? own_label : xstrdup(label);
	rec->canonical = dup_or_null(canon);
	return 0;
}

static int
read_row(const struct row_ctx *c, const json_t *o, struct signature_record *rec, bool *skip)
{
	const char *schema, *row, *name, *before, *after, *kind, *status, *error;
	*skip = false;
	if (!json_is_object(o))
		return bad(c, "row is not a JSON object", NULL);
	if (get_str(c, o, "schema", false, &schema) < 0 || get_str(c, o, "row", false, &row) < 0)
		return -1;
	bool own = strcmp(schema, SIGNATURES_NDJSON_SCHEMA) == 0;
	if (!own && strcmp(schema, DIFF_NDJSON_SCHEMA) != 0)
		return diag_set(c->err, DIAG_DATA, c->path, c->line, 0,
				"row of schema '%.60s': signatures reads rows of %s or %s", schema,
				SIGNATURES_NDJSON_SCHEMA, DIFF_NDJSON_SCHEMA);
	if (strcmp(row, "pair") != 0) {
		if (own)
			return bad(c, "row is not a pair row", NULL);
		*skip = true;   /* a diff's change and gate rows */
		return 0;
	}
	if (get_str(c, o, "pair", true, &name) < 0 || get_str(c, o, "baseline", true, &before) < 0 ||
	    get_str(c, o, "source", false, &after) < 0 || get_str(c, o, "kind", true, &kind) < 0 ||
	    get_str(c, o, "status", false, &status) < 0 || get_str(c, o, "error", true, &error) < 0)
		return -1;
	if (strcmp(status, "ok") != 0 && strcmp(status, "error") != 0)
		return bad(c, "row's status is neither 'ok' nor 'error'", NULL);
	rec->name = dup_or_null(name ? name : after);
	rec->before = dup_or_null(before);
	rec->after = dup_or_null(after);
	rec->kind = dup_or_null(kind);
	if (strcmp(status, "error") == 0) {
		rec->error = xstrdup(error ? error : "not compared");
		return 0;
	}
	if (read_signature(c, o, rec) < 0)
		return -1;
	const char *os, *machine, *captured;
	if (get_str(c, o, "os_version", true, &os) < 0 ||
	    get_str(c, o, "machine", true, &machine) < 0 ||
	    get_str(c, o, "captured", true, &captured) < 0 ||
	    get_u64(c, o, "growth_bytes", &rec->growth_bytes) < 0 ||
	    get_u64(c, o, "growth_count", &rec->growth_count) < 0)
		return -1;
	rec->os_version = dup_or_null(os);
	rec->machine = dup_or_null(machine);
	rec->captured = dup_or_null(captured);
	return 0;
}

int
signature_rows_read(struct line_reader *r, const char *path, struct signature_record **recs,
		    size_t *n, size_t *alloc, struct diag *err)
{
	struct line ln;
	int rc;
	while ((rc = line_reader_next(r, &ln, err)) > 0) {
		struct row_ctx c = { path, ln.no, err };
		size_t i = 0;
		while (i < ln.len && (ln.p[i] == ' ' || ln.p[i] == '\t'))
			i++;
		if (i == ln.len)
			continue;
		if (ln.overlong)
			return diag_set(err, DIAG_DATA, path, ln.no, 0,
					"row longer than %u bytes", SIGNATURE_ROW_MAX);
		json_error_t jerr;
		json_t *o = json_loadb(ln.p, ln.len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
		if (!o)
			return diag_set(err, DIAG_DATA, path, ln.no, 0, "not a JSON row: %.120s",
					jerr.text);
		struct signature_record rec;
		bool skip;
		memset(&rec, 0, sizeof(rec));
		rc = read_row(&c, o, &rec, &skip);
		json_decref(o);
		if (rc < 0) {
			signature_record_release(&rec);
			return -1;
		}
		if (skip)
			continue;
		*recs = xgrow(*recs, alloc, *n + 1, sizeof(**recs));
		(*recs)[(*n)++] = rec;
	}
	return rc;
}
