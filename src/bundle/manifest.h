#ifndef IOTALLY_BUNDLE_MANIFEST_H
#define IOTALLY_BUNDLE_MANIFEST_H

/*
 * The bundle format's one owner (docs/json/bundle.schema.json,
 * docs/capture.md): the schema ids and file names, reading a manifest's
 * bytes (bounded), parsing and writing it, and the rules every reader and
 * the redaction rewriter apply to its contents. The writer
 * (capture/capture.c), the reader (ingest/bundle.c) and the rewriter
 * (capture/redact_tree.c) all go through here, so that a bundle one of
 * them takes is the bundle the others see.
 *
 * Nothing here prints: refusals are DIAG_DATA naming the bundle as given.
 */

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/arcread.h"
#include "util/capture_kinds.h"
#include "util/diag.h"
#include "util/hashmap.h"
#include "util/sha256.h"
#include "util/strbuf.h"

#define BUNDLE_SCHEMA "iotally.bundle/1"
#define BUNDLE_SERIES_SCHEMA "iotally.series/1"
#define BUNDLE_MANIFEST "manifest.json"
#define BUNDLE_SERIES_INDEX "series.json"
/* A tracking session (`capture --session`): its index and its three bundles' folders. */
#define BUNDLE_SESSION_SCHEMA "iotally.session/1"
#define BUNDLE_SESSION_INDEX "session.json"
#define BUNDLE_SESSION_BEFORE "before"
#define BUNDLE_SESSION_AFTER "after"
#define BUNDLE_SESSION_TRACKING "tracking"

/*
 * The field names of a bundle manifest, a series index and a session index
 * (docs/json/bundle.schema.json, series.schema.json, session.schema.json),
 * each spelled once: the writers (capture/), the readers (ingest/) and the
 * rewriter name a field only through these. One name may be a field of
 * several objects ("status" of a step and of a missed step).
 */
#define MK_ABORTED         "aborted"
#define MK_ARGV            "argv"
#define MK_BYTES           "bytes"
#define MK_CAPSIZE         "capsize"
#define MK_CAPTURE_KIND    "capture_kind"
#define MK_COMMAND         "command"
#define MK_COMMAND_STATUS  "command_status"
#define MK_COMPLETE        "complete"
#define MK_COUNT           "count"
#define MK_DESCRIPTION     "description"
#define MK_DIR             "dir"
#define MK_DURATION_MS     "duration_ms"
#define MK_DURATION_S      "duration_s"
#define MK_ENABLED         "enabled"
#define MK_EXCLUDE         "exclude"
#define MK_EXIT_STATUS     "exit_status"
#define MK_FILES           "files"
#define MK_FINISHED_UTC    "finished_utc"
#define MK_FLAGS           "flags"
#define MK_FROM_BOOT       "from_boot"
#define MK_GID             "gid"
#define MK_HITS            "hits"
#define MK_HOST            "host"
#define MK_HOW             "how"
#define MK_ID              "id"
#define MK_INDEX           "index"
#define MK_INTERVAL_S      "interval_s"
#define MK_IO_BOOTARG      "io_bootarg"
#define MK_IOTALLY_VERSION "iotally_version"
#define MK_ITERATION       "iteration"
#define MK_KEEP            "keep"
#define MK_KERNEL_VARIANT  "kernel_variant"
#define MK_KERNEL_VERSION  "kernel_version"
#define MK_LEFT            "left"
#define MK_MACHINE         "machine"
#define MK_MAPS            "maps"
#define MK_MEMSIZE         "memsize"
#define MK_MISSED          "missed"
#define MK_MODEL           "model"
#define MK_NAME            "name"
#define MK_NAMES           "names"
#define MK_OS_BUILD        "os_build"
#define MK_OS_VERSION      "os_version"
#define MK_PAGE_SIZE       "page_size"
#define MK_PATH            "path"
#define MK_PID             "pid"
#define MK_REASON          "reason"
#define MK_REDACTION       "redaction"
#define MK_RULE            "rule"
#define MK_RULES           "rules"
#define MK_SAMPLES         "samples"
#define MK_SCHEMA          "schema"
#define MK_SERIES          "series"
#define MK_SHA256          "sha256"
#define MK_SIGNAL          "signal"
#define MK_SIZE            "size"
#define MK_STARTED_UTC     "started_utc"
#define MK_STATUS          "status"
#define MK_STDERR          "stderr"
#define MK_STDOUT          "stdout"
#define MK_STEP            "step"
#define MK_STEPS           "steps"
#define MK_STOP_COMMAND    "stop_command"
#define MK_STOP_FAILURE    "stop_failure"
#define MK_TARGET          "target"
#define MK_TRACKING        "tracking"
#define MK_TYPE            "type"
#define MK_UID             "uid"
#define MK_WARNING         "warning"

/*
 * The capture kinds a step of a bundle may name ("capture_kind"), in the
 * order a bundle offers its captures (util/capture_kinds.h, the one list):
 * for the writer (capture/capture.c), the reader (ingest/bundle.c) and the
 * kind registry (app/kind.c, a row for each, in this order). A step of
 * another kind is no capture (a kind a later iotally reads).
 */
#define BUNDLE_KIND_ENUM(id, name) BUNDLE_KIND_##id,
enum bundle_kind {
	BUNDLE_KIND_NONE = -1,
	CAPTURE_KINDS(BUNDLE_KIND_ENUM)
	BUNDLE_NKINDS
};
#undef BUNDLE_KIND_ENUM

/* "vmmap", "classes", ...; NULL for BUNDLE_KIND_NONE. */
const char *bundle_kind_name(enum bundle_kind k);
/* Is `name` one of the capture kinds? */
bool bundle_kind_known(const char *name);

/* A manifest or series index larger than this is not one iotally wrote. */
#define BUNDLE_JSON_MAX (16u << 20)

/* ------------------------------------------------------------- reading */

/*
 * Append the bytes of a manifest (or series index) to `out`, from a
 * descriptor or an archive member; more than BUNDLE_JSON_MAX is DIAG_DATA
 * ("too large for a bundle manifest") naming `shown`.
 */
int manifest_read_fd(int fd, struct strbuf *out, const char *shown, struct diag *err);
int manifest_read_arc(struct arc_reader *a, struct strbuf *out, const char *shown,
		      struct diag *err);

/* The JSON of a manifest's bytes (a key given twice refuses it), or NULL with *jerr. */
json_t *manifest_parse(const char *buf, size_t len, json_error_t *jerr);

/* Is `root` a bundle manifest (its "schema" is BUNDLE_SCHEMA)? */
bool manifest_is_bundle(const json_t *root);
/* Is `root` a series index (its "schema" is BUNDLE_SERIES_SCHEMA)? */
bool manifest_is_series(const json_t *root);

/* Is `root` a session index (its "schema" is BUNDLE_SESSION_SCHEMA)? */
bool manifest_is_session(const json_t *root);

/* ------------------------------------------------------------- writing */

/* A new manifest object, its "schema" set; the writer adds the rest. */
json_t *manifest_new(void);
/* A new series index object, its "schema" set. */
json_t *series_index_new(void);
/* A new session index object, its "schema" set. */
json_t *session_index_new(void);

/*
 * What a series records of one sample (docs/json/bundle.md): the "series"
 * member of its manifest ({"index", "count", "interval_s"}) and its entry
 * in series.json's "samples" ({"index", "dir", "started_utc", "complete"}).
 * A sample of `capture --repeat` (iteration > 0) adds "iteration" (1-based,
 * after the warm-up runs) and "command_status" (the action's exit status
 * before the snapshot); other series leave both out.
 */
struct series_sample_facts {
	uint64_t index, count, interval_s;
	uint64_t iteration;         /* 0: not a repeat */
	int command_status;
};
json_t *manifest_series_member(const struct series_sample_facts *f);
json_t *series_index_sample(const struct series_sample_facts *f, const char *dir,
			    const char *started_utc, bool complete);
/*
 * The bytes a manifest or series index is written as: two-space indent,
 * keys sorted, one final newline (so a rewrite of an unchanged manifest
 * is the same bytes). -1 when jansson cannot (out of memory).
 */
int manifest_dump(const json_t *root, struct strbuf *out);

/*
 * A step's file record, {"path", "bytes", "sha256"}: what the writer
 * records for each file it wrote. `path` is taken from the outside (a
 * name derived from a target) and written by util/jsonstr.h's rule, so no
 * key is ever dropped.
 */
json_t *manifest_record_new(const char *path, uint64_t bytes, const char sha256[SHA256_HEX_SIZE]);
/*
 * Does the record still describe the file of digest `sha256` and size
 * `bytes` (a file changed after the capture does not)?
 */
bool manifest_record_holds(const json_t *rec, const char sha256[SHA256_HEX_SIZE], uint64_t bytes);
/* The record updated to a file rewritten (redacted) in place: its new digest and size. */
void manifest_record_set(json_t *rec, const char sha256[SHA256_HEX_SIZE], uint64_t bytes);

/* --------------------------------------------------------------- rules */

/*
 * The normal form (util/member_name.h) of the "path" of a step's file
 * record ({"path", "bytes", "sha256"}), owned; NULL with *why set when
 * there is none ("is missing") or the member-name rule refuses it.
 */
char *manifest_record_path(const json_t *rec, const char **why);

/*
 * Is `dir` the plain name of a series sample's folder: one component,
 * already in normal form (not "", ".", "..", and no '/')?
 */
bool series_sample_dir_plain(const char *dir);

/*
 * A step or a sample listed twice is refused: two entries for one step
 * would make a capture (or a failure) count twice, or one hide the other;
 * one sample read twice would weigh twice in a trend. The ids seen so far
 * are kept in a hash set, so a hostile manifest of many steps stays linear.
 */
struct listed_once {
	struct strmap seen;
};

void listed_once_init(struct listed_once *l);
void listed_once_release(struct listed_once *l);
/*
 * Add the id of `step` (a step object; one whose "id" is no string is
 * not counted). -1 with DIAG_DATA naming `given` when it was listed
 * before: "<shown> lists the step 'ID' twice (...)", `shown` the
 * manifest as the message names it ("manifest.json", "001/manifest.json").
 */
int manifest_step_once(struct listed_once *l, const json_t *step, const char *given,
		       const char *shown, struct diag *err);
/*
 * Add the sample folder `dir` (samples[index] of a series index). -1 with
 * DIAG_DATA naming `given` when it was listed before.
 */
int series_sample_once(struct listed_once *l, const char *dir, size_t index, const char *given,
		       struct diag *err);

#endif
