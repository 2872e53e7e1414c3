#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/vmmap.h"
#include "util/array.h"

static struct vmmap_region
region(const char *type, uint64_t vsize, uint64_t resident, enum vmmap_purge purge)
{
	struct vmmap_region r;
	memset(&r, 0, sizeof(r));
	r.type = type;
	r.type_len = strlen(type);
	r.has_range = true;
	r.start = 0x100000000ull;
	r.end = r.start + vsize;
	r.vsize = vsize;
	r.resident = resident;
	r.size_columns = 4;
	r.purge = purge;
	r.line = 1;
	return r;
}

static void
setup_capture(struct vmmap_capture *cap)
{
	vmmap_capture_init(cap);
	vmmap_filter_add(&cap->filter, "IOAccelerator", 13);
	vmmap_filter_add(&cap->filter, "IOSurface", 9);
}

static void
test_breakdown_and_histogram(void **state)
{
	(void)state;
	struct vmmap_capture cap;
	struct diag err;
	setup_capture(&cap);
	struct vmmap_dump *d = vmmap_capture_new_dump(&cap, 1);
	struct vmmap_region rs[] = {
		region("IOAccelerator (graphics)", 65536, 65536, VMMAP_PURGE_N),
		region("IOAccelerator (graphics)", 65536, 0, VMMAP_PURGE_V),
		region("IOAccelerator (graphics)", 131072, 0, VMMAP_PURGE_E),
		region("IOAccelerator", 16384, 0, VMMAP_PURGE_NONE),   /* left out: all zero */
		region("IOAccelerator", 16384, 16384, VMMAP_PURGE_NONE),
		region("MALLOC_SMALL", 8388608, 8388608, VMMAP_PURGE_NONE), /* not selected */
	};
	for (size_t i = 0; i < ARRAY_SIZE(rs); i++)
		assert_int_equal(vmmap_dump_add_region(&cap, d, &rs[i], "t", &err), 0);

	const struct vmmap_type_stats **types;
	size_t n = vmmap_dump_sorted_types(d, &types);
	assert_int_equal(n, 2);
	assert_string_equal(types[0]->name, "IOAccelerator");
	assert_string_equal(types[1]->name, "IOAccelerator (graphics)");
	assert_int_equal(types[0]->by_purge[VMMAP_PURGE_NONE].count, 1);
	assert_int_equal(types[0]->lines.count, 2);   /* the cross-check sees both */
	assert_int_equal(types[1]->by_purge[VMMAP_PURGE_E].vsize, 131072);

	const struct vmmap_hist_bucket **b;
	size_t nb = vmmap_type_sorted_hist(types[1], &b);
	assert_int_equal(nb, 2);
	assert_int_equal(b[0]->vsize, 65536);
	assert_int_equal(b[0]->count, 2);
	assert_int_equal(b[0]->purge[VMMAP_PURGE_N], 1);
	assert_int_equal(b[0]->purge[VMMAP_PURGE_V], 1);
	assert_int_equal(b[1]->vsize, 131072);
	free(b);
	free(types);

	struct vmmap_amounts all = vmmap_dump_total(d);
	assert_int_equal(all.count, 4);
	assert_int_equal(all.vsize, 65536 * 2 + 131072 + 16384);
	assert_int_equal(vmmap_dump_total_purge(d, VMMAP_PURGE_V).vsize, 65536);
	vmmap_capture_release(&cap);
}

static void
test_overflow_is_an_error(void **state)
{
	(void)state;
	struct vmmap_capture cap;
	struct diag err;
	setup_capture(&cap);
	struct vmmap_dump *d = vmmap_capture_new_dump(&cap, 1);
	struct vmmap_region r = region("IOSurface", BYTES_MAX / 2 + 1, 0, VMMAP_PURGE_N);
	assert_int_equal(vmmap_dump_add_region(&cap, d, &r, "t", &err), 0);
	assert_int_equal(vmmap_dump_add_region(&cap, d, &r, "t", &err), -1);
	assert_int_equal(err.code, DIAG_DATA);
	assert_non_null(strstr(err.msg, "2^63"));
	vmmap_capture_release(&cap);
}

/* Each type's sum fits; the dump's total of them would not. */
static void
test_dump_total_overflow_is_an_error(void **state)
{
	(void)state;
	struct vmmap_capture cap;
	struct diag err;
	setup_capture(&cap);
	struct vmmap_dump *d = vmmap_capture_new_dump(&cap, 1);
	struct vmmap_region a = region("IOSurface", 0x7000000000000000ull, 0, VMMAP_PURGE_N);
	struct vmmap_region b = region("IOAccelerator", 0x7000000000000000ull, 0, VMMAP_PURGE_N);
	b.line = 2;
	assert_int_equal(vmmap_dump_add_region(&cap, d, &a, "t", &err), 0);
	assert_int_equal(vmmap_dump_add_region(&cap, d, &b, "t", &err), -1);
	assert_int_equal(err.code, DIAG_DATA);
	assert_int_equal(err.line, 2);
	assert_string_equal(err.msg, "byte counts of the dump's regions add up past 2^63 bytes");
	/* Neither the type nor the total took the rejected region. */
	assert_true(vmmap_dump_total(d).vsize == 0x7000000000000000ull);

	/* The same through grouped amounts (JSON reports). */
	struct vmmap_amounts g = { 1, 0x7000000000000000ull, 0, 0, 0 };
	assert_int_equal(vmmap_dump_add_group(&cap, d, "IOAccelerator", 13, VMMAP_PURGE_V,
					      &g, "t", &err), -1);
	assert_string_equal(err.msg, "byte counts of the dump's regions add up past 2^63 bytes");
	vmmap_capture_release(&cap);
}

static struct vmmap_summary_row
row(const char *name, const char *virtual_text, uint64_t count)
{
	struct vmmap_summary_row s;
	memset(&s, 0, sizeof(s));
	s.name = strdup(name);
	s.line = 9;
	s.present = 1u << VMMAP_COL_VIRTUAL;
	strcpy(s.virtual_text, virtual_text);
	s.has_count = true;
	s.count = count;
	return s;
}

static void
test_crosscheck(void **state)
{
	(void)state;
	struct vmmap_capture cap;
	struct diag err;
	struct diag_list w;
	setup_capture(&cap);
	diag_list_init(&w, 10);
	struct vmmap_dump *d = vmmap_capture_new_dump(&cap, 1);
	d->has_region_section = true;
	struct vmmap_region r = region("IOSurface", 19398656, 0, VMMAP_PURGE_N);
	assert_int_equal(vmmap_dump_add_region(&cap, d, &r, "t", &err), 0);
	struct vmmap_summary_row ok = row("IOSurface", "18.5M", 1);
	vmmap_dump_add_summary_row(d, &ok);
	vmmap_dump_crosscheck(d, &cap.filter, "t", &w);
	assert_int_equal(w.len, 0);

	/* A second row that the lines do not back up: both checks speak. */
	struct vmmap_summary_row bad = row("IOAccelerator", "64K", 4);
	vmmap_dump_add_summary_row(d, &bad);
	vmmap_dump_crosscheck(d, &cap.filter, "t", &w);
	assert_int_equal(w.len, 2);
	assert_non_null(strstr(w.items[0].msg, "VIRTUAL 64K"));
	assert_non_null(strstr(w.items[1].msg, "counts 4 regions"));

	/* 10.12/10.13 print REGION COUNT one too high: not a disagreement. */
	diag_list_release(&w);
	diag_list_init(&w, 10);
	d->rows[0].count = 2;
	d->legacy_layout = true;
	d->nrows = 1;
	vmmap_dump_crosscheck(d, &cap.filter, "t", &w);
	assert_int_equal(w.len, 0);
	free(bad.name);
	diag_list_release(&w);
	vmmap_capture_release(&cap);
}

static void
test_filter(void **state)
{
	(void)state;
	struct vmmap_filter f;
	vmmap_filter_init(&f);
	vmmap_filter_add(&f, "IOAccelerator", 13);
	assert_true(vmmap_filter_selects(&f, "IOAccelerator (graphics)", 24));
	assert_false(vmmap_filter_selects(&f, "IOSurface", 9));
	f.all = true;
	assert_true(vmmap_filter_selects(&f, "IOSurface", 9));
	vmmap_filter_release(&f);
}

/* vmmap's PURGE= letters, and '-' for none; every other byte is no state. */
static void
test_purge_from_char(void **state)
{
	(void)state;
	for (int c = 0; c < 256; c++) {
		int want = c == 'N' ? VMMAP_PURGE_N : c == 'V' ? VMMAP_PURGE_V :
			   c == 'E' ? VMMAP_PURGE_E : c == '-' ? VMMAP_PURGE_NONE : -1;
		assert_int_equal(vmmap_purge_from_char((char)c), want);
		if (want >= 0)
			assert_int_equal(vmmap_purge_char((enum vmmap_purge)want), c);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_breakdown_and_histogram),
		cmocka_unit_test(test_overflow_is_an_error),
		cmocka_unit_test(test_dump_total_overflow_is_an_error),
		cmocka_unit_test(test_crosscheck),
		cmocka_unit_test(test_filter),
		cmocka_unit_test(test_purge_from_char),
	};
	return cmocka_run_group_tests_name("vmmap-model", tests, NULL, NULL);
}
