/* Reading iotally's own JSON reports back (the ingest JSON readers). */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ingest/classes_json_read.h"
#include "ingest/jsondoc.h"
#include "ingest/track_json_read.h"
#include "ingest/vmmap_json_read.h"

static struct line_reader reader;

static struct line_reader *
from(const char *text)
{
	line_reader_from_memory(&reader, text, strlen(text), "doc.json", 0);
	return &reader;
}

static const char vmmap_doc[] =
	"{\"schema\": \"iotally.vmmap/1\",\n"
	" \"source\": {\"path\": \"x\", \"lines\": 9, \"partial\": false},\n"
	" \"types\": [\"IOSurface\"],\n"
	" \"dumps\": [{\"process\": {\"name\": \"Safari\", \"pid\": 42},\n"
	"   \"header\": {\"page_size\": 16384, \"report_format\": \"2.4\",\n"
	"              \"fields\": {\"OS Version\": \"macOS 26.6 (25G72)\"}},\n"
	"   \"groups\": [{\"type\": \"IOSurface\", \"purge\": \"N\", \"count\": 2,\n"
	"                \"vsize\": 2097152, \"resident\": 1048576, \"dirty\": 0, \"swapped\": 0}],\n"
	"   \"histogram\": [{\"type\": \"IOSurface\", \"vsize\": 1048576, \"count\": 2,\n"
	"                    \"purge\": {\"N\": 2, \"V\": 0, \"E\": 0, \"-\": 0}}]}]}\n";

static void
test_vmmap_read(void **state)
{
	(void)state;
	struct vmmap_capture cap;
	struct diag err;
	vmmap_capture_init(&cap);
	assert_int_equal(vmmap_json_read(from(vmmap_doc), &cap, &err), 0);
	assert_int_equal(cap.ndumps, 1);
	const struct vmmap_dump *d = cap.dumps[0];
	assert_string_equal(d->process, "Safari");
	assert_int_equal(d->pid, 42);
	assert_int_equal(d->page_size, 16384);
	assert_string_equal(vmmap_dump_field(d, "OS Version"), "macOS 26.6 (25G72)");
	assert_int_equal(d->ntypes, 1);
	assert_true(d->types[0].selected);
	assert_int_equal(d->types[0].by_purge[VMMAP_PURGE_N].vsize, 2097152);
	assert_int_equal(d->types[0].nhist, 1);
	assert_int_equal(d->types[0].hist[0].purge[VMMAP_PURGE_N], 2);
	assert_false(cap.filter.all);
	assert_true(vmmap_filter_selects(&cap.filter, "IOSurface", 9));
	vmmap_capture_release(&cap);
	line_reader_close(&reader);
}

static void
expect_vmmap_error(const char *doc, const char *msg)
{
	struct vmmap_capture cap;
	struct diag err;
	vmmap_capture_init(&cap);
	assert_int_equal(vmmap_json_read(from(doc), &cap, &err), -1);
	assert_int_equal(err.code, DIAG_DATA);
	if (!strstr(err.msg, msg))
		fail_msg("'%s' does not say '%s'", err.msg, msg);
	vmmap_capture_release(&cap);
	line_reader_close(&reader);
}

/* Overwrite `from` in doc with `to`, of the same length. */
static void
patch(char *doc, const char *from, const char *to)
{
	char *at = strstr(doc, from);
	assert_non_null(at);
	assert_int_equal(strlen(from), strlen(to));
	memcpy(at, to, strlen(to));
}

static void
test_vmmap_errors(void **state)
{
	(void)state;
	char doc[sizeof(vmmap_doc)];
	expect_vmmap_error("{\"schema\": \"iotally.track/1\"}", "is not 'iotally.vmmap/1'");
	expect_vmmap_error("[1, 2]", "not an object");
	expect_vmmap_error("{\"schema\": ", "not valid JSON");
	memcpy(doc, vmmap_doc, sizeof(doc));
	patch(doc, "\"purge\": \"N\"", "\"purge\": \"Q\"");
	expect_vmmap_error(doc, "'dumps[0].groups[0].purge' is not N, V, E or '-'");
	memcpy(doc, vmmap_doc, sizeof(doc));
	patch(doc, "\"vsize\": 1048576, \"count\": 2", "\"vsize\": 1048576, \"count\": 3");
	expect_vmmap_error(doc, "is not the sum of its purge counts");
	memcpy(doc, vmmap_doc, sizeof(doc));
	patch(doc, "\"dirty\": 0", "\"dirty\":[]");
	expect_vmmap_error(doc, "'dumps[0].groups[0].dirty' is not an integer");
}

static const char track_doc[] =
	"{\"schema\": \"iotally.track/1\",\n"
	" \"source\": {\"path\": \"x\", \"layout\": \"IOKitTools-108+\",\n"
	"            \"command\": \"/usr/sbin/ioclasscount --track\", \"partial\": false},\n"
	" \"kind\": \"track\", \"by\": null,\n"
	" \"records\": [{\"type\": \"allocation\", \"index\": 0, \"bytes\": 4096,\n"
	"   \"size\": [4096, 0], \"count\": 2, \"address\": null, \"task\": null,\n"
	"   \"category\": null, \"process\": null, \"line\": 4,\n"
	"   \"frames\": [{\"index\": 0, \"module\": \"com.apple.AGX\", \"address\": \"0xfffffff009140000\",\n"
	"                \"symbol\": \"AGX::alloc()\", \"offset\": \"0x5c\", \"source\": null,\n"
	"                \"user\": false}]}],\n"
	" \"total\": {\"shown\": 4096, \"shown_records\": 1, \"printed\": 8192, \"capture\": 8192,\n"
	"           \"capture_records\": 2},\n"
	" \"suppressed\": {\"records\": 0, \"bytes\": 0, \"patterns\": []},\n"
	" \"images\": []}\n";

static void
test_track_read(void **state)
{
	(void)state;
	struct track_capture cap;
	struct diag_list notes;
	struct diag err;
	track_capture_init(&cap);
	cap.keep_records = true;
	diag_list_init(&notes, 10);
	assert_int_equal(track_json_read(from(track_doc), &cap, &notes, &err), 0);
	assert_int_equal(cap.kind, TRACK_KIND_TRACK);
	assert_int_equal(cap.total, 8192);
	assert_int_equal(track_listing_count(&cap.listing), 1);
	struct track_record rec;
	struct diag rerr;
	track_record_init(&rec);
	assert_int_equal(track_listing_read(&cap.listing, 0, &rec, &rerr), 0);
	const struct track_record *r = &rec;
	assert_int_equal(r->bytes, 4096);
	assert_int_equal(r->count, 2);
	assert_int_equal(r->nframes, 1);
	assert_int_equal(r->frames[0].offset, 0x5c);
	assert_true(r->frames[0].has_offset);
	assert_string_equal(track_str(r, r->frames[0].symbol), "AGX::alloc()");
	/* One of the capture's two records is listed: a note says so. */
	assert_int_equal(notes.len, 1);
	assert_non_null(strstr(diag_list_msg(&notes, 0), "lists 1 of the capture's 2 records"));
	diag_list_release(&notes);
	track_record_release(&rec);
	track_capture_release(&cap);
	line_reader_close(&reader);
}

static void
test_track_grouped_refused(void **state)
{
	(void)state;
	struct track_capture cap;
	struct diag_list notes;
	struct diag err;
	track_capture_init(&cap);
	diag_list_init(&notes, 10);
	assert_int_equal(track_json_read(from(
		"{\"schema\": \"iotally.track/1\", \"source\": {\"layout\": \"IOKitTools-97\", "
		"\"command\": null}, \"by\": \"module\", \"groups\": [], \"images\": []}"),
		&cap, &notes, &err), -1);
	assert_non_null(strstr(err.msg, "grouped report (--by module)"));
	assert_int_equal(err.code, DIAG_DATA);
	assert_int_equal(cap.nrecords, 0);
	diag_list_release(&notes);
	track_capture_release(&cap);
	line_reader_close(&reader);
}

static void
test_classes_read(void **state)
{
	(void)state;
	struct classes_capture cap, direct;
	struct diag_list notes;
	struct diag err;
	classes_capture_init(&cap);
	classes_capture_init(&direct);
	diag_list_init(&notes, 10);
	assert_int_equal(classes_json_read(from(
		"{\"schema\": \"iotally.classes/1\", \"snapshots\": [{\"index\": 1,\n"
		" \"source\": {\"kind\": \"ioreg-text\", \"truncated\": false},\n"
		" \"classes\": {\"IOSurface\": 12, \"AppleUSBHostPort\": -1, \"Broken\": null},\n"
		" \"direct\": {\"IOSurface\": 10},\n"
		" \"allocation\": {\"instance\": 1024},\n"
		" \"totals\": {\"classes\": 5, \"selected\": 3}}]}"),
		&cap, &direct, &notes, &err), 0);
	const struct classes_snapshot *s = cap.snapshots[0];
	assert_int_equal(s->source, CLASSES_SRC_IOREG_TEXT);
	assert_int_equal(s->nclasses, 3);
	assert_int_equal(classes_snapshot_find(s, "AppleUSBHostPort", 16)->value, -1);
	assert_int_equal(classes_snapshot_find(s, "Broken", 6)->state, CLASS_COUNT_UNREADABLE);
	assert_true(s->alloc_present[ALLOC_INSTANCE]);
	assert_false(s->alloc_present[ALLOC_PAGEABLE]);
	/* 3 of 5 classes listed: compared on those only. */
	assert_true(s->query);
	assert_int_equal(direct.nsnapshots, 1);
	assert_int_equal(classes_snapshot_find(direct.snapshots[0], "IOSurface", 9)->value, 10);
	diag_list_release(&notes);
	classes_capture_release(&cap);
	classes_capture_release(&direct);
	line_reader_close(&reader);
}

static void
test_jsondoc_nul(void **state)
{
	(void)state;
	json_t *root;
	struct diag err;
	static const char doc[] = "{\"schema\": \"a\0b\"}\n";
	line_reader_from_memory(&reader, doc, sizeof(doc) - 1, "doc.json", 0);
	assert_int_equal(json_doc_load(&reader, &root, &err), -1);
	assert_int_equal(err.line, 1);
	assert_non_null(strstr(err.msg, "NUL byte"));
	line_reader_close(&reader);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vmmap_read),
		cmocka_unit_test(test_vmmap_errors),
		cmocka_unit_test(test_track_read),
		cmocka_unit_test(test_track_grouped_refused),
		cmocka_unit_test(test_classes_read),
		cmocka_unit_test(test_jsondoc_nul),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
