/*
 * The one input path of the kinds' commands (app/sources_read.h): each
 * source read in turn, a failure counted and given its row, the first
 * error's status kept, the same at -j 1 and -j 4; and the one sentence of
 * an empty input. The truth of each case is its construction: an empty
 * fixture (fixtures/vmmap/empty.txt), a vmmap fixture, a path that does
 * not exist, and the registry rows' own empty_why.
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
#include "app/sources_read.h"
#include "util/diag.h"

#define FIXTURES IOTALLY_SOURCE_ROOT "/fixtures"

/* What the stubs saw, in the order they saw it. */
struct seen {
	char order[64];             /* 'r' read, 's' said, 'e' error row, per source */
	size_t nread, nsaid, nrows;
};
static struct seen seen;

static int
stub_read(void *ctx, struct app_source *src, struct diag *err)
{
	(void)ctx;
	(void)err;
	assert_non_null(strstr(src->path, "synthetic-gpu-purge-states.txt"));
	seen.nread++;
	return 0;
}

static int
stub_say(const char *command, const struct app_source *src, const struct diag *e)
{
	(void)src;
	assert_non_null(command);
	strncat(seen.order, "s", sizeof(seen.order) - strlen(seen.order) - 1);
	seen.nsaid++;
	return e->code;
}

static int
stub_row(FILE *out, const struct ndjson_source *src, const char *error)
{
	(void)out;
	(void)src;
	assert_non_null(strstr(error, "error: "));
	strncat(seen.order, "e", sizeof(seen.order) - strlen(seen.order) - 1);
	seen.nrows++;
	return 0;
}

/* The sources are read as vmmap captures (the stub reader takes the vmmap fixture). */
static const char *
vmmap_command(void)
{
	const struct kind *k = kind_by_name("vmmap");
	assert_non_null(k);
	return k->name;
}

static void
read_three(unsigned jobs)
{
	struct app_sources s;
	struct diag_list w;
	const char *operands[] = {
		FIXTURES "/vmmap/empty.txt",
		FIXTURES "/vmmap/synthetic-gpu-purge-states.txt",
		FIXTURES "/vmmap/no-such-file.txt",
	};
	memset(&seen, 0, sizeof(seen));
	app_sources_init(&s);
	diag_list_init(&w, 10);
	for (size_t i = 0; i < 3; i++)
		app_sources_add_operand(&s, vmmap_command(), operands[i], &w);
	s.jobs = jobs;
	const struct app_sources_reading r = {
		.command = vmmap_command(), .read = stub_read, .say_failure = stub_say,
		.error_row = stub_row,
	};
	/* The empty input is the first error: its status is the run's. */
	assert_int_equal(app_sources_read_each(&s, &r), DIAG_DATA);
	assert_int_equal(s.nfailed, 2);
	assert_int_equal(seen.nread, 1);
	/* The empty input is said by the reading itself, the missing one by the command. */
	assert_int_equal(seen.nsaid, 1);
	assert_int_equal(seen.nrows, 2);
	assert_string_equal(seen.order, "ese");
	diag_list_release(&w);
	app_sources_release(&s);
}

static void
test_read_each_one_job(void **state)
{
	(void)state;
	read_three(1);
}

static void
test_read_each_four_jobs(void **state)
{
	(void)state;
	read_three(4);
}

static void
test_say_empty(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	app_say_empty(f, NULL, "a.txt");
	fclose(f);
	assert_string_equal(buf, "iotally: a.txt: error: the input is empty\n");
	free(buf);
	/* A kind whose row says why its capture can be empty says it after. */
	for (const struct kind *k = kind_first(); k; k = kind_next(k)) {
		if (!k->command)
			continue;
		f = open_memstream(&buf, &len);
		app_say_empty(f, k->name, "-");
		fclose(f);
		const char *why = k->command->empty_why;
		assert_non_null(strstr(buf, "<stdin>: error: the input is empty"));
		if (why)
			assert_non_null(strstr(buf, why));
		else
			assert_string_equal(buf, "iotally: <stdin>: error: the input is empty\n");
		free(buf);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_each_one_job),
		cmocka_unit_test(test_read_each_four_jobs),
		cmocka_unit_test(test_say_empty),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
