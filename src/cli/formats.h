#ifndef IOTALLY_CLI_FORMATS_H
#define IOTALLY_CLI_FORMATS_H

/*
 * --format of a command, checked against the formats it writes (the one
 * table is util/output_format.h).
 */

#include "util/output_format.h"
#include "util/diag.h"

/*
 * --format `value` among the formats of `accepts` (FORMAT_BIT bits): 0 with
 * *out, or -1 with the usage error that lists the accepted ones in table
 * order ("unknown format 'x' (expected text, json or markdown)").
 */
int cli_parse_format(const char *value, unsigned accepts, enum output_format *out,
		     struct diag *err);

#endif
