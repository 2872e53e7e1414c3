#ifndef IOTALLY_CLI_SERIES_ARGS_H
#define IOTALLY_CLI_SERIES_ARGS_H

/*
 * The command line of a series' analysis, `iotally trend` and `iotally
 * rate`: the options both take (--warmup, --alpha, --format, --kind, -j,
 * -h) and the operands, parsed once here; each command hands over its own
 * options (ids from SERIES_OPT_OWN on) and takes them back one by one.
 * And the loop both run over the kinds they follow (app/series_follow.h),
 * the error that ends it said.
 */

#include <stdbool.h>
#include <stddef.h>

#include "app/series_follow.h"
#include "app/trend_run.h"
#include "cli/formats.h"
#include "cli/options.h"
#include "util/diag.h"

enum {
	SERIES_OPT_WARMUP = 1,
	SERIES_OPT_ALPHA,
	SERIES_OPT_FORMAT,
	SERIES_OPT_KIND,
	SERIES_OPT_JOBS,
	SERIES_OPT_HELP,
	SERIES_OPT_OWN,              /* a command's own options number from here */
};

struct series_args {
	const char **paths;          /* the operands, in order */
	size_t npaths;
	enum output_format format;
	const char *kind;            /* --kind; NULL: as the inputs say */
	unsigned jobs;               /* -j N: inputs read at once; 0: one per processor */
	bool help;
};

struct series_command {
	const char *name;            /* "trend": its usage errors */
	const struct cli_option *own;
	size_t nown;
	unsigned formats;            /* FORMAT_BIT() mask of --format */
	const char *no_inputs;       /* the usage error without an operand */
	struct trend_given *given;   /* where --warmup and --alpha go */
	/* One of the command's own options: 0, or -1 with *err. */
	int (*take)(void *ctx, int id, const char *arg, struct diag *err);
	void *ctx;
};

/* 0, or -1 with a usage error in *err; *a is released by series_args_release(). */
int series_args_parse(const struct series_command *c, int argc, char **argv,
		      struct series_args *a, struct diag *err);
void series_args_release(struct series_args *a);

/*
 * trend's --min-growth: "1MiB", "512K" (bytes) or "10%", "2.5%" (of the
 * start level) into *g. 0, or -1 with a usage error.
 */
int series_parse_min_growth(const char *arg, struct trend_given *g, struct diag *err);

/* The error of a series that cannot be analysed, said: its exit status. */
int series_say_error(const char *command, struct diag *err);

/*
 * Each of kinds[0..nk) followed (app_series_follow()), the error that ends
 * the command said: the exit status. The caller releases runs[0..*ok).
 */
int series_follow(const struct series_follow *f, const struct series_args *a,
		  const char *const *paths, size_t npaths, const char *const *kinds, size_t nk,
		  struct app_bundles *bs, struct trend_kind_run *runs, size_t *ok);

#endif
