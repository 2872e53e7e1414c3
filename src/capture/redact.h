#ifndef IOTALLY_CAPTURE_REDACT_H
#define IOTALLY_CAPTURE_REDACT_H

/*
 * Redaction of capture outputs, on by default (docs/capture.md):
 *
 *   console-user   IOConsoleUsers user names (kCGSSessionUserNameKey,
 *                  kCGSessionLongUserNameKey) in ioreg XML and text
 *   serial         IOPlatformSerialNumber, IOPlatformUUID, serial-number
 *   user-path      /Users/<name>/ -> /Users/USER/ (not Shared, not USER)
 *   temp-path      /private/var/folders/xx/<random>/ -> /private/var/folders/REDACTED/
 *   bootargs       kern.bootargs reduced to its io= and debug= flags
 *   known-value    every other whole-word occurrence of a value the rules
 *                  above found (a user name or a serial number printed
 *                  elsewhere, the NAME of /Users/NAME/) or that was added
 *
 * Values are replaced, keys kept, so a reader tells "redacted" from
 * "absent". The rules count their hits; values are never kept anywhere
 * but in the redactor's memory while it runs.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

enum redact_rule {
	REDACT_CONSOLE_USER,
	REDACT_SERIAL,
	REDACT_USER_PATH,
	REDACT_TEMP_PATH,
	REDACT_BOOTARGS,
	REDACT_KNOWN_VALUE,
	REDACT_NRULES,
};

#define REDACT_MARK "REDACTED"

struct redactor {
	char **values;      /* found secrets (user names, serials), owned */
	size_t nvalues, alloc;
};

const char *redact_rule_name(enum redact_rule r);
const char *redact_rule_description(enum redact_rule r);

void redactor_init(struct redactor *rd);
/* Add a value to redact wherever it appears (the user's own login name, say); short ones are ignored. */
void redactor_add_value(struct redactor *rd, const char *v, size_t n);
/* First pass: collect the values the key rules will remove from `text`. */
void redactor_collect(struct redactor *rd, const char *text, size_t n);

/*
 * The first pass over one file read in chunks: the keyed values and the
 * /Users/NAME names are kept apart while the file is read and added to the
 * redactor when it is whole (keyed values first), in the order
 * redactor_collect() adds them, since the order values are replaced in
 * decides the output when one contains another.
 */
struct redact_found {
	struct redactor keyed, names;
};
void redact_found_init(struct redact_found *f);
void redact_found_collect(struct redact_found *f, const char *text, size_t n);
void redact_found_add_to(const struct redact_found *f, struct redactor *rd);
void redact_found_release(struct redact_found *f);

/*
 * Chunks. Redacting a file chunk by chunk gives the same bytes as
 * redacting it whole when every chunk ends where no rule sees across:
 *   - the user-path, temp-path and bootargs rules, the ioreg text form of
 *     the keyed rules (`"K" = "V"`, `"K" = <...>`) and the known values
 *     without a newline in them stop at a newline: a cut after a newline
 *     is safe for them;
 *   - the XML keyed rule spans lines: `<key>K</key>`, blanks and newlines,
 *     then `<string>V</string>` or a `<data>` of several lines. A cut is
 *     safe only where no such value of a redacted key is open, so it moves
 *     back to the start of the key's line;
 *   - a known value holding a newline (a multi-line <data> serial number)
 *     can match across any line: then the file is redacted whole.
 * redactor_safe_cut() gives the length of the longest prefix of text[0..n)
 * ending on such a cut, 0 when there is none: the caller reads more and
 * asks again (the chunk grows: a value that never closes makes it grow to
 * the end of the file, which then is redacted whole). At the end of a file
 * the rest is one chunk. The collect pass has the same needs.
 */
size_t redactor_safe_cut(const char *text, size_t n);
/* Whether cuts after newlines are safe for the known values (none holds a newline). */
bool redactor_line_local(const struct redactor *rd);
/* Second pass: rewrite `text` into `out`; hits[rule] += replacements. */
void redactor_apply(const struct redactor *rd, const char *text, size_t n, struct strbuf *out,
		    uint64_t hits[REDACT_NRULES]);
void redactor_release(struct redactor *rd);

#endif
