#ifndef IOTALLY_INGEST_CLASSES_XML_READ_H
#define IOTALLY_INGEST_CLASSES_XML_READ_H

/*
 * Class counts and hierarchies from XML property lists (ioreg -a, kext-info):
 * every IOKitDiagnostics dictionary wherever it is nested is a snapshot;
 * IOObjectInheritance arrays and OSBundleClasses give superclass links, and
 * a kext-info dump without IOKitDiagnostics gives counts from
 * OSMetaClassTrackingCount. Called by classes_read() once the input is
 * known to be an XML property list.
 */

#include "ingest/classes_common.h"
#include "model/classes.h"
#include "model/hierarchy.h"
#include "util/diag.h"
#include "util/linereader.h"

/* 0, or -1 with *err (a property list without what opts->need_counts asks for too). */
int classes_xml_read(struct line_reader *r, struct classes_capture *cap, struct hierarchy *h,
		     const struct classes_read_opts *opts, struct diag_list *warnings,
		     struct diag *err);

#endif
