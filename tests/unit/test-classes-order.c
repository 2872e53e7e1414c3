/*
 * The listing order of classes (classes_snapshot_sorted sorts on a
 * sixteen-byte case-folded key before falling back to classes_name_cmp):
 * on random names from an alphabet chosen to collide under case folding
 * ("a"/"A"), to be prefixes of each other, to share sixteen-byte starts and
 * to hold bytes above 0x7f, every adjacent pair of the result must be in
 * classes_name_cmp() order and every class must appear once.
 *
 * Lookups and repeated names while names come in ascending byte order (no
 * index: binary search) and after the first name out of order (the index),
 * checked against a linear search.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/classes.h"
#include "util/array.h"

static uint32_t
next_random(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 16;
}

static void
test_order_matches_name_cmp(void **state)
{
	(void)state;
	static const char alphabet[] = { 'a', 'A', 'b', 'B', '_', '1', 'z', (char)0xc3 };
	struct classes_capture cap;
	classes_capture_init(&cap);
	struct classes_snapshot *s = classes_capture_add(&cap, CLASSES_SRC_IOREG_XML, 1);
	uint32_t seed = 3;
	char name[40];
	for (int k = 0; k < 5000; k++) {
		/* Half the names start with the same sixteen bytes (up to case). */
		size_t len = 1 + next_random(&seed) % 24, i = 0;
		if (k % 2)
			for (; i < 16 && i < len; i++)
				name[i] = "IOAcceleratorRes"[i] ^ (char)(next_random(&seed) % 2 ? 0x20 : 0);
		for (; i < len; i++)
			name[i] = alphabet[next_random(&seed) % sizeof(alphabet)];
		classes_snapshot_add(s, name, len, k, CLASS_COUNT_OK, (uint64_t)k + 1);
	}
	assert_true(s->nclasses > 4000);
	const struct class_count **v;
	size_t n = classes_snapshot_sorted(s, &v);
	assert_int_equal(n, s->nclasses);
	for (size_t i = 1; i < n; i++)
		assert_true(classes_name_cmp(v[i - 1]->name, v[i - 1]->len, v[i]->name, v[i]->len) < 0);
	/* A permutation: the lines (one per class) add up to those of the snapshot. */
	uint64_t sum = 0, want = 0;
	for (size_t i = 0; i < n; i++) {
		sum += v[i]->line;
		want += s->classes[i].line;
	}
	assert_int_equal(sum, want);
	free(v);
	classes_capture_release(&cap);
}

static const struct class_count *
linear_find(const struct classes_snapshot *s, const char *name)
{
	for (size_t i = 0; i < s->nclasses; i++)
		if (s->classes[i].len == strlen(name) && memcmp(s->classes[i].name, name, s->classes[i].len) == 0)
			return &s->classes[i];
	return NULL;
}

static void
check_finds(const struct classes_snapshot *s, const char *const *probe, size_t n)
{
	for (size_t i = 0; i < n; i++)
		assert_ptr_equal(classes_snapshot_find(s, probe[i], strlen(probe[i])),
				 linear_find(s, probe[i]));
}

static void
test_find_and_repeats(void **state)
{
	(void)state;
	static const char *const ascending[] = { "A", "AB", "ABC", "Ab", "B", "BA", "a", "ab", "b" };
	static const char *const probe[] = {
		"", "A", "AB", "ABC", "ABD", "Ab", "B", "BA", "BB", "a", "ab", "b", "c", "0", "Z",
		"Zebra", "AA",
	};
	struct classes_capture cap;
	classes_capture_init(&cap);
	struct classes_snapshot *s = classes_capture_add(&cap, CLASSES_SRC_IOREG_XML, 1);
	for (size_t i = 0; i < ARRAY_SIZE(ascending); i++) {
		assert_non_null(classes_snapshot_add(s, ascending[i], strlen(ascending[i]), 1,
						     CLASS_COUNT_OK, i + 1));
		check_finds(s, probe, ARRAY_SIZE(probe));
	}
	assert_false(s->indexed);
	/* A repeat of the last name while ascending: refused, counted. */
	assert_null(classes_snapshot_add(s, "b", 1, 2, CLASS_COUNT_OK, 20));
	/* A repeat of an earlier name; then names out of order. */
	assert_null(classes_snapshot_add(s, "AB", 2, 2, CLASS_COUNT_OK, 21));
	assert_true(s->indexed);
	assert_non_null(classes_snapshot_add(s, "AA", 2, 3, CLASS_COUNT_OK, 22));
	assert_non_null(classes_snapshot_add(s, "Zebra", 5, 3, CLASS_COUNT_OK, 23));
	assert_null(classes_snapshot_add(s, "AA", 2, 4, CLASS_COUNT_OK, 24));
	assert_null(classes_snapshot_add(s, "b", 1, 4, CLASS_COUNT_OK, 25));
	assert_int_equal(s->duplicates, 4);
	assert_int_equal(s->nclasses, 11);
	check_finds(s, probe, ARRAY_SIZE(probe));
	/* The first value of a repeated name is the one kept. */
	assert_int_equal(classes_snapshot_find(s, "AB", 2)->line, 2);
	classes_capture_release(&cap);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order_matches_name_cmp),
		cmocka_unit_test(test_find_and_repeats),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
