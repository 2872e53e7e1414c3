/*
 * iotally redact: a redacted copy of a capture bundle or of one capture
 * saved by hand (capture/redact_tree.h), never in place.
 */

#include "cli/commands.h"

#include "capture/redact_tree.h"
#include "cli/msgs.h"
#include "cli/options.h"
#include "util/array.h"
#include "util/diag.h"
#include "util/size.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	OPT_OUTPUT = 1,
	OPT_WORD,
	OPT_MAX_EXPANSION,
	OPT_HELP,
};

static const struct cli_option options[] = {
	{ "output", 'o', true, OPT_OUTPUT },
	{ "word", 0, true, OPT_WORD },
	{ "max-expansion", 0, true, OPT_MAX_EXPANSION },
	{ "help", 'h', false, OPT_HELP },
};

struct redact_args {
	const char *input;
	const char *output;
	const char **words;
	size_t nwords, words_alloc;
	uint32_t max_expansion;
	bool help;
};

/* One option or operand of the command line into *a (cli_take_fn). */
static int
take_arg(void *ctx, struct cli_parser *p, int id, const char *arg, struct diag *err)
{
	struct redact_args *a = ctx;
	(void)p;
	switch (id) {
	case CLI_OPERAND:
		if (a->input)
			return diag_set(err, DIAG_USAGE, NULL, 0, 0,
					"one input expected, got a second: '%s'", arg);
		a->input = arg;
		return 0;
	case OPT_OUTPUT:
		if (!arg[0])
			return diag_set(err, DIAG_USAGE, NULL, 0, 0, "-o wants a name");
		a->output = arg;
		return 0;
	case OPT_WORD:
		if (strlen(arg) < REDACT_WORD_MIN)
			return diag_set(err, DIAG_USAGE, NULL, 0, 0,
					"--word '%s' is shorter than %d characters: too common "
					"to remove everywhere", arg, REDACT_WORD_MIN);
		a->words = xgrow(a->words, &a->words_alloc, a->nwords + 1, sizeof(*a->words));
		a->words[a->nwords++] = arg;
		return 0;
	case OPT_MAX_EXPANSION: {
		uint64_t v;
		if (parse_u64_dec(arg, strlen(arg), &v) < 0 || v < 1 || v > UINT32_MAX)
			return diag_set(err, DIAG_USAGE, NULL, 0, 0,
					"--max-expansion takes a whole number from 1 to %u, not '%s'",
					UINT32_MAX, arg);
		a->max_expansion = (uint32_t)v;
		return 0;
	}
	}
	return 0;
}

static int
parse_args(int argc, char **argv, struct redact_args *a, struct diag *err)
{
	struct cli_parser p;
	if (cli_parse(&p, options, ARRAY_SIZE(options), argc, argv, OPT_HELP, &a->help, take_arg,
		      a, err) < 0)
		return -1;
	if (!a->help && !a->input)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0, "an input expected: BUNDLE, FILE or -");
	return 0;
}

/* What was removed: one line per rule that hit, with the files it hit in. */
static void
print_removed(const char *out, const struct redact_result *res)
{
	uint64_t all = 0;
	for (int r = 0; r < REDACT_NRULES; r++)
		all += res->total[r];
	const char *shown = strcmp(out, "-") == 0 ? NULL : out;
	if (!all) {
		cli_note(shown, 0, "nothing to redact in %zu file%s (already redacted?); the copy "
			 "has the same content", res->nfiles, res->nfiles == 1 ? "" : "s");
		return;
	}
	for (int r = 0; r < REDACT_NRULES; r++) {
		if (!res->total[r])
			continue;
		struct strbuf files = STRBUF_INIT;
		for (size_t i = 0; i < res->nhits; i++)
			if (res->hits[i].hits[r])
				strbuf_addf(&files, "%s%s %" PRIu64, files.len ? ", " : "",
					    res->input == REDACT_IN_FILE ? "in the file"
									: res->hits[i].name,
					    res->hits[i].hits[r]);
		cli_note(shown, 0, "removed %" PRIu64 " (%s: %s): %s", res->total[r],
			 redact_rule_name((enum redact_rule)r),
			 redact_rule_description((enum redact_rule)r), files.buf);
		strbuf_release(&files);
	}
}

int
cmd_redact(int argc, char **argv)
{
	struct redact_args a = { 0 };
	struct redact_result res;
	struct diag_list warnings;
	struct diag err;
	int status = 0;

	diag_clear(&err);
	if (parse_args(argc, argv, &a, &err) < 0) {
		free(a.words);
		return cli_usage_error(cli_find_command("redact"), &err);
	}
	if (a.help) {
		free(a.words);
		cli_print_command_help("redact");
		return 0;
	}
	char *output = redact_output_name(a.output, a.input);
	struct redact_opts o = { a.input, output, a.words, a.nwords, 0, a.max_expansion };
	diag_list_init(&warnings, 50);
	int rc = redact_run(&o, &res, &warnings, &err);
	cli_print_warnings(&warnings);
	if (rc < 0) {
		status = err.code == DIAG_USAGE
			? cli_usage_error(cli_find_command("redact"), &err)
			: (cli_print_diag(&err), err.code);
	} else {
		print_removed(output, &res);
		if (strcmp(output, "-") != 0)
			cli_out_line(stdout, "%s", output);
	}
	redact_result_release(&res);
	diag_list_release(&warnings);
	free(output);
	free(a.words);
	return status;
}
