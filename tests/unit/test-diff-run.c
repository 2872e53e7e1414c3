/*
 * A diff run's decisions (app/diff_run.h), without the command line: the
 * exit status rules (util/diag.h's statuses), gates that cannot be checked
 * said once with their pairs, the Summary line's named tripped gates, and
 * the pair comparison itself on fixtures/diff/classes-*.txt, whose
 * IOSurface count is 7 before and 12 after (the files say so on line 4).
 * Runs are built by hand here, so what each check must find follows from
 * their construction.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "app/diff_run.h"
#include "report/diff_report.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define FIXTURES IOTALLY_SOURCE_ROOT "/fixtures"

/* What a run said, one message a line ("error: ...", "note: ..."). */
static struct strbuf said;

static const char *
sev_word(enum diag_severity s)
{
	return s == DIAG_ERROR ? "error" : s == DIAG_WARNING ? "warning" : "note";
}

static void
say_diag(void *ctx, const struct diag *d, bool usage)
{
	(void)ctx;
	strbuf_addf(&said, "%s%s: %s\n", usage ? "usage " : "", sev_word(d->severity), d->msg);
}

static void
say_msg(void *ctx, enum diag_severity sev, const char *path, const char *text)
{
	(void)ctx;
	strbuf_addf(&said, "%s%s%s: %s\n", path ? path : "", path ? ": " : "", sev_word(sev), text);
}

static const struct diff_run_say say = { NULL, say_diag, say_msg };

static int
setup(void **state)
{
	(void)state;
	strbuf_init(&said);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	strbuf_release(&said);
	return 0;
}

/* `n` gates parsed from their texts. */
static struct diff_gate *
parse_gates(const char *const *texts, size_t n)
{
	struct diff_gate *g = xcalloc(n, sizeof(*g));
	struct diag err;
	for (size_t i = 0; i < n; i++)
		assert_int_equal(diff_gate_parse(texts[i], &g[i], &err), 0);
	return g;
}

static void
free_gates(struct diff_gate *g, size_t n)
{
	for (size_t i = 0; i < n; i++)
		diff_gate_release(&g[i]);
	free(g);
}

/* A run of folders with `n` pairs named a.txt, b.txt, ..., not yet compared. */
static void
folder_run(struct diff_run *run, const struct diff_run_opts *o, size_t n)
{
	diff_run_init(run, o, &say);
	run->pairs.folders = true;
	run->pairs.pairs = xcalloc(n ? n : 1, sizeof(*run->pairs.pairs));
	run->pairs.npairs = n;
	for (size_t i = 0; i < n; i++) {
		char name[16];
		snprintf(name, sizeof(name), "%c.txt", (char)('a' + i));
		run->pairs.pairs[i].name = xstrdup(name);
		run->pairs.pairs[i].before = xstrdup(name);
		run->pairs.pairs[i].after = xstrdup(name);
	}
	diff_run_start_pairs(run);
}

/* Gates given and no pair at all: 65, with what the folders held. */
static void
test_nothing_evaluated_is_data_error(void **state)
{
	(void)state;
	const char *texts[] = { "classes:IOSurface > +5" };
	struct diff_gate *g = parse_gates(texts, 1);
	struct diff_run_opts o = { .gates = g, .ngates = 1 };
	struct diff_run run;
	folder_run(&run, &o, 0);
	diff_run_check_nothing_evaluated(&run);
	assert_int_equal(diff_run_status(&run), DIAG_DATA);
	assert_non_null(strstr(said.buf, "error: no gate was evaluated: no pair of captures to "
				"compare (BEFORE and AFTER hold no captures)"));
	assert_int_equal(run.ncases, 1);
	diff_run_release(&run);

	/* Without gates, nothing to evaluate is no failure. */
	struct diff_run_opts none = { 0 };
	strbuf_reset(&said);
	folder_run(&run, &none, 0);
	diff_run_check_nothing_evaluated(&run);
	assert_int_equal(diff_run_status(&run), 0);
	assert_int_equal(said.len, 0);
	diff_run_release(&run);
	free_gates(g, 1);
}

/* An unpaired file: a warning and a skipped case; with --strict, 65. */
static void
test_unpaired_strict(void **state)
{
	(void)state;
	for (int strict = 0; strict < 2; strict++) {
		struct diff_run_opts o = { .strict = strict };
		struct diff_run run;
		strbuf_reset(&said);
		folder_run(&run, &o, 0);
		run.pairs.unpaired = xcalloc(1, sizeof(*run.pairs.unpaired));
		run.pairs.unpaired[0] = (struct diff_unpaired){ xstrdup("before/x.txt"), true };
		run.pairs.nunpaired = 1;
		diff_run_check_unpaired(&run);
		assert_int_equal(diff_run_status(&run), strict ? DIAG_DATA : 0);
		assert_string_equal(said.buf, strict
			? "error: has no counterpart of that name in AFTER: not compared\n"
			: "warning: has no counterpart of that name in AFTER: not compared\n");
		assert_int_equal(run.ncases, 1);
		assert_int_equal(run.cases[0].outcome, strict ? DIFF_JUNIT_ERROR : DIFF_JUNIT_SKIPPED);
		diff_run_release(&run);
	}
}

/* A tripped gate is 1; an error before it wins over it. */
static void
test_tripped_and_error_first(void **state)
{
	(void)state;
	struct diff_run_opts o = { 0 };
	struct diff_run run;
	struct diag err;
	folder_run(&run, &o, 1);
	const char *texts[] = { "classes:IOSurface > +4" };
	run.results[0].gates = parse_gates(texts, 1);
	run.results[0].ngates = 1;
	assert_int_equal(diff_gate_check(&run.results[0].gates[0], 7, 12, &err), 0);
	diff_run_check_tripped(&run);
	assert_int_equal(run.tripped, 1);
	assert_int_equal(diff_run_status(&run), DIAG_GATE);
	assert_non_null(strstr(said.buf, "error: gate 'classes:IOSurface > +4' tripped on a.txt: "
				"delta +5 (before 7, after 12), fails when > +4\n"));
	diag_set(&err, DIAG_NOINPUT, "x", 0, 0, "cannot be opened");
	diff_run_error(&run, "inputs", &err, false);
	assert_int_equal(diff_run_status(&run), DIAG_NOINPUT);
	diff_run_release(&run);
}

/* A missing operand is 66: the pair cannot be opened, and the run keeps its status. */
static void
test_missing_operand(void **state)
{
	(void)state;
	struct diff_run_opts o = { 0 };
	struct diff_run run;
	struct diff_pair_out po;
	struct diag err;
	diff_run_init(&run, &o, &say);
	assert_int_equal(diff_pairs_build(&run.pairs, FIXTURES "/diff/classes-before.txt",
					  FIXTURES "/diff/no-such-capture.txt", &err), 0);
	assert_int_equal(run.pairs.npairs, 1);
	diff_run_start_pairs(&run);
	assert_int_equal(diff_run_compare_pair(&run, 0, &po, &err), -1);
	assert_int_equal(err.code, DIAG_NOINPUT);
	diff_pair_out_release(&po);
	diff_run_pair_failed(&run, 0, &err);
	assert_non_null(run.results[0].error);
	assert_int_equal(diff_run_status(&run), DIAG_NOINPUT);
	diff_run_release(&run);
}

/* A gate of no kind: 64, naming the registry's metric kinds. */
static void
test_unknown_gate_kind(void **state)
{
	(void)state;
	const char *texts[] = { "leaks:total > +1" };
	struct diff_gate *g = parse_gates(texts, 1);
	struct diag err;
	assert_int_equal(diff_run_check_gate_kinds(g, 1, &err), -1);
	assert_int_equal(err.code, DIAG_USAGE);
	assert_string_equal(err.msg, "gate 'leaks:total > +1': unknown metric kind 'leaks' (vmmap, "
			    "classes, alloc, track, footprint or heap)");
	free_gates(g, 1);
}

/* One wrong gate on seven pairs: said once, five pairs named and how many more; 64. */
static void
test_gate_error_said_once(void **state)
{
	(void)state;
	struct diff_run_opts o = { 0 };
	struct diff_run run;
	folder_run(&run, &o, 7);
	for (size_t i = 0; i < 7; i++) {
		run.results[i].gate_error = xstrdup("gate 'classes:Nope > +1' cannot be checked: x");
		run.results[i].gate_error_text = xstrdup("classes:Nope > +1");
	}
	diff_run_check_gate_errors(&run);
	assert_string_equal(said.buf, "error: gate 'classes:Nope > +1' cannot be checked: x "
			    "(pairs a.txt, b.txt, c.txt, d.txt, e.txt and 2 more)\n");
	assert_int_equal(diff_run_status(&run), DIAG_USAGE);
	struct diff_summary s;
	diff_run_summary(&run, &s);
	assert_int_equal(s.wrong, 1);
	diff_summary_release(&s);
	diff_run_release(&run);
}

/* The run's Summary line as text. */
static char *
summary_text(const struct diff_run *run)
{
	struct diff_summary s;
	diff_run_summary(run, &s);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	diff_summary_write(f, &s, false);
	fclose(f);
	diff_summary_release(&s);
	return buf;
}

/* The Summary line of `ntripped` tripped gates, one per pair. */
static char *
summary_of(size_t ntripped)
{
	struct diff_run_opts o = { 0 };
	struct diff_run run;
	struct diag err;
	folder_run(&run, &o, ntripped);
	for (size_t i = 0; i < ntripped; i++) {
		const char *texts[] = { "classes:IOSurface > +4" };
		run.results[i].gates = parse_gates(texts, 1);
		run.results[i].ngates = 1;
		run.results[i].compared = true;
		assert_int_equal(diff_gate_check(&run.results[i].gates[0], 7, 12, &err), 0);
	}
	diff_run_check_tripped(&run);
	char *buf = summary_text(&run);
	diff_run_release(&run);
	return buf;
}

/* Up to three tripped gates named, then "and N more". */
static void
test_summary_names_three(void **state)
{
	(void)state;
	char *three = summary_of(3), *five = summary_of(5);
	const char *named = "'classes:IOSurface > +4' on a.txt: +5; "
			    "'classes:IOSurface > +4' on b.txt: +5; "
			    "'classes:IOSurface > +4' on c.txt: +5";
	struct strbuf want = STRBUF_INIT;
	strbuf_addf(&want, "Summary: 3 pairs compared, 0 could not be, 0 files without a "
		    "counterpart; 3 gates tripped: %s\n", named);
	assert_string_equal(three, want.buf);
	strbuf_reset(&want);
	strbuf_addf(&want, "Summary: 5 pairs compared, 0 could not be, 0 files without a "
		    "counterpart; 5 gates tripped: %s; and 2 more\n", named);
	assert_string_equal(five, want.buf);
	strbuf_release(&want);
	free(three);
	free(five);
}

/* Two real captures compared: the gate of their kind checked, the other kind's left out. */
static void
test_compare_pair_fixtures(void **state)
{
	(void)state;
	const char *texts[] = { "classes:IOSurface > +4", "vmmap:gpu.dirty > +1M",
				"classes:NoSuchClassAnywhere > +1" };
	struct diff_gate *g = parse_gates(texts, 3);
	struct diff_run_opts o = { .gates = g, .ngates = 3 };
	struct diff_run run;
	struct diff_pair_out po;
	struct diag err;
	diff_run_init(&run, &o, &say);
	run.pairs.pairs = xcalloc(1, sizeof(*run.pairs.pairs));
	run.pairs.npairs = 1;
	run.pairs.pairs[0].before = xstrdup(FIXTURES "/diff/classes-before.txt");
	run.pairs.pairs[0].after = xstrdup(FIXTURES "/diff/classes-after.txt");
	diff_run_start_pairs(&run);
	assert_int_equal(diff_run_compare_pair(&run, 0, &po, &err), 0);
	const struct diff_pair_result *res = &run.results[0];
	assert_string_equal(res->kind->name, "classes");
	assert_int_equal(res->ngates, 1);           /* the vmmap gate is not its kind's */
	assert_true(res->gates[0].tripped);
	assert_int_equal(res->gates[0].delta, 5);
	assert_string_equal(res->gates[0].phrase, "IOSurface: +5");   /* the summary's words */
	assert_non_null(res->gate_error);           /* a class neither capture has */
	assert_string_equal(res->gate_error_text, "classes:NoSuchClassAnywhere > +1");
	diff_pair_out_release(&po);
	diff_run_check_gate_errors(&run);
	diff_run_check_skipped_gates(&run);
	diff_run_check_tripped(&run);
	assert_int_equal(diff_run_status(&run), DIAG_USAGE);   /* the wrong gate wins over 1 */
	assert_non_null(strstr(said.buf, "note: gate 'vmmap:gpu.dirty > +1M' skipped: no vmmap "
				"captures were compared\n"));
	diff_run_release(&run);
	free_gates(g, 3);
}

/*
 * fixtures/diff/vmmap-after.txt adds 3 IOAccelerator (graphics) regions of
 * 128 MiB, PURGE=N, and 5 IOSurface regions of 1 MiB (vmmap-after.edits):
 * a tripped gate on the gpu family's virtual size is said, on standard
 * error and in the Summary line, in the summary block's words for the
 * largest of them, the exact figures after the phrase on standard error.
 */
static void
test_tripped_vmmap_said_as_summary(void **state)
{
	(void)state;
	const char *texts[] = { "vmmap:gpu.vsize > +256M" };
	struct diff_gate *g = parse_gates(texts, 1);
	struct diff_run_opts o = { .gates = g, .ngates = 1 };
	struct diff_run run;
	struct diff_pair_out po;
	struct diag err;
	folder_run(&run, &o, 1);
	free(run.pairs.pairs[0].before);
	free(run.pairs.pairs[0].after);
	run.pairs.pairs[0].before = xstrdup(FIXTURES "/diff/vmmap-before.txt");
	run.pairs.pairs[0].after = xstrdup(FIXTURES "/diff/vmmap-after.txt");
	assert_int_equal(diff_run_compare_pair(&run, 0, &po, &err), 0);
	run.results[0].compared = true;
	diff_pair_out_release(&po);
	const char *phrase = "IOAccelerator (graphics), non-volatile: +3 \u00d7 128 MiB";
	assert_string_equal(run.results[0].gates[0].phrase, phrase);
	diff_run_check_tripped(&run);
	struct strbuf want = STRBUF_INIT;
	strbuf_addf(&want, "error: gate 'vmmap:gpu.vsize > +256M' tripped on a.txt: %s; delta "
		    "+407896064 (+389 MiB), ", phrase);
	assert_non_null(strstr(said.buf, want.buf));
	char *buf = summary_text(&run);
	strbuf_reset(&want);
	strbuf_addf(&want, "Summary: 1 pair compared, 0 could not be, 0 files without a "
		    "counterpart; 1 gate tripped: 'vmmap:gpu.vsize > +256M' on a.txt: %s\n", phrase);
	assert_string_equal(buf, want.buf);
	free(buf);
	strbuf_release(&want);
	diff_run_release(&run);
	free_gates(g, 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_nothing_evaluated_is_data_error, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unpaired_strict, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tripped_and_error_first, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_operand, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown_gate_kind, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gate_error_said_once, setup, teardown),
		cmocka_unit_test_setup_teardown(test_summary_names_three, setup, teardown),
		cmocka_unit_test_setup_teardown(test_compare_pair_fixtures, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tripped_vmmap_said_as_summary, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
