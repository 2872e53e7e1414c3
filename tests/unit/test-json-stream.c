/*
 * json_document_write_streamed() against jansson's own json_dumpf() of the whole tree:
 * the same bytes for 0, 1 and many elements, nested values and strings
 * with escaped newlines and quotes (the independent truth is jansson).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "report/json_stream.h"
#include "util/array.h"

static json_t *
element(void *ctx, size_t i, struct diag *err)
{
	(void)ctx;
	(void)err;
	json_t *o = json_object();
	json_object_set_new(o, "i", json_integer((json_int_t)i));
	json_object_set_new(o, "text", json_string("a \"records\": []\nline\t\\"));
	json_t *arr = json_array();
	for (size_t k = 0; k < i % 3; k++)
		json_array_append_new(arr, json_object());
	json_array_append_new(arr, json_array());
	json_object_set_new(o, "nested", arr);
	return o;
}

static json_t *
failing(void *ctx, size_t i, struct diag *err)
{
	(void)ctx;
	if (i == 2) {
		diag_set(err, DIAG_IOERR, NULL, 0, 0, "element %zu failed", i);
		return NULL;
	}
	return json_integer((json_int_t)i);
}

static json_t *
doc_with(size_t n)
{
	json_t *d = json_object();
	json_object_set_new(d, "schema", json_string("x/1"));
	json_t *src = json_object();
	json_object_set_new(src, "records", json_array());   /* same key, deeper */
	json_object_set_new(d, "source", src);
	json_t *arr = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(arr, element(NULL, i, NULL));
	json_object_set_new(d, "records", arr);
	json_object_set_new(d, "total", json_integer(7));
	return d;
}

static char *
capture(int (*fn)(FILE *, size_t), size_t n, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	assert_non_null(f);
	assert_int_equal(fn(f, n), 0);
	fclose(f);
	return buf;
}

static int
write_whole(FILE *f, size_t n)
{
	/* jansson's own dump of the whole tree, as json_document_write() prints it. */
	json_t *d = doc_with(n);
	int rc = json_dumpf(d, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', f);
	json_decref(d);
	return rc;
}

static int
write_streamed(FILE *f, size_t n)
{
	struct diag err;
	return json_document_write_streamed(f, doc_with(0), "records", n, element, NULL, &err);
}

static void
test_same_bytes_as_jansson(void **state)
{
	(void)state;
	static const size_t counts[] = { 0, 1, 2, 7, 100 };
	for (size_t k = 0; k < ARRAY_SIZE(counts); k++) {
		size_t la, lb;
		char *a = capture(write_whole, counts[k], &la);
		char *b = capture(write_streamed, counts[k], &lb);
		assert_int_equal(la, lb);
		assert_memory_equal(a, b, la);
		free(a);
		free(b);
	}
}

static void
test_element_error_and_missing_member(void **state)
{
	(void)state;
	struct diag err;
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(json_document_write_streamed(f, doc_with(0), "records", 5, failing,
						      NULL, &err), -1);
	assert_string_equal(err.msg, "element 2 failed");
	assert_int_equal(json_document_write_streamed(f, doc_with(0), "absent", 1, failing,
						      NULL, &err), -1);
	assert_int_equal(err.code, DIAG_SOFTWARE);
	fclose(f);
	free(buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_bytes_as_jansson),
		cmocka_unit_test(test_element_error_and_missing_member),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
