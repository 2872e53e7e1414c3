#ifndef IOTALLY_CLI_MSGS_H
#define IOTALLY_CLI_MSGS_H

/*
 * The one way cli/ prints diagnostics on standard error, all in the form
 *
 *     iotally: [PATH[:LINE]: ]error|warning|note: MESSAGE
 *
 * PATH is an input's name as given ("-" is shown as <stdin>) or NULL when the
 * message is about no file; LINE is 1-based, 0 when about no line. Messages
 * are printf formats checked by the compiler and end without a newline.
 * The path and the formatted message are written by util/escape.h's rule
 * (control bytes, C1 controls and invalid UTF-8 as \xNN), so a name taken
 * from an input, a manifest or ps cannot reach the terminal as a control.
 * The layers below fill a struct diag or a diag_list (util/diag.h says
 * where app/ writes them itself, in the same form: util/diag_write.h).
 */

#include <stdint.h>
#include <stdio.h>

#include "util/diag.h"

#define CLI_PRINTF(f, a) __attribute__((format(printf, f, a)))

/* One message of severity `sev` (DIAG_ERROR, DIAG_WARNING, DIAG_NOTE). */
void cli_msg(enum diag_severity sev, const char *path, uint64_t line, const char *fmt, ...)
	CLI_PRINTF(4, 5);
#define cli_error(...) cli_msg(DIAG_ERROR, __VA_ARGS__)
#define cli_warn(...) cli_msg(DIAG_WARNING, __VA_ARGS__)
#define cli_note(...) cli_msg(DIAG_NOTE, __VA_ARGS__)

/*
 * One line of output on `out` (standard output: a listing, a summary): the
 * formatted text by util/escape.h's rule, then '\n'. The formats hold no
 * control bytes of their own, so only what the arguments bring in (names
 * from manifests, members, ps) is escaped.
 */
void cli_out_line(FILE *out, const char *fmt, ...) CLI_PRINTF(2, 3);

/* A diagnostic filled below cli/, in the same form (with its column). */
void cli_print_diag(const struct diag *d);
/* A diagnostic as one line without the program name ("PATH:LINE: error: ..."),
 * for JUnit and NDJSON rows. The caller frees it. */
char *cli_diag_line(const struct diag *d);
/* Every warning and note of a list, then how many the list had to drop. */
void cli_print_warnings(const struct diag_list *w);

#endif
