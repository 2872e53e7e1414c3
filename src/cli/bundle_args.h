#ifndef IOTALLY_CLI_BUNDLE_ARGS_H
#define IOTALLY_CLI_BUNDLE_ARGS_H

/*
 * Capture bundles given where a command takes a capture (app/bundle_inputs.h),
 * with what checking them found said on standard error, and `iotally BUNDLE`.
 */

#include <stdbool.h>
#include <stddef.h>

#include "app/bundle_inputs.h"

/* Does command `name` take a bundle in place of a capture of its own kind? */
bool cli_command_reads_bundles(const char *name);

/*
 * Replace every operand of argv[1..argc) that is a bundle by the path of
 * its capture of `kind` (app_bundle_operand()). 0, or an exit status after
 * printing why; the warnings are said on standard error.
 */
int cli_bundle_operands(const char *kind, int argc, char **argv, struct app_bundles *bs);

/*
 * `iotally BUNDLE`: what the bundle holds, then each command that reads a
 * capture in it; a series lists its samples in time order.
 */
int cli_run_bundle(int argc, char **argv);

/* A bundle's lines of `iotally BUNDLE` (each line starts with `indent`). */
void cli_bundle_listing(const struct bundle *b, const char *indent);

/*
 * `iotally SESSION` (cli/session_args.c): the tracking session, its three
 * bundles, the classes that grew beside the sites charged to them, and the
 * commands that compare before and after.
 */
int cli_run_session(int argc, char **argv);

#endif
