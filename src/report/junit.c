#include "report/junit.h"

#include "util/escape.h"
#include "util/strbuf.h"

#include <libxml/encoding.h>
#include <libxml/xmlwriter.h>
#include <stdio.h>

/*
 * Every string of the document passes here: names and messages hold file
 * names, manifest paths and class names from inputs. libxml2 writes '<',
 * '&' and quotes as entities but copies control bytes and invalid UTF-8
 * as they are, which XML 1.0 forbids (no C0 but TAB, LF, CR) and which
 * reach a terminal with --junit -: util/escape.h's rule first, as for
 * every other writer.
 */
struct jw {
	xmlTextWriterPtr w;
	struct strbuf tmp;   /* the escaped copy of the string being written */
};

static const xmlChar *
text(struct jw *j, const char *s)
{
	return BAD_CAST escape_str(&j->tmp, s);
}

static int
attr(struct jw *j, const char *name, const char *value)
{
	return xmlTextWriterWriteAttribute(j->w, BAD_CAST name, text(j, value)) < 0 ? -1 : 0;
}

static int
attr_count(struct jw *j, const char *name, size_t n)
{
	char s[32];
	snprintf(s, sizeof(s), "%zu", n);
	return attr(j, name, s);
}

/*
 * <failure>, <error> or <skipped> with the message twice: as the `message`
 * attribute (what Jenkins shows) and as the element's text (what GitLab
 * shows: it reads no attribute of these elements).
 */
static int
write_outcome(struct jw *j, const char *element, const char *type, const char *message)
{
	if (xmlTextWriterStartElement(j->w, BAD_CAST element) < 0 ||
	    (type && attr(j, "type", type) < 0) || attr(j, "message", message) < 0 ||
	    xmlTextWriterWriteString(j->w, text(j, message)) < 0)
		return -1;
	return xmlTextWriterEndElement(j->w) < 0 ? -1 : 0;
}

/* <error type="iotally"> or <skipped>. */
static int
write_unchecked(struct jw *j, const struct junit_case *c)
{
	bool error = c->state == JUNIT_ERROR;
	return write_outcome(j, error ? "error" : "skipped", error ? "iotally" : NULL,
			     c->message);
}

/* What a set of cases came to: the attributes of <testsuite> and <testsuites>. */
struct junit_totals {
	size_t tests, failures, errors, skipped;
};

static void
totals_add(struct junit_totals *t, const struct junit_case *cases, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct junit_case *c = &cases[i];
		t->tests++;
		t->failures += c->state == JUNIT_CHECKED && c->failed;
		t->errors += c->state == JUNIT_ERROR;
		t->skipped += c->state == JUNIT_SKIPPED;
	}
}

/*
 * tests, failures and errors; `skipped` where the schema has it (on
 * <testsuite>, not on <testsuites>: tests/junit.xsd) and only when some were.
 */
static int
totals_write(struct jw *j, const struct junit_totals *t, bool with_skipped)
{
	if (attr_count(j, "tests", t->tests) < 0 || attr_count(j, "failures", t->failures) < 0 ||
	    attr_count(j, "errors", t->errors) < 0)
		return -1;
	return with_skipped && t->skipped ? attr_count(j, "skipped", t->skipped) : 0;
}

static int
write_case(struct jw *j, const struct junit_case *c)
{
	if (xmlTextWriterStartElement(j->w, BAD_CAST "testcase") < 0 ||
	    attr(j, "classname", c->classname) < 0 || attr(j, "name", c->name) < 0)
		return -1;
	if (c->state != JUNIT_CHECKED) {
		if (write_unchecked(j, c) < 0)
			return -1;
	} else if (c->failed) {
		if (write_outcome(j, "failure", "gate", c->message) < 0)
			return -1;
	} else if (xmlTextWriterWriteElement(j->w, BAD_CAST "system-out",
					     text(j, c->message)) < 0) {
		return -1;
	}
	return xmlTextWriterEndElement(j->w) < 0 ? -1 : 0;
}

static int
write_suite(struct jw *j, const struct junit_suite *su)
{
	struct junit_totals t = { 0 };
	totals_add(&t, su->cases, su->n);
	if (xmlTextWriterStartElement(j->w, BAD_CAST "testsuite") < 0 ||
	    attr(j, "name", su->name) < 0 || totals_write(j, &t, true) < 0)
		return -1;
	for (size_t i = 0; i < su->n; i++)
		if (write_case(j, &su->cases[i]) < 0)
			return -1;
	return xmlTextWriterEndElement(j->w) < 0 ? -1 : 0;
}

static int
write_document(struct jw *j, const struct junit_suite *suites, size_t n)
{
	struct junit_totals t = { 0 };
	for (size_t i = 0; i < n; i++)
		totals_add(&t, suites[i].cases, suites[i].n);
	if (xmlTextWriterStartDocument(j->w, "1.0", "UTF-8", NULL) < 0 ||
	    xmlTextWriterStartElement(j->w, BAD_CAST "testsuites") < 0 ||
	    totals_write(j, &t, false) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (write_suite(j, &suites[i]) < 0)
			return -1;
	return xmlTextWriterEndDocument(j->w) < 0 ? -1 : 0;
}

int
junit_write(FILE *out, const char *suite, const struct junit_case *cases, size_t n,
	    struct diag *err)
{
	struct junit_suite su = { suite, cases, n };
	return junit_write_suites(out, &su, 1, err);
}

int
junit_write_suites(FILE *out, const struct junit_suite *suites, size_t nsuites,
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
	struct jw j = { w, STRBUF_INIT };
	int built = write_document(&j, suites, nsuites);
	strbuf_release(&j.tmp);
	if (built < 0) {
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
