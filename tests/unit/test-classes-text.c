#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/classes_text.h"

/* Run a writer into memory and return what it printed (caller frees). */
static char *
capture(void (*write)(FILE *, const struct classes_snapshot *, void *),
	const struct classes_snapshot *s, void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	write(f, s, arg);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void
write_alloc(FILE *f, const struct classes_snapshot *s, void *arg)
{
	(void)arg;
	classes_text_alloc(f, s);
}

static void
write_listing(FILE *f, const struct classes_snapshot *s, void *arg)
{
	const struct class_count **v;
	(void)arg;
	size_t n = classes_snapshot_sorted(s, &v);
	classes_text_listing(f, v, n);
	free(v);
}

static void
write_query(FILE *f, const struct classes_snapshot *s, void *arg)
{
	char a[] = "IOPCIDevice", b[] = "AppleTestPCI", c[] = "iopcidevice", d[] = "Zed";
	char *names[] = { a, b, c, d };
	(void)arg;
	classes_text_query(f, s, names, 4);
}

static struct classes_snapshot *
sample(struct classes_capture *cap)
{
	classes_capture_init(cap);
	struct classes_snapshot *s = classes_capture_add(cap, CLASSES_SRC_IOREG_TEXT, 1);
	classes_snapshot_add(s, "IOPCIDevice", 11, 2, CLASS_COUNT_OK, 1);
	classes_snapshot_add(s, "Zed", 3, -1, CLASS_COUNT_OK, 1);
	classes_snapshot_add(s, "_IOServiceNotifier", 18, 266, CLASS_COUNT_OK, 1);
	classes_snapshot_add(s, "Wide", 4, 5000000000LL, CLASS_COUNT_OK, 1);
	classes_snapshot_add(s, "Bad", 3, 0, CLASS_COUNT_UNREADABLE, 1);
	s->alloc[ALLOC_INSTANCE] = 0x22c718;
	s->alloc_present[ALLOC_INSTANCE] = true;
	s->alloc[ALLOC_IOMALLOC] = -341995139;
	s->alloc_present[ALLOC_IOMALLOC] = true;
	return s;
}

static void
test_alloc_lines(void **state)
{
	(void)state;
	struct classes_capture cap;
	char *out = capture(write_alloc, sample(&cap), NULL);
	/* ioalloccount 97+: "%22s = 0x%08llx = %4llu K", SInt64, K truncated toward zero. */
	assert_string_equal(out,
		"   Instance allocation = 0x0022c718 = 2225 K\n"
		"   IOMalloc allocation = 0xffffffffeb9d917d = 18446744073709217637 K\n");
	free(out);
	classes_capture_release(&cap);
}

static void
test_listing_like_64bit_tool(void **state)
{
	(void)state;
	struct classes_capture cap;
	char *out = capture(write_listing, sample(&cap), NULL);
	assert_string_equal(out,
		"_IOServiceNotifier = 266\n"
		"Bad = ?? (error reading/converting value)\n"
		"IOPCIDevice = 2\n"
		"Wide = ?? (error reading/converting value)\n"
		"Zed = 18446744073709551615\n");
	free(out);
	classes_capture_release(&cap);
}

static void
test_query_line(void **state)
{
	(void)state;
	struct classes_capture cap;
	char *out = capture(write_query, sample(&cap), NULL);
	assert_string_equal(out, "IOPCIDevice = 2, AppleTestPCI = <no such class>, "
			    "iopcidevice = <no such class>, Zed = 18446744073709551615\n");
	free(out);
	classes_capture_release(&cap);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alloc_lines),
		cmocka_unit_test(test_listing_like_64bit_tool),
		cmocka_unit_test(test_query_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
