#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cli/formats.h"
#include "cli/options.h"

enum { A = 1, B, C };

static const struct cli_option opts[] = {
	{ "alpha", 'a', false, A },
	{ "beta", 'b', true, B },
	{ "gamma", 0, false, C },
};

static void
test_mixed_options_and_operands(void **state)
{
	(void)state;
	char *argv[] = { (char *)"cmd", (char *)"-a", (char *)"--beta=1", (char *)"file", (char *)"-b", (char *)"2", (char *)"-", (char *)"--", (char *)"--gamma", NULL };
	struct cli_parser p;
	struct diag err;
	const char *arg;
	cli_parser_init(&p, opts, 3, 9, argv);
	assert_int_equal(cli_next(&p, &arg, &err), A);
	assert_int_equal(cli_next(&p, &arg, &err), B);
	assert_string_equal(arg, "1");
	assert_int_equal(cli_next(&p, &arg, &err), CLI_OPERAND);
	assert_string_equal(arg, "file");
	assert_int_equal(cli_next(&p, &arg, &err), B);
	assert_string_equal(arg, "2");
	assert_int_equal(cli_next(&p, &arg, &err), CLI_OPERAND);
	assert_string_equal(arg, "-");
	assert_int_equal(cli_next(&p, &arg, &err), CLI_OPERAND);   /* after -- */
	assert_string_equal(arg, "--gamma");
	assert_int_equal(cli_next(&p, &arg, &err), CLI_DONE);
}

static void
test_errors(void **state)
{
	(void)state;
	struct cli_parser p;
	struct diag err;
	const char *arg;
	char *unknown[] = { (char *)"cmd", (char *)"--delta", NULL };
	cli_parser_init(&p, opts, 3, 2, unknown);
	assert_int_equal(cli_next(&p, &arg, &err), CLI_ERROR);
	assert_int_equal(err.code, DIAG_USAGE);
	assert_string_equal(err.msg, "unknown option '--delta'");

	char *missing[] = { (char *)"cmd", (char *)"--beta", NULL };
	cli_parser_init(&p, opts, 3, 2, missing);
	assert_int_equal(cli_next(&p, &arg, &err), CLI_ERROR);
	assert_string_equal(err.msg, "option '--beta' needs a value");

	char *value[] = { (char *)"cmd", (char *)"--gamma=x", NULL };
	cli_parser_init(&p, opts, 3, 2, value);
	assert_int_equal(cli_next(&p, &arg, &err), CLI_ERROR);
	assert_string_equal(err.msg, "option '--gamma' takes no value");

	char *short_cluster[] = { (char *)"cmd", (char *)"-ab7", (char *)"-z", NULL };
	cli_parser_init(&p, opts, 3, 3, short_cluster);
	assert_int_equal(cli_next(&p, &arg, &err), A);
	assert_int_equal(cli_next(&p, &arg, &err), B);
	assert_string_equal(arg, "7");
	assert_int_equal(cli_next(&p, &arg, &err), CLI_ERROR);
	assert_string_equal(err.msg, "unknown option '-z'");
}

struct taken {
	int ids[8];
	const char *args[8];
	size_t n;
	int fail_on;          /* take() refuses this id */
};

static int
take(void *ctx, struct cli_parser *p, int id, const char *arg, struct diag *err)
{
	struct taken *t = ctx;
	(void)p;
	if (id == t->fail_on)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0, "refused");
	t->ids[t->n] = id;
	t->args[t->n++] = arg;
	return 0;
}

static void
test_parse_loop(void **state)
{
	(void)state;
	struct cli_parser p;
	struct diag err;
	bool help = false;
	/* Options and operands in order; --gamma (the help id here) stops the walk. */
	char *argv[] = { (char *)"cmd", (char *)"in", (char *)"-b", (char *)"2", (char *)"--gamma",
			 (char *)"--delta", NULL };
	struct taken t = { .fail_on = -100 };
	assert_int_equal(cli_parse(&p, opts, 3, 6, argv, C, &help, take, &t, &err), 0);
	assert_true(help);
	assert_int_equal(t.n, 2);
	assert_int_equal(t.ids[0], CLI_OPERAND);
	assert_string_equal(t.args[0], "in");
	assert_int_equal(t.ids[1], B);
	assert_string_equal(t.args[1], "2");

	/* Without the help id the unknown --delta is an error. */
	help = false;
	memset(&t, 0, sizeof(t));
	t.fail_on = -100;
	assert_int_equal(cli_parse(&p, opts, 3, 6, argv, -100, &help, take, &t, &err), -1);
	assert_false(help);
	assert_string_equal(err.msg, "unknown option '--delta'");

	/* take() refusing stops the walk with its error. */
	memset(&t, 0, sizeof(t));
	t.fail_on = B;
	assert_int_equal(cli_parse(&p, opts, 3, 6, argv, C, &help, take, &t, &err), -1);
	assert_string_equal(err.msg, "refused");
	assert_int_equal(t.n, 1);
}

/* --format against the formats a command declares: table order, one spelling. */
static void
test_formats(void **state)
{
	(void)state;
	enum output_format f = FORMAT_TEXT;
	struct diag err;
	unsigned report = FORMAT_BIT(FORMAT_MARKDOWN) | FORMAT_BIT(FORMAT_HTML);
	assert_int_equal(cli_parse_format("html", report, &f, &err), 0);
	assert_int_equal(f, FORMAT_HTML);
	/* A format the command does not declare is refused, naming only its own. */
	assert_int_equal(cli_parse_format("json", report, &f, &err), -1);
	assert_int_equal(err.code, DIAG_USAGE);
	assert_string_equal(err.msg, "unknown format 'json' (expected markdown or html)");
	unsigned vmmap = FORMAT_BIT(FORMAT_TEXT) | FORMAT_BIT(FORMAT_JSON) | FORMAT_BIT(FORMAT_CSV) |
			 FORMAT_BIT(FORMAT_MARKDOWN) | FORMAT_BIT(FORMAT_NDJSON);
	assert_int_equal(cli_parse_format("csv", vmmap, &f, &err), 0);
	assert_int_equal(f, FORMAT_CSV);
	assert_int_equal(cli_parse_format("CSV", vmmap, &f, &err), -1);
	assert_string_equal(err.msg, "unknown format 'CSV' (expected text, json, csv, markdown or "
			    "ndjson)");
	for (int i = 0; i < OUTPUT_FORMATS; i++)
		assert_non_null(output_format_names[i]);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mixed_options_and_operands),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_parse_loop),
		cmocka_unit_test(test_formats),
	};
	return cmocka_run_group_tests_name("options", tests, NULL, NULL);
}
