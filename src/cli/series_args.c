/*
 * The command line of `trend` and `rate`, and their loop over the kinds
 * (cli/series_args.h).
 */

#include "cli/series_args.h"

#include "app/kind.h"
#include "cli/commands.h"
#include "cli/inputs.h"
#include "cli/msgs.h"
#include "util/array.h"
#include "util/size.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

static const struct cli_option series_options[] = {
	{ "warmup", 0, true, SERIES_OPT_WARMUP },
	{ "alpha", 0, true, SERIES_OPT_ALPHA },
	{ "format", 0, true, SERIES_OPT_FORMAT },
	{ "kind", 0, true, SERIES_OPT_KIND },
	{ "jobs", 'j', true, SERIES_OPT_JOBS },
	{ "help", 'h', false, SERIES_OPT_HELP },
};

struct series_parse {
	const struct series_command *c;
	struct series_args *a;
	size_t alloc;                /* of a->paths */
	size_t stdin_uses;           /* operands "-" */
};

static int
parse_alpha(const char *arg, struct trend_given *g, struct diag *err)
{
	char *end;
	double p = strtod(arg, &end);
	if (*arg == '\0' || *end != '\0' || !(p > 0 && p < 1))
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"--alpha '%s' is not a probability between 0 and 1", arg);
	g->has_alpha = true;
	g->alpha = p;
	return 0;
}

static int
parse_warmup(const char *arg, struct trend_given *g, struct diag *err)
{
	uint64_t k = 0;
	g->has_warmup = true;
	if (strcmp(arg, "0") != 0 && cli_positive_count("--warmup", arg, &k, err) < 0)
		return -1;
	g->warmup = (size_t)k;
	return 0;
}

static int
take_option(struct series_parse *t, int id, const char *arg, struct diag *err)
{
	struct series_args *a = t->a;
	switch (id) {
	case SERIES_OPT_WARMUP:
		return parse_warmup(arg, t->c->given, err);
	case SERIES_OPT_ALPHA:
		return parse_alpha(arg, t->c->given, err);
	case SERIES_OPT_FORMAT:
		return cli_parse_format(arg, t->c->formats, &a->format, err);
	case SERIES_OPT_KIND: {
		const char *names[KINDS_MAX];
		int k = cli_choice("kind", arg, names, kind_names(names, KINDS_MAX), err);
		if (k < 0)
			return -1;
		a->kind = names[k];
		return 0;
	}
	case SERIES_OPT_JOBS:
		return cli_parse_jobs(arg, &a->jobs, err);
	default:
		return id >= SERIES_OPT_OWN ? t->c->take(t->c->ctx, id, arg, err) : 0;
	}
}

int
series_parse_min_growth(const char *arg, struct trend_given *g, struct diag *err)
{
	size_t n = strlen(arg);
	if (n && arg[n - 1] == '%') {
		char *end;
		double p = strtod(arg, &end);
		if (end != arg + n - 1 || !(p >= 0) || p > 1e6)
			goto bad;
		g->has_min_percent = true;
		g->min_percent = p;
		return 0;
	}
	uint64_t v;
	if (size_parse_user(arg, &v) != SIZE_OK)
		goto bad;
	g->has_min_bytes = true;
	g->min_bytes = (double)v;
	return 0;
bad:
	return diag_set(err, DIAG_USAGE, NULL, 0, 0,
			"--min-growth '%s' is not a size (1MiB, 512K) or a percentage (10%%)",
			arg);
}

/* One option or operand (cli_take_fn). */
static int
take_arg(void *ctx, struct cli_parser *p, int id, const char *arg, struct diag *err)
{
	struct series_parse *t = ctx;
	struct series_args *a = t->a;
	(void)p;
	if (id != CLI_OPERAND)
		return take_option(t, id, arg, err);
	a->paths = xgrow(a->paths, &t->alloc, a->npaths + 1, sizeof(*a->paths));
	a->paths[a->npaths++] = arg;
	t->stdin_uses += strcmp(arg, "-") == 0;
	return 0;
}

int
series_args_parse(const struct series_command *c, int argc, char **argv, struct series_args *a,
		  struct diag *err)
{
	size_t n = ARRAY_SIZE(series_options) + c->nown;
	struct cli_option *opts = xcalloc(n, sizeof(*opts));
	memcpy(opts, series_options, sizeof(series_options));
	memcpy(opts + ARRAY_SIZE(series_options), c->own, c->nown * sizeof(*opts));
	struct cli_parser p;
	struct series_parse t = { .c = c, .a = a };
	int rc = cli_parse(&p, opts, n, argc, argv, SERIES_OPT_HELP, &a->help, take_arg, &t, err);
	free(opts);
	if (rc < 0 || a->help)
		return rc;
	if (a->npaths == 0)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0, "%s", c->no_inputs);
	if (t.stdin_uses > 1)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"only one input can be standard input");
	return 0;
}

void
series_args_release(struct series_args *a)
{
	free(a->paths);
	a->paths = NULL;
	a->npaths = 0;
}

int
series_say_error(const char *command, struct diag *err)
{
	return err->code == DIAG_USAGE ? cli_usage_error(cli_find_command(command), err)
				       : (cli_print_diag(err), err->code);
}

int
series_follow(const struct series_follow *f, const struct series_args *a,
	      const char *const *paths, size_t npaths, const char *const *kinds, size_t nk,
	      struct app_bundles *bs, struct trend_kind_run *runs, size_t *ok)
{
	struct diag err;
	if (app_series_follow(f, a->jobs, paths, npaths, kinds, nk, bs, runs, ok, &err) < 0)
		return series_say_error(f->command, &err);
	return 0;
}
