#ifndef IOTALLY_CAPTURE_REQUEST_H
#define IOTALLY_CAPTURE_REQUEST_H

/*
 * What `iotally capture` is asked to do, from its options: a capture, a
 * series (--count), a tracking session (--session) or leak per operation
 * (--repeat), each option's value checked and the modes' rules applied
 * (what goes with what, what each needs). cli/cmd_capture.c names the
 * options and prints; the request fills the capture's and the session's
 * options (capture/capture.h, capture/session.h).
 *
 * Nothing here prints: a refusal is DIAG_USAGE in *err.
 */

#include <stdbool.h>
#include <stddef.h>

#include "capture/capture.h"
#include "capture/session.h"
#include "util/diag.h"

/* The options, by id (0 is an operand's). */
enum capture_arg {
	CAPTURE_ARG_PID = 1, CAPTURE_ARG_PROCESS, CAPTURE_ARG_OUTPUT, CAPTURE_ARG_TRACK,
	CAPTURE_ARG_TIMEOUT, CAPTURE_ARG_COUNT, CAPTURE_ARG_INTERVAL, CAPTURE_ARG_NO_REDACT,
	CAPTURE_ARG_ARCHIVE, CAPTURE_ARG_TOOLS_DIR,
	/* a session's */
	CAPTURE_ARG_SESSION, CAPTURE_ARG_KEEP, CAPTURE_ARG_CAPSIZE, CAPTURE_ARG_EXCLUDE,
	CAPTURE_ARG_SIZE, CAPTURE_ARG_MAPS_ALL, CAPTURE_ARG_DURATION,
	/* leak per operation's */
	CAPTURE_ARG_REPEAT, CAPTURE_ARG_WARMUP, CAPTURE_ARG_KEEP_GOING, CAPTURE_ARG_KINDS,
	CAPTURE_ARG_SETTLE,
	CAPTURE_ARG_END             /* the first id that is not the request's */
};

struct capture_request {
	struct capture_opts *o;
	struct session_opts *so;
	char **names;        /* the class names after --track (or of a session), owned array */
	size_t n;
	char **command;      /* the -- COMMAND ARGS... of a session or --repeat, owned array */
	size_t ncommand;
	unsigned repeat_kinds;   /* --repeat's snapshots without --kinds (bits 1 << enum bundle_kind) */
	bool have_interval, have_count;
	bool repeat;         /* --repeat */
	bool session;        /* --session */
	bool session_only;   /* an option that only a session takes was given */
	bool repeat_only;    /* an option that only --repeat takes was given */
	bool have_kinds, have_settle;
};

/*
 * Start a request of at most `max_operands` operands, *o and *so set to
 * the defaults (no target, --timeout 120, --interval 60, redaction on).
 * `plan` (borrowed): the snapshot steps, and the snapshot of --repeat
 * without --kinds (the kinds whose capture does not pause the target):
 * the kind registry's (kind_capture_plan()).
 */
void capture_request_init(struct capture_request *c, struct capture_opts *o,
			  struct session_opts *so, size_t max_operands,
			  const struct capture_plan *plan);
void capture_request_release(struct capture_request *c);

/*
 * One option (enum capture_arg) with its value, or an operand (id 0);
 * `after_dashdash`: the operand follows --. 0, or -1 with DIAG_USAGE.
 */
int capture_request_take(struct capture_request *c, int id, const char *arg,
			 bool after_dashdash, struct diag *err);

/*
 * Once every option is known: the rules across options and modes (given
 * `help`, only those that make the options themselves wrong), then the
 * names and the command into *o and *so. `stdin_tty`: standard input is a
 * terminal (a session without --duration or a command waits for Enter).
 * 0, or -1 with DIAG_USAGE.
 */
int capture_request_finish(struct capture_request *c, bool help, bool stdin_tty,
			   struct diag *err);

/*
 * The exit status of a capture or series written (sysexits): 77 when a
 * step was denied, else 69 when one did not end ok or skipped or the
 * capture is partial, else 0.
 */
int capture_exit_status(const struct capture_result *res);

/*
 * How the summary says a step of `status`: false for "ok" (nothing), else
 * true with *sev, a note for "skipped" and a warning for the others.
 */
bool capture_step_said(const char *status, enum diag_severity *sev);
/* What to do about a step of `status` ("denied": run with sudo), or NULL. */
const char *capture_step_hint(const char *status);

#endif
