/*
 * The command table (app/command_help.h): one row per command of no kind,
 * in the order of their ids, and one per kind's command from its registry
 * row, sorted by name and found by name; the nearest name of a mistyped
 * one; the main help listing every row; no placeholder left unsaid in any
 * help text; what `iotally NAME` runs for a command, a session, a bundle,
 * a file, '-', an option, a missing file. The truth is the registry
 * (app/kind.h), the enum of ids and the fixtures (fixtures/session: a
 * tracking session; fixtures/series-bundle/leak: a series).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "app/command_help.h"
#include "app/kind.h"
#include "app/kind_command.h"

static void
test_fixed_rows(void **state)
{
	(void)state;
	assert_int_equal(command_nfixed, COMMAND_KIND);
	for (size_t i = 0; i < command_nfixed; i++) {
		const struct command_text *t = &command_fixed[i];
		char usage[64];
		snprintf(usage, sizeof(usage), "usage: iotally %s ", t->name);
		assert_int_equal(t->id, (int)i);
		assert_memory_equal(t->help, usage, strlen(usage));
		assert_true(strlen(t->summary) > 0);
		assert_null(strchr(t->summary, '\n'));
	}
}

static void
test_list_sorted_and_complete(void **state)
{
	(void)state;
	const struct command_text *v;
	size_t n = command_list(&v);
	size_t kinds = 0;
	for (const struct kind *k = kind_first(); k; k = kind_next(k)) {
		if (!k->command)
			continue;
		kinds++;
		const struct command_text *t = command_find(k->name);
		assert_non_null(t);
		assert_int_equal(t->id, COMMAND_KIND);
		assert_ptr_equal(t->help, k->command->help);
	}
	assert_int_equal(n, command_nfixed + kinds);
	for (size_t i = 1; i < n; i++)
		assert_true(strcmp(v[i - 1].name, v[i].name) < 0);
	for (size_t i = 0; i < command_nfixed; i++)
		assert_int_equal(command_find(command_fixed[i].name)->id, command_fixed[i].id);
	assert_null(command_find("nosuch"));
	assert_null(command_find(""));
}

static void
test_nearest(void **state)
{
	(void)state;
	assert_string_equal(command_nearest("reprot")->name, "report");
	assert_string_equal(command_nearest("signature")->name, "signatures");
	assert_string_equal(command_nearest("TREND")->name, "trend");
	assert_null(command_nearest("zzzzzzzzzz"));
	/* A name is never its own suggestion. */
	assert_null(command_nearest("diff"));
}

static void
test_main_help(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	const struct command_text *v;
	size_t n = command_list(&v);
	command_main_help(&sb);
	assert_memory_equal(sb.buf, "usage: iotally <command>", 24);
	const char *list = strstr(sb.buf, "Commands:\n");
	assert_non_null(list);
	for (size_t i = 0; i < n; i++) {
		char line[256];
		snprintf(line, sizeof(line), "\n  %-10s %s\n", v[i].name, v[i].summary);
		const char *at = strstr(list, line);
		assert_non_null(at);
		list = at + 1;   /* in the table's order */
	}
	assert_null(strchr(sb.buf, '{'));
	strbuf_release(&sb);
}

static void
test_placeholders_said(void **state)
{
	(void)state;
	const struct command_text *v;
	size_t n = command_list(&v);
	for (size_t i = 0; i < n; i++) {
		struct strbuf sb = STRBUF_INIT;
		command_help_expand(&sb, v[i].help);
		assert_null(strstr(sb.buf, "{kinds"));
		assert_null(strstr(sb.buf, "{gate grammar}"));
		assert_true(sb.len >= strlen(v[i].help) - 64);
		strbuf_release(&sb);
	}
}

static void
test_route(void **state)
{
	(void)state;
	const char *fixtures = IOTALLY_SOURCE_ROOT "/fixtures";
	char path[512];
	assert_int_equal(command_route("report"), ROUTE_COMMAND);
	assert_int_equal(command_route(kind_first()->name), ROUTE_COMMAND);
	assert_int_equal(command_route("-"), ROUTE_INPUT);
	assert_int_equal(command_route("--bogus"), ROUTE_UNKNOWN_OPTION);
	assert_int_equal(command_route("-x"), ROUTE_UNKNOWN_OPTION);
	snprintf(path, sizeof(path), "%s/session", fixtures);
	assert_int_equal(command_route(path), ROUTE_SESSION);
	snprintf(path, sizeof(path), "%s/series-bundle/leak", fixtures);
	assert_int_equal(command_route(path), ROUTE_BUNDLE);
	snprintf(path, sizeof(path), "%s/diff/vmmap-after.txt", fixtures);
	assert_int_equal(command_route(path), ROUTE_INPUT);
	/* A plain folder is an input too: the command of its kind reads it. */
	snprintf(path, sizeof(path), "%s/diff-folders/before", fixtures);
	assert_int_equal(command_route(path), ROUTE_INPUT);
	snprintf(path, sizeof(path), "%s/no-such-file.txt", fixtures);
	assert_int_equal(command_route(path), ROUTE_NO_FILE);
	assert_int_equal(command_route("nosuch.txt"), ROUTE_NO_FILE);
	assert_int_equal(command_route("nosuch"), ROUTE_NO_COMMAND);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixed_rows),
		cmocka_unit_test(test_list_sorted_and_complete),
		cmocka_unit_test(test_nearest),
		cmocka_unit_test(test_main_help),
		cmocka_unit_test(test_placeholders_said),
		cmocka_unit_test(test_route),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
