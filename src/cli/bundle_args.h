#ifndef IOTALLY_CLI_BUNDLE_ARGS_H
#define IOTALLY_CLI_BUNDLE_ARGS_H

/*
 * Capture bundles (ingest/bundle.h) given where a command takes a capture.
 * The bundles opened for one command run stay open in a struct cli_bundles
 * until cli_bundles_release(), because argv then points into them.
 */

#include <stdbool.h>
#include <stddef.h>

struct bundle;

struct cli_bundles {
	struct bundle **v;
	size_t n, alloc;
};

void cli_bundles_init(struct cli_bundles *bs);
void cli_bundles_release(struct cli_bundles *bs);

/* Does command `name` take a bundle in place of a capture of its own kind? */
bool cli_command_reads_bundles(const char *name);

/*
 * Replace every operand of argv[1..argc) that is a bundle by the path of
 * its capture of `kind`, after checking that capture's sha256 (a mismatch
 * is a warning naming the file). 0, or an exit status after printing why
 * (a series, a bundle without that kind, an unreadable manifest).
 */
int cli_bundle_operands(const char *kind, int argc, char **argv, struct cli_bundles *bs);

/*
 * `iotally BUNDLE`: what the bundle holds, then each command that reads a
 * capture in it; a series lists its samples in time order.
 */
int cli_run_bundle(int argc, char **argv);

#endif
