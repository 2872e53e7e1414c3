#ifndef IOTALLY_CLI_REPORT_OUT_H
#define IOTALLY_CLI_REPORT_OUT_H

/*
 * What every command that writes a report (model/report.h) adds to it:
 * the input names and the iotally version in its provenance, then the
 * Markdown on standard output (`--format markdown` of vmmap, classes and
 * track; `iotally report`).
 */

#include <stddef.h>

#include "model/report.h"

/* "Input" (one path) or "Inputs" (BEFORE -> AFTER), then "iotally" VERSION. */
void cli_report_provenance(struct report *r, const char *const *paths, size_t npaths);

/* The report as Markdown on standard output: 0, or 74 after saying why not. */
int cli_report_write_markdown(const struct report *r);

#endif
