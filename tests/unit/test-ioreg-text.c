#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ingest/classes_read.h"
#include "ingest/ioreg_text.h"

struct fixture {
	struct classes_capture cap;
	struct classes_snapshot *s;
	struct diag err;
	bool truncated;
};

static int
scan(struct fixture *f, const char *value)
{
	classes_capture_init(&f->cap);
	f->s = classes_capture_add(&f->cap, CLASSES_SRC_IOREG_TEXT, 1);
	diag_clear(&f->err);
	return ioreg_text_scan_diagnostics(value, strlen(value), f->s, "t", 7, 30,
					   &f->truncated, &f->err);
}

static int64_t
value_of(const struct fixture *f, const char *name)
{
	const struct class_count *c = classes_snapshot_find(f->s, name, strlen(name));
	assert_non_null(c);
	return c->value;
}

static void
test_any_key_order_hex_signext(void **state)
{
	(void)state;
	struct fixture f;
	assert_int_equal(scan(&f, "{\"Classes\"={\"B\"=0x2,\"a\"=0x0,\"Zed\"=0xffffffffffffffff},"
			      "\"IOMalloc allocation\"=18446744073367556477,\"Instance allocation\"=5}"),
			 0);
	assert_int_equal(f.s->nclasses, 3);
	assert_int_equal(value_of(&f, "B"), 2);
	assert_int_equal(value_of(&f, "Zed"), -1);
	assert_true(f.s->hex);
	assert_true(f.s->alloc_present[ALLOC_IOMALLOC]);
	assert_int_equal(f.s->alloc[ALLOC_IOMALLOC], -341995139);
	assert_false(f.s->alloc_present[ALLOC_PAGEABLE]);
	classes_capture_release(&f.cap);
}

static void
test_unknown_keys_skipped(void **state)
{
	(void)state;
	struct fixture f;
	assert_int_equal(scan(&f, "{\"Future\"={\"x\"=(1,<00ff>,[Yes,\"a,}b\"])},\"Classes\"={},"
			      "\"Other\"=No}"), 0);
	assert_true(f.s->has_classes);
	assert_int_equal(f.s->nclasses, 0);
	for (int k = 0; k < ALLOC_KINDS; k++)
		assert_false(f.s->alloc_present[k]);
	classes_capture_release(&f.cap);
	/*
	 * An unknown key whose value holds a "Classes" dictionary and an
	 * allocation name, before and after the real ones: only the top-level
	 * entries count, and the skip ends where the unknown value ends (the
	 * real classes after it are all read).
	 */
	assert_int_equal(scan(&f, "{\"Future\"={\"Classes\"={\"Decoy\"=9},\"Instance allocation\"=99,"
			      "\"s\"=\"},{\"},\"Classes\"={\"A\"=4,\"B\"=0},"
			      "\"Instance allocation\"=7,\"Later\"=(\"Classes\",{\"Decoy2\"=1})}"), 0);
	assert_true(f.s->has_classes);
	assert_int_equal(f.s->nclasses, 2);
	assert_int_equal(value_of(&f, "A"), 4);
	assert_int_equal(value_of(&f, "B"), 0);
	assert_null(classes_snapshot_find(f.s, "Decoy", 5));
	assert_null(classes_snapshot_find(f.s, "Decoy2", 6));
	assert_true(f.s->alloc_present[ALLOC_INSTANCE]);
	assert_int_equal(f.s->alloc[ALLOC_INSTANCE], 7);
	assert_false(f.s->alloc_present[ALLOC_CONTAINER]);
	classes_capture_release(&f.cap);
}

static void
test_template_names(void **state)
{
	(void)state;
	struct fixture f;
	assert_int_equal(scan(&f, "{\"Classes\"={\"OSValueObject<unsigned int>\"=3,"
			      "\"OSValueObject<void*>\"=1}}"), 0);
	/* The names whole, '<', '>', '*' and the blank inside them included. */
	assert_int_equal(f.s->nclasses, 2);
	assert_int_equal(value_of(&f, "OSValueObject<unsigned int>"), 3);
	assert_int_equal(value_of(&f, "OSValueObject<void*>"), 1);
	assert_null(classes_snapshot_find(f.s, "OSValueObject", 13));
	classes_capture_release(&f.cap);
}

static void
test_truncated_mid_name(void **state)
{
	(void)state;
	struct fixture f;
	assert_int_equal(scan(&f, "{\"Instance allocation\"=1,\"Classes\"={\"A\"=1,\"IOGPUKern"), -1);
	assert_true(f.truncated);
	assert_int_equal(f.err.code, DIAG_DATA);
	assert_int_equal(f.err.line, 7);
	assert_non_null(strstr(f.err.msg, "after 1 complete classes"));
	assert_non_null(strstr(f.err.msg, "\"IOGPUKern\""));
	assert_non_null(strstr(f.err.msg, "'Container allocation'"));
	assert_int_equal(f.s->nclasses, 1);
	classes_capture_release(&f.cap);
}

static void
test_truncated_after_classes(void **state)
{
	(void)state;
	struct fixture f;
	assert_int_equal(scan(&f, "{\"Classes\"={\"A\"=1}"), -1);
	assert_true(f.truncated);
	assert_non_null(strstr(f.err.msg, "before its closing '}'"));
	classes_capture_release(&f.cap);
	/* Cut before Classes began: all of it is missing, not "the rest". */
	assert_int_equal(scan(&f, "{\"Instance allocation\"=5,"), -1);
	assert_true(f.truncated);
	assert_non_null(strstr(f.err.msg, "missing: 'Classes', 'Container allocation'"));
	classes_capture_release(&f.cap);
}

static void
test_malformed_and_overflow(void **state)
{
	(void)state;
	struct fixture f;
	assert_int_equal(scan(&f, "{\"Classes\"={\"A\"=12x}}"), -1);
	assert_false(f.truncated);
	assert_non_null(strstr(f.err.msg, "expected a number"));
	classes_capture_release(&f.cap);
	assert_int_equal(scan(&f, "{\"Classes\"={\"A\"=99999999999999999999999}}"), -1);
	assert_non_null(strstr(f.err.msg, "does not fit in 64 bits"));
	assert_int_equal(f.err.col, 30 + 16);   /* the column of the first digit */
	classes_capture_release(&f.cap);
	assert_int_equal(scan(&f, "{\"Classes\"={\"A\"=1}} trailing"), -1);
	classes_capture_release(&f.cap);
	assert_int_equal(scan(&f, "{\"Classes\"={\"A\"=1},\"Classes\"={}}"), -1);
	classes_capture_release(&f.cap);
}

static void
test_read_lines_and_chains(void **state)
{
	(void)state;
	static const char input[] =
		"# SOURCE: test\n"
		"+-o Root  <class IORegistryEntry, id 0x100000100, retain 11>\n"
		"  | {\n"
		"  |   \"IOKitDiagnostics\" = {\"Classes\"={\"IOKitDiagnostics\"=1,\"IOService\"=2}}\n"
		"  | }\n"
		"  +-o X  <class IORegistryEntry:IOService:IOPCIDevice, id 0x1, retain 3>\n"
		"      \"IOKitDiagnostics\" = {\"Classes\"={\"IOService\"=3}}\n";
	struct line_reader r;
	struct classes_capture cap;
	struct hierarchy h;
	struct diag_list w;
	struct diag err;
	struct classes_read_opts opts = { .want_hierarchy = true, .need_counts = true };
	line_reader_from_memory(&r, input, sizeof(input) - 1, "mem", 0);
	classes_capture_init(&cap);
	hierarchy_init(&h);
	diag_list_init(&w, 10);
	assert_int_equal(classes_read(&r, &cap, &h, &opts, &w, &err), 0);
	assert_int_equal(cap.nsnapshots, 2);
	assert_int_equal(cap.snapshots[0]->line, 4);
	assert_int_equal(cap.snapshots[0]->nclasses, 2);
	assert_int_equal(cap.snapshots[1]->nclasses, 1);
	/* -i chains: OSObject <- IORegistryEntry <- IOService <- IOPCIDevice; Root's single name too. */
	size_t pci = hierarchy_find(&h, "IOPCIDevice", 11);
	assert_true(pci != HIER_NONE);
	assert_string_equal(h.classes[h.classes[pci].super].name, "IOService");
	size_t re = hierarchy_find(&h, "IORegistryEntry", 15);
	assert_string_equal(h.classes[h.classes[re].super].name, "OSObject");
	diag_list_release(&w);
	hierarchy_release(&h);
	classes_capture_release(&cap);
	line_reader_close(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_any_key_order_hex_signext),
		cmocka_unit_test(test_unknown_keys_skipped),
		cmocka_unit_test(test_template_names),
		cmocka_unit_test(test_truncated_mid_name),
		cmocka_unit_test(test_truncated_after_classes),
		cmocka_unit_test(test_malformed_and_overflow),
		cmocka_unit_test(test_read_lines_and_chains),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
