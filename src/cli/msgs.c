#include "cli/msgs.h"

#include "util/outbuf.h"

#include "util/diag.h"
#include "util/diag_write.h"
#include "util/escape.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void
cli_msg(enum diag_severity sev, const char *path, uint64_t line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vwrite(outbuf_err(), sev, path, line, fmt, ap);   /* an input's buffer on a -j worker */
	va_end(ap);
}

void
cli_out_line(FILE *out, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	escape_vline(out, fmt, ap);
	va_end(ap);
}

void
cli_print_diag(const struct diag *d)
{
	diag_write(outbuf_err(), d);   /* an input's buffer on a -j worker */
}

void
cli_print_warnings(const struct diag_list *w)
{
	diag_write_list(outbuf_err(), w);
}

char *
cli_diag_line(const struct diag *d)
{
	return diag_line(d);
}
