#ifndef IOTALLY_CLI_REPORT_OUT_H
#define IOTALLY_CLI_REPORT_OUT_H

/*
 * What every command that writes a report (model/report.h) adds to it:
 * the input names and the iotally version in its provenance, then the
 * page written as Markdown or HTML (`iotally report`; the kinds' own
 * `--format markdown` writes through app/kind_command.h).
 */

#include <stddef.h>
#include <stdio.h>

#include "cli/formats.h"
#include "model/report.h"
#include "util/diag.h"

/* "Input" (one path) or "Inputs" (BEFORE -> AFTER), then "iotally" VERSION. */
void cli_report_provenance(struct report *r, const char *const *paths, size_t npaths);

/* Writes a command's output to `out`: 0, or -1 (with *err set when it knows why). */
typedef int (*cli_write_fn)(FILE *out, const void *ctx, struct diag *err);

/*
 * The one way a command writes an output file (`report -o`, `--junit`):
 * `write` into PATH replaced whole (util/outfile.h: a temporary file renamed
 * over it, so a failed run leaves the old file or none; a device such as
 * /dev/null written in place; "-" is standard output), or into standard
 * output when PATH is NULL. 0, or -1 with *err (DIAG_IOERR naming PATH when
 * the writer did not say more).
 */
int cli_write_output(const char *path, cli_write_fn write, const void *ctx, struct diag *err);

/* A report page into PATH as cli_write_output() writes: HTML for FORMAT_HTML, else Markdown. */
int cli_write_report(const char *path, enum output_format format, const struct report *r,
		     struct diag *err);

#endif
