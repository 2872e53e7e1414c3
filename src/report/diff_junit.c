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
start_case(xmlTextWriterPtr w, const struct diff_junit_suite *su, const char *name)
{
	struct strbuf cls = STRBUF_INIT;
	int rc = 0;
	if (su->kind)
		strbuf_addf(&cls, "iotally.diff.%s", su->kind);
	else
		strbuf_addstr(&cls, "iotally.diff");
	if (xmlTextWriterStartElement(w, BAD_CAST "testcase") < 0 ||
	    attr(w, "classname", cls.buf) < 0 || attr(w, "name", name) < 0)
		rc = -1;
	strbuf_release(&cls);
	return rc;
}

static int
write_gate(xmlTextWriterPtr w, const struct diff_junit_suite *su, const struct diff_gate *g)
{
	struct strbuf msg = STRBUF_INIT;
	int rc = -1;
	diff_gate_describe(g, &msg);
	if (start_case(w, su, g->text) < 0)
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
	return rc;
}

static int
write_case(xmlTextWriterPtr w, const struct diff_junit_suite *su,
	   const struct diff_junit_case *c)
{
	bool error = c->outcome == DIFF_JUNIT_ERROR;
	if (start_case(w, su, c->name) < 0 ||
	    xmlTextWriterStartElement(w, BAD_CAST (error ? "error" : "skipped")) < 0 ||
	    (error && attr(w, "type", "iotally") < 0) ||
	    attr(w, "message", c->message) < 0 || xmlTextWriterEndElement(w) < 0)
		return -1;
	return xmlTextWriterEndElement(w) < 0 ? -1 : 0;
}

static int
write_suite(xmlTextWriterPtr w, const struct diff_junit_suite *su)
{
	size_t failures = 0, errors = 0, skipped = 0;
	for (size_t i = 0; i < su->ngates; i++)
		failures += su->gates[i].tripped;
	for (size_t i = 0; i < su->ncases; i++) {
		errors += su->cases[i].outcome == DIFF_JUNIT_ERROR;
		skipped += su->cases[i].outcome == DIFF_JUNIT_SKIPPED;
	}
	if (xmlTextWriterStartElement(w, BAD_CAST "testsuite") < 0 ||
	    attr(w, "name", su->name) < 0 ||
	    attr_count(w, "tests", su->ngates + su->ncases) < 0 ||
	    attr_count(w, "failures", failures) < 0 || attr_count(w, "errors", errors) < 0 ||
	    (skipped && attr_count(w, "skipped", skipped) < 0))
		return -1;
	for (size_t i = 0; i < su->ngates; i++)
		if (write_gate(w, su, &su->gates[i]) < 0)
			return -1;
	for (size_t i = 0; i < su->ncases; i++)
		if (write_case(w, su, &su->cases[i]) < 0)
			return -1;
	return xmlTextWriterEndElement(w) < 0 ? -1 : 0;
}

static int
write_suites(xmlTextWriterPtr w, const struct diff_junit_suite *suites, size_t n)
{
	if (xmlTextWriterStartDocument(w, "1.0", "UTF-8", NULL) < 0 ||
	    xmlTextWriterStartElement(w, BAD_CAST "testsuites") < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (write_suite(w, &suites[i]) < 0)
			return -1;
	return xmlTextWriterEndDocument(w) < 0 ? -1 : 0;
}

int
diff_junit_write(FILE *out, const struct diff_junit_suite *suites, size_t nsuites,
		 struct diag *err)
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
	if (write_suites(w, suites, nsuites) < 0) {
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
