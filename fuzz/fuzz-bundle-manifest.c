/*
 * libFuzzer harness: bundle manifests (manifest.json, series.json) read by
 * bundle_open() into the bundle model. bundle_open() reads files, so each
 * input is written into a folder bundle in a private scratch folder: once
 * as B/manifest.json, once as a series S/series.json whose sample "a"
 * holds the same bytes as its manifest. Checks what the model promises:
 * every capture's member is in normal form under the member-name rule
 * (relative, no ".." component, no "//" or "/./"), every note has a step
 * and status, and the samples are in time order.
 *
 * The same bytes go to the bundle format's own functions (bundle/manifest.h)
 * too: a manifest parsed, written back and parsed again is the same JSON,
 * every file record's path it takes is in normal form, and the
 * listed-once rule refuses a step only when its id was seen before.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bundle/manifest.h"
#include "fuzz-scratch.h"
#include "ingest/bundle.h"
#include "util/linereader.h"
#include "util/member_name.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_bundle(const struct bundle *b)
{
	for (size_t i = 0; i < b->ncaptures; i++) {
		const struct bundle_capture *c = &b->captures[i];
		FUZZ_CHECK(c->kind && c->step && c->member && c->path);
		const char *why;
		char *normal = member_name_normal(c->member, &why);
		FUZZ_CHECK(normal && strcmp(normal, c->member) == 0);
		free(normal);
		FUZZ_CHECK(bundle_capture_of_kind(b, c->kind) != NULL);
	}
	for (size_t i = 0; i < b->nmissed; i++)
		FUZZ_CHECK(b->missed[i].step && b->missed[i].status &&
		       strcmp(b->missed[i].status, "ok") != 0);
	for (size_t i = 0; i < b->nsamples; i++) {
		check_bundle(&b->samples[i]);
		if (i > 0 && b->samples[i - 1].started_utc && b->samples[i].started_utc)
			FUZZ_CHECK(strcmp(b->samples[i - 1].started_utc, b->samples[i].started_utc) <= 0);
	}
}

static void
open_one(const char *path)
{
	struct bundle b;
	struct diag err;
	if (bundle_open(path, &b, &err) == 0)
		check_bundle(&b);
	else
		FUZZ_CHECK(err.code != 0 && err.msg[0]);
	bundle_release(&b);
	line_reader_unmap_all();
}

/* A record's path taken by the rule is in normal form: normalising it again changes nothing. */
static void
check_record(const json_t *rec)
{
	const char *why = NULL;
	char *path = manifest_record_path(rec, &why);
	if (!path) {
		FUZZ_CHECK(why && why[0]);
		return;
	}
	char *again = member_name_normal(path, &why);
	FUZZ_CHECK(again && strcmp(again, path) == 0);
	free(again);
	free(path);
}

static void
check_format(const uint8_t *data, size_t size)
{
	json_error_t jerr;
	json_t *root = manifest_parse((const char *)data, size, &jerr);
	if (!root)
		return;
	struct strbuf text = STRBUF_INIT;
	FUZZ_CHECK(manifest_dump(root, &text) == 0);
	json_t *again = manifest_parse(text.buf, text.len, &jerr);
	FUZZ_CHECK(again && json_equal(root, again));
	FUZZ_CHECK(manifest_is_bundle(root) == manifest_is_bundle(again));
	json_decref(again);
	strbuf_release(&text);

	struct listed_once ids;
	struct diag err;
	size_t i;
	const json_t *step;
	listed_once_init(&ids);
	json_array_foreach(json_object_get(root, "steps"), i, step) {
		check_record(json_object_get(step, "stdout"));
		check_record(json_object_get(step, "stderr"));
		/* The truth, by comparing with every step before (the first 64 only: quadratic). */
		const json_t *id = json_object_get(step, "id");
		const json_t *steps = json_object_get(root, "steps");
		bool before = false;
		for (size_t k = 0; k < i && i < 64 && json_is_string(id) && !before; k++) {
			const json_t *o = json_object_get(json_array_get(steps, k), "id");
			before = json_is_string(o) && json_equal(o, id);
		}
		int rc = manifest_step_once(&ids, step, "B", BUNDLE_MANIFEST, &err);
		if (i < 64)
			FUZZ_CHECK((rc < 0) == before);
		FUZZ_CHECK(rc == 0 || err.code == DIAG_DATA);
		if (rc < 0)
			break;
	}
	listed_once_release(&ids);
	json_decref(root);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char bundle[96], manifest[128], series[96], index[128], sample[128], smanifest[160];
	if (!bundle[0]) {
		scratch_path(bundle, sizeof(bundle), "B");
		scratch_path(series, sizeof(series), "S");
		snprintf(manifest, sizeof(manifest), "%s/manifest.json", bundle);
		snprintf(index, sizeof(index), "%s/series.json", series);
		snprintf(sample, sizeof(sample), "%s/a", series);
		snprintf(smanifest, sizeof(smanifest), "%s/manifest.json", sample);
		if (mkdir(bundle, 0700) != 0 || mkdir(series, 0700) != 0 || mkdir(sample, 0700) != 0)
			abort();
	}
	check_format(data, size);
	scratch_write(manifest, data, size);
	open_one(bundle);
	scratch_write(index, data, size);
	scratch_write(smanifest, data, size);
	open_one(series);
	return 0;
}
