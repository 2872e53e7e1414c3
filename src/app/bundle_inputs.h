#ifndef IOTALLY_APP_BUNDLE_INPUTS_H
#define IOTALLY_APP_BUNDLE_INPUTS_H

/*
 * Capture bundles (ingest/bundle.h) given where a command takes a capture:
 * which of their captures stands for the operand, checked against the
 * manifest's sha256 (a mismatch is a warning naming the file). The bundles
 * opened for one command run stay open in a struct app_bundles until
 * app_bundles_release(), because the paths handed out point into them.
 * Nothing here prints: warnings go to a diag_list, errors to a struct diag.
 */

#include <stdbool.h>
#include <stddef.h>

#include "util/diag.h"

struct bundle;

struct app_bundles {
	struct bundle **v;
	size_t n, alloc;
};

void app_bundles_init(struct app_bundles *bs);
void app_bundles_release(struct app_bundles *bs);

/*
 * Open the bundle at `path` and keep it in `bs` (a path opened before in
 * `bs` gives the same bundle, read once); NULL with *err set.
 */
struct bundle *app_bundles_open(struct app_bundles *bs, const char *path, struct diag *err);

/* The warning said of a bundle that did not complete, added to `warnings`. */
void app_bundle_warn_partial(const struct bundle *b, struct diag_list *warnings);

/*
 * The capture of `kind` that bundle operand `path` stands for (*capture:
 * its path, valid while `bs` is). 0; -1 with *err: DIAG_USAGE for a series,
 * DIAG_NOINPUT when the bundle holds no such capture, the manifest's error
 * when it cannot be read. A bundle that did not complete, and a capture
 * that does not match its manifest, are warnings in `warnings`.
 */
int app_bundle_operand(const char *kind, const char *path, struct app_bundles *bs,
		       const char **capture, struct diag_list *warnings, struct diag *err);

/*
 * Every operand of argv[1..argc) that is a bundle replaced by the path of
 * its capture of `kind` (app_bundle_operand(); options, which start with
 * '-', are left). 0; -1 with *err at the first that fails. What checking
 * the bundles found goes to `warnings`.
 */
int app_bundle_operands(const char *kind, int argc, char **argv, struct app_bundles *bs,
			struct diag_list *warnings, struct diag *err);

/* One `iotally trend` input a bundle operand stands for. */
struct app_bundle_input {
	const char *path;        /* a capture's path; the sample folder when it gives none */
	const char *time;        /* the manifest's start time ("2026-11-30T06:00:00Z"), or NULL */
	char *missing;           /* why the sample gives no capture (owned), or NULL */
	char *sample;            /* the sample's name when it gives none (owned; `path`) */
};

struct app_bundle_inputs {
	struct app_bundle_input *v;
	size_t n, alloc;
};

/*
 * Add the inputs of `iotally trend` that operand `path` stands for: a bundle
 * or a series becomes its captures of one kind (a series: one per sample,
 * in time order), each checked against its manifest; another operand stays
 * as it is. The kind is *kind (trend --kind), or when NULL the first kind
 * of the registry (app/kind.h) that the first bundle holds, then kept in
 * *kind for the next operands. 0; -1 with *err.
 */
int app_bundle_trend_inputs_add(struct app_bundle_inputs *out, const char *path,
				const char **kind, struct app_bundles *bs,
				struct diag_list *warnings, struct diag *err);
void app_bundle_inputs_release(struct app_bundle_inputs *in);

#endif
