#ifndef IOTALLY_APP_REPORT_WRITE_H
#define IOTALLY_APP_REPORT_WRITE_H

/*
 * A report page (model/report.h) written whole into its output: HTML
 * (report/report_html_write.h) or Markdown (report/report_md_write.h), by
 * the one way an output file is written (util/outfile.h outfile_write()).
 */

#include "model/report.h"
#include "util/diag.h"
#include "util/output_format.h"

/* Into PATH (NULL: standard output): HTML for FORMAT_HTML, else Markdown. 0, or -1 with *err. */
int app_report_write(const char *path, enum output_format format, const struct report *r,
		     struct diag *err);

#endif
