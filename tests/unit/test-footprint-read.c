/* The footprint reader: units and rounding, unknown columns, elided rows, excerpts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ingest/footprint_read.h"

static int
read_text(const char *text, struct footprint_capture *cap, struct diag *err)
{
	struct line_reader r;
	struct diag_list w;
	struct footprint_read_opts opts = { 0 };
	line_reader_from_memory(&r, text, strlen(text), "t", 0);
	footprint_capture_init(cap);
	diag_list_init(&w, 20);
	int rc = footprint_read(&r, cap, &opts, &w, err);
	diag_list_release(&w);
	line_reader_close(&r);
	return rc;
}

static struct footprint_figure
figure(const char *num, const char *unit, int *rc)
{
	struct footprint_figure f = { 0 };
	*rc = footprint_parse_figure(num, strlen(num), unit, strlen(unit), 16384, &f);
	return f;
}

static void
test_units(void **state)
{
	(void)state;
	int rc;
	struct footprint_figure f = figure("6817", "KB", &rc);
	/* Base 1024, within half a unit: 6817 KB is 6980608 +- 512 (6980448 B printed as 6817 KB). */
	assert_int_equal(rc, 0);
	assert_true(f.known);
	assert_int_equal(f.value, 6817u * 1024u);
	assert_int_equal(f.slack, 512);
	assert_true(6980448 >= f.value - f.slack && 6980448 <= f.value + f.slack);
	f = figure("922", "MB", &rc);
	assert_int_equal(f.value, 922ull << 20);
	assert_int_equal(f.slack, 1u << 19);
	f = figure("5439920", "B", &rc);
	assert_int_equal(f.value, 5439920);
	assert_int_equal(f.slack, 0);
	f = figure("3", "pages", &rc);
	assert_int_equal(f.value, 3 * 16384);
	assert_int_equal(f.slack, 16384);
	figure("9000000", "TB", &rc);
	assert_int_equal(rc, FOOTPRINT_FIGURE_OVERFLOW);
	figure("12", "kB", &rc);
	assert_int_equal(rc, FOOTPRINT_FIGURE_SYNTAX);
	figure("1.5", "MB", &rc);
	assert_int_equal(rc, FOOTPRINT_FIGURE_SYNTAX);
}

static void
test_unknown_columns(void **state)
{
	(void)state;
	struct footprint_capture cap;
	struct diag err;
	struct footprint_figure f;
	assert_int_equal(read_text("p [1]: 64-bit    Footprint: 3 KB (16384 bytes per page)\n"
				   "  Dirty      Clean  Reclaimable    Regions    Category\n"
				   "2 KB 0 B 0 B 1 IOSurface\n"
				   "1 KB 0 B 0 B 1 MALLOC_TINY\n"
				   "3 KB 0 B 0 B 2 TOTAL\n", &cap, &err), 0);
	const struct footprint_process *p = cap.procs[0];
	/* No (Swapped) column: unknown, not 0. */
	assert_int_equal(footprint_metric(p, "IOSurface.swapped", &f, NULL), 0);
	assert_false(f.known);
	assert_int_equal(footprint_metric(p, "IOSurface.dirty", &f, NULL), 0);
	assert_true(f.known);
	assert_int_equal(f.value, 2048);
	/* A category the complete table does not list: 0, known. */
	assert_int_equal(footprint_metric(p, "IOKit.dirty", &f, NULL), 0);
	assert_true(f.known);
	assert_int_equal(f.value, 0);
	assert_int_equal(footprint_metric(p, "gpu.dirty", &f, NULL), 0);
	assert_int_equal(f.value, 2048);
	assert_int_equal(f.slack, 512);
	assert_int_equal(footprint_metric(p, "phys_footprint", &f, NULL), 0);
	assert_false(f.known);
	assert_int_equal(footprint_metric(p, "IOSurface.size", &f, &err), -1);
	assert_int_equal(err.code, DIAG_USAGE);
	assert_int_equal(footprint_metric(p, "gpu.clean", &f, &err), -1);
	footprint_capture_release(&cap);
}

static void
test_elided(void **state)
{
	(void)state;
	struct footprint_capture cap;
	struct diag err;
	struct footprint_figure f;
	assert_int_equal(read_text("  Dirty      Clean  Reclaimable    Regions    Category\n"
				   "2 MB 0 B 0 B 1 IOSurface\n"
				   " ...\n"
				   "3 MB 0 B 0 B 2 TOTAL\n", &cap, &err), 0);
	const struct footprint_process *p = cap.procs[0];
	assert_true(cap.elided);
	assert_null(p->name);
	assert_false(p->has_pid);
	/* A row the author left out is unknown; the GPU sum is a lower bound. */
	assert_int_equal(footprint_metric(p, "IOKit.dirty", &f, NULL), 0);
	assert_false(f.known);
	assert_int_equal(footprint_metric(p, "gpu.dirty", &f, NULL), 0);
	assert_true(f.known && f.at_least);
	assert_int_equal(f.value, 2u << 20);
	footprint_capture_release(&cap);
}

static void
test_errors(void **state)
{
	(void)state;
	struct footprint_capture cap;
	struct diag err;
	assert_int_equal(read_text("nothing here\n", &cap, &err), -1);
	assert_int_equal(err.code, DIAG_DATA);
	footprint_capture_release(&cap);
	assert_int_equal(read_text("[2]: 64-bit    Footprint: 1 B (16384 bytes per page)\n"
				   "  Dirty      Clean  Reclaimable    Regions    Category\n"
				   "9223372036854775807 B 0 B 0 B 1 A\n"
				   "9223372036854775807 B 0 B 0 B 1 IOSurface\n"
				   "9223372036854775807 B 0 B 0 B 1 IOKit\n", &cap, &err), -1);
	/* The GPU sum passes 2^63 - 1: refused, not wrapped. */
	assert_int_equal(err.code, DIAG_DATA);
	footprint_capture_release(&cap);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_unknown_columns),
		cmocka_unit_test(test_elided),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
