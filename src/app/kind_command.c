/*
 * What the kinds' commands share when they write a report of one input
 * (app/kind_command.h).
 */

#include "app/kind_command.h"

#include "iotally-config.h"
#include "app/sources.h"
#include "model/report.h"
#include "report/report_md_write.h"
#include "util/diag_write.h"

void
kind_report_provenance(struct report *r, const char *const *paths, size_t npaths)
{
	if (npaths == 2)
		report_add_provenance(r, "Inputs", "%s \u2192 %s", diag_display_path(paths[0]),
				      diag_display_path(paths[1]));
	else
		report_add_provenance(r, "Input", "%s", diag_display_path(paths[0]));
	report_add_provenance(r, "iotally", "%s", IOTALLY_VERSION);
}

int
kind_report_write_markdown(const struct kind_io *io, const struct report *r)
{
	if (report_md_write(io->out, r) < 0) {
		diag_write_msg(io->err, DIAG_ERROR, NULL, 0, "cannot write output");
		return DIAG_IOERR;
	}
	return 0;
}

struct ndjson_source
kind_ndjson_source(const struct app_source *src)
{
	return (struct ndjson_source){ .path = src->path, .side = src->side, .pair = src->pair };
}

void
kind_command_said_partial(const struct kind_io *io, const struct app_source *src)
{
	diag_write_msg(io->err, DIAG_WARNING, src->path, 0,
		       "results are partial (see the warnings above)");
}
