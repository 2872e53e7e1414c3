#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ingest/plist.h"
#include "util/strbuf.h"

#define HEAD "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n"

/* Records events as "B{key}@depth", "E", "S(type)key=text". */
static int
record(void *ctx, const struct plist_item *it, struct diag *err)
{
	struct strbuf *sb = ctx;
	(void)err;
	switch (it->event) {
	case PLIST_DICT_BEGIN:
	case PLIST_ARRAY_BEGIN:
		strbuf_addf(sb, "%c%s@%zu ", it->event == PLIST_DICT_BEGIN ? 'D' : 'A',
			    it->key ? it->key : "-", it->depth);
		break;
	case PLIST_DICT_END:
	case PLIST_ARRAY_END:
		strbuf_addstr(sb, "E ");
		break;
	case PLIST_SCALAR:
		strbuf_addf(sb, "%s:%s=%s ", plist_type_name(it->type), it->key ? it->key : "-",
			    it->text);
		break;
	}
	return 0;
}

static int
parse(const char *doc, struct strbuf *events, struct diag *err)
{
	struct line_reader r;
	struct plist_opts opts = { .max_depth = 8, .max_text = 64 };
	line_reader_from_memory(&r, doc, strlen(doc), "mem", 0);
	diag_clear(err);
	int rc = plist_read(&r, &opts, record, events, err);
	line_reader_close(&r);
	return rc;
}

static void
test_events(void **state)
{
	(void)state;
	struct strbuf ev = STRBUF_INIT;
	struct diag err;
	assert_int_equal(parse(HEAD "<dict><key>A&lt;b&gt;</key><integer>-3</integer>"
			       "<key>L</key><array><string>x&#38;y</string><true/></array>"
			       "</dict></plist>\n", &ev, &err), 0);
	assert_string_equal(ev.buf, "D-@0 integer:A<b>=-3 AL@1 string:-=x&y true:-= E E ");
	strbuf_release(&ev);
}

static void
expect_error(const char *doc, const char *needle)
{
	struct strbuf ev = STRBUF_INIT;
	struct diag err;
	assert_int_equal(parse(doc, &ev, &err), -1);
	if (!strstr(err.msg, needle))
		fail_msg("message '%s' lacks '%s'", err.msg, needle);
	assert_int_equal(err.code, DIAG_DATA);
	strbuf_release(&ev);
}

static void
test_entities_refused(void **state)
{
	(void)state;
	expect_error("<?xml version=\"1.0\"?>\n<!DOCTYPE plist [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n"
		     "<plist><string>&x;</string></plist>\n", "declares the entity 'x'");
	expect_error("<?xml version=\"1.0\"?>\n<!DOCTYPE plist [<!ENTITY a \"aaaa\">]>\n"
		     "<plist><string>&a;&a;</string></plist>\n", "never declare entities");
	expect_error(HEAD "<string>&nope;</string></plist>\n", "nope");
}

static void
test_structure_errors(void **state)
{
	(void)state;
	expect_error(HEAD "<dict><integer>1</integer></dict></plist>\n", "without a <key>");
	expect_error(HEAD "<dict><key>a</key></dict></plist>\n", "<key> without a value");
	expect_error(HEAD "<html/></plist>\n", "not a property-list element");
	expect_error(HEAD "<array><array><array><array><array><array><array><array><array>"
		     "</array></array></array></array></array></array></array></array></array>"
		     "</plist>\n", "nests deeper than 8 levels");
	expect_error(HEAD "<string>0123456789012345678901234567890123456789012345678901234567890123456789"
		     "</string></plist>\n", "longer than 64 bytes");
	expect_error(HEAD "<dict><key>a</key><integer>1", "cut off inside a <integer>");
	expect_error(HEAD "<dict><key>a</key><integer>1</integer>\n", "<dict> opened at line 3");
	expect_error(HEAD "<dict></array></plist>\n", "malformed XML");
	expect_error("<?xml version=\"1.0\"?>\n<plist></plist>\n", "no property-list value");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_events),
		cmocka_unit_test(test_entities_refused),
		cmocka_unit_test(test_structure_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
