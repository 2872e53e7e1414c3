#include "cli/report_out.h"

#include "cli/msgs.h"

#include "iotally-config.h"
#include "report/report_md_write.h"
#include "util/diag.h"

#include <stdio.h>

void
cli_report_provenance(struct report *r, const char *const *paths, size_t npaths)
{
	if (npaths == 2)
		report_add_provenance(r, "Inputs", "%s \u2192 %s", diag_display_path(paths[0]),
				      diag_display_path(paths[1]));
	else
		report_add_provenance(r, "Input", "%s", diag_display_path(paths[0]));
	report_add_provenance(r, "iotally", "%s", IOTALLY_VERSION);
}

int
cli_report_write_markdown(const struct report *r)
{
	if (report_md_write(stdout, r) < 0) {
		cli_error(NULL, 0, "cannot write output");
		return DIAG_IOERR;
	}
	return 0;
}
