#include "report/session_growth_text.h"

#include "report/texttable.h"

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
}
