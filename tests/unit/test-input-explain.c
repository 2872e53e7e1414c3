/*
 * What an input is (app/input_explain.h): a vmmap dump recognised from its
 * content, from a path and from a pipe on standard input, which can then
 * be read again from its first byte; the refusal said to another kind's
 * command and not to its own. The truth is the fixture
 * (fixtures/vmmap/synthetic-gpu-purge-states.txt, a vmmap dump) and its
 * bytes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "app/input_explain.h"
#include "app/kind.h"

#define VMMAP IOTALLY_SOURCE_ROOT "/fixtures/vmmap/synthetic-gpu-purge-states.txt"

static void
test_detect_path(void **state)
{
	(void)state;
	struct app_input in;
	struct diag err;
	assert_int_equal(app_input_detect(VMMAP, &in, &err), 0);
	assert_false(in.empty);
	assert_string_equal(app_command_for_kind(in.kind), kind_by_name("vmmap")->name);
	assert_int_equal(app_input_detect(IOTALLY_SOURCE_ROOT "/no-such-file", &in, &err), -1);
	assert_int_equal(err.code, DIAG_NOINPUT);
}

static void
test_detect_pipe_read_again(void **state)
{
	(void)state;
	static char want[1 << 16], got[1 << 16];
	FILE *f = fopen(VMMAP, "rb");
	assert_non_null(f);
	size_t n = fread(want, 1, sizeof(want), f);
	fclose(f);
	assert_true(n > 0);
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], want, n), (ssize_t)n);
	close(fds[1]);
	int saved = dup(STDIN_FILENO);
	assert_true(dup2(fds[0], STDIN_FILENO) >= 0);
	close(fds[0]);

	struct app_input in;
	struct diag err;
	assert_int_equal(app_input_detect("-", &in, &err), 0);
	assert_string_equal(app_command_for_kind(in.kind), kind_by_name("vmmap")->name);
	/* Standard input is now a file read again from its first byte. */
	assert_int_equal(read(STDIN_FILENO, got, sizeof(got)), (ssize_t)n);
	assert_memory_equal(got, want, n);
	dup2(saved, STDIN_FILENO);
	close(saved);
}

static void
test_explain(void **state)
{
	(void)state;
	struct app_input in;
	struct diag err, refused;
	struct strbuf msg = STRBUF_INIT;
	assert_int_equal(app_input_detect(VMMAP, &in, &err), 0);
	const char *own = kind_by_name("vmmap")->name;
	/* Another kind's command: which command reads it. */
	const char *other = NULL;
	for (const struct kind *k = kind_first(); k; k = kind_next(k))
		if (k->command && strcmp(k->name, own) != 0)
			other = k->name;
	assert_non_null(other);
	diag_set(&refused, DIAG_DATA, VMMAP, 0, 0, "not a capture of this kind");
	assert_true(app_input_explain(other, &in, &refused, &msg));
	char want[256];
	snprintf(want, sizeof(want), "'iotally %s' reads it, not 'iotally %s'", own, other);
	assert_non_null(strstr(msg.buf, want));
	strbuf_reset(&msg);
	/* Its own command: the parser's message says more. */
	assert_false(app_input_explain(own, &in, &refused, &msg));
	/* A refusal at a line is the parser's to say. */
	diag_set(&refused, DIAG_DATA, VMMAP, 3, 0, "bad line");
	assert_false(app_input_explain(other, &in, &refused, &msg));
	/* No command (`iotally FILE`): what reads it, without "not". */
	assert_true(app_input_explain(NULL, &in, NULL, &msg));
	assert_null(strstr(msg.buf, "not 'iotally"));
	strbuf_release(&msg);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detect_path),
		cmocka_unit_test(test_detect_pipe_read_again),
		cmocka_unit_test(test_explain),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
