/*
 * `iotally report` around its readers (app/report_inputs.h): which shape
 * the operands make, what they may not be, how a manifest's steps are
 * summed up, a one-bundle report of a fixture, and the registry rows the
 * commands ask instead of naming a kind. The truth of each case is its
 * construction: the operands given, a struct bundle built here, the
 * statuses fixtures/bundle/partial/manifest.json lists (host.sw_vers,
 * kernel.ioreg_root, kernel.ioclasscount ok; kernel.track skipped;
 * target.vmmap denied), and bundle/manifest.h's order of kinds.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "app/kind.h"
#include "app/report_inputs.h"
#include "bundle/manifest.h"
#include "ingest/bundle.h"
#include "model/report.h"
#include "util/strbuf.h"

#define FIXTURES IOTALLY_SOURCE_ROOT "/fixtures"

static void
test_operands_refused(void **state)
{
	(void)state;
	struct diag err;
	const char *two_stdin[] = { "-", "-" };
	const char *one[] = { "a.txt" };
	const char *three[] = { "a.txt", "-", "c.txt" };

	diag_clear(&err);
	assert_int_equal(report_operands_check(NULL, 0, 0, &err), -1);
	assert_int_equal(err.code, DIAG_USAGE);
	assert_string_equal(err.msg, "an input expected: INPUT [AFTER]");
	diag_clear(&err);
	assert_int_equal(report_operands_check(two_stdin, 2, 0, &err), -1);
	assert_string_equal(err.msg, "only one of BEFORE and AFTER can be standard input");
	diag_clear(&err);
	assert_int_equal(report_operands_check(one, 1, 1, &err), -1);
	assert_string_equal(err.msg, "--fail-if compares two captures: give BEFORE and AFTER");
	diag_clear(&err);
	assert_int_equal(report_operands_check(three, 3, 1, &err), -1);
	assert_non_null(strstr(err.msg, "'iotally trend --fail-if' gates a series"));
	diag_clear(&err);
	assert_int_equal(report_operands_check(three, 3, 0, &err), -1);
	assert_non_null(strstr(err.msg, "standard input cannot be one of its samples"));
	/* Standard input once, and gates on a pair, are fine. */
	const char *pair[] = { "-", "b.txt" };
	diag_clear(&err);
	assert_int_equal(report_operands_check(pair, 2, 1, &err), 0);
}

static void
test_shapes(void **state)
{
	(void)state;
	struct diag err;
	enum report_shape shape;
	const char *capture[] = { FIXTURES "/diff/vmmap-before.txt" };
	const char *pair[] = { FIXTURES "/diff/vmmap-before.txt", FIXTURES "/diff/vmmap-after.txt" };
	const char *bundle[] = { FIXTURES "/bundle/complete" };
	const char *bundles[] = { FIXTURES "/bundle-pair/before", FIXTURES "/bundle-pair/after.tar.gz" };
	const char *stdin_one[] = { "-" };
	const char *mixed[] = { FIXTURES "/diff/vmmap-before.txt", FIXTURES "/bundle/complete" };
	const char *series[] = { "a", "b", "c" };

	diag_clear(&err);
	assert_int_equal(report_shape_of(capture, 1, &shape, &err), 0);
	assert_int_equal(shape, REPORT_SHAPE_CAPTURE);
	assert_int_equal(report_shape_of(stdin_one, 1, &shape, &err), 0);
	assert_int_equal(shape, REPORT_SHAPE_CAPTURE);
	assert_int_equal(report_shape_of(pair, 2, &shape, &err), 0);
	assert_int_equal(shape, REPORT_SHAPE_PAIR);
	assert_int_equal(report_shape_of(bundle, 1, &shape, &err), 0);
	assert_int_equal(shape, REPORT_SHAPE_BUNDLE);
	assert_int_equal(report_shape_of(bundles, 2, &shape, &err), 0);
	assert_int_equal(shape, REPORT_SHAPE_BUNDLES);
	/* Three operands are a series before anything is opened (they need not exist). */
	assert_int_equal(report_shape_of(series, 3, &shape, &err), 0);
	assert_int_equal(shape, REPORT_SHAPE_SERIES);
	/* A bundle beside a capture: the bundle is named, the other shown. */
	assert_int_equal(report_shape_of(mixed, 2, &shape, &err), -1);
	assert_int_equal(err.code, DIAG_USAGE);
	assert_string_equal(err.file, mixed[1]);
	assert_non_null(strstr(err.msg, "is a capture bundle and "));
}

static void
test_steps_summary(void **state)
{
	(void)state;
	char skipped[] = "skipped", denied[] = "denied", step[] = "step";
	struct bundle_step_note missed[] = {
		{ .step = step, .status = skipped },
		{ .step = step, .status = denied },
		{ .step = step, .status = skipped },
	};
	struct bundle b;
	memset(&b, 0, sizeof(b));
	b.nsteps = 16;
	b.missed = missed;
	b.nmissed = 3;
	b.complete = true;
	struct strbuf sb = STRBUF_INIT;
	assert_string_equal(bundle_report_steps(&b, &sb), "16: 13 ok, 2 skipped, 1 denied");
	strbuf_release(&sb);
	b.complete = false;
	b.nmissed = 0;
	assert_string_equal(bundle_report_steps(&b, &sb), "16: 16 ok (the capture is partial)");
	strbuf_release(&sb);
}

static const char *
provenance(const struct report *r, const char *key)
{
	for (size_t i = 0; i < r->nprovenance; i++)
		if (strcmp(r->provenance[i].key, key) == 0)
			return r->provenance[i].value;
	return NULL;
}

static bool
has_warning(const struct report *r, const char *text)
{
	for (size_t i = 0; i < r->nwarnings; i++)
		if (strcmp(r->warnings[i], text) == 0)
			return true;
	return false;
}

static void
test_one_bundle(void **state)
{
	(void)state;
	struct bundle b;
	struct report r;
	struct diag err;
	struct diag_list notes;
	diag_clear(&err);
	diag_list_init(&notes, 50);
	assert_int_equal(bundle_open(FIXTURES "/bundle/partial", &b, &err), 0);
	assert_int_equal(bundle_report_build(&r, &b, false, &notes, &err), 0);
	/* The manifest says "complete": false. */
	assert_string_equal(provenance(&r, "Steps"),
			    "5: 3 ok, 1 skipped, 1 denied (the capture is partial)");
	assert_non_null(provenance(&r, "Skipped"));
	assert_non_null(strstr(provenance(&r, "Skipped"), "kernel.track: "));
	/* The denied step is a warning, with the tool's message. */
	bool denied = false;
	for (size_t i = 0; i < r.nwarnings; i++)
		denied |= strncmp(r.warnings[i], "step target.vmmap denied", 24) == 0;
	assert_true(denied);
	assert_int_equal(has_warning(&r, "redaction was OFF for this capture: review it before "
				       "sharing it"), !b.redaction_enabled);
	report_release(&r);
	bundle_release(&b);
	diag_list_release(&notes);
}

/* The registry rows the commands ask instead of naming a kind. */
static void
test_registry_capture_fields(void **state)
{
	(void)state;
	/* --repeat's snapshot without --kinds: footprint alone, which does not pause the target. */
	assert_int_equal(kind_repeat_snapshots(), 1u << BUNDLE_KIND_FOOTPRINT);
	/* Only the classes row joins more of a bundle to its report (ioalloccount's totals). */
	for (const struct kind *k = kind_first(); k; k = kind_next(k))
		assert_int_equal(k->bundle_report_more != NULL, strcmp(k->name, "classes") == 0);
	/*
	 * The capture's steps after the host facts, as `iotally capture --help`
	 * lists them: ioreg, ioclasscount, ioalloccount, ioclasscount --track,
	 * footprint, and last vmmap, which pauses the target.
	 */
	static const char *const ids[] = { "kernel.ioreg_root", "kernel.ioclasscount",
		"kernel.ioalloccount", "kernel.track", "target.footprint", "target.vmmap" };
	static const enum bundle_kind kinds[] = { BUNDLE_KIND_CLASSES, BUNDLE_KIND_CLASSES,
		BUNDLE_KIND_CLASSES, BUNDLE_KIND_TRACK, BUNDLE_KIND_FOOTPRINT, BUNDLE_KIND_VMMAP };
	struct capture_plan plan;
	kind_capture_plan(&plan);
	assert_int_equal(plan.n, 6);
	for (size_t i = 0; i < plan.n; i++) {
		assert_string_equal(plan.steps[i].def->id, ids[i]);
		assert_int_equal(plan.steps[i].kind, kinds[i]);
	}
	assert_int_equal(plan.repeat_kinds, 1u << BUNDLE_KIND_FOOTPRINT);
	assert_string_equal(plan.steps[4].def->not_installed, "footprint is not installed");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_operands_refused),
		cmocka_unit_test(test_shapes),
		cmocka_unit_test(test_steps_summary),
		cmocka_unit_test(test_one_bundle),
		cmocka_unit_test(test_registry_capture_fields),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
