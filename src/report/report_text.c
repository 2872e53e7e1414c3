#include "report/report_text.h"

#include "util/escape.h"
#include "util/size.h"

#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

void
report_text_clean(const char *s, size_t max_chars, struct strbuf *out)
{
	struct strbuf tmp = STRBUF_INIT;
	const char *shown = escape_str(&tmp, s);
	const char *p = shown;
	/* The escaped text is valid UTF-8: a character starts at every non-continuation byte. */
	for (size_t chars = 0; *p; p++) {
		if (((unsigned char)*p & 0xc0) == 0x80)
			continue;
		if (max_chars && chars == max_chars)
			break;
		chars++;
	}
	strbuf_add(out, shown, (size_t)(p - shown));
	if (*p)
		strbuf_addstr(out, "\xe2\x80\xa6");
	strbuf_release(&tmp);
}

int
report_cell_is_figure(const struct report_cell *c)
{
	return c->kind == REPORT_CELL_COUNT || c->kind == REPORT_CELL_BYTES ||
	       c->kind == REPORT_CELL_DCOUNT || c->kind == REPORT_CELL_DBYTES;
}

void
report_cell_figure(const struct report_cell *c, struct strbuf *out)
{
	char b[32];
	switch (c->kind) {
	case REPORT_CELL_COUNT:
		strbuf_addf(out, "%" PRId64, c->value);
		break;
	case REPORT_CELL_DCOUNT:
		if (c->value)
			strbuf_addf(out, "%+" PRId64, c->value);
		else
			strbuf_addch(out, '0');
		break;
	case REPORT_CELL_BYTES:
		if (c->value < 0) {
			size_format_binary_delta(c->value, b);
		} else {
			size_format_binary((uint64_t)c->value, b);
		}
		strbuf_addstr(out, b);
		break;
	case REPORT_CELL_DBYTES:
		size_format_binary_delta(c->value, b);
		strbuf_addstr(out, b);
		break;
	default:
		break;
	}
}

void
report_cell_exact(const struct report_cell *c, struct strbuf *out)
{
	if (c->kind == REPORT_CELL_BYTES || c->kind == REPORT_CELL_DBYTES)
		strbuf_addf(out, "%s%" PRId64 " bytes",
			    c->kind == REPORT_CELL_DBYTES && c->value > 0 ? "+" : "", c->value);
	else if (report_cell_is_figure(c))
		report_cell_figure(c, out);
}

void
report_cell_figure_exact_beside(const struct report_cell *c, struct strbuf *out)
{
	report_cell_figure(c, out);
	if ((c->kind != REPORT_CELL_BYTES && c->kind != REPORT_CELL_DBYTES) || c->value == 0)
		return;
	strbuf_addstr(out, " (");
	report_cell_exact(c, out);
	strbuf_addch(out, ')');
}
