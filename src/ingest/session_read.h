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
 * null (its capture failed) has no folder. A session folder's bundles are
 * opened like a bundle's members (util/beneath.h): each must be a folder
 * inside it, not a symbolic link (in or out of the session), a named pipe
 * (which would block its reader) or a device. Nothing here prints.
 */

#include <stdbool.h>

#include "bundle/manifest.h"
#include "util/diag.h"

struct session_index {
	char *path;             /* as given */
	bool complete;
	char *aborted;          /* why it stopped early, or NULL */
	char *tracking_left;    /* "off", "maybe-on", "not-started" */
	char *started_utc;
	char *target_name;      /* NULL: none */
	long long target_pid;   /* -1: none */
	char *before, *after, *tracking;   /* "PATH/before" (archive: "PATH:before"), ... or NULL */
};

/*
 * The command that stops kernel tracking by hand, as iotally tells a user
 * to run it as root: iotally's own words, never the stop_command a
 * session.json records (the file, an attachment, could name any command).
 */
#define SESSION_STOP_COMMAND "sudo /usr/sbin/ioclasscount --stop"
/* What the listing and the report say when session_tracking_maybe_on(). */
#define SESSION_MAYBE_ON_WARNING \
	"the session could not stop kernel tracking: if it is still on, run " SESSION_STOP_COMMAND

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

/*
 * Whether the session may have left kernel tracking on: its tracking state
 * is neither "off" nor "not-started" (an unknown state included). The
 * reader then says to run SESSION_STOP_COMMAND.
 */
bool session_tracking_maybe_on(const struct session_index *si);

#endif
