#ifndef IOTALLY_INGEST_SESSION_READ_H
#define IOTALLY_INGEST_SESSION_READ_H

/*
 * Reading a tracking session written by `iotally capture --session`
 * (capture/session.h): a folder holding session.json
 * (BUNDLE_SESSION_SCHEMA, docs/json/session.schema.json) and up to three
 * capture bundles, before/, after/ and tracking/, each read like any
 * bundle (ingest/bundle.h). A session packed as .tar.gz (capture --session
 * --archive) is read in place: session.json is its top folder's member, and
 * its bundles are "ARCHIVE:before", "ARCHIVE:after", "ARCHIVE:tracking",
 * which bundle_open() opens inside the archive.
 *
 * The bundles' folders come from the steps of session.json ("dir"), which
 * must be the plain names the writer uses; a bundle step whose "dir" is
 * null (its capture failed) has no folder. Nothing here prints.
 */

#include <stdbool.h>

#include "bundle/manifest.h"
#include "util/diag.h"

struct session_index {
	char *path;             /* as given */
	bool complete;
	char *aborted;          /* why it stopped early, or NULL */
	char *tracking_left;    /* "off", "maybe-on", "not-started" */
	char *stop_command;
	char *started_utc;
	char *target_name;      /* NULL: none */
	long long target_pid;   /* -1: none */
	char *before, *after, *tracking;   /* "PATH/before" (archive: "PATH:before"), ... or NULL */
};

/* Is `path` a folder holding session.json? */
bool session_path_is_session(const char *path);
/* A session archive (a tar or tar.gz whose top folder holds session.json)? */
bool session_path_is_session_archive(const char *path);
/*
 * The member prefix of a session archive's session.json ("" or "TOP/",
 * owned), or NULL when `path` is no session archive.
 */
char *session_archive_top(const char *path);
/* Is `part` one of a session's bundle names (before, after, tracking)? */
bool session_part_name(const char *part);

/*
 * Read PATH/session.json (or the archive's). DIAG_NOINPUT: cannot be opened; DIAG_DATA: not a
 * session index, or a field against the schema (named). On failure *si
 * holds nothing.
 */
int session_index_read(const char *path, struct session_index *si, struct diag *err);
void session_index_release(struct session_index *si);

#endif
