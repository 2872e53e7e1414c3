#ifndef IOTALLY_UTIL_OUTPUT_FORMAT_H
#define IOTALLY_UTIL_OUTPUT_FORMAT_H

/*
 * The output formats, declared once for every command and every kind's
 * writers: a command (or a kind's row, app/kind_command.h) names the ones
 * it writes as a FORMAT_BIT mask, and --format is checked against that
 * (cli/formats.h), so the spelling of a format and the order formats are
 * listed in a usage error have one home.
 */

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

#endif
