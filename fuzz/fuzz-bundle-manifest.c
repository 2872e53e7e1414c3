/*
 * libFuzzer harness: bundle manifests (manifest.json, series.json) read by
 * bundle_open() into the bundle model. bundle_open() reads files, so each
 * input is written into a folder bundle in a private scratch folder: once
 * as B/manifest.json, once as a series S/series.json whose sample "a"
 * holds the same bytes as its manifest. Checks what the model promises:
 * every capture's member is relative and has no "..", every note has a
 * step and status, and the samples are in time order.
 */

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz-scratch.h"
#include "ingest/bundle.h"
#include "util/linereader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_bundle(const struct bundle *b)
{
	for (size_t i = 0; i < b->ncaptures; i++) {
		const struct bundle_capture *c = &b->captures[i];
		FUZZ_CHECK(c->kind && c->step && c->member && c->path);
		FUZZ_CHECK(c->member[0] != '/' && !strstr(c->member, ".."));
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
	scratch_write(manifest, data, size);
	open_one(bundle);
	scratch_write(index, data, size);
	scratch_write(smanifest, data, size);
	open_one(series);
	return 0;
}
