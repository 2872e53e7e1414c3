#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "capture/redact.h"
#include "capture/redact_stream.h"
#include "capture/redact_tree.h"
#include "util/array.h"

/* Redact `in` (collecting values from it first) and compare with `want`. */
static void
expect(const char *in, const char *want, enum redact_rule rule, uint64_t hits)
{
	struct redactor rd;
	struct strbuf out = STRBUF_INIT;
	uint64_t h[REDACT_NRULES] = { 0 };
	redactor_init(&rd);
	redactor_collect(&rd, in, strlen(in));
	redactor_apply(&rd, in, strlen(in), &out, h);
	assert_string_equal(out.buf, want);
	assert_int_equal(h[rule], hits);
	strbuf_release(&out);
	redactor_release(&rd);
}

static void
test_plist_keys_keep_the_key(void **state)
{
	(void)state;
	expect("<key>kCGSSessionUserNameKey</key>\n\t<string>bob</string>",
	       "<key>kCGSSessionUserNameKey</key>\n\t<string>REDACTED</string>", REDACT_CONSOLE_USER, 1);
	expect("<key>serial-number</key><data>QzAyWFlaMTIz</data>",
	       "<key>serial-number</key><data>REDACTED</data>", REDACT_SERIAL, 1);
}

static void
test_ioreg_text_keys(void **state)
{
	(void)state;
	expect("\"IOPlatformSerialNumber\" = \"C02XYZ123\"\n",
	       "\"IOPlatformSerialNumber\" = \"REDACTED\"\n", REDACT_SERIAL, 1);
	expect("{\"kCGSSessionUserNameKey\"=\"carol\",\"x\"=1}",
	       "{\"kCGSSessionUserNameKey\"=\"REDACTED\",\"x\"=1}", REDACT_CONSOLE_USER, 1);
	expect("\"serial-number\" = <\"C02XYZ123\">", "\"serial-number\" = <\"REDACTED\">",
	       REDACT_SERIAL, 1);
}

/* A value found under a key is removed everywhere, as a whole word only. */
static void
test_known_values_whole_words(void **state)
{
	(void)state;
	expect("\"kCGSSessionUserNameKey\"=\"mac\"\nmachdep mac-mini mac\n",
	       "\"kCGSSessionUserNameKey\"=\"REDACTED\"\nmachdep REDACTED-mini REDACTED\n",
	       REDACT_KNOWN_VALUE, 2);
}

static void
test_paths(void **state)
{
	(void)state;
	expect("Path: /Users/dave/app\n/Users/Shared/x /Users/USER/y /Users/",
	       "Path: /Users/USER/app\n/Users/Shared/x /Users/USER/y /Users/", REDACT_USER_PATH, 1);
	expect("/private/var/folders/zz/abc_123/T/f /var/folders/REDACTED/T",
	       "/private/var/folders/REDACTED/T/f /var/folders/REDACTED/T", REDACT_TEMP_PATH, 1);
}

static void
test_bootargs(void **state)
{
	(void)state;
	expect("kern.bootargs: -v io=0x400000 serial=3 debug=0x8\nnext\n",
	       "kern.bootargs: io=0x400000 debug=0x8\nnext\n", REDACT_BOOTARGS, 1);
	expect("kern.bootargs: io=0x1", "kern.bootargs: io=0x1", REDACT_BOOTARGS, 0);
}

/* Cut inputs: a key at the very end, a value never closed. Nothing is invented. */
static void
test_truncated_input(void **state)
{
	(void)state;
	expect("<key>IOPlatformUUID</key>", "<key>IOPlatformUUID</key>", REDACT_SERIAL, 0);
	expect("<key>IOPlatformUUID</key><string>ABC", "<key>IOPlatformUUID</key><string>ABC",
	       REDACT_SERIAL, 0);
	expect("\"IOPlatformUUID\" = \"ABC\nDEF\"", "\"IOPlatformUUID\" = \"ABC\nDEF\"", REDACT_SERIAL,
	       0);
	expect("", "", REDACT_SERIAL, 0);
	expect("/Users", "/Users", REDACT_USER_PATH, 0);
}

/* ---- chunks: the same bytes and hits as redacting the text whole ---- */

struct mem_in {
	const char *p;
	size_t n, at, step;         /* step: most bytes handed out per read */
};

static ssize_t
mem_read(void *ctx, void *buf, size_t n, struct diag *err)
{
	struct mem_in *m = ctx;
	(void)err;
	size_t k = m->n - m->at;
	if (k > n)
		k = n;
	if (k > m->step)
		k = m->step;
	memcpy(buf, m->p + m->at, k);
	m->at += k;
	return (ssize_t)k;
}

static int
collect_chunk(void *ctx, const char *p, size_t n, struct diag *err)
{
	(void)err;
	assert_true(n > 0);
	redact_found_collect(ctx, p, n);
	return 0;
}

struct apply_out {
	const struct redactor *rd;
	struct strbuf out;
	uint64_t hits[REDACT_NRULES];
	size_t chunks;
};

static int
apply_chunk(void *ctx, const char *p, size_t n, struct diag *err)
{
	struct apply_out *a = ctx;
	(void)err;
	assert_true(n > 0);
	a->chunks++;
	redactor_apply(a->rd, p, n, &a->out, a->hits);
	return 0;
}

/* `in` redacted in chunks of `chunk` bytes (reads of `step`) equals `in` redacted whole. */
static size_t
expect_chunked(const char *in, size_t chunk, size_t step)
{
	size_t n = strlen(in);
	struct redactor whole, rd;
	struct strbuf want = STRBUF_INIT;
	uint64_t want_hits[REDACT_NRULES] = { 0 };
	struct diag err;
	redactor_init(&whole);
	redactor_collect(&whole, in, n);
	redactor_apply(&whole, in, n, &want, want_hits);

	struct redact_found f;
	struct mem_in m = { in, n, 0, step };
	redact_found_init(&f);
	redactor_init(&rd);
	assert_int_equal(redact_stream(mem_read, &m, chunk, false, collect_chunk, &f, &err), 0);
	redact_found_add_to(&f, &rd);
	assert_int_equal(rd.nvalues, whole.nvalues);
	for (size_t i = 0; i < rd.nvalues; i++)
		assert_string_equal(rd.values[i], whole.values[i]);

	struct apply_out a = { .rd = &rd, .out = STRBUF_INIT };
	m.at = 0;
	assert_int_equal(redact_stream(mem_read, &m, chunk, !redactor_line_local(&rd), apply_chunk,
				       &a, &err), 0);
	assert_int_equal(a.out.len, want.len);
	assert_memory_equal(a.out.buf, want.buf, want.len);
	assert_memory_equal(a.hits, want_hits, sizeof(want_hits));
	strbuf_release(&a.out);
	strbuf_release(&want);
	redact_found_release(&f);
	redactor_release(&rd);
	redactor_release(&whole);
	return a.chunks;
}

static const char plist_in[] =
	"<dict>\n"
	"\t<key>IOUserClientCreator</key>\n\t<string>pid 7, /Users/jdoe/bin/x C02XYZ123</string>\n"
	"\t<key>kCGSessionLongUserNameKey</key>\n"
	"\n"
	"\t\t<string>Jane Doe</string>\n"
	"\t<key>kCGSSessionUserNameKey</key>\t<string>jdoe</string>\n"
	"\t<key>IOPlatformSerialNumber</key>\n\t<string>C02XYZ123</string>\n"
	"\t<key>serial-number</key>\n\t<data>\n\tQzAyWFlaMTIz\n\t</data>\n"
	"\t<key>blob</key>\n\t<data>\n\tAAAA\n\tQzAyWFlaMTIz\n\t</data>\n"
	"\t<key>IOPlatformUUID</key><string>1234-ABCD</string><key>x</key><string>Jane</string>\n"
	"\t<key>path</key>\n\t<string>/private/var/folders/ab/zz91/T/f /Users/Jane/Doe</string>\n"
	"</dict>\n"
	"kern.bootargs: -v io=0x400000 secret=jdoe debug=0x8\n"
	"Jane Doe and jdoe and C02XYZ123 and 1234-ABCD and QzAyWFlaMTIz\n";

static const char text_in[] =
	"+-o Root  <class IORegistryEntry>\n"
	"  |   \"IOPlatformSerialNumber\" = \"C02ABC987\"\n"
	"  |   \"serial-number\" = <\"C02ABC987\">\n"
	"  |   {\"kCGSSessionUserNameKey\"=\"carol\",\"x\"=1}\n"
	"/Users/carol/Library/a.dylib C02ABC987\n"
	"/var/folders/q1/abc/T/x carol's\n"
	"kern.bootargs = a io=1 b\n"
	"last line without a newline carol";

/* A <data> value of several lines is a value holding newlines: matched across lines. */
static const char multiline_value_in[] =
	"<key>serial-number</key>\n<data>\nQzAy\nWFla\n</data>\n"
	"x\nQzAy\nWFla\ny\n"
	"<key>other</key>\n<string>QzAy</string>\n";

/* A value that never closes: the chunk grows to the end, the text redacted whole. */
static const char unclosed_in[] =
	"<key>IOPlatformUUID</key>\n<string>abc-def\nline\nline\n<key>x</key>\nabc-def\n";

static void
test_chunks_equal_whole(void **state)
{
	(void)state;
	const char *ins[] = { plist_in, text_in, multiline_value_in, unclosed_in };
	for (size_t i = 0; i < ARRAY_SIZE(ins); i++) {
		size_t len = strlen(ins[i]);
		for (size_t chunk = 1; chunk <= len + 1; chunk++)
			expect_chunked(ins[i], chunk, chunk % 3 ? chunk : 5);
	}
	/* The cuts are taken: small chunks give many of them. */
	assert_true(expect_chunked(plist_in, 16, 16) > 10);
	assert_true(expect_chunked(text_in, 16, 16) > 5);
}

/* Cuts fall after newlines, never inside a keyed XML value. */
static void
test_safe_cut(void **state)
{
	(void)state;
	const char *t = "a\n<key>serial-number</key>\n<string>V\n";
	assert_int_equal(redactor_safe_cut(t, strlen(t)), 2);
	t = "a\n<key>serial-number</key>\n";
	assert_int_equal(redactor_safe_cut(t, strlen(t)), 2);
	t = "<key>serial-number</key>\n<data>\nAAAA\n</data>\nb\nc";
	assert_int_equal(redactor_safe_cut(t, strlen(t)), strlen(t) - 1);
	t = "no newline";
	assert_int_equal(redactor_safe_cut(t, strlen(t)), 0);
	t = "<key>serial-number</key>\n<data>\n";
	assert_int_equal(redactor_safe_cut(t, strlen(t)), 0);
}

/* The copy's name: -o as given without trailing slashes, else the input's with -redacted. */
static void
test_output_name(void **state)
{
	(void)state;
	const char *cases[][3] = {
		{ "out/", "b", "out" },
		{ "x.tar.gz//", "b", "x.tar.gz" },
		{ "/", "b", "/" },
		{ "-", "b", "-" },
		{ NULL, "dir/vmmap.txt.gz", "dir/vmmap-redacted.txt.gz" },
		{ NULL, "BUNDLE/", "BUNDLE-redacted" },
		{ NULL, "-", "-" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *name = redact_output_name(cases[i][0], cases[i][1]);
		assert_string_equal(name, cases[i][2]);
		free(name);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plist_keys_keep_the_key),
		cmocka_unit_test(test_ioreg_text_keys),
		cmocka_unit_test(test_known_values_whole_words),
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_bootargs),
		cmocka_unit_test(test_truncated_input),
		cmocka_unit_test(test_chunks_equal_whole),
		cmocka_unit_test(test_safe_cut),
		cmocka_unit_test(test_output_name),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
