/* Two footprint captures compared: deltas of known figures only, slack, gates not evaluable. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/diff_footprint.h"

/* A process with one table: IOSurface dirty `dirty` bytes (exact) and, with `swapped`, that column. */
static struct footprint_process *
make(struct footprint_capture *cap, uint64_t dirty, uint64_t slack, bool swapped)
{
	footprint_capture_init(cap);
	struct footprint_process *p = footprint_capture_add_process(cap, 1);
	p->has_table = true;
	p->columns = (1u << FOOTPRINT_DIRTY) | (1u << FOOTPRINT_REGIONS);
	if (swapped)
		p->columns |= 1u << FOOTPRINT_SWAPPED;
	struct footprint_category *c = footprint_process_add(p, "IOSurface", 9, 2);
	c->f[FOOTPRINT_DIRTY] = (struct footprint_figure){ .value = dirty, .slack = slack,
							   .known = true };
	c->f[FOOTPRINT_SWAPPED] = footprint_figure_exact(7);
	c->f[FOOTPRINT_REGIONS] = footprint_figure_exact(3);
	assert_int_equal(footprint_capture_finish(cap, "t", NULL), 0);
	return p;
}

static const struct diff_footprint_row *
row(const struct diff_footprint *d, const char *cat, enum footprint_field f)
{
	for (size_t i = 0; i < d->nrows; i++)
		if (d->rows[i].category && strcmp(d->rows[i].category, cat) == 0 &&
		    d->rows[i].field == f)
			return &d->rows[i];
	return NULL;
}

static void
test_deltas(void **state)
{
	(void)state;
	struct footprint_capture b, a;
	struct diff_footprint d;
	struct footprint_figure fb, fa;
	const char *missing;
	make(&b, 400u << 20, 1u << 19, false);
	make(&a, 912u << 20, 1u << 19, true);
	assert_int_equal(diff_footprint_compare(&d, b.procs[0], a.procs[0], NULL), 0);
	const struct diff_footprint_row *r = row(&d, "IOSurface", FOOTPRINT_DIRTY);
	assert_non_null(r);
	assert_true(r->has_delta);
	assert_int_equal(r->delta, 512 << 20);
	assert_int_equal(r->slack, 1u << 20);
	/* BEFORE has no (Swapped) column: no delta, and the gate names BEFORE. */
	r = row(&d, "IOSurface", FOOTPRINT_SWAPPED);
	assert_non_null(r);
	assert_false(r->has_delta);
	assert_int_equal(diff_footprint_metric(&d, "IOSurface.swapped", &fb, &fa, &missing, NULL), 0);
	assert_string_equal(missing, "BEFORE");
	assert_int_equal(diff_footprint_metric(&d, "gpu.dirty", &fb, &fa, &missing, NULL), 0);
	assert_null(missing);
	assert_int_equal(fa.value - fb.value, 512u << 20);
	/* Neither has phys_footprint: not evaluable, not 0 -> 0. */
	assert_int_equal(diff_footprint_metric(&d, "phys_footprint", &fb, &fa, &missing, NULL), 0);
	assert_string_equal(missing, "BEFORE");
	diff_footprint_release(&d);
	footprint_capture_release(&b);
	footprint_capture_release(&a);
}

/* A process of a capture: `name` (NULL: unnamed) and `pid`, IOSurface dirty `dirty` bytes. */
static void
add_proc(struct footprint_capture *cap, const char *name, uint64_t pid, uint64_t dirty)
{
	struct footprint_process *p = footprint_capture_add_process(cap, 1);
	if (name) {
		p->name = malloc(strlen(name) + 1);
		assert_non_null(p->name);
		memcpy(p->name, name, strlen(name) + 1);
	}
	p->pid = pid;
	p->has_pid = true;
	p->has_table = true;
	p->columns = 1u << FOOTPRINT_DIRTY;
	struct footprint_category *c = footprint_process_add(p, "IOSurface", 9, 2);
	c->f[FOOTPRINT_DIRTY] = footprint_figure_exact(dirty);
}

/*
 * BEFORE: a [1] 10, a [2] 20, b [3] 30, [4] 40, c [5] 50.
 * AFTER:  a [9] 90, a [1] 11, [4] 44, b [7] 70, d [8] 80.
 * Exact matches first: a [1] keeps pid 1 (not the earlier a [9]), [4]
 * matches by pid; then by name in capture order: a [2] -> a [9], b [3] ->
 * b [7]; c [5] is removed, d [8] added.
 */
static void
test_processes_matched(void **state)
{
	(void)state;
	struct footprint_capture b, a;
	struct diff_footprint d;
	footprint_capture_init(&b);
	footprint_capture_init(&a);
	add_proc(&b, "a", 1, 10);
	add_proc(&b, "a", 2, 20);
	add_proc(&b, "b", 3, 30);
	add_proc(&b, NULL, 4, 40);
	add_proc(&b, "c", 5, 50);
	add_proc(&a, "a", 9, 90);
	add_proc(&a, "a", 1, 11);
	add_proc(&a, NULL, 4, 44);
	add_proc(&a, "b", 7, 70);
	add_proc(&a, "d", 8, 80);
	assert_int_equal(footprint_capture_finish(&b, "b", NULL), 0);
	assert_int_equal(footprint_capture_finish(&a, "a", NULL), 0);
	assert_int_equal(diff_footprint_compare(&d, b.summed, a.summed, NULL), 0);
	assert_int_equal(diff_footprint_compare_processes(&d, &b, &a, NULL), 0);
	static const struct {
		enum diff_footprint_match m;
		const char *label;
		bool has_delta;
		int64_t delta;
	} want[] = {
		{ DIFF_FP_SAME, "a [1]", true, 1 },
		{ DIFF_FP_RELAUNCHED, "a [2 -> 9]", true, 70 },
		{ DIFF_FP_RELAUNCHED, "b [3 -> 7]", true, 40 },
		{ DIFF_FP_SAME, "[4]", true, 4 },
		{ DIFF_FP_REMOVED, "c [5]", false, 0 },
		{ DIFF_FP_ADDED, "d [8]", false, 0 },
	};
	assert_int_equal(d.nprocs, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < d.nprocs; i++) {
		char *label = diff_footprint_proc_label(&d.procs[i]);
		assert_string_equal(label, want[i].label);
		free(label);
		assert_int_equal(d.procs[i].match, want[i].m);
		const struct diff_footprint_row *r = row(&d.procs[i].diff, "IOSurface",
							 FOOTPRINT_DIRTY);
		assert_non_null(r);
		assert_int_equal(r->has_delta, want[i].has_delta);
		if (r->has_delta)
			assert_int_equal(r->delta, want[i].delta);
	}
	/* The removed process has no AFTER at all (unknown, never 0). */
	assert_null(d.procs[4].after);
	assert_false(row(&d.procs[4].diff, "IOSurface", FOOTPRINT_DIRTY)->after.known);
	/* The sums: 150 -> 295, every process counted. */
	assert_int_equal(row(&d, "IOSurface", FOOTPRINT_DIRTY)->delta, 295 - 150);

	/* Gates on one process: by name, by label, missing, unknown, ambiguous. */
	struct footprint_figure fb, fa;
	const char *missing;
	bool none;
	struct diag err;
	diag_clear(&err);
	assert_int_equal(diff_footprint_process_metric(&b, &a, "process:b:IOSurface.dirty", &fb,
						       &fa, &missing, &none, &err), 0);
	assert_null(missing);
	assert_int_equal(fb.value, 30);
	assert_int_equal(fa.value, 70);
	assert_int_equal(diff_footprint_process_metric(&b, &a, "process:a [1]:gpu.dirty", &fb, &fa,
						       &missing, &none, &err), 0);
	assert_null(missing);
	assert_int_equal(fa.value - fb.value, 1);
	assert_int_equal(diff_footprint_process_metric(&b, &a, "process:d:gpu.dirty", &fb, &fa,
						       &missing, &none, &err), 0);
	assert_string_equal(missing, "BEFORE");
	assert_true(none);
	assert_int_equal(diff_footprint_process_metric(&b, &a, "process:e:gpu.dirty", &fb, &fa,
						       &missing, &none, &err), -1);
	assert_int_equal(err.code, DIAG_DATA);
	diag_clear(&err);
	assert_int_equal(diff_footprint_process_metric(&b, &a, "process:a:gpu.dirty", &fb, &fa,
						       &missing, &none, &err), -1);
	assert_int_equal(err.code, DIAG_DATA);
	diag_clear(&err);
	assert_int_equal(diff_footprint_process_metric(&b, &a, "process:b", &fb, &fa, &missing,
						       &none, &err), -1);
	assert_int_equal(err.code, DIAG_USAGE);
	diag_clear(&err);
	assert_int_equal(diff_footprint_process_metric(&b, &a, "process:b:gpu.clean", &fb, &fa,
						       &missing, &none, &err), -1);
	assert_int_equal(err.code, DIAG_USAGE);
	diff_footprint_release(&d);
	footprint_capture_release(&b);
	footprint_capture_release(&a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deltas),
		cmocka_unit_test(test_processes_matched),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
