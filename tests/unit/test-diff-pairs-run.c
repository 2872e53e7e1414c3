/*
 * A diff run's pairs compared and written in turn (app/diff_pairs_run.h),
 * over fixtures/diff/: each pair's report in pair order with a failing
 * pair said in its place, the same bytes at -j 1 and -j 2, the first
 * failure's status kept, NDJSON's error row, `--junit -` writing nothing,
 * a usage error said as one only for two files, and an output that
 * cannot be written stopping the pairs. What each case must find follows
 * from its construction: a pair whose AFTER does not exist cannot be
 * opened (66), each other pair is two captures of one kind, and each
 * report's first line names its kind ("iotally diff (KIND): ...").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "app/diff_pairs_run.h"
#include "util/xalloc.h"

#define DIFF IOTALLY_SOURCE_ROOT "/fixtures/diff/"

/* Where the run says a failure: the reports' stream, so the order shows. */
static FILE *said_to;

static void
say_diag(void *ctx, const struct diag *d, bool usage)
{
	(void)ctx;
	fprintf(said_to, "<said %d%s>\n", d->code, usage ? " usage" : "");
}

static void
say_msg(void *ctx, enum diag_severity sev, const char *path, const char *text)
{
	(void)ctx;
	(void)sev;
	(void)path;
	(void)text;
}

static const struct diff_run_say say = { NULL, say_diag, say_msg };

/* The pairs of the folder run: BEFORE and AFTER of each, named a.txt, b.txt, ... */
static const char *const pair_paths[][2] = {
	{ DIFF "classes-before.txt", DIFF "classes-after.txt" },
	{ DIFF "classes-before.txt", DIFF "no-such-capture.txt" },
	{ DIFF "vmmap-before.txt", DIFF "vmmap-after.txt" },
	{ DIFF "track-before.txt", DIFF "track-after.txt" },
};
#define NPAIRS (sizeof(pair_paths) / sizeof(pair_paths[0]))

static void
folder_run(struct diff_run *run, const struct diff_run_opts *o)
{
	diff_run_init(run, o, &say);
	run->pairs.folders = true;
	run->pairs.pairs = xcalloc(NPAIRS, sizeof(*run->pairs.pairs));
	run->pairs.npairs = NPAIRS;
	for (size_t i = 0; i < NPAIRS; i++) {
		char name[16];
		snprintf(name, sizeof(name), "%c.txt", (char)('a' + i));
		run->pairs.pairs[i].name = xstrdup(name);
		run->pairs.pairs[i].before = xstrdup(pair_paths[i][0]);
		run->pairs.pairs[i].after = xstrdup(pair_paths[i][1]);
	}
}

/* What the folder run writes at -j `jobs` (owned), its run kept in *run. */
static char *
run_folders(struct diff_run *run, const struct diff_run_opts *o, unsigned jobs,
	    struct diff_write_opts w, bool reports)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	assert_non_null(out);
	said_to = out;
	folder_run(run, o);
	const struct diff_pairs_output po = { .out = out, .write = w, .reports = reports,
					      .jobs = jobs };
	assert_int_equal(diff_run_pairs(run, &po), 0);
	assert_int_equal(fclose(out), 0);
	return buf;
}

/* Where `needle` is in `hay`: found, and its offset. */
static size_t
offset_of(const char *hay, const char *needle)
{
	const char *at = strstr(hay, needle);
	assert_non_null(at);
	return (size_t)(at - hay);
}

/* Each pair's report in pair order, the failing one said in its turn; -j 2 writes the same. */
static void
test_pairs_in_order(void **state)
{
	(void)state;
	const struct diff_run_opts o = { 0 };
	char *first = NULL;
	for (unsigned jobs = 1; jobs <= 2; jobs++) {
		struct diff_run run;
		char *text = run_folders(&run, &o, jobs, (struct diff_write_opts){ 0 }, true);
		size_t classes = offset_of(text, "iotally diff (classes): ");
		size_t said = offset_of(text, "<said 66>\n");
		size_t vmmap = offset_of(text, "iotally diff (vmmap): ");
		size_t track = offset_of(text, "iotally diff (track): ");
		assert_true(classes < said && said < vmmap && vmmap < track);
		assert_true(run.results[0].compared);
		assert_false(run.results[1].compared);
		assert_int_equal(run.results[1].status, DIAG_NOINPUT);
		assert_non_null(run.results[1].error);
		assert_true(run.results[2].compared);
		assert_true(run.results[3].compared);
		assert_string_equal(run.results[3].kind->name, "track");
		/* The failing pair's status is the run's. */
		assert_int_equal(diff_run_status(&run), DIAG_NOINPUT);
		diff_run_release(&run);
		if (!first)
			first = text;
		else {
			assert_string_equal(text, first);
			free(text);
		}
	}
	free(first);
}

/* NDJSON: the failing pair's row in its turn, before it is said. */
static void
test_ndjson_error_row(void **state)
{
	(void)state;
	const struct diff_run_opts o = { 0 };
	const struct diff_write_opts ndjson = { .ndjson = true };
	struct diff_run run;
	char *text = run_folders(&run, &o, 2, ndjson, true);
	size_t row = offset_of(text, "\"pair\":\"b.txt\",\"status\":\"error\"");
	size_t said = offset_of(text, "<said 66>\n");
	assert_true(offset_of(text, "\"pair\":\"a.txt\"") < row);
	assert_true(row < said && said < offset_of(text, "\"pair\":\"c.txt\""));
	diff_run_release(&run);
	free(text);
}

/* `--junit -`: the pairs are compared and their failure said, no report and no row written. */
static void
test_no_reports(void **state)
{
	(void)state;
	const struct diff_run_opts o = { 0 };
	const struct diff_write_opts ndjson = { .ndjson = true };
	for (unsigned jobs = 1; jobs <= 2; jobs++) {
		struct diff_run run;
		char *text = run_folders(&run, &o, jobs, ndjson, false);
		assert_string_equal(text, "<said 66>\n");
		assert_true(run.results[0].compared);    /* its gates count: nothing failed */
		assert_string_equal(run.results[0].kind->name, "classes");
		assert_int_equal(run.results[1].status, DIAG_NOINPUT);
		assert_int_equal(diff_run_status(&run), DIAG_NOINPUT);
		diff_run_release(&run);
		free(text);
	}
}

/* Two files: an option their kind refuses is a usage error, said as one (64). */
static void
test_two_files_usage(void **state)
{
	(void)state;
	struct diff_run_opts o = { .given = KIND_ACCEPTS_DIRECT };
	o.opts.direct = true;
	struct diff_run run;
	struct diag err;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	said_to = out;
	diff_run_init(&run, &o, &say);
	assert_int_equal(diff_pairs_build(&run.pairs, DIFF "vmmap-before.txt",
					  DIFF "vmmap-after.txt", &err), 0);
	assert_false(run.pairs.folders);
	const struct diff_pairs_output po = { .out = out, .reports = true, .jobs = 2 };
	assert_int_equal(diff_run_pairs(&run, &po), 0);
	fclose(out);
	assert_string_equal(buf, "<said 64 usage>\n");
	assert_int_equal(diff_run_status(&run), DIAG_USAGE);
	diff_run_release(&run);
	free(buf);
}

/* An output that cannot be written: DIAG_IOERR, and no pair after the first is compared. */
static void
test_write_error_stops(void **state)
{
	(void)state;
	const struct diff_run_opts o = { 0 };
	for (unsigned jobs = 1; jobs <= 2; jobs++) {
		FILE *out = fopen("/dev/null", "r");   /* every write fails */
		assert_non_null(out);
		char *said = NULL;
		size_t len = 0;
		said_to = open_memstream(&said, &len);
		struct diff_run run;
		folder_run(&run, &o);
		const struct diff_pairs_output po = { .out = out, .reports = true, .jobs = jobs };
		assert_int_equal(diff_run_pairs(&run, &po), DIAG_IOERR);
		for (size_t i = 1; i < NPAIRS; i++) {
			assert_false(run.results[i].compared);
			assert_null(run.results[i].error);   /* never compared, not failed */
		}
		fclose(said_to);
		assert_null(strstr(said, "<said 66>"));   /* pair b.txt's turn never came */
		fclose(out);
		diff_run_release(&run);
		free(said);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pairs_in_order),
		cmocka_unit_test(test_ndjson_error_row),
		cmocka_unit_test(test_no_reports),
		cmocka_unit_test(test_two_files_usage),
		cmocka_unit_test(test_write_error_stops),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
