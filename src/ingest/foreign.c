#include "ingest/foreign.h"

#include "util/view.h"

#include <stdbool.h>
#include <string.h>

static bool
has(const char *p, size_t n, const char *needle)
{
	return view_find(p, n, needle) != NULL;
}

/* "zsh [56783]: 64-bit    Footprint: 1884592 B (16384 bytes per page)" on one line. */
static bool
has_footprint_title(const char *p, size_t n)
{
	const char *end = p + n, *q = p;
	while ((q = view_find(q, (size_t)(end - q), "]: ")) != NULL) {
		const char *nl = memchr(q, '\n', (size_t)(end - q));
		size_t len = (size_t)((nl ? nl : end) - q);
		if (has(q, len, " Footprint: ") && has(q, len, " bytes per page)"))
			return true;
		q += 3;
	}
	return false;
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
	if (has_footprint_title(p, n))
		return FOREIGN_FOOTPRINT_TEXT;
	return FOREIGN_NONE;
}

const char *
input_foreign_describe(enum foreign_kind kind)
{
	switch (kind) {
	case FOREIGN_FOOTPRINT_TEXT:
		return "a footprint report";
	case FOREIGN_FOOTPRINT_JSON:
		return "a footprint JSON report (footprint --json)";
	case FOREIGN_SYSTEM_PROFILER:
		return "a System Profiler report (system_profiler -xml, a .spx file)";
	case FOREIGN_NONE:
	default:
		return NULL;
	}
}
