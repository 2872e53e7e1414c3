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

#include "util/diag.h"

/* Exit statuses of `iotally capture` beyond util/diag.h. */
#define CAPTURE_EXIT_UNAVAILABLE DIAG_UNAVAILABLE /* 69: no such process; or steps failed (bundle written) */
#define CAPTURE_EXIT_CANTCREAT 73     /* DIR exists, or its folder is not writable */
#define CAPTURE_EXIT_NOPERM 77        /* a step was denied (bundle written): run with sudo */

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

#endif
