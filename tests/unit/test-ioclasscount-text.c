#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ingest/ioclasscount_text.h"

static int64_t
value(const char *s, enum class_count_state want)
{
	int64_t v;
	enum class_count_state st;
	bool overflow;
	assert_int_equal(ioclasscount_parse_value(s, strlen(s), &v, &st, &overflow), 0);
	assert_int_equal(st, want);
	return v;
}

static void
test_values(void **state)
{
	(void)state;
	assert_int_equal(value("4509", CLASS_COUNT_OK), 4509);
	assert_int_equal(value("-1", CLASS_COUNT_OK), -1);
	assert_int_equal(value("4294967295", CLASS_COUNT_OK), -1);            /* 32-bit build */
	assert_int_equal(value("18446744073709551614", CLASS_COUNT_OK), -2);  /* 64-bit build */
	value("<no such class>", CLASS_COUNT_ABSENT);
	value("?? (error reading/converting value)", CLASS_COUNT_UNREADABLE);
	int64_t v;
	enum class_count_state st;
	bool overflow;
	assert_int_equal(ioclasscount_parse_value("99999999999999999999999", 23, &v, &st,
						  &overflow), -1);
	assert_true(overflow);
	assert_int_equal(ioclasscount_parse_value("12 K", 4, &v, &st, &overflow), -1);
	assert_false(overflow);
}

static void
read_text(const char *text, struct classes_capture *cap, struct diag_list *w)
{
	struct line_reader r;
	struct diag err;
	struct classes_read_opts opts = { .need_counts = true };
	line_reader_from_memory(&r, text, strlen(text), "mem", 0);
	classes_capture_init(cap);
	diag_list_init(w, 10);
	assert_int_equal(ioclasscount_text_read(&r, cap, &opts, w, &err), 0);
	line_reader_close(&r);
}

static void
test_runs_queries_alloc(void **state)
{
	(void)state;
	struct classes_capture cap;
	struct diag_list w;
	read_text("$ ioclasscount\n"
		  "A = 1\n"
		  "OSValueObject<a, b> = 2\n"
		  "A = 3\n"
		  "   Instance allocation = 0x0022c718 = 2225 K\n"
		  "IOPCIDevice = 2, Nope = <no such class>, \n"
		  "  Container allocation = 0xffffffffeb9d917d = 18446744073709217637 K\n",
		  &cap, &w);
	assert_int_equal(cap.nsnapshots, 3);
	assert_int_equal(cap.snapshots[0]->nclasses, 2);
	assert_non_null(classes_snapshot_find(cap.snapshots[0], "OSValueObject<a, b>", 19));
	assert_int_equal(cap.snapshots[1]->classes[0].value, 3);
	assert_true(cap.snapshots[1]->alloc_present[ALLOC_INSTANCE]);
	assert_int_equal(cap.snapshots[1]->alloc[ALLOC_INSTANCE], 0x22c718);
	assert_true(cap.snapshots[2]->query);
	assert_int_equal(cap.snapshots[2]->nclasses, 2);
	assert_int_equal(cap.snapshots[2]->classes[1].state, CLASS_COUNT_ABSENT);
	assert_int_equal(cap.snapshots[2]->alloc[ALLOC_CONTAINER], -341995139);
	assert_int_equal(w.len, 1);   /* the prompt line was skipped, with a note */
	diag_list_release(&w);
	classes_capture_release(&cap);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_runs_queries_alloc),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
