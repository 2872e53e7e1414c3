#ifndef IOTALLY_REPORT_JUNIT_H
#define IOTALLY_REPORT_JUNIT_H

/*
 * JUnit XML for CI systems: <testsuite>s with one <testcase> per gate,
 * a <failure> under each that failed, the figures in <system-out> under
 * each that passed; a case that could not be checked holds an <error>, a
 * skipped one <skipped>, each with its message (as attribute and as text).
 * <testsuites> and each <testsuite> carry their totals. The document
 * keeps to the schema Jenkins' xUnit plugin validates JUnit files with
 * (tests/junit.xsd, checked by tests/junit-schema.py); GitLab keys a case
 * on classname + name, so callers keep those distinct in a document. Every
 * name and message is written by util/escape.h's rule (control bytes, C1
 * controls and invalid UTF-8 as \xNN: XML 1.0 allows no C0 control but
 * TAB, LF and CR, nor invalid UTF-8, and --junit - may write to a
 * terminal), then libxml2's writer escapes what XML reserves. No timestamps or host
 * names, so the file is the same for the same inputs. The caller opens
 * the file (util/outfile.h replaces it whole).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util/diag.h"

enum junit_state {
	JUNIT_CHECKED,           /* passed, or failed when `failed` */
	JUNIT_ERROR,             /* could not be checked: <error> */
	JUNIT_SKIPPED,           /* not checked: <skipped/> */
};

struct junit_case {
	const char *classname;   /* "iotally.diff.vmmap" */
	const char *name;        /* the gate as given */
	bool failed;
	const char *message;     /* the gate's figures, or why it errored or was skipped */
	enum junit_state state;
};

struct junit_suite {
	const char *name;
	const struct junit_case *cases;
	size_t n;
};

/* Several suites in one <testsuites> document. 0, or -1 with *err. */
int junit_write_suites(FILE *out, const struct junit_suite *suites, size_t n,
		       struct diag *err);

/* One suite. 0, or -1 with *err (DIAG_IOERR when `out` cannot be written). */
int junit_write(FILE *out, const char *suite, const struct junit_case *cases, size_t n,
		struct diag *err);

#endif
