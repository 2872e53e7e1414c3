/*
 * What `trend` and `rate` share below the command line: the gate grammar
 * as data (model/series_gate.h), the gates resolved on a series with a
 * metric the kind registry sums from parts (app/series_gates.h), the
 * parameters from what the command line gave and the rule for a kind
 * that cannot be followed (app/trend_run.h, app/rate_run.h), and the
 * naming of LEAK metrics (report/trend_report.h). Series are built by
 * hand from exact lines, so every slope and rate is known.
 */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "app/rate_run.h"
#include "app/series_gates.h"
#include "app/trend_run.h"
#include "model/series_gate.h"
#include "report/trend_report.h"
#include "util/strbuf.h"

#define MIB (1024.0 * 1024.0)

/* ---- the grammar as data ---------------------------------------------- */

static const struct series_gate_per test_pers[] = { { "/x", 1 }, { "/y", 2 } };
static const struct series_gate_form test_form = {
	.prefix = "p:", .word = " w", .pers = test_pers, .npers = 2, .per_default = 7,
	.expected = "'p:METRIC w OP VALUE'", .no_percent = "no percentage here",
};

static int
form_parse(const char *text, char **name, int *per, struct diag *err)
{
	struct diff_gate g;
	diag_clear(err);
	int rc = series_gate_parse(&test_form, text, &g, name, per, err);
	if (rc == 0)
		assert_string_equal(g.text, text);   /* quoted as given */
	diff_gate_release(&g);
	return rc;
}

static void
test_form_parts(void **state)
{
	(void)state;
	char *name;
	int per;
	struct diag err;
	assert_int_equal(form_parse("p:vmmap:A w > 5/y", &name, &per, &err), 0);
	assert_string_equal(name, "vmmap:A");
	assert_int_equal(per, 2);
	free(name);
	assert_int_equal(form_parse("p:classes:B w >= 5  ", &name, &per, &err), 0);
	assert_string_equal(name, "classes:B");
	assert_int_equal(per, 7);
	free(name);
	/* Each missing part said in the form's words. */
	assert_int_equal(form_parse("vmmap:A w > 5", &name, &per, &err), -1);
	assert_string_equal(err.msg, "gate 'vmmap:A w > 5': expected 'p:METRIC w OP VALUE'");
	assert_int_equal(form_parse("p:", &name, &per, &err), -1);
	assert_int_equal(err.code, DIAG_USAGE);
	assert_int_equal(form_parse("p:vmmap:A > 5", &name, &per, &err), -1);
	assert_string_equal(err.msg, "gate 'p:vmmap:A > 5': expected 'p:METRIC w OP VALUE'");
	assert_int_equal(form_parse("p:vmmap:A w > 5%/x", &name, &per, &err), -1);
	assert_string_equal(err.msg, "gate 'p:vmmap:A w > 5%/x': no percentage here");
	free(name);
}

static void
test_rate_form(void **state)
{
	(void)state;
	struct rate_gate g;
	struct diag err;
	diag_clear(&err);
	assert_int_equal(rate_gate_parse("rate:classes:IOSurface >= 5 /iteration", &g, &err), 0);
	assert_string_equal(g.name, "classes:IOSurface");
	assert_string_equal(g.g.text, "rate:classes:IOSurface >= 5 /iteration");
	assert_int_equal(g.g.value, 5);
	rate_gate_release(&g);
	assert_int_equal(rate_gate_parse("classes:IOSurface > 5", &g, &err), -1);
	assert_non_null(strstr(err.msg, "expected 'rate:METRIC OP VALUE'"));
	rate_gate_release(&g);
	assert_int_equal(rate_gate_parse("rate:classes:IOSurface > 5%", &g, &err), -1);
	assert_non_null(strstr(err.msg, "not a percentage"));
	rate_gate_release(&g);
}

/* ---- gates on a series ------------------------------------------------- */

/* 12 samples: N +1 MiB and V +2 MiB a sample, a flat count, exact lines. */
static void
series_build(struct trend_series *s, struct trend_params *p)
{
	trend_series_init(s);
	for (int k = 0; k < 12; k++) {
		size_t i = trend_series_add_sample(s, true);
		trend_series_set(s, i, "vmmap:IOSurface:N.dirty", TREND_BYTES, true, false,
				 64 * MIB + k * MIB);
		trend_series_set(s, i, "vmmap:IOSurface:V.dirty", TREND_BYTES, true, false,
				 8 * MIB + 2 * k * MIB);
		trend_series_set(s, i, "classes:IOSurface", TREND_COUNT, true, false, 40);
	}
	trend_series_finish(s);
	trend_params_default(p, s->nsamples);
	trend_series_analyse(s, p);
}

static int
resolve_one(const char *text, const struct trend_series *s, const struct trend_params *p,
	    struct trend_gate *g, struct diag *err)
{
	diag_clear(err);
	if (trend_gate_parse(text, g, err) < 0)
		fail_msg("'%s': %s", text, err->msg);
	return trend_gates_resolve(g, 1, s, p, err);
}

static void
test_trend_gates_sum(void **state)
{
	(void)state;
	struct trend_series s;
	struct trend_params p;
	struct trend_gate g;
	struct diag err;
	series_build(&s, &p);
	/* No state: the vmmap row sums N and V, 3 MiB a sample. */
	assert_int_equal(resolve_one("vmmap:IOSurface.dirty slope > 2MiB", &s, &p, &g, &err), 0);
	assert_true(g.checked && g.tripped);
	assert_true(g.slope == 3 * MIB);
	trend_gate_release(&g);
	assert_int_equal(resolve_one("vmmap:IOSurface.dirty slope > 3MiB", &s, &p, &g, &err), 0);
	assert_false(g.tripped);   /* '>' passes at exactly the limit */
	trend_gate_release(&g);
	assert_int_equal(resolve_one("vmmap:IOSurface:N.dirty slope >= 1MiB", &s, &p, &g, &err), 0);
	assert_true(g.tripped && g.slope == MIB);
	trend_gate_release(&g);
	/* No part held, and a kind without parts: nothing to sum. */
	assert_int_equal(resolve_one("vmmap:IOAccelerator.dirty slope > 1", &s, &p, &g, &err), -1);
	assert_int_equal(err.code, DIAG_DATA);
	assert_string_equal(err.msg, "gate 'vmmap:IOAccelerator.dirty slope > 1': no capture "
			    "holds 'vmmap:IOAccelerator.dirty'");
	trend_gate_release(&g);
	assert_int_equal(resolve_one("classes:IOSurface.dirty slope > 1", &s, &p, &g, &err), -1);
	assert_int_equal(err.code, DIAG_DATA);
	trend_gate_release(&g);
	trend_series_release(&s);
}

static void
test_trend_gates_kind(void **state)
{
	(void)state;
	struct trend_gate g;
	struct diag err;
	diag_clear(&err);
	assert_int_equal(trend_gate_parse("alloc:pageable slope > 1", &g, &err), 0);
	assert_int_equal(trend_gates_check_kind(&g, 1, "classes", &err), 0);
	assert_int_equal(trend_gates_check_kind(&g, 1, "vmmap", &err), -1);
	assert_int_equal(err.code, DIAG_USAGE);
	assert_string_equal(err.msg, "gate 'alloc:pageable slope > 1': 'alloc:' metrics do not "
			    "apply to vmmap captures");
	trend_gate_release(&g);
	assert_int_equal(trend_gate_parse("nokind:x slope > 1", &g, &err), 0);
	assert_int_equal(trend_gates_check_kind(&g, 1, "vmmap", &err), -1);
	assert_non_null(strstr(err.msg, "unknown metric kind 'nokind'"));
	trend_gate_release(&g);
}

static void
test_rate_gates(void **state)
{
	(void)state;
	struct trend_series s;
	struct trend_params p;
	struct rate_params rp;
	struct rate_series rs;
	struct rate_gate g[3];
	struct diag err;
	series_build(&s, &p);
	rate_params_default(&rp);
	rate_series_analyse(&s, &p, &rp, &rs);
	struct rate_kind_report k = { .kind = "vmmap", .series = &s, .rates = &rs, .params = &p };
	diag_clear(&err);
	assert_int_equal(rate_gate_parse("rate:vmmap:IOSurface:V.dirty > 1MiB", &g[0], &err), 0);
	assert_int_equal(rate_gate_parse("rate:classes:IOSurface >= 0", &g[1], &err), 0);
	assert_int_equal(rate_gate_parse("rate:vmmap:IOSurface:E.dirty > 0", &g[2], &err), 0);
	assert_int_equal(rate_gates_check(g, 2, &k, 1, &err), 0);
	assert_true(g[0].checked && g[0].tripped && g[0].rate == 2 * MIB);
	/* The same count every iteration: a rate of exactly 0, which '>= 0' trips. */
	assert_true(g[1].checked && g[1].tripped && g[1].rate == 0 && g[1].low == 0);
	assert_int_equal(rate_gates_check(g, 3, &k, 1, &err), -1);
	assert_int_equal(err.code, DIAG_DATA);
	assert_non_null(strstr(err.msg, "no capture holds 'vmmap:IOSurface:E.dirty'"));
	for (int i = 0; i < 3; i++)
		rate_gate_release(&g[i]);
	rate_series_release(&rs);
	trend_series_release(&s);
}

/* ---- parameters and kinds ---------------------------------------------- */

static void
test_params_given(void **state)
{
	(void)state;
	struct trend_params p, d;
	struct trend_given tg = { .has_min_percent = true, .min_percent = 10,
				  .has_alpha = true, .alpha = 0.05 };
	trend_params_given(&tg, 20, &p);
	trend_params_default(&d, 20);
	assert_int_equal(p.warmup, d.warmup);
	assert_true(p.min_bytes == d.min_bytes && p.min_percent == 10 && p.alpha == 0.05);

	struct rate_given rg;
	rate_given_default(&rg);
	rg.rp.floor_bytes = MIB;
	rg.rp.floor_count = 2;
	rate_params_given(&rg, 10, &p);
	rate_trend_params(&rg.rp, 10, &d);
	assert_int_equal(p.warmup, d.warmup);
	assert_true(p.min_bytes == d.min_bytes && p.alpha == d.alpha);
	/* A warm-up given: the floor over the window follows it (10 - 3 - 1 steps). */
	rg.t.has_warmup = true;
	rg.t.warmup = 3;
	rate_params_given(&rg, 10, &p);
	assert_int_equal(p.warmup, 3);
	assert_true(p.min_bytes == 6 * MIB && p.min_count == 12);
}

static void
test_kind_left_out(void **state)
{
	(void)state;
	struct diag data, usage;
	diag_set(&data, DIAG_DATA, NULL, 0, 0, "too few");
	diag_set(&usage, DIAG_USAGE, NULL, 0, 0, "--warmup");
	assert_false(trend_run_kind_left_out(1, 0, 0, &data));   /* the only kind */
	assert_true(trend_run_kind_left_out(2, 0, 0, &data));    /* another may follow */
	assert_true(trend_run_kind_left_out(2, 1, 1, &data));    /* one was followed */
	assert_false(trend_run_kind_left_out(2, 1, 0, &data));   /* the last, none followed */
	assert_false(trend_run_kind_left_out(3, 0, 0, &usage));  /* the command line's */
}

static void
test_kinds_to_follow(void **state)
{
	(void)state;
	const char *kinds[8];
	const char *paths[] = { "a.txt" };
	assert_int_equal(trend_run_kinds_to_follow("classes", false, paths, 1, NULL, kinds), 1);
	assert_string_equal(kinds[0], "classes");
	/* One kind as the inputs say, before any operand is opened. */
	assert_int_equal(trend_run_kinds_to_follow(NULL, true, paths, 1, NULL, kinds), 1);
	assert_null(kinds[0]);
}

/* ---- LEAK metrics named ------------------------------------------------ */

static void
leak_series(struct trend_series *s, int nleak, const char *prefix)
{
	trend_series_init(s);
	for (int k = 0; k < 3; k++) {
		size_t i = trend_series_add_sample(s, true);
		for (int m = 0; m <= nleak; m++) {
			char name[32];
			snprintf(name, sizeof(name), "%s%d", prefix, m);
			trend_series_set(s, i, name, TREND_COUNT, true, false, k * (m + 1));
		}
	}
	trend_series_finish(s);
	for (int m = 0; m <= nleak; m++)
		s->metrics[m].r.verdict = m < nleak ? TREND_LEAK : TREND_PLATEAU;
}

static void
test_leak_names(void **state)
{
	(void)state;
	struct trend_series a, b;
	leak_series(&a, 2, "classes:A");
	leak_series(&b, 3, "classes:B");
	struct trend_report ra = { .series = &a }, rb = { .series = &b };
	const struct trend_report *reps[] = { &ra, &rb };
	struct strbuf sb = STRBUF_INIT;
	assert_int_equal(trend_leak_names(reps, 1, &sb), 2);
	assert_string_equal(sb.buf, "classes:A0; classes:A1");
	strbuf_reset(&sb);
	assert_int_equal(trend_leak_names(reps, 2, &sb), 5);
	assert_string_equal(sb.buf, "classes:A0; classes:A1; classes:B0; and 2 more");
	strbuf_release(&sb);
	trend_series_release(&a);
	trend_series_release(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_form_parts),
		cmocka_unit_test(test_rate_form),
		cmocka_unit_test(test_trend_gates_sum),
		cmocka_unit_test(test_trend_gates_kind),
		cmocka_unit_test(test_rate_gates),
		cmocka_unit_test(test_params_given),
		cmocka_unit_test(test_kind_left_out),
		cmocka_unit_test(test_kinds_to_follow),
		cmocka_unit_test(test_leak_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
