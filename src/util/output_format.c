#include "util/output_format.h"

const char *const output_format_names[OUTPUT_FORMATS] = {
	[FORMAT_TEXT] = "text",
	[FORMAT_JSON] = "json",
	[FORMAT_CSV] = "csv",
	[FORMAT_MARKDOWN] = "markdown",
	[FORMAT_NDJSON] = "ndjson",
	[FORMAT_HTML] = "html",
};
