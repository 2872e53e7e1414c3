#ifndef IOTALLY_CAPTURE_SESSION_H
#define IOTALLY_CAPTURE_SESSION_H

/*
 * `iotally capture --session`: ioclasscount(8)'s tracking workflow as one
 * guided run (docs/capture.md, "Tracking sessions"):
 *
 *   preflight (nothing changed yet): root; a DEVELOPMENT or DEBUG kernel
 *     (kern.version); io=0x00400000 in kern.bootargs; an ioclasscount
 *     whose usage text lists the flags the session passes; a -- COMMAND
 *     needs SUDO_UID/SUDO_GID, since it runs as the user who ran sudo
 *   ioclasscount --reset (unless --keep), --capsize=N (when given: one run
 *     of its own, since ioclasscount keeps only the last command option),
 *     --start
 *   before/  a capture bundle (capture/capture.h)
 *   wait: Enter on a terminal, --duration, or the -- COMMAND (its exit
 *     status recorded)
 *   after/   a capture bundle
 *   tracking/  a bundle of ioclasscount --track [--exclude] [--size=N]
 *     [NAMES], --leaks [NAMES], --maps=PID (the target, or -1)
 *   ioclasscount --stop: always, also after a failed or hung step, a
 *     failed snapshot, and SIGINT/SIGTERM/SIGHUP (deferred by
 *     util/cleanup.h until --stop has run; then the folder is removed and
 *     iotally dies of the signal)
 *
 * DIR/session.json (BUNDLE_SESSION_SCHEMA, docs/json/session.schema.json)
 * records each step, its times, the flags, the wait, and the state
 * tracking was left in. It is written last, and one rename publishes DIR.
 * Nothing here prints but through `say`.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "capture/capture.h"
#include "util/diag.h"

typedef void (*session_say_fn)(void *ctx, const char *line);

struct session_opts {
	struct capture_opts cap;    /* target, -o, --timeout, redaction, --tools-dir, argv, --archive */
	bool keep;                  /* no --reset */
	bool have_capsize;
	uint64_t capsize;
	bool exclude;               /* --track/--leaks: every queue except the names */
	bool have_size;
	uint64_t size;              /* --track and --maps: skip smaller sites/mappings */
	bool maps_all;              /* --maps=-1 */
	char **names;               /* class or queue names for --track and --leaks (borrowed) */
	size_t nnames;
	uint64_t duration_ms;       /* --duration; 0: none */
	char **command;             /* -- COMMAND ARGS... (NULL-terminated, borrowed), or NULL */
	bool enter;                 /* wait for Enter on the terminal */
	session_say_fn say;
	void *say_ctx;
};

/* How the kernel tracking was left. */
enum session_tracking {
	SESSION_TRACKING_NOT_STARTED,   /* --start never ran */
	SESSION_TRACKING_OFF,           /* --stop ran and exited 0 */
	SESSION_TRACKING_MAYBE_ON,      /* --stop failed: run it by hand */
};

struct session_result {
	char *dir;                  /* the session written, or NULL */
	char *archive;              /* DIR.tar.gz when asked for */
	bool complete;
	char *aborted;              /* why the sequence stopped early, or NULL */
	enum session_tracking tracking;
	char *stop_command;         /* the command that stops tracking by hand */
	char *stop_failure;         /* how --stop failed, or NULL */
	bool command_ran;
	int command_status;         /* -- COMMAND: exit status, or 128 + signal */
};

/*
 * 0 when the session was written (see res->complete, res->tracking), or -1
 * with *err: a preflight refusal (CAPTURE_EXIT_NOPERM not root; DIAG_UNAVAILABLE
 * the kernel, the boot-args or the tool; DIAG_USAGE a -- COMMAND without
 * SUDO_UID), or an error of capture_run(). A signal does not return.
 */
int session_run(const struct session_opts *so, struct session_result *res, struct diag *err);
void session_result_release(struct session_result *res);

#endif
