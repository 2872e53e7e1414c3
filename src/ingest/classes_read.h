#ifndef IOTALLY_INGEST_CLASSES_READ_H
#define IOTALLY_INGEST_CLASSES_READ_H

/*
 * Reading class counts and class hierarchies from saved captures. The
 * kind of input is recognised from its content (ingest/detect.h):
 *
 *   ioreg -l text        "IOKitDiagnostics" = {...} property lines; ioreg -i
 *                        class chains in entry headers give a hierarchy
 *   ioreg -a XML plist   IOKitDiagnostics dictionaries wherever they are
 *                        nested; IOObjectInheritance arrays give a hierarchy
 *   kext-info XML plist  OSBundleClasses arrays: hierarchy, and counts from
 *                        OSMetaClassTrackingCount when there is no
 *                        IOKitDiagnostics
 *   ioclasscount text    default listings, class-names lines, ioalloccount lines
 *
 * Every IOKitDiagnostics dictionary (or run of ioclasscount output) is one
 * snapshot. Errors carry the file, line and column; a capture cut short is
 * an error unless `partial` is set, in which case the snapshot is kept
 * with `truncated` set and a warning says what was cut.
 */

#include <stdbool.h>
#include <stddef.h>

#include "ingest/classes_common.h"
#include "model/classes.h"
#include "model/hierarchy.h"
#include "util/diag.h"
#include "util/linereader.h"

/*
 * Read `path` ("-" = standard input). Snapshots go to `cap`, superclass
 * links to `h` (may be NULL when no hierarchy is wanted). 0, or -1 with *err.
 * An input without what `need_counts` / `need_hierarchy` ask for is an
 * error naming what the input holds instead.
 */
int classes_read_file(const char *path, struct classes_capture *cap,
		      struct hierarchy *h, const struct classes_read_opts *opts,
		      struct diag_list *warnings, struct diag *err);

/* The same over an open line reader (tests, fuzzing). */
int classes_read(struct line_reader *r, struct classes_capture *cap,
		 struct hierarchy *h, const struct classes_read_opts *opts,
		 struct diag_list *warnings, struct diag *err);

#endif
