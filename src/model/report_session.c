#include "model/report_session.h"

#include "util/size.h"
#include "util/strbuf.h"

#include <inttypes.h>

/* The first class that grew and has call sites charged to it: rows are by delta. */
static const struct session_growth_row *
top_charged(const struct session_growth *g)
{
	for (size_t i = 0; i < g->nrows; i++) {
		const struct session_growth_row *row = &g->rows[i];
		if (row->has_delta && row->delta > 0 && (row->track_sites || row->leak_sites))
			return row;
	}
	return NULL;
}

static void
add_verdict(struct report *r, const struct session_growth *g)
{
	const struct session_growth_row *top = top_charged(g);
	if (!top)
		return;
	char bytes[32];
	size_format_binary(top->track_bytes, bytes);
	report_add_verdict(r, "tracking: %s +%" PRId64 " with %" PRIu64 " call site%s (%s) "
			   "and %" PRIu64 " potential leak%s charged to it", top->cls, top->delta,
			   top->track_sites, top->track_sites == 1 ? "" : "s", bytes,
			   top->leak_count > 0 ? (uint64_t)top->leak_count : 0,
			   top->leak_count == 1 ? "" : "s");
}

/*
 * The summary's facts of a session: the tracked class that grew and its
 * largest call site, with module and backtrace (model/summary.h).
 */
static void
note_summary(struct report *r, const struct session_growth *g)
{
	const struct session_growth_row *top = top_charged(g);
	if (!top)
		return;
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s %+" PRId64, top->cls, top->delta);
	summary_note_tracked_class(&r->facts, sb.buf);
	strbuf_reset(&sb);
	if (!top->site) {
		strbuf_release(&sb);
		return;
	}
	strbuf_addf(&sb, "%s, charged to %s", top->site, top->cls);
	struct summary_growth site = {
		.what = sb.buf,
		.has_bytes = true,
		.bytes = report_i64(top->site_bytes),
		.has_count = true,
		.count = top->site_count,
		.count_noun = "allocation",
	};
	summary_offer(&r->facts.sites, &site, (const char *const *)top->site_frames,
		      top->site_nframes);
	strbuf_release(&sb);
}

void
report_add_session_growth(struct report *r, const struct session_growth *g)
{
	static const char *const cols[] = {
		"class", "delta", "call site", "module", "tracked bytes", "allocations",
		"leaked bytes", "leaks",
	};
	if (g->nrows == 0)
		return;
	/* First after the summary: what the session was run for. */
	struct report_section *s = report_section(r, REPORT_SEC_SESSION, "Tracking session");
	struct report_table *t = report_section_add_table(s, "session-growth",
		"Classes that grew, beside the call sites tracking charged to them", 8, cols);
	for (size_t i = 0; i < g->nrows; i++) {
		const struct session_growth_row *row = &g->rows[i];
		if (!report_table_row(t))
			continue;
		report_table_code(t, row->cls);
		if (row->has_delta)
			report_table_figure(t, REPORT_CELL_DCOUNT, row->delta);
		else
			report_table_empty(t);
		if (row->site) {
			report_table_code(t, row->site);
			report_table_code(t, row->site_module);
		} else {
			report_table_empty(t);
			report_table_empty(t);
		}
		report_table_figure(t, REPORT_CELL_BYTES, report_i64(row->track_bytes));
		report_table_figure(t, REPORT_CELL_COUNT, row->track_count);
		report_table_figure(t, REPORT_CELL_BYTES, report_i64(row->leak_bytes));
		report_table_figure(t, REPORT_CELL_COUNT, row->leak_count);
		if (row->site_nframes)
			report_table_detail(t, (const char *const *)row->site_frames,
					    row->site_nframes);
	}
	if (g->saturated)
		report_section_add_paragraph(s, "A sum reached its cap (2^63 - 1): those figures "
					     "are lower bounds.");
	add_verdict(r, g);
	note_summary(r, g);
}
