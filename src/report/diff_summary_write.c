/*
 * The Summary line of a diff of folders (report/diff_report.h).
 */

#include "report/diff_report.h"

#include "report/report_md_write.h"
#include "util/escape.h"
#include "util/strbuf.h"

#include <string.h>

/*
 * The tripped gates, named where a CI log and a pull request comment are
 * read first: up to DIFF_SUMMARY_NAMED, each with its pair and what grew,
 * then how many more.
 */
static void
add_tripped_names(struct strbuf *sb, const struct diff_summary *s)
{
	for (size_t i = 0; i < s->ntripped && i < DIFF_SUMMARY_NAMED; i++) {
		const struct diff_gate *g = s->tripped[i].g;
		strbuf_addstr(sb, i ? "; " : ": ");
		strbuf_addf(sb, "'%s' on %s: ", g->text, s->tripped[i].pair);
		/* What grew, in the summary block's words (model/summary.h). */
		if (g->phrase) {
			strbuf_addstr(sb, g->phrase);
			continue;
		}
		char b[GATE_FIGURE_SIZE], af[GATE_FIGURE_SIZE], d[GATE_FIGURE_SIZE];
		diff_gate_figures(g, b, af, d);
		/* A glob's gate picks what it measures: its subject names it
		 * ("classes:* > +100": OSDictionary). */
		const char *what = strchr(g->metric, '*') ? g->subject : NULL;
		strbuf_addf(sb, "%s%s%s", what ? what : "", what ? " " : "", d);
	}
	if (s->ntripped > DIFF_SUMMARY_NAMED)
		strbuf_addf(sb, "; and %zu more", s->ntripped - DIFF_SUMMARY_NAMED);
}

void
diff_summary_write(FILE *out, const struct diff_summary *s, bool markdown)
{
	fprintf(out, "%s%zu pair%s compared, %zu could not be, %zu file%s without a "
		"counterpart; %zu gate%s tripped", markdown ? "**Summary:** " : "Summary: ",
		s->compared, s->compared == 1 ? "" : "s", s->failed, s->unpaired,
		s->unpaired == 1 ? "" : "s", s->ntripped, s->ntripped == 1 ? "" : "s");
	if (s->wrong)
		fprintf(out, ", %zu cannot be checked", s->wrong);
	struct strbuf sb = STRBUF_INIT;
	add_tripped_names(&sb, s);
	if (sb.len) {
		/* Gate texts and pair names come from the user and the folders. */
		struct strbuf esc = STRBUF_INIT;
		if (markdown)
			report_md_escape(sb.buf, 0, &esc);
		else
			escape_addstr(&esc, sb.buf);
		fputs(esc.buf, out);
		strbuf_release(&esc);
	}
	strbuf_release(&sb);
	fputs(markdown ? "\n\n" : "\n", out);
}
