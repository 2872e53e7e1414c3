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
/* Second pass: rewrite `text` into `out`; hits[rule] += replacements. */
void redactor_apply(const struct redactor *rd, const char *text, size_t n, struct strbuf *out,
		    uint64_t hits[REDACT_NRULES]);
void redactor_release(struct redactor *rd);

#endif
