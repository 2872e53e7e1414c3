/*
 * The loop of `trend` and `rate` over the kinds they follow
 * (app/series_follow.h): a kind followed and analysed; the command's
 * analysis ending the loop; a kind the series does not hold left out
 * beside one it holds, and the end of the command when it is the only
 * one. The truth is fixtures/series-bundle/leak (a series of vmmap
 * captures only, 20 of them usable).
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
#include "app/series_follow.h"

#define LEAK IOTALLY_SOURCE_ROOT "/fixtures/series-bundle/leak"

static size_t analysed;

static int
analyse_ok(void *ctx, struct trend_kind_run *t, size_t ok, struct diag *err)
{
	(void)ctx;
	(void)err;
	assert_int_equal(ok, analysed);
	assert_string_equal(t->rep.kind, kind_by_name("vmmap")->name);
	assert_true(t->rep.ninputs >= 20);
	analysed++;
	return 0;
}

static int
analyse_refuses(void *ctx, struct trend_kind_run *t, size_t ok, struct diag *err)
{
	(void)ctx;
	(void)t;
	(void)ok;
	return diag_set(err, DIAG_USAGE, NULL, 0, 0, "a gate of another kind");
}

/* Follow `kinds` over the series with `analyse`: app_series_follow()'s result, *ok. */
static int
follow(const char *const *kinds, size_t nk,
       int (*analyse)(void *, struct trend_kind_run *, size_t, struct diag *), size_t *ok,
       struct diag *err)
{
	struct trend_given given;
	struct app_bundles bs;
	const char *paths[] = { LEAK };
	struct trend_kind_run runs[KINDS_MAX];
	memset(&given, 0, sizeof(given));
	memset(runs, 0, sizeof(runs));
	app_bundles_init(&bs);
	const struct series_follow f = {
		.command = "trend", .none = "nothing followed", .params = trend_params_given,
		.params_ctx = &given, .analyse = analyse,
	};
	analysed = 0;
	int rc = app_series_follow(&f, 1, paths, 1, kinds, nk, &bs, runs, ok, err);
	for (size_t i = 0; i < *ok; i++)
		trend_kind_run_release(&runs[i]);
	app_bundles_release(&bs);
	return rc;
}

/* A kind with a command other than the series' own: the series holds none of it. */
static const char *
absent_kind(void)
{
	for (const struct kind *k = kind_first(); k; k = kind_next(k))
		if (k != kind_by_name("vmmap") && k->command)
			return k->name;
	fail();
	return NULL;
}

static void
test_followed(void **state)
{
	(void)state;
	struct diag err;
	size_t ok;
	const char *kinds[] = { kind_by_name("vmmap")->name };
	assert_int_equal(follow(kinds, 1, analyse_ok, &ok, &err), 0);
	assert_int_equal(ok, 1);
	assert_int_equal(analysed, 1);
}

static void
test_analysis_ends_it(void **state)
{
	(void)state;
	struct diag err;
	size_t ok;
	const char *kinds[] = { kind_by_name("vmmap")->name };
	assert_int_equal(follow(kinds, 1, analyse_refuses, &ok, &err), -1);
	assert_int_equal(ok, 0);
	assert_int_equal(err.code, DIAG_USAGE);
	assert_string_equal(err.msg, "a gate of another kind");
}

static void
test_left_out(void **state)
{
	(void)state;
	struct diag err;
	size_t ok;
	const char *both[] = { absent_kind(), kind_by_name("vmmap")->name };
	assert_int_equal(follow(both, 2, analyse_ok, &ok, &err), 0);
	assert_int_equal(ok, 1);
	/* Alone, the kind the series does not hold ends the command. */
	const char *alone[] = { absent_kind() };
	assert_int_equal(follow(alone, 1, analyse_ok, &ok, &err), -1);
	assert_int_equal(ok, 0);
	assert_true(err.code != 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_followed),
		cmocka_unit_test(test_analysis_ends_it),
		cmocka_unit_test(test_left_out),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
