#ifndef IOTALLY_REPORT_JUNIT_H
#define IOTALLY_REPORT_JUNIT_H

/*
 * JUnit XML for CI systems: one <testsuite> with one <testcase> per gate,
 * a <failure> under each that failed, the figures in <system-out> under
 * each that passed. libxml2's writer escapes every name and message,
 * whatever bytes a type or module name holds. No timestamps or host
 * names, so the file is the same for the same inputs. The caller opens
 * the file (util/outfile.h replaces it whole).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util/diag.h"

struct junit_case {
	const char *classname;   /* "iotally.diff.vmmap" */
	const char *name;        /* the gate as given */
	bool failed;
	const char *message;     /* the gate's figures */
};

/* 0, or -1 with *err (DIAG_IOERR when `out` cannot be written). */
int junit_write(FILE *out, const char *suite, const struct junit_case *cases, size_t n,
		struct diag *err);

#endif
