/*
 * The classes kind: IOKit class counts (ioreg, ioclasscount) and
 * iotally's JSON of them, compared (model/diff_classes.c), reported alone
 * (model/report_classes.c) and followed over time (every class count and
 * the allocation totals).
 */

#include "app/kind_classes.h"
#include "app/kind_rows.h"

#include "app/kernel_view.h"
#include "app/trend_inputs.h"
#include "ingest/bundle.h"
#include "ingest/classes_json_read.h"
#include "ingest/classes_read.h"
#include "ingest/diff_read.h"
#include "model/classes.h"
#include "model/diff_classes.h"
#include "model/hierarchy.h"
#include "model/report_classes.h"
#include "model/signature_diff.h"
#include "model/summary.h"
#include "report/diff_classes_write.h"
#include "report/diff_report.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* ---- classes ------------------------------------------------------------ */

static void classes_free(void *p);

static void *
classes_compare(struct kind_input *before, struct kind_input *after,
		const struct diff_options *opts, struct diag_list *notes, struct diag *err)
{
	struct diff_classes_pair *c = xcalloc(1, sizeof(*c));
	diff_classes_pair_init(c);
	if (diff_classes_side_read(&before->reader, before->json, &c->before, opts->direct,
				   notes, err) < 0 ||
	    diff_classes_side_read(&after->reader, after->json, &c->after, opts->direct,
				   notes, err) < 0 ||
	    diff_classes_pair_compare(c, before->path, after->path, opts, notes, err) < 0) {
		classes_free(c);
		return NULL;
	}
	return c;
}

/* A warning for each negative allocation total of `snap`, read from `path`. */
static void
warn_negative_allocs(struct diag_list *w, const struct classes_snapshot *snap, const char *path)
{
	for (int k = 0; k < ALLOC_KINDS; k++) {
		struct strbuf sb = STRBUF_INIT;
		if (classes_alloc_negative_message(snap, (enum alloc_kind)k, &sb))
			diag_list_add(w, DIAG_WARNING, path, snap->line, "%s", sb.buf);
		strbuf_release(&sb);
	}
}

/*
 * "kernel/ioreg-root.plist before, kernel/ioalloccount.txt after" (or
 * "kernel/ioalloccount.txt on both sides"): where the pair's totals come
 * from when they were joined (kind_classes_join_totals).
 */
static void
add_totals_sources(struct strbuf *sb, const struct diff_classes *d)
{
	if (diff_classes_totals_sources_differ(d))
		strbuf_addf(sb, "%s before, %s after", d->totals_from[0], d->totals_from[1]);
	else
		strbuf_addf(sb, "%s on both sides", d->totals_from[0]);
}

static void
classes_comparability(const void *p, const char *bpath, const char *apath,
		      struct diag_list *w)
{
	const struct diff_classes_pair *c = p;
	const struct classes_snapshot *b = c->before.snap, *a = c->after.snap;
	const struct diff_classes *d = &c->diff;
	/* A side's totals joined from another file: that file's path for what it says. */
	const char *tpath[2] = { c->joined_path[0] ? c->joined_path[0] : bpath,
				 c->joined_path[1] ? c->joined_path[1] : apath };
	kind_note_partial(w, bpath, b->truncated, apath, a->truncated);
	kind_note_partial(w, tpath[0], c->joined_path[0] && d->totals[0]->truncated, tpath[1],
			  c->joined_path[1] && d->totals[1]->truncated);
	if (b->source != a->source && d->totals_from[0]) {
		struct strbuf sb = STRBUF_INIT;
		add_totals_sources(&sb, d);
		diag_list_add(w, DIAG_NOTE, NULL, 0,
			      "the snapshots come from different captures (%s before, %s after): "
			      "the allocation totals come from %s", classes_source_name(b->source),
			      classes_source_name(a->source), sb.buf);
		strbuf_release(&sb);
	} else if (b->source != a->source) {
		diag_list_add(w, DIAG_NOTE, NULL, 0,
			      "the snapshots come from different captures (%s before, %s after): "
			      "allocation totals are only in ioreg captures",
			      classes_source_name(b->source), classes_source_name(a->source));
	}
	if (b->query || a->query)
		diag_list_add(w, DIAG_NOTE, NULL, 0,
			      "%s holds only some classes: only the classes it holds are compared",
			      b->query && a->query ? "each snapshot" : b->query ? "BEFORE" : "AFTER");
	warn_negative_allocs(w, d->totals[0], tpath[0]);
	warn_negative_allocs(w, d->totals[1], tpath[1]);
}

static int
classes_metric(const void *p, const char *kind, const char *metric, int64_t *b, int64_t *a,
	       struct diag *err)
{
	return diff_classes_metric(&((const struct diff_classes_pair *)p)->diff, kind, metric, b,
				   a, err);
}

static bool
classes_metric_bytes(const char *kind, const char *metric)
{
	(void)metric;
	return diff_classes_metric_is_bytes(kind);
}

static const char *
classes_subject(const void *p, const char *kind, const char *metric)
{
	const struct diff_classes_row *r;
	/* Totals joined from other files than the counts: the gate's result names them. */
	if (strcmp(kind, "alloc") == 0)
		return ((const struct diff_classes_pair *)p)->totals_subject;
	if (strcmp(kind, "classes") != 0 || strcmp(metric, "*") != 0)
		return NULL;
	r = diff_classes_largest_growth(&((const struct diff_classes_pair *)p)->diff);
	return r ? r->name : "no class grew";
}

/*
 * A class gate names its class and count ("IOSurface: +5", as the summary
 * names a class that grew); an allocation gate the total it reads.
 */
static bool
classes_gate_growth(const void *p, const struct diff_gate *g, struct summary_growth *out,
		    struct strbuf *scratch)
{
	(void)p;
	if (g->delta <= 0)
		return false;
	if (strcmp(g->kind, "alloc") == 0) {
		strbuf_addf(scratch, "%s allocations", g->metric);
		*out = (struct summary_growth){ .what = scratch->buf, .has_bytes = true,
						.bytes = g->delta };
		return true;
	}
	const char *cls = strcmp(g->metric, "*") == 0 ? g->subject : g->metric;
	*out = (struct summary_growth){ .what = cls, .has_count = true, .count = g->delta };
	return true;
}

static bool
classes_changed(const void *p)
{
	return diff_classes_changed(&((const struct diff_classes_pair *)p)->diff);
}

static json_t *
classes_json(const void *p)
{
	return diff_classes_json(&((const struct diff_classes_pair *)p)->diff);
}

static void
classes_report(struct report *rep, const void *p)
{
	report_add_classes_diff(rep, &((const struct diff_classes_pair *)p)->diff);
}

/* The first snapshot of the classes capture at `path` into `cap`: allocation totals. */
static const struct classes_snapshot *
read_totals(const char *path, struct classes_capture *cap, struct diag_list *notes,
	    struct diag *err)
{
	struct classes_read_opts ropts = { .partial = true, .need_counts = false };
	if (classes_read_file(path, cap, NULL, &ropts, notes, err) < 0)
		return NULL;
	if (cap->nsnapshots == 0 || !classes_snapshot_holds_totals(cap->snapshots[0])) {
		diag_set(err, DIAG_DATA, path, 0, 0, "holds no allocation totals");
		return NULL;
	}
	return cap->snapshots[0];
}

int
kind_classes_join_totals(void *p, const struct bundle_capture *const counts[2],
			 const struct bundle_capture *const totals[2], struct diag_list *notes,
			 struct diag *err)
{
	struct diff_classes_pair *c = p;
	const struct classes_snapshot *snap[2] = { c->diff.before, c->diff.after };
	for (int side = 0; side < 2; side++) {
		if (totals[side] == counts[side])
			continue;
		snap[side] = read_totals(totals[side]->path, &c->joined[side], notes, err);
		if (!snap[side]) {
			for (int i = 0; i < 2; i++) {
				classes_capture_release(&c->joined[i]);
				classes_capture_init(&c->joined[i]);
			}
			return -1;
		}
	}
	for (int side = 0; side < 2; side++) {
		if (totals[side] != counts[side])
			c->joined_path[side] = xstrdup(totals[side]->path);
		c->totals_from[side] = xstrdup(totals[side]->member);
	}
	const char *from[2] = { c->totals_from[0], c->totals_from[1] };
	diff_classes_join_totals(&c->diff, snap, from);
	/* A gate on them says which file each side's came from (not the counts' pair name). */
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "allocation totals from ");
	add_totals_sources(&sb, &c->diff);
	c->totals_subject = strbuf_detach(&sb, NULL);
	return 0;
}

bool
kind_classes_totals_files(const void *p, const char *const paths[2],
			  struct diff_section_files *out)
{
	const struct diff_classes_pair *c = p;
	if (!c->joined_path[0] && !c->joined_path[1])
		return false;
	out->section = DIFF_CLASSES_ALLOCATION_KEY;
	out->before = c->joined_path[0] ? c->joined_path[0] : paths[0];
	out->after = c->joined_path[1] ? c->joined_path[1] : paths[1];
	return true;
}

/*
 * The allocation totals of the classes capture at `path` as "Allocation
 * totals (FROM)" in the classes section of a one-bundle report. 0; -1
 * with *err when it cannot be read.
 */
static int
report_totals_of(struct report *r, const char *path, const char *from,
		 struct diag_list *notes, struct diag *err)
{
	struct classes_capture cap;
	struct classes_read_opts ropts = { .partial = true, .need_counts = false };
	classes_capture_init(&cap);
	int rc = classes_read_file(path, &cap, NULL, &ropts, notes, err);
	if (rc == 0 && cap.nsnapshots == 0)
		rc = diag_set(err, DIAG_DATA, path, 0, 0, "holds no allocation totals");
	if (rc == 0)
		report_add_classes_totals_from(r, cap.snapshots[0], from);
	classes_capture_release(&cap);
	return rc;
}

/*
 * A one-bundle report's kernel view (the row's bundle_report_more): without
 * an ioreg plist, the totals of ioalloccount (a source of totals only beside
 * counts only) join the classes section the reference's report made.
 * Nothing is added when the view's reference is another file than the one
 * reported.
 */
static void
bundle_report_more(struct report *r, const struct bundle *b,
		   const struct bundle_capture *reported, struct strbuf *files,
		   struct diag_list *notes)
{
	struct kernel_view v;
	kernel_view_pick(b, &v);
	const struct bundle_capture *c = v.totals;
	if (v.reference == reported && c && c != v.reference) {
		struct diag err;
		diag_clear(&err);
		if (bundle_verify_capture(c, notes, &err) < 0 ||
		    report_totals_of(r, c->path, c->member, notes, &err) < 0)
			diag_list_add(notes, DIAG_WARNING, c->path, err.line, "left out of the "
				      "report: %s", err.msg);
		else
			strbuf_addf(files, "%s%s (%s)", files->len ? ", " : "", c->member,
				    c->kind);
	}
	kernel_view_release(&v);
}

static void
classes_free(void *p)
{
	if (!p)
		return;
	diff_classes_pair_release(p);
	free(p);
}

/* ---- one capture: `iotally report FILE` ---- */

static int
report_single(struct report *r, struct kind_input *in, struct diag_list *notes,
	      struct diag *err)
{
	struct classes_capture cap, direct;
	classes_capture_init(&cap);
	classes_capture_init(&direct);
	struct classes_read_opts ropts = { .partial = true, .need_counts = true };
	int rc = in->json ? classes_json_read(&in->reader, &cap, &direct, notes, err)
			  : classes_read(&in->reader, &cap, NULL, &ropts, notes, err);
	if (rc == 0 && cap.nsnapshots == 0)
		rc = diag_set(err, DIAG_DATA, in->path, 0, 0, "holds no class counts");
	if (rc == 0) {
		const struct classes_snapshot *s = cap.snapshots[0];
		if (cap.nsnapshots > 1)
			diag_list_add(notes, DIAG_NOTE, in->path, 0, "holds %zu snapshots; the "
				      "report is of the first", cap.nsnapshots);
		if (s->truncated)
			report_add_warning(r, "%s is cut short: the counts are partial",
					   diag_display_path(in->path));
		struct classes_filter f = { .nonzero = true, .has_top = true,
					    .top = REPORT_ROWS_MAX };
		const struct class_count **shown;
		size_t n = classes_snapshot_select(s, &f, &shown);
		report_add_classes(r, s, shown, n);
		free(shown);
	}
	classes_capture_release(&cap);
	classes_capture_release(&direct);
	return rc;
}

/* ---- classes: every class count and the allocation totals ----------------- */

static void
classes_metrics(const struct classes_snapshot *snap, struct trend_sample *out)
{
	for (size_t i = 0; i < snap->nclasses; i++) {
		const struct class_count *c = &snap->classes[i];
		if (c->state == CLASS_COUNT_OK)
			trend_input_metric(out, TREND_COUNT, !snap->query, false, (double)c->value,
			       "classes:%s", c->name);
	}
	for (int a = 0; a < ALLOC_KINDS; a++)
		if (snap->alloc_present[a])
			trend_input_metric(out, TREND_BYTES, false, false, (double)snap->alloc[a],
			       "alloc:%s", alloc_kind_name((enum alloc_kind)a));
}

static void
trend_read(struct trend_input *in, struct line_reader *r, bool json,
	     struct trend_sample *out, struct diag_list *notes)
{
	struct classes_capture cap, direct;
	struct hierarchy hier;
	struct diag err;
	diag_clear(&err);
	classes_capture_init(&cap);
	classes_capture_init(&direct);
	hierarchy_init(&hier);
	int rc;
	if (json) {
		rc = classes_json_read(r, &cap, &direct, notes, &err);
	} else {
		struct classes_read_opts ropts = { .need_counts = true, .partial = true };
		rc = classes_read(r, &cap, &hier, &ropts, notes, &err);
	}
	if (rc < 0) {
		trend_input_leave_out_diag(in, &err);
	} else if (cap.nsnapshots == 0) {
		trend_input_leave_out(in, DIAG_DATA, "holds no class counts");
	} else if (cap.snapshots[0]->truncated) {
		trend_input_leave_out(in, DIAG_DATA, "partial: the input ends inside the class counts");
	} else {
		if (cap.nsnapshots > 1)
			diag_list_add(notes, DIAG_NOTE, in->path, 0,
				      "holds %zu snapshots; the trend uses the first",
				      cap.nsnapshots);
		out->complete = !cap.snapshots[0]->query;
		in->used = true;
		classes_metrics(cap.snapshots[0], out);
	}
	hierarchy_release(&hier);
	classes_capture_release(&direct);
	classes_capture_release(&cap);
}

/* ---- the row ---- */

static void
classes_signature(const void *p, struct signature *sig)
{
	const struct diff_classes_pair *c = p;
	signature_add_classes(sig, &c->diff);
}

extern const struct kind_command kind_classes_command;

const struct kind kind_classes = {
	.name = "classes",
	.raw = { INPUT_IOREG_TEXT, INPUT_XML_PLIST, INPUT_IOCLASSCOUNT },
	.refers = { INPUT_BPLIST },
	.metric_kinds = { "classes", "alloc" },
	.schema = CLASSES_SCHEMA,
	.accepts = KIND_ACCEPTS_DUMP | KIND_ACCEPTS_DIRECT,
	.compare = classes_compare,
	.comparability = classes_comparability,
	.metric = classes_metric,
	.metric_bytes = classes_metric_bytes,
	.subject = classes_subject,
	.gate_growth = classes_gate_growth,
	.changed = classes_changed,
	.json = classes_json,
	.report = classes_report,
	.free = classes_free,
	.single_report = report_single,
	.trend_read = trend_read,
	.signature = classes_signature,
	.command = &kind_classes_command,
	.kernel_view = true,
	.join_totals = kind_classes_join_totals,
	.totals_files = kind_classes_totals_files,
	.bundle_report_more = bundle_report_more,
	/* The kernel's views of the classes: cheap, first after the host facts. */
	.capture_steps = {
		{ "kernel.ioreg_root", "kernel/ioreg-root.plist", CAPTURE_STEP_ALWAYS,
		  { "ioreg", "-a", "-l", "-d", "1", NULL }, NULL, 1 },
		{ "kernel.ioclasscount", "kernel/ioclasscount.txt", CAPTURE_STEP_ALWAYS,
		  { "ioclasscount", NULL }, NULL, 2 },
		{ "kernel.ioalloccount", "kernel/ioalloccount.txt", CAPTURE_STEP_ALWAYS,
		  { "ioalloccount", NULL }, NULL, 3 },
	},
	.metric_label = diff_classes_metric_label,
	.count_noun = "instances",
	.gate_grammar = "classes:<Class>, alloc:<instance|container|iomalloc|pageable>",
};
