#include "report/junit.h"

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
write_case(xmlTextWriterPtr w, const struct junit_case *c)
{
	if (xmlTextWriterStartElement(w, BAD_CAST "testcase") < 0 ||
	    attr(w, "classname", c->classname) < 0 || attr(w, "name", c->name) < 0)
		return -1;
	if (c->failed) {
		if (xmlTextWriterStartElement(w, BAD_CAST "failure") < 0 ||
		    attr(w, "type", "gate") < 0 || attr(w, "message", c->message) < 0 ||
		    xmlTextWriterEndElement(w) < 0)
			return -1;
	} else if (xmlTextWriterWriteElement(w, BAD_CAST "system-out",
					     BAD_CAST c->message) < 0) {
		return -1;
	}
	return xmlTextWriterEndElement(w) < 0 ? -1 : 0;
}

static int
write_suite(xmlTextWriterPtr w, const char *suite, const struct junit_case *cases, size_t n)
{
	size_t failures = 0;
	for (size_t i = 0; i < n; i++)
		failures += cases[i].failed;
	if (xmlTextWriterStartDocument(w, "1.0", "UTF-8", NULL) < 0 ||
	    xmlTextWriterStartElement(w, BAD_CAST "testsuites") < 0 ||
	    xmlTextWriterStartElement(w, BAD_CAST "testsuite") < 0 ||
	    attr(w, "name", suite) < 0 || attr_count(w, "tests", n) < 0 ||
	    attr_count(w, "failures", failures) < 0 || attr_count(w, "errors", 0) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (write_case(w, &cases[i]) < 0)
			return -1;
	return xmlTextWriterEndDocument(w) < 0 ? -1 : 0;
}

int
junit_write(FILE *out, const char *suite, const struct junit_case *cases, size_t n,
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
	if (write_suite(w, suite, cases, n) < 0) {
		rc = diag_set(err, DIAG_SOFTWARE, NULL, 0, 0, "cannot build the JUnit XML");
		goto out;
	}
	xmlFreeTextWriter(w);   /* flushes into buf */
	w = NULL;
	size_t len = (size_t)xmlBufferLength(buf);
	rc = fwrite(xmlBufferContent(buf), 1, len, out) == len
	     ? 0 : diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot write the JUnit XML");
out:
	if (w)
		xmlFreeTextWriter(w);
	if (buf)
		xmlBufferFree(buf);
	return rc;
}
