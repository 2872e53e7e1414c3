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

/* One `iotally trend` input a bundle operand stands for. */
struct cli_bundle_input {
	const char *path;        /* a capture's path; the sample folder when it gives none */
	const char *time;        /* the manifest's start time ("2026-11-30T06:00:00Z"), or NULL */
	char *missing;           /* why the sample gives no capture (owned), or NULL */
	char *sample;            /* the sample's name when it gives none (owned; `path`) */
};

/*
 * The inputs of `iotally trend`: each operand that is a bundle or a series
 * becomes its captures of one kind (a series: one per sample, in time
 * order), each checked against its manifest's sha256 (a mismatch is a
 * warning naming the file); other operands stay as they are. The kind is
 * `kind` (trend --kind), or when NULL the first of vmmap, classes and track
 * that the first bundle holds. The
 * list (*out, *nout) is freed with cli_bundle_inputs_free(). 0, or an exit
 * status after printing why.
 */
int cli_bundle_trend_inputs(const char *const *paths, size_t n, const char *kind,
			    struct cli_bundles *bs, struct cli_bundle_input **out, size_t *nout);
void cli_bundle_inputs_free(struct cli_bundle_input *v, size_t n);

/*
 * `iotally BUNDLE`: what the bundle holds, then each command that reads a
 * capture in it; a series lists its samples in time order.
 */
int cli_run_bundle(int argc, char **argv);

#endif
