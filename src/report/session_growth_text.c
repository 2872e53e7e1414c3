#include "report/session_growth_text.h"

#include "report/texttable.h"
#include "util/escape.h"

/*
 * Each class's largest tracked call site, named: the site, its module and
 * its backtrace, innermost first (the capture's words, escaped).
 */
static void
write_sites(FILE *out, const struct session_growth *g)
{
	bool any = false;
	for (size_t i = 0; i < g->nrows; i++) {
		const struct session_growth_row *r = &g->rows[i];
		if (!r->site)
			continue;
		if (!any)
			fputs("Largest call site charged to each class:\n", out);
		any = true;
		fputs("  ", out);
		escape_puts(out, r->cls);
		fputs(": ", out);
		escape_puts(out, r->site);
		fputs(" (module ", out);
		escape_puts(out, r->site_module);
		fputs(")\n", out);
		for (size_t k = 0; k < r->site_nframes; k++) {
			fprintf(out, "    %zu ", k);
			escape_puts(out, r->site_frames[k]);
			fputc('\n', out);
		}
	}
	if (any)
		fputc('\n', out);
}

void
session_growth_write(FILE *out, const struct session_growth *g, bool markdown)
{
	static const char *const headers[] = {
		"CLASS", "DELTA", "TRACKED_BYTES", "ALLOCATIONS", "LEAKED_BYTES", "LEAKS",
	};
	struct text_table t;
	text_table_init(&t, 6, headers, "lrrrrr");
	for (size_t i = 0; i < g->nrows; i++) {
		const struct session_growth_row *r = &g->rows[i];
		char delta[32];
		text_table_add(&t, r->cls);
		if (r->has_delta)
			text_signed(delta, (long long)r->delta);
		text_table_add(&t, r->has_delta ? delta : "?");
		text_table_addf(&t, "%llu", (unsigned long long)r->track_bytes);
		text_table_addf(&t, "%lld", (long long)r->track_count);
		text_table_addf(&t, "%llu", (unsigned long long)r->leak_bytes);
		text_table_addf(&t, "%lld", (long long)r->leak_count);
	}
	text_table_write_section(out, &t, markdown, SESSION_GROWTH_TITLE);
	if (g->saturated && text_table_rows(&t))
		fputs("A sum reached its cap (2^63 - 1): those figures are lower bounds.\n\n", out);
	text_table_release(&t);
	if (!markdown)
		write_sites(out, g);
}
