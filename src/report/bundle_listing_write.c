/*
 * The listings of a bundle, a series and a session
 * (report/bundle_listing_write.h).
 */

#include "report/bundle_listing_write.h"

#include "model/report.h"
#include "model/summary.h"
#include "util/diag.h"
#include "util/escape.h"
#include "util/strbuf.h"

#include <stdarg.h>
#include <string.h>

/* One line, every byte of it escaped: the manifest's words are untrusted. */
static void __attribute__((format(printf, 2, 3)))
out_line(FILE *out, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	escape_vline(out, fmt, ap);
	va_end(ap);
}

/* Text from a capture (a class name in a verdict) with its control bytes escaped. */
static void
put_quoted(FILE *out, const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	diag_quote(&sb, s, strlen(s), SIZE_MAX);
	fputs(sb.buf, out);
	strbuf_release(&sb);
}

void
summary_block_write(FILE *out, const struct summary *s)
{
	for (size_t i = 0; i < s->n; i++) {
		put_quoted(out, s->lines[i].text);
		fputc('\n', out);
	}
	if (s->n)
		fputc('\n', out);
}

void
bundle_listing_write(FILE *out, const struct listing_bundle *b, const char *indent)
{
	out_line(out, "%s%s: %s capture%s%s started %s", indent, b->path,
		 b->complete ? "complete" : "partial",
		 b->target_name ? " of " : " (system-wide)",
		 b->target_name ? b->target_name : "",
		 b->started_utc ? b->started_utc : "at an unknown time");
	for (size_t i = 0; i < b->ncaptures; i++)
		out_line(out, "%s  %-8s %s (step %s)", indent, b->captures[i].kind,
			 b->captures[i].name, b->captures[i].step);
	if (b->ncaptures == 0)
		out_line(out, "%s  no capture an iotally command reads", indent);
	for (size_t i = 0; i < b->nmissed; i++)
		out_line(out, "%s  %-8s %s: %s%s%s%s", indent,
			 b->missed[i].kind ? b->missed[i].kind : "-", b->missed[i].name,
			 b->missed[i].step, b->missed[i].reason ? " (" : "",
			 b->missed[i].reason ? b->missed[i].reason : "",
			 b->missed[i].reason ? ")" : "");
}

/* "  iotally COMMAND PATH", PATH quoted for a shell when it needs to be. */
static void
put_command(FILE *out, const char *command, const char *path, const char *comment)
{
	bool plain = path[0] != '\0';
	for (const char *p = path; *p && plain; p++)
		plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			(*p >= '0' && *p <= '9') || strchr("_./-+:=,@%", *p);
	fprintf(out, "  iotally %s ", command);
	if (plain) {
		fputs(path, out);
	} else if (!escape_is_clean(path, strlen(path))) {
		escape_puts(out, path);   /* not for pasting: a control byte never reaches the terminal */
	} else {
		fputc('\'', out);
		for (const char *p = path; *p; p++) {
			if (*p == '\'')
				fputs("'\\''", out);
			else if (*p == '\\')
				fputc('\\', out);   /* literal inside '...' */
			else
				put_quoted(out, (char[]){ *p, '\0' });
		}
		fputc('\'', out);
	}
	fprintf(out, "%s\n", comment);
}

void
bundle_headlines_write(FILE *out, const char *path, const struct bundle_headline *h,
		       size_t n, const char *const *kinds, size_t nkinds)
{
	size_t shown = 0;
	for (size_t i = 0; i < n; i++) {
		if (!h[i].r)
			continue;
		const struct report *r = h[i].r;
		fprintf(out, "%s%-8s ", shown++ ? "" : "\n", h[i].kind);
		escape_puts(out, h[i].member);   /* the manifest's words: untrusted */
		fputs(": ", out);
		put_quoted(out, r->verdict ? r->verdict : "read");
		fputc('\n', out);
		for (size_t w = 0; w < r->nwarnings; w++) {
			fputs("         warning: ", out);
			put_quoted(out, r->warnings[w]);
			fputc('\n', out);
		}
	}
	if (shown) {
		fputs("\nThe full tables:\n", out);
		for (size_t i = 0; i < nkinds; i++)
			put_command(out, kinds[i], path, "");
		put_command(out, "report", path, "   # all in one report");
	}
}
