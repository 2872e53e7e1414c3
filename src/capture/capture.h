#ifndef IOTALLY_CAPTURE_CAPTURE_H
#define IOTALLY_CAPTURE_CAPTURE_H

/*
 * `iotally capture`: run Apple's tools (found through PATH) and write one
 * bundle directory (docs/json/bundle.md) read back by every command.
 *
 * The bundle is written under a temporary name beside DIR
 * (".NAME.partial-XXXXXX") and renamed into place when complete, so DIR
 * either does not exist or holds a whole bundle. A series (count > 0)
 * makes DIR itself and renames one sample NNN/ into it at a time, then
 * rewrites DIR/series.json (temp file + rename).
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
	volatile const int *stop;   /* non-zero: stop now (SIGINT/SIGTERM) */
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
	bool interrupted;
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
 * DIAG_IOERR. An interrupt gives -1 with res->interrupted set and nothing
 * left under DIR (a series keeps its complete samples).
 */
int capture_run(const struct capture_opts *o, struct capture_result *res, struct diag *err);
void capture_result_release(struct capture_result *res);

#endif
