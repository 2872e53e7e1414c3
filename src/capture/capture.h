#ifndef IOTALLY_CAPTURE_CAPTURE_H
#define IOTALLY_CAPTURE_CAPTURE_H

/*
 * `iotally capture`: run Apple's tools (capture/toolrun.h: from
 * /usr/bin:/usr/sbin:/bin, or a --tools-dir of stand-ins when testing) and
 * write one bundle directory (docs/json/bundle.md) read back by every
 * command.
 *
 * The pipeline of one bundle: each tool is spawned with its standard
 * output and standard error on pipes; every byte is redacted as it
 * arrives (capture/redact.h, cut on its safe cuts) and only then written,
 * into a private folder (0700) beside DIR (".NAME.partial-XXXXXX"), its
 * size and sha256 counted on the way, so no output is ever read whole and
 * no unredacted byte reaches the disk (a value that only a later output
 * reveals is removed from the earlier files by a rewrite before the
 * manifest: docs/capture.md). A step is classified from its exit status
 * and, when that is not 0, its standard error. Then manifest.json, then
 * one rename publishes DIR, so DIR either does not exist or holds a whole
 * bundle.
 *
 * Signals (util/cleanup.h): SIGINT, SIGTERM or SIGHUP before the rename
 * kill the running tool's group and remove the private folder, and the
 * message says nothing was left; after it, the bundle is complete and
 * kept, and the message says so (an unfinished --archive is removed). The
 * process then dies of the signal.
 *
 * A series (count > 0) makes DIR itself and renames one sample NNN/ into
 * it at a time, then rewrites DIR/series.json (temp file + rename).
 *
 * POSIX only: process names and owners are resolved with `pgrep` and
 * `ps`, run like the other tools, so the same code runs on macOS and on
 * the Linux test machines (where stand-in tools replay real captures).
 * Nothing here prints; the caller reports from the result.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bundle/capture_step.h"
#include "util/diag.h"

/* Exit statuses of `iotally capture` beyond util/diag.h. */
#define CAPTURE_EXIT_UNAVAILABLE DIAG_UNAVAILABLE /* 69: no such process; or steps failed (bundle written) */
#define CAPTURE_EXIT_CANTCREAT 73     /* DIR exists, or its folder is not writable */
#define CAPTURE_EXIT_NOPERM 77        /* a step was denied (bundle written): run with sudo */

/*
 * A tool run of a tracking capture (`capture --session`'s --track, --leaks
 * and --maps reads): its step id, the file its standard output becomes,
 * and its argv (argv[0] a tool name, resolved like every tool's).
 */
struct capture_read {
	const char *id;
	const char *out;
	const char *const *argv;     /* NULL-terminated */
};

struct capture_command;

/* A line about the run as it goes (capture --repeat's warm-up runs), for the caller to print. */
typedef void (*capture_say_fn)(void *ctx, const char *line);

/* After each sample of a series: sample k of n, its status, the time since the series began. */
typedef void (*capture_progress_fn)(void *ctx, uint64_t k, uint64_t n, bool complete,
				    const char *dir, uint64_t elapsed_ms);

struct capture_opts {
	int64_t pid;                /* -1: none */
	const char *process;        /* a name to resolve to one pid, or NULL */
	const char *output;         /* DIR, or NULL for the default name */
	bool track;
	char **track_names;         /* borrowed */
	size_t ntrack_names;
	uint64_t timeout_ms;        /* per step */
	uint64_t count;             /* 0: one capture; N: a series of N samples */
	uint64_t interval_ms;
	bool redact;
	bool archive;
	int argc;                   /* the command line, recorded (redacted) */
	char **argv;
	const char *tools_dir;      /* testing: run the tools found here, not Apple's; or NULL */
	/* A tracking capture: only these reads (no host facts, no snapshot). */
	const struct capture_read *reads;
	size_t nreads;
	bool in_session;            /* the session (capture/session.h) says what a signal leaves */
	capture_progress_fn progress;   /* a series: called after each sample, or NULL */
	void *progress_ctx;
	/*
	 * capture --repeat (count iterations): the action run before each
	 * sample, `warmup` unmeasured runs of it first; a run that fails (not
	 * exit status 0) stops the series, or with keep_going is recorded and
	 * its snapshot not taken. NULL: a plain series or capture.
	 */
	const struct capture_command *command;
	uint64_t warmup;
	bool keep_going;
	unsigned kinds;             /* snapshot steps: bits 1 << enum bundle_kind; 0: every one */
	/* The snapshot steps after the host facts, in order (the kind registry's). */
	const struct capture_plan *plan;
	capture_say_fn say;         /* warm-up runs and failed iterations, or NULL */
};

/* One step's outcome, for the summary the command prints. */
struct capture_step_report {
	char *id;
	char *status;      /* "ok", "failed", "denied", "target-gone", "timeout", "skipped" */
	char *reason;      /* NULL when ok */
};

struct capture_result {
	char *dir;                   /* the bundle (or series) written, or NULL */
	char *archive;               /* DIR.tar.gz when asked for */
	bool complete;
	size_t nsamples;             /* series: samples written */
	size_t failed_runs;          /* --repeat: iterations whose command failed */
	char *stopped;               /* --repeat: why the series stopped early (owned), or NULL */
	struct capture_step_report *steps;   /* the last sample's steps */
	size_t nsteps, steps_alloc;
	uint64_t redaction_hits;
	uint64_t tools_ms;           /* time spent waiting for the tools */
	uint64_t total_ms;           /* the whole capture */
};

/*
 * 0 when the bundle was written (complete or not: see res->complete and
 * the steps), or -1 with *err: DIAG_USAGE (an ambiguous --process name),
 * CAPTURE_EXIT_UNAVAILABLE (no such process), CAPTURE_EXIT_CANTCREAT,
 * DIAG_IOERR, or DIAG_DATA (pgrep answered something that is not a
 * process id). An interrupt does not return (util/cleanup.h).
 */
int capture_run(const struct capture_opts *o, struct capture_result *res, struct diag *err);
void capture_result_release(struct capture_result *res);

/* DIR.tar.gz of the bundle (or session) DIR, written beside it: 0 and its name in *out, or -1. */
int capture_write_archive(const char *dir, char **out, struct diag *err);

/* ------------------------------------- whether kernel tracking can work */

/* The io= boot-arg bits (formats/ioclasscount.md §4.1): kIOTracking, kIOTrackingBoot. */
#define CAPTURE_IO_TRACKING 0x00400000u
#define CAPTURE_IO_TRACKING_BOOT 0x02000000u

/* "RELEASE", "DEVELOPMENT" or "DEBUG" from kern.version, or NULL. */
const char *capture_kernel_variant(const char *kern_version);
/* The value of the word io=N of kern.bootargs (decimal or 0x hex): true when there is one. */
bool capture_bootarg_io(const char *bootargs, uint64_t *value);

enum track_block {
	TRACK_OK, TRACK_VARIANT_UNKNOWN, TRACK_RELEASE, TRACK_NO_IO_BOOTARG, TRACK_NOT_ROOT,
};
/* Can ioclasscount's tracking work here (checked in this order)? */
enum track_block capture_track_check(const char *kern_version, const char *bootargs, bool root);
/* Why not (NULL for TRACK_OK), and what to change. */
const char *capture_track_block_reason(enum track_block b);
const char *capture_track_block_fix(enum track_block b);

/*
 * The target of o->pid or o->process: its pid (-1: none), its name (owned,
 * or NULL) and whether another user owns it. 0, or -1 with *err as for
 * capture_run().
 */
int capture_resolve_target(const struct capture_opts *o, int64_t *pid, char **name,
			   bool *other_user, struct diag *err);

/*
 * One bundle at `dir` (which must not exist) of the target resolved
 * above: written in a private folder beside it and renamed into place, as
 * capture_run() does for one capture. A signal deferred meanwhile
 * (util/cleanup.h) stops it: -1 with DIAG_UNAVAILABLE, nothing left.
 */
int capture_bundle(const struct capture_opts *o, int64_t pid, const char *target_name,
		   bool target_other_user, const char *dir, struct capture_result *res,
		   struct diag *err);

#endif
