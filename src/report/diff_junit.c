/*
 * JUnit XML for CI systems, written with libxml2's xmlTextWriter so every
 * name and message is escaped by the library, whatever bytes a type or
 * module name holds.
 */

#include "report/diff_report.h"

#include "util/strbuf.h"

#include <libxml/encoding.h>
#include <libxml/xmlwriter.h>
#include <stdio.h>

static int
attr(xmlTextWriterPtr w, const char *name, const char *value)
{
	return xmlTextWriterWriteAttribute(w, BAD_CAST name, BAD_CAST value) < 0 ? -1 : 0;
}

static int
attr_count(xmlTextWriterPtr w, const char *name, size_t n)
{
	char s[32];
	snprintf(s, sizeof(s), "%zu", n);
	return attr(w, name, s);
}

static int
write_case(xmlTextWriterPtr w, const struct diff_report *r, const struct diff_gate *g)
{
	struct strbuf msg = STRBUF_INIT, cls = STRBUF_INIT;
	int rc = -1;
	strbuf_addf(&cls, "iotally.diff.%s", r->kind);
	diff_gate_describe(g, &msg);
	if (xmlTextWriterStartElement(w, BAD_CAST "testcase") < 0 ||
	    attr(w, "classname", cls.buf) < 0 || attr(w, "name", g->text) < 0)
		goto out;
	if (g->tripped) {
		if (xmlTextWriterStartElement(w, BAD_CAST "failure") < 0 ||
		    attr(w, "type", "gate") < 0 || attr(w, "message", msg.buf) < 0 ||
		    xmlTextWriterEndElement(w) < 0)
			goto out;
	} else if (xmlTextWriterWriteElement(w, BAD_CAST "system-out", BAD_CAST msg.buf) < 0) {
		goto out;
	}
	rc = xmlTextWriterEndElement(w) < 0 ? -1 : 0;
out:
	strbuf_release(&msg);
	strbuf_release(&cls);
	return rc;
}

static int
write_suite(xmlTextWriterPtr w, const struct diff_report *r)
{
	size_t failures = 0;
	struct strbuf name = STRBUF_INIT;
	int rc = -1;
	for (size_t i = 0; i < r->ngates; i++)
		failures += r->gates[i].tripped;
	strbuf_addf(&name, "iotally diff %s %s", r->before_path, r->after_path);
	if (xmlTextWriterStartDocument(w, "1.0", "UTF-8", NULL) < 0 ||
	    xmlTextWriterStartElement(w, BAD_CAST "testsuites") < 0 ||
	    xmlTextWriterStartElement(w, BAD_CAST "testsuite") < 0 ||
	    attr(w, "name", name.buf) < 0 || attr_count(w, "tests", r->ngates) < 0 ||
	    attr_count(w, "failures", failures) < 0 || attr_count(w, "errors", 0) < 0)
		goto out;
	for (size_t i = 0; i < r->ngates; i++)
		if (write_case(w, r, &r->gates[i]) < 0)
			goto out;
	rc = xmlTextWriterEndDocument(w) < 0 ? -1 : 0;
out:
	strbuf_release(&name);
	return rc;
}

int
diff_junit_write(FILE *out, const struct diff_report *r, struct diag *err)
{
	xmlBufferPtr buf = xmlBufferCreate();
	xmlTextWriterPtr w = buf ? xmlNewTextWriterMemory(buf, 0) : NULL;
	int rc = -1;
	if (!w) {
		rc = diag_set(err, DIAG_SOFTWARE, NULL, 0, 0, "cannot set up the XML writer");
		goto out;
	}
	xmlTextWriterSetIndent(w, 1);
	xmlTextWriterSetIndentString(w, BAD_CAST "  ");
	if (write_suite(w, r) < 0) {
		rc = diag_set(err, DIAG_SOFTWARE, NULL, 0, 0, "cannot build the JUnit XML");
		goto out;
	}
	xmlFreeTextWriter(w);   /* flushes into buf */
	w = NULL;
	size_t n = (size_t)xmlBufferLength(buf);
	rc = fwrite(xmlBufferContent(buf), 1, n, out) == n
	     ? 0 : diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot write the JUnit XML");
out:
	if (w)
		xmlFreeTextWriter(w);
	if (buf)
		xmlBufferFree(buf);
	return rc;
}
