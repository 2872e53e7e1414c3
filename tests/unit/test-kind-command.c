/*
 * The kinds' commands as their registry rows declare them (app/kind_command.h):
 * what cli/cmd_kind.c relies on for every row, and the rules each kind's
 * hooks decide (combinations of options refused, values checked), called
 * as the driver calls them.
 */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "app/kind.h"
#include "app/kind_command.h"

/* The id of option --name in the row's table (fails the test when absent). */
static int
opt_id(const struct kind_command *c, const char *name)
{
	for (size_t i = 0; i < c->noptions; i++)
		if (strcmp(c->options[i].long_name, name) == 0)
			return c->options[i].id;
	fail_msg("no option --%s", name);
	return -1;
}

/* A kind's options being parsed, as the driver holds them. */
struct parsed {
	const struct kind_command *c;
	void *opts;
	struct kind_command_args args;
};

static void
parsed_init(struct parsed *p, const char *kind)
{
	const struct kind *k = kind_by_name(kind);
	assert_non_null(k);
	assert_non_null(k->command);
	p->c = k->command;
	p->opts = calloc(1, p->c->opts_size ? p->c->opts_size : 1);
	assert_non_null(p->opts);
	memset(&p->args, 0, sizeof(p->args));
	if (p->c->init)
		p->c->init(p->opts);
}

static void
parsed_release(struct parsed *p)
{
	if (p->c->release)
		p->c->release(p->opts);
	free(p->opts);
}

/* Take --name[=arg]: the hook's return. */
static int
take(struct parsed *p, const char *name, const char *arg, struct diag *err)
{
	diag_clear(err);
	return p->c->take(p->opts, opt_id(p->c, name), arg, err);
}

/* The check of the whole command line: 0, or -1 with a usage error whose text holds `want`. */
static void
check_refused(struct parsed *p, const char *want)
{
	struct diag err;
	diag_clear(&err);
	assert_int_equal(p->c->check(p->opts, &p->args, &err), -1);
	assert_int_equal(err.code, DIAG_USAGE);
	if (!strstr(err.msg, want))
		fail_msg("'%s' does not say '%s'", err.msg, want);
}

static void
check_accepted(struct parsed *p)
{
	struct diag err;
	diag_clear(&err);
	if (p->c->check && p->c->check(p->opts, &p->args, &err) != 0)
		fail_msg("refused: %s", err.msg);
}

/* Every row with a command gives the driver what it needs. */
static void
test_rows_complete(void **state)
{
	(void)state;
	size_t n = 0;
	for (const struct kind *k = kind_first(); k; k = kind_next(k)) {
		const struct kind_command *c = k->command;
		if (!c)
			continue;
		n++;
		char usage[64];
		snprintf(usage, sizeof(usage), "usage: iotally %s ", k->name);
		assert_true(strncmp(c->help, usage, strlen(usage)) == 0);
		assert_non_null(c->summary);
		assert_non_null(c->no_input);
		assert_non_null(c->take);
		assert_non_null(c->read);
		assert_non_null(c->error_row);
		/* The shared options, handled by the driver under the shared ids. */
		assert_int_equal(opt_id(c, "format"), KIND_OPT_FORMAT);
		assert_int_equal(opt_id(c, "jobs"), KIND_OPT_JOBS);
		assert_int_equal(opt_id(c, "help"), KIND_OPT_HELP);
		for (size_t i = 0; i < c->noptions; i++)
			assert_true(c->options[i].id > 0);
		/* Every kind writes text, and ndjson rows (several inputs). */
		assert_true(c->formats & FORMAT_BIT(FORMAT_TEXT));
		assert_true(c->formats & FORMAT_BIT(FORMAT_NDJSON));
		assert_false(c->formats & FORMAT_BIT(FORMAT_HTML));
	}
	assert_true(n >= 4);
}

/*
 * What a bundle's kernel view reads, which captures are a bundle's GPU
 * captures and an empty input's explanation are row fields.
 */
static void
test_row_fields(void **state)
{
	(void)state;
	size_t kernel = 0;
	for (const struct kind *k = kind_first(); k; k = kind_next(k))
		kernel += k->kernel_view;
	assert_int_equal(kernel, 1);
	assert_true(kind_by_name("classes")->kernel_view);
	/* A bundle's GPU captures: the kinds that measure a process's GPU memory. */
	assert_true(kind_by_name("vmmap")->gpu_memory);
	assert_true(kind_by_name("footprint")->gpu_memory);
	assert_false(kind_by_name("classes")->gpu_memory);
	assert_false(kind_by_name("track")->gpu_memory);
	assert_non_null(strstr(kind_by_name("track")->command->empty_why, "no call site"));
	assert_null(kind_by_name("vmmap")->command->empty_why);
}

static void
test_classes_combinations(void **state)
{
	(void)state;
	struct parsed p;
	struct diag err;
	const char *names[] = { "IOSurface" };

	parsed_init(&p, "classes");
	assert_int_equal(take(&p, "direct", NULL, &err), 0);
	assert_int_equal(take(&p, "tree", NULL, &err), 0);
	check_refused(&p, "--direct and --tree are exclusive");
	parsed_release(&p);

	parsed_init(&p, "classes");
	assert_int_equal(take(&p, "alloc", NULL, &err), 0);
	p.args.names = names;
	p.args.nnames = 1;
	check_refused(&p, "--alloc prints the allocation totals only");
	parsed_release(&p);

	/* Class names select their own line: no filters beside them. */
	parsed_init(&p, "classes");
	assert_int_equal(take(&p, "nonzero", NULL, &err), 0);
	p.args.names = names;
	p.args.nnames = 1;
	check_refused(&p, "class names select their own line");
	parsed_release(&p);

	/* ... but --tree draws under them, with --nonzero. */
	parsed_init(&p, "classes");
	assert_int_equal(take(&p, "nonzero", NULL, &err), 0);
	assert_int_equal(take(&p, "tree", NULL, &err), 0);
	p.args.names = names;
	p.args.nnames = 1;
	check_accepted(&p);
	parsed_release(&p);

	parsed_init(&p, "classes");
	assert_int_equal(take(&p, "hierarchy", "h.plist", &err), 0);
	check_refused(&p, "--hierarchy is used by --direct and --tree only");
	parsed_release(&p);

	parsed_init(&p, "classes");
	assert_int_equal(take(&p, "tree", NULL, &err), 0);
	p.args.format = FORMAT_NDJSON;
	check_refused(&p, "it takes no --alloc, --direct or --tree");
	parsed_release(&p);

	parsed_init(&p, "classes");
	assert_int_equal(take(&p, "top", "0", &err), -1);
	assert_int_equal(err.code, DIAG_USAGE);
	assert_int_equal(take(&p, "top", "3", &err), 0);
	p.args.format = FORMAT_MARKDOWN;
	check_accepted(&p);
	parsed_release(&p);
}

/* A --match pattern that does not compile is a usage error before any input is read. */
static void
test_classes_prepare(void **state)
{
	(void)state;
	struct parsed p;
	struct diag err;
	parsed_init(&p, "classes");
	assert_int_equal(take(&p, "match", "(", &err), 0);
	check_accepted(&p);
	diag_clear(&err);
	assert_int_equal(p.c->prepare(p.opts, &p.args, &err), -1);
	assert_int_equal(err.code, DIAG_USAGE);
	parsed_release(&p);

	parsed_init(&p, "classes");
	assert_int_equal(take(&p, "match", "^IOSurface", &err), 0);
	check_accepted(&p);
	assert_int_equal(p.c->prepare(p.opts, &p.args, &err), 0);
	parsed_release(&p);
}

static void
test_track_combinations(void **state)
{
	(void)state;
	struct parsed p;
	struct diag err;

	parsed_init(&p, "track");
	assert_int_equal(take(&p, "folded", NULL, &err), 0);
	assert_int_equal(take(&p, "by", "module", &err), 0);
	check_refused(&p, "--folded is an output of its own");
	parsed_release(&p);

	parsed_init(&p, "track");
	assert_int_equal(take(&p, "exclude", NULL, &err), 0);
	p.args.format = FORMAT_NDJSON;
	check_refused(&p, "--format ndjson writes one row per call site");
	parsed_release(&p);

	parsed_init(&p, "track");
	assert_int_equal(take(&p, "by", "module", &err), 0);
	p.args.format = FORMAT_MARKDOWN;
	check_refused(&p, "--format markdown reports call sites and modules together");
	parsed_release(&p);

	parsed_init(&p, "track");
	assert_int_equal(take(&p, "by", "file", &err), -1);
	assert_non_null(strstr(err.msg, "expected module, symbol or class"));
	assert_int_equal(take(&p, "size", "64K", &err), 0);
	assert_int_equal(take(&p, "size", "lots", &err), -1);
	assert_int_equal(take(&p, "tag", "1", &err), -1);
	assert_non_null(strstr(err.msg, "VM tags"));
	assert_int_equal(take(&p, "zsize", "1", &err), -1);
	assert_non_null(strstr(err.msg, "zone element sizes"));
	assert_int_equal(take(&p, "suppress", "a.txt", &err), 0);
	assert_int_equal(take(&p, "suppress", "b.txt", &err), -1);
	assert_non_null(strstr(err.msg, "--suppress given twice"));
	parsed_release(&p);
}

static void
test_vmmap_options(void **state)
{
	(void)state;
	struct parsed p;
	struct diag err;

	parsed_init(&p, "vmmap");
	assert_int_equal(take(&p, "surfaces", NULL, &err), 0);
	p.args.format = FORMAT_NDJSON;
	check_refused(&p, "--surfaces is not part of the rows");
	parsed_release(&p);

	parsed_init(&p, "vmmap");
	assert_int_equal(take(&p, "types", "IOSurface,,IOKit", &err), -1);
	assert_non_null(strstr(err.msg, "non-empty type names"));
	assert_int_equal(take(&p, "snapshot", "x", &err), -1);
	assert_int_equal(take(&p, "dump", "2", &err), 0);
	check_accepted(&p);
	parsed_release(&p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_complete),
		cmocka_unit_test(test_row_fields),
		cmocka_unit_test(test_classes_combinations),
		cmocka_unit_test(test_classes_prepare),
		cmocka_unit_test(test_track_combinations),
		cmocka_unit_test(test_vmmap_options),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
