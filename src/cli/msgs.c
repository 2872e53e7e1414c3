#include "cli/msgs.h"

#include "cli/outbuf.h"

#include "util/diag.h"
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
	struct strbuf sb = STRBUF_INIT, msg = STRBUF_INIT;
	va_list ap;
	diag_format_prefix(&sb, sev, path, line, 0);
	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	/* Names in messages come from inputs, manifests and ps: one rule for all. */
	escape_add(&sb, msg.buf, msg.len);
	strbuf_addch(&sb, '\n');
	fwrite(sb.buf, 1, sb.len, cli_err());   /* an input's buffer on a -j worker */
	strbuf_release(&msg);
	strbuf_release(&sb);
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
	struct strbuf sb = STRBUF_INIT;
	diag_format(d, &sb);
	fwrite(sb.buf, 1, sb.len, cli_err());   /* an input's buffer on a -j worker */
	strbuf_release(&sb);
}

void
cli_print_warnings(const struct diag_list *w)
{
	for (size_t i = 0; i < w->len; i++) {
		struct diag d;
		diag_list_get(w, i, &d);
		cli_print_diag(&d);
	}
	if (w->dropped)
		cli_note(NULL, 0, "%" PRIu64 " more warnings not shown", w->dropped);
}

char *
cli_diag_line(const struct diag *d)
{
	struct strbuf sb = STRBUF_INIT;
	diag_format(d, &sb);
	while (sb.len && sb.buf[sb.len - 1] == '\n')
		sb.buf[--sb.len] = '\0';
	const char *prefix = "iotally: ";
	size_t skip = strncmp(sb.buf, prefix, strlen(prefix)) == 0 ? strlen(prefix) : 0;
	char *line = xstrdup(sb.buf + skip);
	strbuf_release(&sb);
	return line;
}
