#ifndef IOTALLY_APP_SESSION_H
#define IOTALLY_APP_SESSION_H

/*
 * What the commands do with a tracking session (ingest/session_read.h):
 *
 *   app_session_pair()    the one routing of a session to its two bundles,
 *                         before/ and after/: `iotally diff SESSION` and
 *                         `iotally report SESSION` run as on the two
 *                         folders (`report BEFORE AFTER`, the joined page)
 *   app_session_growth()  the classes that grew between them, beside the
 *                         call sites and potential leaks tracking charged
 *                         to each (model/session_growth.h)
 *
 * Prints nothing.
 */

#include "ingest/session_read.h"
#include "model/session_growth.h"
#include "util/diag.h"

/*
 * The paths of the session's before and after bundles (owned): "PATH/before"
 * for a folder, "PATH:before" for a session archive (bundle_open() reads it
 * in place); or -1 with *err naming `path`: DIAG_DATA when a side was not
 * written (the session stopped early or its capture failed), or the
 * reader's error.
 */
int app_session_pair(const char *path, char **before, char **after, struct diag *err);

/*
 * One operand of `diff` or `report` that is a tracking session, routed to
 * its before/ and after/ bundles (app_session_pair(): owned, in
 * routed[0..1]; `report SESSION` is then `report BEFORE AFTER`). 1 routed,
 * 0 not a session, -1 with *err.
 */
int app_session_operand(const char *path, char *routed[2], struct diag *err);

/*
 * Fill `g` from the session's bundles: class counts of each side's first
 * classes capture (the ioreg plist when there is one) and the records of
 * tracking/'s --track and --leaks outputs charged to a class. A side or a
 * tracking output that cannot be read is a note in `notes`, and the rows
 * hold what could be read. 0, or -1 with *err (out of memory, a byte sum).
 */
int app_session_growth(const struct session_index *si, struct session_growth *g,
		       struct diag_list *notes, struct diag *err);

#endif
