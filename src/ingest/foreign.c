#include "ingest/foreign.h"

#include "util/view.h"

#include <stdbool.h>
#include <string.h>

static bool
has(const char *p, size_t n, const char *needle)
{
	return view_find(p, n, needle) != NULL;
}

enum foreign_kind
input_foreign_detect(const char *p, size_t n)
{
	const char *s = p, *end = p + n;
	while (s < end && (view_is_space(*s) || *s == '\n' || *s == '\r'))
		s++;
	if (s < end && *s == '{' && (has(p, n, "\"total footprint\"") ||
				     has(p, n, "\"bytes per unit\"")))
		return FOREIGN_FOOTPRINT_JSON;
	if (s < end && *s == '<' && has(p, n, "<plist") &&
	    (has(p, n, "<key>_dataType</key>") || has(p, n, "<key>_SPCommandLineArguments</key>")))
		return FOREIGN_SYSTEM_PROFILER;
	return FOREIGN_NONE;
}

const char *
input_foreign_describe(enum foreign_kind kind)
{
	switch (kind) {
	case FOREIGN_FOOTPRINT_JSON:
		return "a footprint JSON report (footprint --json)";
	case FOREIGN_SYSTEM_PROFILER:
		return "a System Profiler report (system_profiler -xml, a .spx file)";
	case FOREIGN_NONE:
	default:
		return NULL;
	}
}
