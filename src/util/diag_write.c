#include "util/diag_write.h"

#include "util/escape.h"
#include "util/strbuf.h"

#include <inttypes.h>

void
diag_vwrite(FILE *f, enum diag_severity sev, const char *path, uint64_t line, const char *fmt,
	    va_list ap)
{
	struct strbuf sb = STRBUF_INIT, msg = STRBUF_INIT;
	diag_format_prefix(&sb, sev, path, line, 0);
	strbuf_vaddf(&msg, fmt, ap);
	/* Names in messages come from inputs, manifests and ps: one rule for all. */
	escape_add(&sb, msg.buf, msg.len);
	strbuf_addch(&sb, '\n');
	fwrite(sb.buf, 1, sb.len, f);
	strbuf_release(&msg);
	strbuf_release(&sb);
}

void
diag_write_msg(FILE *f, enum diag_severity sev, const char *path, uint64_t line,
	       const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vwrite(f, sev, path, line, fmt, ap);
	va_end(ap);
}

void
diag_write(FILE *f, const struct diag *d)
{
	struct strbuf sb = STRBUF_INIT;
	diag_format(d, &sb);
	fwrite(sb.buf, 1, sb.len, f);
	strbuf_release(&sb);
}

void
diag_write_list(FILE *f, const struct diag_list *w)
{
	for (size_t i = 0; i < w->len; i++) {
		struct diag d;
		diag_list_get(w, i, &d);
		diag_write(f, &d);
	}
	if (w->dropped)
		diag_write_msg(f, DIAG_NOTE, NULL, 0, "%" PRIu64 " more warnings not shown",
			       w->dropped);
}
