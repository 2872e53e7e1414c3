#ifndef IOTALLY_UTIL_DIAG_WRITE_H
#define IOTALLY_UTIL_DIAG_WRITE_H

/*
 * Diagnostics written on a stream in the one form of every message
 * (util/diag.h diag_format): cli/msgs.h writes them on standard error (or
 * an input's buffer, -j N); a kind's command (app/kind_command.h) on the
 * stream cli/ hands it, so what it says keeps its place among its output.
 */

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "util/diag.h"

#define DIAG_PRINTF(f, a) __attribute__((format(printf, f, a)))

/* One message: "iotally: PATH:LINE: SEVERITY: MESSAGE\n", escaped. */
void diag_vwrite(FILE *f, enum diag_severity sev, const char *path, uint64_t line,
		 const char *fmt, va_list ap) DIAG_PRINTF(5, 0);
void diag_write_msg(FILE *f, enum diag_severity sev, const char *path, uint64_t line,
		    const char *fmt, ...) DIAG_PRINTF(5, 6);
/* A diagnostic filled below, with its column. */
void diag_write(FILE *f, const struct diag *d);
/* Every warning and note of a list, then how many the list had to drop. */
void diag_write_list(FILE *f, const struct diag_list *w);

#endif
