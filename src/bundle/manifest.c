#include "bundle/manifest.h"

#include "util/jsonstr.h"
#include "util/member_name.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int
too_large(const char *shown, struct diag *err)
{
	return diag_set(err, DIAG_DATA, shown, 0, 0, "too large for a bundle manifest");
}

int
manifest_read_fd(int fd, struct strbuf *out, const char *shown, struct diag *err)
{
	char buf[1 << 15];
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return diag_set(err, DIAG_NOINPUT, shown, 0, 0, "cannot read: %s",
					strerror(errno));
		if (n == 0)
			return 0;
		if (out->len + (size_t)n > BUNDLE_JSON_MAX)
			return too_large(shown, err);
		strbuf_add(out, buf, (size_t)n);
	}
}

int
manifest_read_arc(struct arc_reader *a, struct strbuf *out, const char *shown, struct diag *err)
{
	char buf[1 << 15];
	for (;;) {
		ssize_t n = arc_reader_read(a, buf, sizeof(buf), err);
		if (n < 0)
			return -1;
		if (n == 0)
			return 0;
		if (out->len + (size_t)n > BUNDLE_JSON_MAX)
			return too_large(shown, err);
		strbuf_add(out, buf, (size_t)n);
	}
}

json_t *
manifest_parse(const char *buf, size_t len, json_error_t *jerr)
{
	return json_loadb(buf, len, JSON_REJECT_DUPLICATES, jerr);
}

#define BUNDLE_KIND_NAME(id, name) [BUNDLE_KIND_##id] = #name,
static const char *const kind_names[BUNDLE_NKINDS] = { CAPTURE_KINDS(BUNDLE_KIND_NAME) };
#undef BUNDLE_KIND_NAME

const char *
bundle_kind_name(enum bundle_kind k)
{
	return k > BUNDLE_KIND_NONE && k < BUNDLE_NKINDS ? kind_names[k] : NULL;
}

bool
bundle_kind_known(const char *name)
{
	for (int k = 0; k < BUNDLE_NKINDS; k++)
		if (strcmp(kind_names[k], name) == 0)
			return true;
	return false;
}

static bool
schema_is(const json_t *root, const char *id)
{
	const json_t *schema = json_object_get(root, MK_SCHEMA);
	return json_is_string(schema) && strcmp(json_string_value(schema), id) == 0;
}

bool
manifest_is_bundle(const json_t *root)
{
	return schema_is(root, BUNDLE_SCHEMA);
}

bool
manifest_is_series(const json_t *root)
{
	return schema_is(root, BUNDLE_SERIES_SCHEMA);
}

bool
manifest_is_session(const json_t *root)
{
	return schema_is(root, BUNDLE_SESSION_SCHEMA);
}

static json_t *
new_with_schema(const char *id)
{
	json_t *root = json_object();
	json_object_set_new(root, MK_SCHEMA, json_string(id));
	return root;
}

json_t *
manifest_new(void)
{
	return new_with_schema(BUNDLE_SCHEMA);
}

json_t *
series_index_new(void)
{
	return new_with_schema(BUNDLE_SERIES_SCHEMA);
}

json_t *
session_index_new(void)
{
	return new_with_schema(BUNDLE_SESSION_SCHEMA);
}

static void
set_repeat_facts(json_t *o, const struct series_sample_facts *f)
{
	if (!f->iteration)
		return;
	json_object_set_new(o, MK_ITERATION, json_integer((json_int_t)f->iteration));
	json_object_set_new(o, MK_COMMAND_STATUS, json_integer(f->command_status));
}

json_t *
manifest_series_member(const struct series_sample_facts *f)
{
	json_t *o = json_pack("{s:I, s:I, s:I}", MK_INDEX, (json_int_t)f->index, MK_COUNT,
			      (json_int_t)f->count, MK_INTERVAL_S, (json_int_t)f->interval_s);
	set_repeat_facts(o, f);
	return o;
}

json_t *
series_index_sample(const struct series_sample_facts *f, const char *dir, const char *started_utc,
		    bool complete)
{
	json_t *o = json_pack("{s:I, s:s, s:s, s:b}", MK_INDEX, (json_int_t)f->index, MK_DIR, dir,
			      MK_STARTED_UTC, started_utc, MK_COMPLETE, complete);
	set_repeat_facts(o, f);
	return o;
}

int
manifest_dump(const json_t *root, struct strbuf *out)
{
	char *text = json_dumps(root, JSON_INDENT(2) | JSON_SORT_KEYS);
	if (!text)
		return -1;
	strbuf_addstr(out, text);
	strbuf_addch(out, '\n');
	free(text);
	return 0;
}

json_t *
manifest_record_new(const char *path, uint64_t bytes, const char sha256[SHA256_HEX_SIZE])
{
	json_t *rec = json_object();
	json_object_set_new(rec, MK_PATH, json_string_safe(path));
	json_object_set_new(rec, MK_BYTES, json_integer((json_int_t)bytes));
	json_object_set_new(rec, MK_SHA256, json_string(sha256));
	return rec;
}

bool
manifest_record_holds(const json_t *rec, const char sha256[SHA256_HEX_SIZE], uint64_t bytes)
{
	const json_t *sha = json_object_get(rec, MK_SHA256);
	const json_t *size = json_object_get(rec, MK_BYTES);
	return json_is_string(sha) && strcmp(json_string_value(sha), sha256) == 0 &&
	       json_is_integer(size) && json_integer_value(size) >= 0 &&
	       (uint64_t)json_integer_value(size) == bytes;
}

void
manifest_record_set(json_t *rec, const char sha256[SHA256_HEX_SIZE], uint64_t bytes)
{
	json_object_set_new(rec, MK_SHA256, json_string(sha256));
	json_object_set_new(rec, MK_BYTES, json_integer((json_int_t)bytes));
}

char *
manifest_record_path(const json_t *rec, const char **why)
{
	const json_t *path = json_object_get(rec, MK_PATH);
	if (!json_is_string(path)) {
		*why = "is missing";
		return NULL;
	}
	return member_name_normal(json_string_value(path), why);
}

bool
series_sample_dir_plain(const char *dir)
{
	const char *why;
	char *normal = member_name_normal(dir, &why);
	bool plain = normal && strcmp(normal, dir) == 0 && !strchr(dir, '/');
	free(normal);
	return plain;
}

void
listed_once_init(struct listed_once *l)
{
	strmap_init(&l->seen);
}

void
listed_once_release(struct listed_once *l)
{
	strmap_release(&l->seen);
}

/* Was `id` seen before? Adds it when not. */
static bool
seen_before(struct listed_once *l, const char *id, size_t len)
{
	bool created;
	strmap_put(&l->seen, id, len, &created);
	return !created;
}

int
manifest_step_once(struct listed_once *l, const json_t *step, const char *given,
		   const char *shown, struct diag *err)
{
	const json_t *id = json_object_get(step, MK_ID);
	if (!json_is_string(id) || !seen_before(l, json_string_value(id), json_string_length(id)))
		return 0;
	return diag_set(err, DIAG_DATA, given, 0, 0, "%s lists the step '%s' twice (a bundle "
			"iotally wrote lists each step once)", shown, json_string_value(id));
}

int
series_sample_once(struct listed_once *l, const char *dir, size_t index, const char *given,
		   struct diag *err)
{
	if (!seen_before(l, dir, strlen(dir)))
		return 0;
	return diag_set(err, DIAG_DATA, given, 0, 0, "%s lists the sample '%s' twice (samples[%zu])",
			BUNDLE_SERIES_INDEX, dir, index);
}
