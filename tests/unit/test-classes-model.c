#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/classes.h"
#include "util/regex.h"

static int
cmp(const char *a, const char *b)
{
	return classes_name_cmp(a, strlen(a), b, strlen(b));
}

static void
test_cf_order(void **state)
{
	(void)state;
	/* '_' (0x5f) sorts before letters once A-Z fold to a-z. */
	assert_true(cmp("_IOServiceNotifier", "AGPM") < 0);
	assert_true(cmp("AGPM", "agpm2") < 0);
	assert_true(cmp("IOPCIDevice", "iopcidevice") < 0);  /* tie broken by bytes */
	assert_true(cmp("iopcidevice", "IOPCIDevice") > 0);
	assert_int_equal(cmp("OSObject", "OSObject"), 0);
	assert_true(cmp("OSValueObject<void*>", "OSValueObjectX") < 0); /* '<' < 'x' */
	assert_true(cmp("IO", "IOService") < 0);
	assert_true(cmp("Zed", "_c") > 0);
}

static void
test_add_find_duplicate(void **state)
{
	(void)state;
	struct classes_capture cap;
	classes_capture_init(&cap);
	struct classes_snapshot *s = classes_capture_add(&cap, CLASSES_SRC_IOREG_TEXT, 3);
	assert_non_null(classes_snapshot_add(s, "IOService", 9, 4, CLASS_COUNT_OK, 3));
	assert_null(classes_snapshot_add(s, "IOService", 9, 7, CLASS_COUNT_OK, 3));
	assert_int_equal(s->duplicates, 1);
	const struct class_count *c = classes_snapshot_find(s, "IOService", 9);
	assert_non_null(c);
	assert_int_equal(c->value, 4);
	assert_null(classes_snapshot_find(s, "ioservice", 9));
	classes_capture_release(&cap);
}

static void
test_int32_reading(void **state)
{
	(void)state;
	int32_t v;
	char name[] = "X";
	struct class_count c = { .name = name, .len = 1, .value = -1, .state = CLASS_COUNT_OK };
	assert_true(class_count_as_int32(&c, &v));
	assert_int_equal(v, -1);
	assert_true(class_count_is_negative(&c));
	c.value = 5000000000LL;
	assert_false(class_count_as_int32(&c, &v));
	c.value = 0;
	c.state = CLASS_COUNT_UNREADABLE;
	assert_false(class_count_as_int32(&c, &v));
	assert_false(class_count_is_nonzero(&c));
}

/* The counts ioclasscount prints otherwise than they were read: the warnings' rule. */
static void
test_count_problem(void **state)
{
	(void)state;
	int32_t v = 0;
	char name[] = "X";
	struct class_count c = { .name = name, .len = 1, .value = 3, .state = CLASS_COUNT_OK };
	assert_int_equal(class_count_problem(&c, &v), CLASS_COUNT_FINE);
	c.value = 0;
	assert_int_equal(class_count_problem(&c, &v), CLASS_COUNT_FINE);
	c.value = -1;
	assert_int_equal(class_count_problem(&c, &v), CLASS_COUNT_OVER_RELEASED);
	assert_int_equal(v, -1);
	c.value = INT32_MIN;
	assert_int_equal(class_count_problem(&c, &v), CLASS_COUNT_OVER_RELEASED);
	/* Below INT32_MIN or above INT32_MAX: no 32-bit counter holds it. */
	c.value = (int64_t)INT32_MIN - 1;
	assert_int_equal(class_count_problem(&c, &v), CLASS_COUNT_NOT_INT32);
	c.value = (int64_t)INT32_MAX + 1;
	assert_int_equal(class_count_problem(&c, &v), CLASS_COUNT_NOT_INT32);
	c.value = INT32_MAX;
	assert_int_equal(class_count_problem(&c, &v), CLASS_COUNT_FINE);
	/* Said by the capture itself ('??', '<no such class>'): no warning of ours. */
	c.state = CLASS_COUNT_UNREADABLE;
	assert_int_equal(class_count_problem(&c, &v), CLASS_COUNT_FINE);
	c.state = CLASS_COUNT_ABSENT;
	assert_int_equal(class_count_problem(&c, &v), CLASS_COUNT_FINE);
}

static void
test_select_top_nonzero(void **state)
{
	(void)state;
	struct classes_capture cap;
	classes_capture_init(&cap);
	struct classes_snapshot *s = classes_capture_add(&cap, CLASSES_SRC_IOREG_XML, 1);
	classes_snapshot_add(s, "b", 1, 5, CLASS_COUNT_OK, 1);
	classes_snapshot_add(s, "A", 1, 5, CLASS_COUNT_OK, 1);
	classes_snapshot_add(s, "c", 1, 0, CLASS_COUNT_OK, 1);
	classes_snapshot_add(s, "D", 1, 9, CLASS_COUNT_OK, 1);
	classes_snapshot_add(s, "gone", 4, 0, CLASS_COUNT_ABSENT, 1);
	const struct class_count **v;
	struct classes_filter all = { 0 };
	size_t n = classes_snapshot_select(s, &all, &v);
	assert_int_equal(n, 5);   /* a saved "<no such class>" answer is listed again */
	assert_string_equal(v[0]->name, "A");
	assert_string_equal(v[3]->name, "D");
	assert_string_equal(v[4]->name, "gone");
	free(v);
	/* Several --match patterns: a name matching any of them is kept. */
	struct diag err;
	struct regex *re[2] = { regex_compile("^b$", &err), regex_compile("(?i)^d", &err) };
	assert_non_null(re[0]);
	assert_non_null(re[1]);
	struct classes_filter two = { .match = (const struct regex *const *)re, .nmatch = 2 };
	n = classes_snapshot_select(s, &two, &v);
	assert_int_equal(n, 2);
	assert_string_equal(v[0]->name, "b");
	assert_string_equal(v[1]->name, "D");
	free(v);
	two.nmatch = 1;   /* the first alone: case-sensitive, "b" only */
	n = classes_snapshot_select(s, &two, &v);
	assert_int_equal(n, 1);
	free(v);
	regex_free(re[0]);
	regex_free(re[1]);
	struct classes_filter top = { .nonzero = true, .has_top = true, .top = 2 };
	n = classes_snapshot_select(s, &top, &v);
	assert_int_equal(n, 2);
	assert_string_equal(v[0]->name, "D");
	assert_string_equal(v[1]->name, "A");   /* tie at 5: listing order */
	free(v);
	classes_capture_release(&cap);
}

static void
test_alloc_keys(void **state)
{
	(void)state;
	assert_int_equal(alloc_kind_from_key("IOMalloc allocation", 19), ALLOC_IOMALLOC);
	assert_int_equal(alloc_kind_from_key("Pageable allocation", 19), ALLOC_PAGEABLE);
	assert_int_equal(alloc_kind_from_key("IOMalloc", 8), -1);
	assert_string_equal(alloc_kind_key(ALLOC_INSTANCE), "Instance allocation");
	/* The metric and JSON names (docs/json/classes.schema.json "allocation"), one table. */
	static const char *const names[ALLOC_KINDS] = { "instance", "container", "iomalloc",
							"pageable" };
	for (int k = 0; k < ALLOC_KINDS; k++) {
		assert_string_equal(alloc_kind_name((enum alloc_kind)k), names[k]);
		assert_int_equal(alloc_kind_from_name(names[k]), k);
	}
	assert_int_equal(alloc_kind_from_name("Instance"), -1);
	assert_int_equal(alloc_kind_from_name("instance allocation"), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cf_order),
		cmocka_unit_test(test_add_find_duplicate),
		cmocka_unit_test(test_int32_reading),
		cmocka_unit_test(test_count_problem),
		cmocka_unit_test(test_select_top_nonzero),
		cmocka_unit_test(test_alloc_keys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
