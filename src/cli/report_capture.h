#ifndef IOTALLY_CLI_REPORT_CAPTURE_H
#define IOTALLY_CLI_REPORT_CAPTURE_H

/*
 * One capture of a bundle read into a report, as `iotally report BUNDLE`
 * reads each of its captures (cmd_report.c): its checksum checked against
 * the manifest first (a mismatch is a note in `notes`). `iotally BUNDLE`
 * (bundle_args.c) prints the verdict and warnings of each as its headline.
 */

#include "model/report.h"
#include "util/diag.h"

struct bundle_capture;

/* 0 with the capture's sections, verdict and warnings added to *r; -1 with *err. */
int cli_report_add_capture(struct report *r, const struct bundle_capture *c,
			   struct diag_list *notes, struct diag *err);

#endif
