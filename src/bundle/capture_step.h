#ifndef IOTALLY_BUNDLE_CAPTURE_STEP_H
#define IOTALLY_BUNDLE_CAPTURE_STEP_H

/*
 * A capture step of a kind: the tool that writes one of the kind's
 * captures into a bundle, its arguments, the file its standard output
 * becomes, and when it runs. The kind registry's rows hold their steps
 * (app/kind_<name>.c, struct kind.capture_steps); `iotally capture`
 * gives them, in `order`, to capture/capture.c, which runs them without
 * naming a kind. Here because both sides use bundle/ (capture/ does not
 * see app/, nor app/ capture/).
 */

#include <stddef.h>

#include "bundle/manifest.h"

enum capture_step_when {
	CAPTURE_STEP_ALWAYS,
	CAPTURE_STEP_TARGET,        /* with a target process only */
	CAPTURE_STEP_TRACK,         /* with --track, where kernel tracking can work; its NAMEs follow */
};

struct capture_step_def {
	const char *id;             /* "target.vmmap": the step's id in the manifest; NULL ends a list */
	const char *out;            /* its standard output's file in the bundle */
	enum capture_step_when when;
	const char *argv[8];        /* "{pid}" is the target pid */
	/* The tool not installed is a skip with this reason; NULL: a failure. */
	const char *not_installed;
	/* Its place among every kind's steps: cheap first; one that pauses the target last. */
	unsigned order;
};

/* A kind's steps in a row: at most this many. */
#define CAPTURE_STEPS_MAX 4

/* One step of a capture, and the kind its file is a capture of. */
struct capture_step_plan {
	const struct capture_step_def *def;
	enum bundle_kind kind;
};

/* Every step of every kind, in the order they run, and --repeat's default snapshot. */
#define CAPTURE_PLAN_MAX 16
struct capture_plan {
	struct capture_step_plan steps[CAPTURE_PLAN_MAX];
	size_t n;
	unsigned repeat_kinds;      /* bits 1 << enum bundle_kind */
};

#endif
