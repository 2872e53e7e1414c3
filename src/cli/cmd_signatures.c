/*
 * iotally signatures: many before/after pairs bucketed by what grew, like
 * crash reports by their signature (docs/signatures.md).
 */

#include "cli/commands.h"
#include "cli/formats.h"
#include "cli/msgs.h"
#include "cli/options.h"

#include "app/signature_inputs.h"
#include "app/signature_run.h"
#include "cli/inputs.h"
#include "model/signature_bucket.h"
#include "report/signatures_write.h"
#include "util/array.h"
#include "util/diag.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum {
	OPT_FORMAT = 1,
	OPT_JOBS,
	OPT_BUCKET,
	OPT_EXAMPLES,
	OPT_BY,
	OPT_HELP,
};

static const struct cli_option sig_options[] = {
	{ "format", 0, true, OPT_FORMAT },
	{ "jobs", 'j', true, OPT_JOBS },
	{ "bucket", 0, true, OPT_BUCKET },
	{ "examples", 0, true, OPT_EXAMPLES },
	{ "by", 0, true, OPT_BY },
	{ "help", 'h', false, OPT_HELP },
};

static const char *const by_names[] = { "bucket", "component" };

#define SIGNATURES_FORMATS (FORMAT_BIT(FORMAT_TEXT) | FORMAT_BIT(FORMAT_JSON) | \
			    FORMAT_BIT(FORMAT_MARKDOWN) | FORMAT_BIT(FORMAT_NDJSON))

struct sig_args {
	char **operands;
	size_t n, alloc;
	enum output_format format;
	unsigned jobs;              /* -j N: units done at once; 0: one per processor */
	const char *bucket;         /* --bucket: an id or its prefix; NULL: every bucket */
	size_t examples;
	bool by_component;
	bool help;
};

/* --bucket: 1 to SIGNATURE_ID_DIGITS hex digits (ids are written in lowercase). */
static int
parse_bucket(const char *arg, const char **out, struct diag *err)
{
	size_t n = strlen(arg);
	bool hex = n > 0 && n <= SIGNATURE_ID_DIGITS;
	for (size_t i = 0; i < n && hex; i++)
		hex = (arg[i] >= '0' && arg[i] <= '9') || (arg[i] >= 'a' && arg[i] <= 'f');
	if (!hex) {
		diag_set(err, DIAG_USAGE, NULL, 0, 0,
			 "--bucket expects a signature id or its start: 1 to %d digits 0-9a-f",
			 SIGNATURE_ID_DIGITS);
		return -1;
	}
	*out = arg;
	return 0;
}

/* --examples: 0 (none) or a whole number. */
static int
parse_examples(const char *arg, size_t *out, struct diag *err)
{
	uint64_t v = 0;
	if (strcmp(arg, "0") != 0 && cli_positive_count("--examples", arg, &v, err) < 0)
		return -1;
	*out = v > SIZE_MAX ? SIZE_MAX : (size_t)v;
	return 0;
}

static int
take_arg(void *ctx, struct cli_parser *p, int id, const char *arg, struct diag *err)
{
	struct sig_args *a = ctx;
	(void)p;
	if (id == OPT_FORMAT)
		return cli_parse_format(arg, SIGNATURES_FORMATS, &a->format, err);
	if (id == OPT_JOBS)
		return cli_parse_jobs(arg, &a->jobs, err);
	if (id == OPT_BUCKET)
		return parse_bucket(arg, &a->bucket, err);
	if (id == OPT_EXAMPLES)
		return parse_examples(arg, &a->examples, err);
	if (id == OPT_BY) {
		int k = cli_choice("--by", arg, by_names, ARRAY_SIZE(by_names), err);
		a->by_component = k == 1;
		return k < 0 ? -1 : 0;
	}
	a->operands = xgrow(a->operands, &a->alloc, a->n + 1, sizeof(*a->operands));
	a->operands[a->n++] = (char *)arg;
	return 0;
}

/* What each unit noted and the error that stopped it, in input order. */
static void
say_results(const struct signature_result *res, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		cli_print_warnings(&res[i].notes);
		if (res[i].failed || res[i].err.code)
			cli_print_diag(&res[i].err);
	}
}

/* Files on one side only, as diff says them. */
static void
say_unpaired(const struct signature_inputs *in)
{
	for (size_t i = 0; i < in->pairs.nunpaired; i++) {
		const struct diff_unpaired *u = &in->pairs.unpaired[i];
		cli_warn(u->path, 0, "has no counterpart of that name in %s: not compared",
			    u->in_before ? "AFTER" : "BEFORE");
	}
}

static int
write_out(const struct sig_args *a, const struct signature_record *recs, size_t n,
	  bool partial, int *status)
{
	struct signature_buckets b;
	struct signatures_view v = { .examples = a->examples, .by_component = a->by_component };
	size_t at = 0;
	int rc = 0;
	if (a->format == FORMAT_NDJSON && !a->bucket)
		return signatures_write_ndjson(stdout, recs, n);
	signature_buckets_make(&b, recs, n);
	b.partial = partial;
	if (a->bucket) {
		struct diag err;
		diag_clear(&err);
		if (app_signature_bucket_pick(&b, a->bucket, &at, &err) < 0) {
			*status = cli_usage_error(cli_find_command("signatures"), &err);
			signature_buckets_release(&b);
			return 0;
		}
		v.bucket = &at;
	}
	if (a->format == FORMAT_NDJSON)
		rc = signatures_write_ndjson_bucket(stdout, &b.b[at], recs);
	else if (a->format == FORMAT_JSON)
		rc = signatures_write_json(stdout, &b, recs, &v);
	else
		signatures_write_text(stdout, &b, recs, &v, a->format == FORMAT_MARKDOWN);
	signature_buckets_release(&b);
	return rc;
}

int
cmd_signatures(int argc, char **argv)
{
	struct sig_args a = { .examples = SIGNATURES_EXAMPLES };
	struct cli_parser p;
	struct diag err;
	struct signature_inputs in;
	int status = 0;

	diag_clear(&err);
	memset(&in, 0, sizeof(in));
	if (cli_parse(&p, sig_options, ARRAY_SIZE(sig_options), argc, argv, OPT_HELP, &a.help,
		      take_arg, &a, &err) < 0) {
		status = cli_usage_error(cli_find_command("signatures"), &err);
		goto out;
	}
	if (a.help) {
		cli_print_command_help("signatures");
		goto out;
	}
	if (a.n == 0) {
		diag_set(&err, DIAG_USAGE, NULL, 0, 0,
			 "inputs expected: BEFORE AFTER, or files of NDJSON rows");
		status = cli_usage_error(cli_find_command("signatures"), &err);
		goto out;
	}
	if (signature_inputs_build(&in, a.operands, a.n, &err) < 0) {
		status = err.code == DIAG_USAGE ? cli_usage_error(cli_find_command("signatures"), &err)
						: (cli_print_diag(&err), err.code);
		goto out;
	}
	say_unpaired(&in);
	struct signature_result *res = app_signatures_run(&in, a.jobs);
	struct signature_record *recs;
	size_t n;
	bool partial = false;
	say_results(res, in.n);
	status = app_signatures_collect(res, in.n, &recs, &n, &partial);
	for (size_t i = 0; i < in.n; i++)
		signature_result_release(&res[i]);
	free(res);
	if (write_out(&a, recs, n, partial, &status) < 0 && !status) {
		cli_error(NULL, 0, "cannot write output");
		status = DIAG_IOERR;
	}
	for (size_t i = 0; i < n; i++)
		signature_record_release(&recs[i]);
	free(recs);
out:
	signature_inputs_release(&in);
	free(a.operands);
	return status;
}
