#include "report/junit.h"

#include "util/strbuf.h"

#include <libxml/encoding.h>
#include <libxml/xmlwriter.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* Straight to `path`: a pipe or a device (/dev/fd/3) cannot be renamed onto. */
static int
write_file_direct(const char *path, const void *p, size_t n, struct diag *err)
{
	FILE *f = fopen(path, "w");
	bool ok = f != NULL;
	if (f) {
		ok = fwrite(p, 1, n, f) == n;
		ok &= fclose(f) == 0;
	}
	return ok ? 0 : diag_set(err, DIAG_IOERR, path, 0, 0, "cannot write the JUnit file");
}

/*
 * The bytes to `path` through a temporary file in the same directory, so a
 * reader never sees half a file; other than a regular file, directly.
 */
static int
write_file_atomic(const char *path, const void *p, size_t n, struct diag *err)
{
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return write_file_direct(path, p, n, err);
	struct strbuf tmp = STRBUF_INIT;
	strbuf_addf(&tmp, "%s.tmpXXXXXX", path);
	int fd = mkstemp(tmp.buf);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
	bool ok = f != NULL;
	if (!f && fd >= 0)
		close(fd);
	if (f) {
		ok = fwrite(p, 1, n, f) == n;
		ok &= fclose(f) == 0;
		ok = ok && rename(tmp.buf, path) == 0;
		if (!ok)
			remove(tmp.buf);
	}
	strbuf_release(&tmp);
	return ok ? 0 : diag_set(err, DIAG_IOERR, path, 0, 0, "cannot write the JUnit file");
}

int
junit_write(const char *path, const char *suite, const struct junit_case *cases, size_t n,
	    struct diag *err)
{
	xmlBufferPtr buf = xmlBufferCreate();
	xmlTextWriterPtr w = buf ? xmlNewTextWriterMemory(buf, 0) : NULL;
	int rc = -1;
	if (!w) {
		rc = diag_set(err, DIAG_SOFTWARE, path, 0, 0, "cannot set up the XML writer");
		goto out;
	}
	xmlTextWriterSetIndent(w, 1);
	xmlTextWriterSetIndentString(w, BAD_CAST "  ");
	if (write_suite(w, suite, cases, n) < 0) {
		rc = diag_set(err, DIAG_SOFTWARE, path, 0, 0, "cannot build the JUnit XML");
		goto out;
	}
	xmlFreeTextWriter(w);   /* flushes into buf */
	w = NULL;
	rc = write_file_atomic(path, xmlBufferContent(buf), (size_t)xmlBufferLength(buf), err);
out:
	if (w)
		xmlFreeTextWriter(w);
	if (buf)
		xmlBufferFree(buf);
	return rc;
}
