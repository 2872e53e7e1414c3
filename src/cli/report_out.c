#include "cli/report_out.h"

#include "util/outbuf.h"
#include "app/kind_command.h"

#include "iotally-config.h"
#include "report/report_html_write.h"
#include "report/report_md_write.h"
#include "util/diag.h"
#include "util/outfile.h"

#include <stdio.h>

void
cli_report_provenance(struct report *r, const char *const *paths, size_t npaths)
{
	kind_report_provenance(r, paths, npaths);
}

int
cli_write_output(const char *path, cli_write_fn write, const void *ctx, struct diag *err)
{
	struct outfile o;
	diag_clear(err);
	if (!path) {
		if (write(stdout, ctx, err) == 0)
			return 0;
		return err->code ? -1 : diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot write output");
	}
	if (outfile_open(&o, path, err) < 0)
		return -1;
	if (write(o.fp, ctx, err) < 0) {
		if (!err->code)
			diag_set(err, DIAG_IOERR, path, 0, 0, "cannot write");
		else diag_set_path_if_unset(err, path);
		outfile_abort(&o);
		return -1;
	}
	return outfile_commit(&o, err);
}

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
cli_write_report(const char *path, enum output_format format, const struct report *r,
		 struct diag *err)
{
	return cli_write_output(path, format == FORMAT_HTML ? html_write : md_write, r, err);
}
