#ifndef IOTALLY_INGEST_BUNDLE_H
#define IOTALLY_INGEST_BUNDLE_H

/*
 * Reading capture bundles written by `iotally capture` (docs/capture.md):
 * a directory holding `manifest.json` (schema iotally.bundle/1) and the raw
 * outputs of the tools it ran, or a series directory holding `series.json`
 * (schema iotally.series/1) and one such bundle per sample; either may also
 * come packed as a tar or tar.gz file (`--archive`).
 *
 * A bundle lists its captures: the step outputs that an iotally command
 * reads (kind "vmmap", "classes" or "track"). Each capture's `path` opens
 * with line_reader_open() like any file: for a directory it is the file
 * itself, for an archive a name of the form "ARCHIVE:MEMBER" that
 * bundle_open() maps onto the archive member (line_reader_map_member()).
 *
 * Everything a struct bundle points to is owned by it and freed by
 * bundle_release(). Nothing here prints.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* BUNDLE_SCHEMA, BUNDLE_SERIES_SCHEMA, BUNDLE_MANIFEST, BUNDLE_SERIES_INDEX */
#include "bundle/manifest.h"
#include "util/diag.h"
#include "util/sha256.h"

struct bundle_capture {
	char *kind;        /* "vmmap", "classes", "track" */
	char *step;        /* the step that wrote it: "target.vmmap" */
	char *member;      /* its path inside the bundle: "target/vmmap.txt" */
	char *path;        /* what to open: "B/target/vmmap.txt" or "B.tar.gz:top/target/vmmap.txt" */
	uint64_t bytes;    /* as recorded in the manifest */
	char sha256[SHA256_HEX_SIZE];  /* as recorded; "" when the manifest has none */
	char *archive;         /* archive bundles: the archive file, else NULL */
	char *archive_member;  /* archive bundles: the member's full name in it */
	char *started_utc; /* when its step started ("2026-11-29T10:15:30Z"), or NULL */
};

/* A step that did not give its capture: failed, denied, target-gone, timeout, skipped. */
struct bundle_step_note {
	char *step;        /* "target.vmmap" */
	char *kind;        /* the capture kind it would have given, or NULL */
	char *status;      /* "denied" */
	char *reason;      /* the tool's own message or why it was skipped, or NULL */
};

struct bundle {
	char *path;            /* as given */
	bool archive;          /* a tar or tar.gz file */
	bool series;           /* a series: see samples */
	bool repeat;           /* a series of `capture --repeat`: its samples are iterations */
	bool complete;         /* manifest "complete" (series: every sample written) */
	char *started_utc;     /* "2026-11-30T06:00:00Z" */
	char *finished_utc;    /* NULL when not recorded */
	char *iotally_version; /* the iotally that wrote it, or NULL */
	/* Host facts the manifest records (NULL when the tool gave nothing). */
	char *host_model, *host_os_version, *host_os_build, *host_kernel_variant;
	bool redaction_enabled;     /* "redaction": {"enabled": true} */
	uint64_t redaction_hits;    /* every rule's hits added up */
	size_t nsteps;              /* steps the manifest lists */
	char *target_name;     /* NULL: a system-wide capture */
	int64_t target_pid;    /* -1: none */
	struct bundle_capture *captures;   /* in manifest step order */
	size_t ncaptures;
	struct bundle_step_note *missed;   /* steps whose status is not "ok", in step order */
	size_t nmissed, missed_alloc;
	struct bundle *samples;            /* series only: in time order */
	size_t nsamples;
	char *archive_top;     /* archive only: member prefix ("top/"), or "" */
};

/*
 * Is `path` a bundle or a series (directory or archive)? Looks for the
 * manifest or the series index; reads the start of a file to tell a tar
 * archive from a capture.
 */
bool bundle_path_is_bundle(const char *path);

/*
 * Read the manifest (or the series index and every sample's manifest).
 * DIAG_NOINPUT: cannot be opened; DIAG_DATA: not a bundle, or a manifest
 * that does not follow the schema (the member is named). On failure *b
 * holds nothing: bundle_release() on it is harmless, not needed.
 */
int bundle_open(const char *path, struct bundle *b, struct diag *err);

/* The first capture of `kind` in step order (the manifest orders steps by preference), or NULL. */
const struct bundle_capture *bundle_capture_of_kind(const struct bundle *b, const char *kind);

/*
 * Check a capture's bytes against the manifest's sha256 and size. A
 * mismatch is a warning that names the file (it was changed after the
 * capture); the capture is still readable. -1 only when it cannot be read.
 */
int bundle_verify_capture(const struct bundle_capture *c, struct diag_list *warnings,
			  struct diag *err);

/* The first step note of `kind` (why that capture is missing), or NULL. */
const struct bundle_step_note *bundle_missed_of_kind(const struct bundle *b, const char *kind);

void bundle_release(struct bundle *b);

#endif
