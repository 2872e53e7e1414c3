/*
 * The track kind: ioclasscount --track captures and iotally's JSON of
 * them, compared (model/diff_track.c), reported alone
 * (model/report_track.c) and followed over time (the total and the bytes
 * charged to each module).
 */

#include "app/kind_rows.h"

#include "app/trend_inputs.h"
#include "ingest/diff_read.h"
#include "ingest/track_json_read.h"
#include "ingest/track_read.h"
#include "model/diff_track.h"
#include "model/report_track.h"
#include "model/signature_diff.h"
#include "model/summary.h"
#include "model/track.h"
#include "report/diff_track_write.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* ---- track -------------------------------------------------------------- */

static void track_free(void *p);

static void *
track_compare(struct kind_input *before, struct kind_input *after,
	      const struct diff_options *opts, struct diag_list *notes, struct diag *err)
{
	struct diff_track_pair *t = xcalloc(1, sizeof(*t));
	diff_track_pair_init(t, opts->match_offsets);
	if (diff_track_side_read(&before->reader, before->json, t, 0, notes, err) < 0 ||
	    diff_track_side_read(&after->reader, after->json, t, 1, notes, err) < 0) {
		track_free(t);
		return NULL;
	}
	return t;
}

static void
track_comparability(const void *p, const char *bpath, const char *apath,
		    struct diag_list *w)
{
	const struct diff_track_pair *t = p;
	diff_track_comparability(&t->before, &t->after, bpath, apath, w);
	kind_note_partial(w, bpath, t->before.partial, apath, t->after.partial);
}

static int
track_metric(const void *p, const char *kind, const char *metric, int64_t *b, int64_t *a,
	     struct diag *err)
{
	(void)kind;
	return diff_track_metric(&((const struct diff_track_pair *)p)->diff, metric, b, a, err);
}

/* The call site that grew most among those the gate's metric covers. */
static bool
track_gate_growth(const void *p, const struct diff_gate *g, struct summary_growth *out,
		  struct strbuf *scratch)
{
	const struct diff_track *d = &((const struct diff_track_pair *)p)->diff;
	const struct diff_track_site *site = diff_track_metric_grew_most(d, g->metric);
	if (!site)
		return false;
	summary_growth_of_track_site(d, site, scratch, out);
	return true;
}

static bool
track_metric_bytes(const char *kind, const char *metric)
{
	(void)kind;
	return diff_track_metric_is_bytes(metric);
}

static bool
track_changed(const void *p)
{
	return diff_track_changed(&((const struct diff_track_pair *)p)->diff);
}

static json_t *
track_json(const void *p)
{
	return diff_track_json(&((const struct diff_track_pair *)p)->diff);
}

static void
track_write_folded(FILE *out, const void *p)
{
	diff_track_write_folded(out, &((const struct diff_track_pair *)p)->diff);
}

static void
track_report(struct report *rep, const void *p)
{
	const struct diff_track_pair *t = p;
	report_add_track(rep, &t->diff, &t->before, &t->after);
}

static void
track_free(void *p)
{
	if (!p)
		return;
	diff_track_pair_release(p);
	free(p);
}

/* ---- one capture: `iotally report FILE` ---- */

/* Records go straight into call sites (side 1), as diff reads them: memory
 * follows distinct sites, not records. */
static int
report_single(struct report *r, struct kind_input *in, struct diag_list *notes,
	      struct diag *err)
{
	struct diff_track_pair p;
	diff_track_pair_init(&p, false);
	int rc = diff_track_side_read(&in->reader, in->json, &p, 1, notes, err);
	if (rc == 0) {
		if (p.after.partial)
			report_add_warning(r, "%s is partial: some lines were not understood",
					   diag_display_path(in->path));
		report_add_track(r, &p.diff, NULL, &p.after);
	}
	diff_track_pair_release(&p);
	return rc;
}

/* ---- track: the total and the bytes charged to each module ----------------- */

static void
trend_read(struct trend_input *in, struct line_reader *r, bool json, struct trend_sample *out,
	   struct diag_list *notes)
{
	struct track_capture cap;
	struct diag err;
	diag_clear(&err);
	track_capture_init(&cap);
	cap.by = TRACK_BY_MODULE;
	int rc;
	if (json) {
		rc = track_json_read(r, &cap, notes, &err);
	} else {
		struct track_parse_opts popts = { .strict = false, .report_unparsed = 3 };
		rc = track_parse(r, &cap, &popts, notes, &err);
	}
	if (rc < 0) {
		trend_input_leave_out_diag(in, &err);
	} else if (cap.partial) {
		trend_input_leave_out(in, DIAG_DATA, "partial: some of the input was not understood");
	} else {
		out->complete = true;
		in->used = true;
		trend_input_metric(out, TREND_BYTES, false, false, (double)track_capture_total(&cap),
		       "track:total");
		for (size_t i = 0; i < cap.grouping.ngroups; i++)
			trend_input_metric(out, TREND_BYTES, true, false, (double)cap.grouping.groups[i].bytes,
			       "track:%s", cap.grouping.groups[i].name);
	}
	track_capture_release(&cap);
}

/* ---- the row ---- */

static void
track_signature(const void *p, struct signature *sig)
{
	const struct diff_track_pair *t = p;
	signature_add_track(sig, &t->diff);
}

extern const struct kind_command kind_track_command;

const struct kind kind_track = {
	.name = "track",
	.raw = { INPUT_TRACK },
	.metric_kinds = { "track" },
	.schema = TRACK_SCHEMA,
	.accepts = KIND_ACCEPTS_MATCH_OFFSETS | KIND_ACCEPTS_FOLDED,
	.compare = track_compare,
	.comparability = track_comparability,
	.metric = track_metric,
	.metric_bytes = track_metric_bytes,
	.gate_growth = track_gate_growth,
	.changed = track_changed,
	.json = track_json,
	.write_folded = track_write_folded,
	.report = track_report,
	.free = track_free,
	.single_report = report_single,
	.trend_read = trend_read,
	.signature = track_signature,
	.command = &kind_track_command,
	.capture_steps = {
		{ "kernel.track", "kernel/track.txt", CAPTURE_STEP_TRACK,
		  { "ioclasscount", "--track", NULL }, NULL, 4 },
	},
	.metric_label = diff_track_metric_label,
	.gate_grammar = "track:total, track:<module>",
};
