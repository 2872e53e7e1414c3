/*
 * The bundle format's owner (src/bundle/): a manifest written and read back
 * is the same JSON, in the documented written form; a foreign schema id is
 * not taken for a bundle; a file record's path goes through the one
 * member-name rule; a step or a sample listed twice is refused; a member
 * opens only as a regular file beneath its bundle folder (a symbolic link,
 * to a file or on the way, is refused, not followed). Links only bundle/
 * and util/, as the layer rule says.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "bundle/manifest.h"
#include "bundle/member.h"
#include "util/array.h"

static char dir[] = "/tmp/iotally-bundle-XXXXXX";

static void
path_in(char *out, size_t n, const char *rel)
{
	snprintf(out, n, "%s/%s", dir, rel);
}

static void
write_file(const char *rel, const char *p, size_t n)
{
	char path[256];
	path_in(path, sizeof(path), rel);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

/* Read `rel` of the bundle folder as a manifest, the way the readers do. */
static json_t *
read_manifest(const char *rel)
{
	struct diag err;
	struct strbuf sb = STRBUF_INIT;
	json_error_t jerr;
	int fd = member_open_beneath(dir, rel, rel, &err);
	assert_true(fd >= 0);
	assert_int_equal(manifest_read_fd(fd, &sb, rel, &err), 0);
	close(fd);
	json_t *root = manifest_parse(sb.buf, sb.len, &jerr);
	strbuf_release(&sb);
	return root;
}

/* The written form, by hand from docs/capture.md: indent 2, sorted keys, one final newline. */
static void
test_written_form(void **state)
{
	(void)state;
	json_t *m = manifest_new();
	json_object_set_new(m, "complete", json_true());
	struct strbuf sb = STRBUF_INIT;
	assert_int_equal(manifest_dump(m, &sb), 0);
	assert_string_equal(sb.buf, "{\n  \"complete\": true,\n  \"schema\": \"iotally.bundle/1\"\n}\n");
	strbuf_release(&sb);
	json_decref(m);

	json_t *s = series_index_new();
	assert_int_equal(manifest_dump(s, &sb), 0);
	assert_string_equal(sb.buf, "{\n  \"schema\": \"iotally.series/1\"\n}\n");
	strbuf_release(&sb);
	json_decref(s);
}

/* A manifest as capture writes one, written to a bundle folder and read back: equal. */
static void
test_round_trip(void **state)
{
	(void)state;
	json_t *m = manifest_new();
	json_object_set_new(m, "complete", json_false());
	json_object_set_new(m, "started_utc", json_string("2026-11-30T06:00:00Z"));
	json_object_set_new(m, "target", json_pack("{s:I, s:s}", "pid", (json_int_t)4242,
						   "name", "Caf\xc3\xa9 \"app\"\n"));
	json_object_set_new(m, "steps", json_pack("[{s:s, s:s, s:s, s:{s:s, s:I, s:s}}]",
		"id", "target.vmmap", "status", "ok", "capture_kind", "vmmap",
		"stdout", "path", "target/vmmap.txt", "bytes", (json_int_t)INT64_MAX,
		"sha256", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
	struct strbuf sb = STRBUF_INIT;
	assert_int_equal(manifest_dump(m, &sb), 0);
	write_file(BUNDLE_MANIFEST, sb.buf, sb.len);
	strbuf_release(&sb);

	json_t *back = read_manifest(BUNDLE_MANIFEST);
	assert_non_null(back);
	assert_true(json_equal(m, back));
	assert_true(manifest_is_bundle(back));
	assert_false(manifest_is_series(back));

	/* Written again, the same bytes: a rewrite of an unchanged manifest changes nothing. */
	struct strbuf again = STRBUF_INIT;
	assert_int_equal(manifest_dump(m, &sb), 0);
	assert_int_equal(manifest_dump(back, &again), 0);
	assert_int_equal(sb.len, again.len);
	assert_memory_equal(sb.buf, again.buf, sb.len);
	strbuf_release(&sb);
	strbuf_release(&again);
	json_decref(back);
	json_decref(m);
}

/* Only the exact schema id is a bundle (or a series): another version, kind or type is not. */
static void
test_foreign_schema(void **state)
{
	(void)state;
	static const char *const docs[] = {
		"{\"schema\": \"iotally.bundle/2\"}",
		"{\"schema\": \"iotally.bundle/1 \"}",
		"{\"schema\": \"IOTALLY.BUNDLE/1\"}",
		"{\"schema\": \"iotally.diff/1\"}",
		"{\"schema\": [\"iotally.bundle/1\"]}",
		"{\"schema\": null}",
		"{\"complete\": true}",
		"[\"iotally.bundle/1\"]",
	};
	json_error_t jerr;
	for (size_t i = 0; i < ARRAY_SIZE(docs); i++) {
		json_t *root = manifest_parse(docs[i], strlen(docs[i]), &jerr);
		assert_non_null(root);
		assert_false(manifest_is_bundle(root));
		assert_false(manifest_is_series(root));
		json_decref(root);
	}
	json_t *series = manifest_parse("{\"schema\": \"iotally.series/1\"}", 30, &jerr);
	assert_non_null(series);
	assert_true(manifest_is_series(series));
	assert_false(manifest_is_bundle(series));
	json_decref(series);
	/* A key given twice: which one a reader takes is not defined, so neither is taken. */
	const char *twice = "{\"schema\": \"iotally.bundle/1\", \"schema\": \"iotally.bundle/1\"}";
	assert_null(manifest_parse(twice, strlen(twice), &jerr));
}

static void
expect_path(const char *json, const char *normal, const char *why)
{
	json_error_t jerr;
	json_t *rec = manifest_parse(json, strlen(json), &jerr);
	assert_non_null(rec);
	const char *got_why = NULL;
	char *got = manifest_record_path(rec, &got_why);
	if (normal) {
		assert_non_null(got);
		assert_string_equal(got, normal);
	} else {
		assert_null(got);
		assert_string_equal(got_why, why);
	}
	free(got);
	json_decref(rec);
}

/* A file record's path: the member-name rule, component by component. */
static void
test_record_paths(void **state)
{
	(void)state;
	expect_path("{\"path\": \"target/vmmap.txt\"}", "target/vmmap.txt", NULL);
	expect_path("{\"path\": \"target//vmmap.txt\"}", "target/vmmap.txt", NULL);
	expect_path("{\"path\": \"./target/./vmmap.txt/.\"}", "target/vmmap.txt", NULL);
	expect_path("{\"path\": \"target/vmmap..txt\"}", "target/vmmap..txt", NULL);
	expect_path("{\"path\": \"..target/x\"}", "..target/x", NULL);
	expect_path("{\"path\": \"/etc/passwd\"}", NULL, "is an absolute path");
	expect_path("{\"path\": \"../vmmap.txt\"}", NULL, "leaves its folder ('..')");
	expect_path("{\"path\": \"target/../../x\"}", NULL, "leaves its folder ('..')");
	expect_path("{\"path\": \"target/..\"}", NULL, "leaves its folder ('..')");
	expect_path("{\"path\": \"\"}", NULL, "is empty");
	expect_path("{\"path\": \"./\"}", NULL, "is empty");
	expect_path("{\"path\": 7}", NULL, "is missing");
	expect_path("{\"bytes\": 7}", NULL, "is missing");
}

/*
 * A file record as the writer makes it, checked and updated as the
 * rewriter does: a path of invalid UTF-8 keeps its key (written as \xNN),
 * a record holds only the digest and size it names, and an update sets both.
 */
static void
test_records(void **state)
{
	(void)state;
	const char *a = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
	const char *b = "526bf6b7dead06467919a3a66b0e8c3ff08f6802a1092fea2ac4417798958b63";
	json_t *rec = manifest_record_new("target/caf\xe9.txt", 42, a);
	struct strbuf sb = STRBUF_INIT;
	assert_int_equal(json_object_size(rec), 3);
	assert_int_equal(manifest_dump(rec, &sb), 0);
	assert_string_equal(sb.buf, "{\n  \"bytes\": 42,\n  \"path\": \"target/caf\\\\xE9.txt\",\n"
			    "  \"sha256\": \"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\"\n}\n");
	strbuf_release(&sb);
	assert_true(manifest_record_holds(rec, a, 42));
	assert_false(manifest_record_holds(rec, a, 41));
	assert_false(manifest_record_holds(rec, b, 42));
	manifest_record_set(rec, b, 7);
	assert_true(manifest_record_holds(rec, b, 7));
	assert_false(manifest_record_holds(rec, a, 42));
	json_object_set_new(rec, "bytes", json_integer(-1));
	assert_false(manifest_record_holds(rec, b, UINT64_MAX));
	json_object_del(rec, "sha256");
	assert_false(manifest_record_holds(rec, b, 7));
	json_decref(rec);
}

static void
test_sample_dirs(void **state)
{
	(void)state;
	assert_true(series_sample_dir_plain("001"));
	assert_true(series_sample_dir_plain("a..b"));
	static const char *const refused[] = { "", ".", "..", "a/b", "/001", "001/", "./001" };
	for (size_t i = 0; i < ARRAY_SIZE(refused); i++)
		assert_false(series_sample_dir_plain(refused[i]));
}

/* A step listed twice is refused, naming it; steps with other ids (or none) are not. */
static void
test_step_listed_twice(void **state)
{
	(void)state;
	const char *doc = "[{\"id\": \"host.sw_vers\"}, {\"id\": 3}, {\"id\": 3}, {},"
			  " {\"id\": \"target.vmma\"}, {\"id\": \"target.vmmap \"}, {\"id\": \"target.vmmap\"},"
			  " {\"id\": \"target.vmmap\"}]";
	json_error_t jerr;
	json_t *steps = manifest_parse(doc, strlen(doc), &jerr);
	assert_non_null(steps);
	struct listed_once ids;
	struct diag err;
	listed_once_init(&ids);
	for (size_t i = 0; i + 1 < json_array_size(steps); i++)
		assert_int_equal(manifest_step_once(&ids, json_array_get(steps, i), "B",
						    "001/manifest.json", &err), 0);
	assert_int_equal(manifest_step_once(&ids, json_array_get(steps, json_array_size(steps) - 1),
					    "B", "001/manifest.json", &err), -1);
	assert_int_equal(err.code, DIAG_DATA);
	assert_string_equal(err.file, "B");
	assert_string_equal(err.msg, "001/manifest.json lists the step 'target.vmmap' twice (a "
			    "bundle iotally wrote lists each step once)");
	listed_once_release(&ids);
	json_decref(steps);

	listed_once_init(&ids);
	assert_int_equal(series_sample_once(&ids, "001", 0, "S", &err), 0);
	assert_int_equal(series_sample_once(&ids, "002", 1, "S", &err), 0);
	assert_int_equal(series_sample_once(&ids, "001", 2, "S", &err), -1);
	assert_int_equal(err.code, DIAG_DATA);
	assert_string_equal(err.msg, "series.json lists the sample '001' twice (samples[2])");
	listed_once_release(&ids);
}

/* A manifest larger than any iotally writes is refused before it is parsed. */
static void
test_manifest_cap(void **state)
{
	(void)state;
	size_t n = BUNDLE_JSON_MAX + 1;
	char *big = malloc(n);
	assert_non_null(big);
	memset(big, ' ', n);
	write_file("big.json", big, n);
	free(big);
	struct diag err;
	struct strbuf sb = STRBUF_INIT;
	int fd = member_open_beneath(dir, "big.json", "B/big.json", &err);
	assert_true(fd >= 0);
	assert_int_equal(manifest_read_fd(fd, &sb, "B/big.json", &err), -1);
	close(fd);
	assert_int_equal(err.code, DIAG_DATA);
	assert_string_equal(err.msg, "too large for a bundle manifest");
	assert_true(sb.len <= BUNDLE_JSON_MAX);
	strbuf_release(&sb);
}

static void
expect_open(const char *name, int code, const char *msg)
{
	struct diag err;
	memset(&err, 0, sizeof(err));
	int fd = member_open_beneath(dir, name, "shown", &err);
	if (!code) {
		assert_true(fd >= 0);
		char buf[8];
		assert_int_equal(read(fd, buf, sizeof(buf)), 3);
		assert_memory_equal(buf, "in\n", 3);
		close(fd);
		return;
	}
	assert_int_equal(fd, -1);
	assert_int_equal(err.code, code);
	assert_string_equal(err.file, "shown");
	assert_string_equal(err.msg, msg);
}

/*
 * Members: a regular file beneath the folder opens under any spelling of
 * its name; a link (to a file inside or out, or a folder on the way) is
 * refused, as is a name that leaves the folder.
 */
static void
test_member_open(void **state)
{
	(void)state;
	char p[256], q[256];
	path_in(p, sizeof(p), "target");
	assert_int_equal(mkdir(p, 0700), 0);
	write_file("target/vmmap.txt", "in\n", 3);
	write_file("outside.txt", "in\n", 3);
	path_in(p, sizeof(p), "target/link.txt");
	assert_int_equal(symlink("vmmap.txt", p), 0);
	path_in(p, sizeof(p), "target/out.txt");
	path_in(q, sizeof(q), "outside.txt");
	assert_int_equal(symlink(q, p), 0);
	path_in(p, sizeof(p), "via");
	path_in(q, sizeof(q), "target");
	assert_int_equal(symlink(q, p), 0);

	expect_open("target/vmmap.txt", 0, NULL);
	expect_open("./target//vmmap.txt", 0, NULL);
	expect_open("target/link.txt", DIAG_DATA, "is a symbolic link, not a file: a bundle's "
		    "captures are read only from regular files inside it");
	expect_open("target/out.txt", DIAG_DATA, "is a symbolic link, not a file: a bundle's "
		    "captures are read only from regular files inside it");
	expect_open("via/vmmap.txt", DIAG_DATA, "is not read: the folder 'via' on its way is a "
		    "symbolic link (a bundle's captures are read only from regular files inside it)");
	expect_open("target", DIAG_DATA, "is a folder, not a file: a bundle's captures are read "
		    "only from regular files inside it");
	expect_open("target/../outside.txt", DIAG_DATA,
		    "is not read: its name leaves its folder ('..')");
	expect_open("/etc/passwd", DIAG_DATA, "is not read: its name is an absolute path");
	expect_open("target/none.txt", DIAG_NOINPUT, "cannot open: No such file or directory");
}

static int
setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int
teardown(void **state)
{
	(void)state;
	static const char *const names[] = {
		"target/vmmap.txt", "target/link.txt", "target/out.txt", "via", "outside.txt",
		BUNDLE_MANIFEST, "big.json",
	};
	char path[256];
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		path_in(path, sizeof(path), names[i]);
		unlink(path);
	}
	path_in(path, sizeof(path), "target");
	rmdir(path);
	return rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_written_form),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_foreign_schema),
		cmocka_unit_test(test_record_paths),
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_sample_dirs),
		cmocka_unit_test(test_step_listed_twice),
		cmocka_unit_test(test_manifest_cap),
		cmocka_unit_test(test_member_open),
	};
	return cmocka_run_group_tests_name("bundle", tests, setup, teardown);
}
