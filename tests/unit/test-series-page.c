/*
 * The page of a series (app/series_page.h): its verdict led by the rate
 * of iterations when there is one, its provenance naming the inputs, its
 * warnings with their paths; and a series bundle followed into a page.
 * And the facts `iotally SERIES|SESSION` lead with. The truth is the
 * construction (the lead, notes and paths given here),
 * fixtures/series-bundle/leak (a series of 21 samples, 20 of them with a
 * vmmap capture), fixtures/bundle/series (2 samples) and fixtures/session
 * (both bundles written).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "app/listing.h"
#include "app/series_page.h"
#include "ingest/bundle.h"
#include "ingest/session_read.h"

#define LEAK IOTALLY_SOURCE_ROOT "/fixtures/series-bundle/leak"
#define SHORT IOTALLY_SOURCE_ROOT "/fixtures/bundle/series"
#define SESSION IOTALLY_SOURCE_ROOT "/fixtures/session"

static void
test_build(void **state)
{
	(void)state;
	struct report r;
	struct diag_list notes;
	const char *paths[] = { "a", "b", "c", "d" };
	diag_list_init(&notes, 5);
	diag_list_add(&notes, DIAG_WARNING, "x.txt", 0, "%s", "left out");
	app_series_page_build(&r, NULL, 0, &notes, paths, 4, true, "2.0 MiB per iteration", NULL);
	assert_true(r.all);
	assert_non_null(strstr(r.verdict, "2.0 MiB per iteration"));
	assert_int_equal(r.nprovenance, 2);
	assert_string_equal(r.provenance[0].key, "Inputs");
	assert_string_equal(r.provenance[0].value, "a, b and 2 more");
	assert_string_equal(r.provenance[1].key, "iotally");
	assert_int_equal(r.nwarnings, 1);
	assert_string_equal(r.warnings[0], "x.txt: left out");
	report_release(&r);

	/* Two inputs are both named; no lead, no verdict of its own. */
	app_series_page_build(&r, NULL, 0, NULL, paths, 2, false, "", NULL);
	assert_string_equal(r.provenance[0].value, "a, b");
	assert_int_equal(r.nwarnings, 0);
	report_release(&r);
	diag_list_release(&notes);
}

static void
test_series_bundle(void **state)
{
	(void)state;
	struct app_series_page p;
	struct diag err;
	const char *paths[] = { LEAK };
	diag_clear(&err);
	assert_int_equal(app_series_page(&p, paths, 1, false, 1, &err), 0);
	assert_true(p.built);
	assert_true(p.run.ok >= 1);
	const char *input = NULL;
	for (size_t i = 0; i < p.report.nprovenance; i++)
		if (strcmp(p.report.provenance[i].key, "Input") == 0)
			input = p.report.provenance[i].value;
	assert_non_null(input);
	assert_non_null(strstr(input, "series-bundle/leak"));
	/* The sample left out (021 holds no vmmap capture) is the caller's to say. */
	size_t said = 0;
	for (size_t i = 0; i < p.run.nk; i++)
		said += p.run.runs[i].warnings.len;
	assert_true(said >= 1);
	app_series_page_release(&p);

	/* A missing operand: no page, an error. */
	const char *none[] = { LEAK "/no-such", LEAK "/no-such2", LEAK "/no-such3" };
	assert_int_equal(app_series_page(&p, none, 3, false, 1, &err), -1);
	assert_false(p.built);
	assert_true(err.code != 0);
	app_series_page_release(&p);
}

/* `iotally SERIES` and `iotally SESSION` lead with their facts. */
static void
test_listing_facts(void **state)
{
	(void)state;
	struct bundle b;
	struct summary_facts f;
	struct diag_list notes;
	struct diag err;
	/* 3 samples or more: the trend's verdict. */
	assert_int_equal(bundle_open(LEAK, &b, &err), 0);
	summary_facts_init(&f, false);
	diag_list_init(&notes, 50);
	app_series_listing_facts(&b, &f, &notes);
	assert_non_null(f.verdict);
	summary_facts_release(&f);
	diag_list_release(&notes);
	bundle_release(&b);
	/* Two samples: no trend, the last sample's cost alone. */
	assert_int_equal(bundle_open(SHORT, &b, &err), 0);
	assert_int_equal(b.nsamples, 2);
	summary_facts_init(&f, false);
	diag_list_init(&notes, 50);
	app_series_listing_facts(&b, &f, &notes);
	assert_null(f.verdict);
	assert_int_equal(notes.len, 0);
	summary_facts_release(&f);
	diag_list_release(&notes);
	bundle_release(&b);

	/* A session: its pair compared; without its after/ bundle, no warning. */
	struct session_index si;
	assert_int_equal(session_index_read(SESSION, &si, &err), 0);
	summary_facts_init(&f, true);
	diag_list_init(&notes, 50);
	app_session_listing_facts(&si, NULL, &f, &notes);
	assert_true(f.pair);
	summary_facts_release(&f);
	diag_list_release(&notes);
	char *after = si.after;
	si.after = NULL;
	summary_facts_init(&f, true);
	diag_list_init(&notes, 50);
	app_session_listing_facts(&si, NULL, &f, &notes);
	assert_int_equal(notes.len, 0);
	summary_facts_release(&f);
	diag_list_release(&notes);
	si.after = after;
	session_index_release(&si);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build),
		cmocka_unit_test(test_series_bundle),
		cmocka_unit_test(test_listing_facts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
