#ifndef IOTALLY_CLI_FORMATS_H
#define IOTALLY_CLI_FORMATS_H

/*
 * The output formats, declared once: each command names the ones it
 * writes (a FORMAT_BIT mask) and --format is checked against that, so the
 * spelling of a format and the order formats are listed in a usage error
 * have one home.
 */

#include "util/diag.h"

enum output_format {
	FORMAT_TEXT,
	FORMAT_JSON,
	FORMAT_CSV,
	FORMAT_MARKDOWN,
	FORMAT_NDJSON,
	FORMAT_HTML,
	OUTPUT_FORMATS,
};

#define FORMAT_BIT(f) (1u << (f))

/* As --format spells them, indexed by enum output_format. */
extern const char *const output_format_names[OUTPUT_FORMATS];

/*
 * --format `value` among the formats of `accepts` (FORMAT_BIT bits): 0 with
 * *out, or -1 with the usage error that lists the accepted ones in table
 * order ("unknown format 'x' (expected text, json or markdown)").
 */
int cli_parse_format(const char *value, unsigned accepts, enum output_format *out,
		     struct diag *err);

#endif
