/*
 * A report page into its output (app/report_write.h).
 */

#include "app/report_write.h"

#include "report/report_html_write.h"
#include "report/report_md_write.h"
#include "util/outfile.h"

static int
html_write(FILE *out, const void *r, struct diag *err)
{
	(void)err;
	return report_html_write(out, r);
}

static int
md_write(FILE *out, const void *r, struct diag *err)
{
	(void)err;
	return report_md_write(out, r);
}

int
app_report_write(const char *path, enum output_format format, const struct report *r,
		 struct diag *err)
{
	return outfile_write(path, format == FORMAT_HTML ? html_write : md_write, r, err);
}
