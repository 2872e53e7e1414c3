/* Two footprint captures compared: deltas of known figures only, slack, gates not evaluable. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deltas),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
