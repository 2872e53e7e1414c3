/*
 * `iotally signatures`' run (app/signature_run.h): the units of two folders
 * run one after the other and four at once give the same records in the
 * same order; the first failed unit's status; --bucket's pick by a whole
 * id, by a prefix no id starts with. The truth is fixtures/diff-folders/
 * (three pairs: two grew, into two buckets, one did not) and results
 * built here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "app/signature_run.h"

#define FOLDERS IOTALLY_SOURCE_ROOT "/fixtures/diff-folders"

static size_t
run(unsigned jobs, struct signature_record **recs)
{
	struct signature_inputs in;
	struct diag err;
	char before[] = FOLDERS "/before", after[] = FOLDERS "/after";
	char *operands[] = { before, after };
	size_t n;
	bool partial = false;
	assert_int_equal(signature_inputs_build(&in, operands, 2, &err), 0);
	struct signature_result *res = app_signatures_run(&in, jobs);
	assert_int_equal(app_signatures_collect(res, in.n, recs, &n, &partial), 0);
	assert_false(partial);
	for (size_t i = 0; i < in.n; i++) {
		assert_int_equal(res[i].n, 0);   /* the records moved */
		signature_result_release(&res[i]);
	}
	free(res);
	signature_inputs_release(&in);
	return n;
}

static void
release(struct signature_record *recs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		signature_record_release(&recs[i]);
	free(recs);
}

static void
test_same_at_any_jobs(void **state)
{
	(void)state;
	struct signature_record *one, *four;
	size_t n1 = run(1, &one), n4 = run(4, &four);
	assert_int_equal(n1, 3);
	assert_int_equal(n4, n1);
	size_t grew = 0;
	for (size_t i = 0; i < n1; i++) {
		assert_string_equal(one[i].name, four[i].name);
		assert_string_equal(one[i].id, four[i].id);
		grew += one[i].grew;
	}
	assert_int_equal(grew, 2);
	release(one, n1);
	release(four, n4);
}

static void
test_first_failure_status(void **state)
{
	(void)state;
	struct signature_result res[3];
	struct signature_record *recs;
	size_t n;
	bool partial = false;
	for (size_t i = 0; i < 3; i++)
		signature_result_init(&res[i]);
	diag_set(&res[1].err, DIAG_NOINPUT, "x", 0, 0, "cannot open");
	res[2].failed = true;
	diag_set(&res[2].err, DIAG_DATA, "y", 4, 0, "bad row");
	assert_int_equal(app_signatures_collect(res, 3, &recs, &n, &partial), DIAG_NOINPUT);
	assert_true(partial);
	assert_int_equal(n, 0);
	free(recs);
	for (size_t i = 0; i < 3; i++)
		signature_result_release(&res[i]);
}

static void
test_bucket_pick(void **state)
{
	(void)state;
	struct signature_record *recs;
	struct signature_buckets b;
	struct diag err;
	size_t at, n = run(1, &recs);
	signature_buckets_make(&b, recs, n);
	assert_int_equal(b.n, 2);
	const char *id = b.b[1].first_record->id;
	assert_int_equal(app_signature_bucket_pick(&b, id, &at, &err), 0);
	assert_int_equal(at, 1);
	/* A first digit neither id starts with: said with the number of buckets. */
	char none[2] = { 0, 0 };
	for (const char *d = "0123456789abcdef"; *d; d++)
		if (*d != b.b[0].first_record->id[0] && *d != id[0])
			none[0] = *d;
	assert_int_equal(app_signature_bucket_pick(&b, none, &at, &err), -1);
	assert_int_equal(err.code, DIAG_USAGE);
	assert_non_null(strstr(err.msg, "no bucket's id starts with it (2 buckets)"));
	signature_buckets_release(&b);
	release(recs, n);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_at_any_jobs),
		cmocka_unit_test(test_first_failure_status),
		cmocka_unit_test(test_bucket_pick),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
