#ifndef IOTALLY_REPORT_JUNIT_H
#define IOTALLY_REPORT_JUNIT_H

/*
 * JUnit XML for CI systems: one <testsuite> with one <testcase> per gate,
 * a <failure> under each that failed, the figures in <system-out> under
 * each that passed. libxml2's writer escapes every name and message,
 * whatever bytes a type or module name holds. No timestamps or host
 * names, so the file is the same for the same inputs. The file is written
 * whole to a temporary name and renamed, so a reader never sees half of it.
 */

#include <stdbool.h>
#include <stddef.h>

#include "util/diag.h"

struct junit_case {
	const char *classname;   /* "iotally.diff.vmmap" */
	const char *name;        /* the gate as given */
	bool failed;
	const char *message;     /* the gate's figures */
};

/* 0, or -1 with *err (DIAG_IOERR when the file cannot be written). */
int junit_write(const char *path, const char *suite, const struct junit_case *cases,
		size_t n, struct diag *err);

#endif
