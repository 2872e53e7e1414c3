/*
 * One before/after report of two capture bundles (app/report_bundles.h):
 * each kind's pair report, the kernel view once, kernel objects beside
 * their memory, the provenance of both bundles.
 */

#include "app/report_bundles.h"

#include "app/kind_classes.h"
#include "model/diff.h"
#include "model/report.h"
#include "model/report_classes.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *const side_name[2] = { "BEFORE", "AFTER" };

/*
 * A series is not one side of a pair: say what works instead, each a
 * command that runs as printed (trend needs 3 samples; a folder's samples
 * are bundles of their own).
 */
static int
refuse_series(const struct bundle *b, const char *path, struct diag *err)
{
	struct strbuf sb = STRBUF_INIT;
	size_t first = 0, last = b->nsamples;
	while (first < b->nsamples && !b->samples[first].complete)
		first++;
	while (last > first + 1 && !b->samples[last - 1].complete)
		last--;
	if (!b->archive && last > first + 1)
		strbuf_addf(&sb, "'iotally report %s %s' compares its first and last complete "
			    "samples", b->samples[first].path, b->samples[last - 1].path);
	if (b->nsamples >= 3)
		strbuf_addf(&sb, "%s'iotally trend %s' follows it over time", sb.len ? "; " : "",
			    path);
	diag_set(err, DIAG_USAGE, path, 0, 0, "is a series of %zu samples, not one bundle%s%s",
		 b->nsamples, sb.len ? ": " : "", sb.len ? sb.buf : "");
	strbuf_release(&sb);
	return -1;
}

int
report_bundles_open(struct report_bundles *rb, const char *before, const char *after,
		    struct diag *err)
{
	memset(rb, 0, sizeof(*rb));
	rb->paths[0] = before;
	rb->paths[1] = after;
	for (int i = 0; i < 2; i++) {
		if (bundle_open(rb->paths[i], &rb->b[i], err) < 0)
			return -1;
		rb->opened[i] = true;
		if (rb->b[i].series)
			return refuse_series(&rb->b[i], rb->paths[i], err);
	}
	return 0;
}

/* The capture of kind `k` a side reports: for the kernel view's kind, its reference. */
static const struct bundle_capture *
side_capture(const struct report_bundles *rb, int side, const struct kind *k)
{
	if (k->kernel_view)
		return rb->kernel[side].reference;
	return bundle_capture_of_kind(&rb->b[side], k->name);
}

/* Why a side has no capture of `k`: its step's status and reason, or that none was asked for. */
static void
say_missing(const struct report_bundles *rb, int side, const struct kind *k,
	    struct diag_list *warnings)
{
	const struct bundle_step_note *m = bundle_missed_of_kind(&rb->b[side], k->name);
	if (m)
		diag_list_add(warnings, DIAG_WARNING, NULL, 0, "%s (%s) holds no %s capture (step "
			      "%s %s%s%s): %s is not compared", side_name[side],
			      diag_display_path(rb->paths[side]), k->name, m->step, m->status,
			      m->reason ? ": " : "", m->reason ? m->reason : "", k->name);
	else
		diag_list_add(warnings, DIAG_WARNING, NULL, 0, "%s (%s) holds no %s capture: %s "
			      "is not compared", side_name[side], diag_display_path(rb->paths[side]),
			      k->name, k->name);
}

static void
close_inputs(struct kind_input in[2])
{
	for (int i = 0; i < 2; i++)
		if (in[i].path)
			line_reader_close(&in[i].reader);
}

/* One kind's two captures, checked and compared: the diff, or NULL with *err. */
static void *
open_compare(const struct kind *k, const struct bundle_capture *c[2], struct diag_list *notes,
	     struct diag *err)
{
	struct kind_input in[2];
	memset(in, 0, sizeof(in));
	in[0].reader.fd = in[1].reader.fd = -1;
	for (int i = 0; i < 2; i++) {
		const struct kind *found;
		char schema[64];
		enum input_kind raw;
		if (bundle_verify_capture(c[i], notes, err) < 0 ||
		    kind_open(&in[i], c[i]->path, "report", &found, schema, sizeof(schema), &raw,
			      err) < 0) {
			close_inputs(in);
			return NULL;
		}
		if (found != k) {
			close_inputs(in);
			diag_set(err, DIAG_DATA, c[i]->path, 0, 0, "is a %s capture, but the "
				 "manifest calls it %s", found->name, k->name);
			return NULL;
		}
	}
	struct diff_options opts = { 0 };
	void *diff = k->compare(&in[0], &in[1], &opts, notes, err);
	close_inputs(in);
	return diff;
}

/*
 * Each side's allocation totals come from its kernel view's source of
 * totals (kernel_view_pair_totals): a side whose source is not its
 * reference (ioalloccount beside ioclasscount) has it joined to the
 * classes pair, so the section's table, its warnings and the gates all
 * compare the same figures; that file joins the view (no longer a view of
 * its own). One that cannot be read is a warning and stays uncovered (the
 * section says which command compares it).
 */
static void
join_totals(struct report_bundles *rb, void *diff, struct diag_list *notes,
	    struct diag_list *warnings)
{
	const struct kernel_view *v = rb->kernel;
	const struct bundle_capture *totals[2], *counts[2] = { v[0].reference, v[1].reference };
	if (!kernel_view_pair_totals(v, totals))
		return;
	struct diag err;
	diag_clear(&err);
	int rc = 0;
	for (int side = 0; side < 2 && rc == 0; side++)
		if (totals[side] != counts[side])
			rc = bundle_verify_capture(totals[side], notes, &err);
	if (rc == 0)
		rc = kind_classes_join_totals(diff, counts, totals, notes, &err);
	if (rc < 0) {
		diag_list_add(warnings, DIAG_WARNING, diag_path(&err), err.line, "its allocation "
			      "totals are left out of the kernel view: %s", err.msg);
		return;
	}
	for (int side = 0; side < 2; side++)
		if (totals[side] != counts[side])
			rb->merged[side][rb->nmerged[side]++] = totals[side];
}

static bool
is_merged(const struct report_bundles *rb, int side, const struct bundle_capture *c)
{
	for (size_t i = 0; i < rb->nmerged[side]; i++)
		if (rb->merged[side][i] == c)
			return true;
	return false;
}

/* Compare one kind's captures and add its sections; the diff is kept for gates and tables. */
static int
compare_kind(struct report_bundles *rb, struct report *r, const struct kind *k,
	     const struct bundle_capture *c[2], struct diag_list *notes,
	     struct diag_list *warnings, struct diag *err)
{
	void *diff = open_compare(k, c, notes, err);
	if (!diff)
		return -1;
	if (k->kernel_view && c[0] == rb->kernel[0].reference &&
	    c[1] == rb->kernel[1].reference)
		join_totals(rb, diff, notes, warnings);
	k->comparability(diff, c[0]->path, c[1]->path, warnings);
	k->report(r, diff);
	rb->kinds[rb->ncompared] = k;
	rb->diffs[rb->ncompared++] = diff;
	return 0;
}

static void
add_file(char **files, const struct bundle_capture *c)
{
	struct strbuf sb = STRBUF_INIT;
	if (*files)
		strbuf_addf(&sb, "%s, ", *files);
	strbuf_addf(&sb, "%s (%s)", c->member, c->kind);
	free(*files);
	*files = strbuf_detach(&sb, NULL);
}

static const void *
diff_of(const struct report_bundles *rb, const char *name, const struct kind **k)
{
	for (size_t i = 0; i < rb->ncompared; i++)
		if (strcmp(rb->kinds[i]->name, name) == 0) {
			*k = rb->kinds[i];
			return rb->diffs[i];
		}
	return NULL;
}

/* ---- the kernel view ---------------------------------------------------- */

static void
add_disagreements(struct report *r, struct report_section *s, const struct report_bundles *rb)
{
	static const char *const cols[] = { "bundle", "figure", "source", "taken", "value" };
	struct report_table *t = NULL;
	for (int side = 0; side < 2; side++) {
		const struct kernel_view *v = &rb->kernel[side];
		if (!v->ndisagree)
			continue;
		if (!t)
			t = report_section_add_table(s, "kernel-sources", "Kernel sources of one "
						     "bundle that disagree (the reference first)",
						     5, cols);
		for (size_t i = 0; i < v->ndisagree; i++) {
			const struct kernel_disagreement *d = &v->disagree[i];
			const struct bundle_capture *src[2] = { v->reference, d->source };
			for (int j = 0; j < 2; j++) {
				report_table_row(t);
				report_table_text(t, side_name[side]);
				report_table_code(t, d->figure);
				report_table_textf(t, "%s%s", src[j]->member,
						   j == 0 ? " (reference)" : "");
				report_table_text(t, src[j]->started_utc ? src[j]->started_utc
						  : "not recorded");
				if (j == 0 && !d->in_reference)
					report_table_text(t, "not held");
				else
					report_table_figure(t, d->bytes ? REPORT_CELL_BYTES
							    : REPORT_CELL_COUNT,
							    j == 0 ? d->reference : d->other);
			}
		}
		uint64_t n = v->ndisagree + v->disagree_more;
		report_add_warning(r, "%s: the kernel sources disagree with %s (the reference) "
				   "on %" PRIu64 " figure%s: the IOKit classes section shows both, "
				   "with the time each was taken", side_name[side],
				   v->reference->member, n, n == 1 ? "" : "s");
		if (v->disagree_more)
			t->omitted += 2 * v->disagree_more;
	}
}

/* "kernel/ioalloccount.txt": the sources a side's reference does not cover, but the merged ones; how many. */
static size_t
uncovered_list(const struct report_bundles *rb, int side, struct strbuf *sb)
{
	const struct kernel_view *v = &rb->kernel[side];
	size_t n = 0, left = v->nuncovered - rb->nmerged[side];
	for (size_t i = 0; i < v->nuncovered; i++) {
		if (is_merged(rb, side, v->uncovered[i]))
			continue;
		strbuf_addf(sb, "%s%s", n == 0 ? "" : n + 1 == left ? " and " : ", ",
			    v->uncovered[i]->member);
		n++;
	}
	return n;
}

/*
 * Without an ioreg capture, ioclasscount's counts and ioalloccount's totals
 * are two views that no file covers: the report shows the reference's, and
 * says which command compares the other (diff pairs every uncovered file).
 */
static void
add_uncovered(struct report_section *s, const struct report_bundles *rb)
{
	struct strbuf list[2] = { STRBUF_INIT, STRBUF_INIT };
	size_t n[2];
	for (int side = 0; side < 2; side++)
		n[side] = uncovered_list(rb, side, &list[side]);
	bool same = strcmp(list[0].len ? list[0].buf : "", list[1].len ? list[1].buf : "") == 0;
	for (int side = 0; side < 2; side++) {
		if (!list[side].len || (side == 1 && same))
			continue;
		report_section_add_paragraph(s, "%s%s hold%s figures %s does not: 'iotally diff "
					     "%s %s' compares %s.", same ? "" : side == 0 ?
					     "Before, " : "After, ", list[side].buf,
					     n[side] == 1 ? "s" : "",
					     rb->kernel[side].reference->member, rb->paths[0],
					     rb->paths[1], n[side] == 1 ? "it" : "them");
	}
	strbuf_release(&list[0]);
	strbuf_release(&list[1]);
}

/*
 * "; allocation totals from kernel/ioalloccount.txt": where totals not
 * from the reference come from, once when both sides take them from the
 * same file, else per side ("; after, allocation totals from ...").
 */
static void
add_merged_source(const struct report_bundles *rb, struct strbuf *sb)
{
	const struct bundle_capture *const *m = rb->merged[0], *const *n = rb->merged[1];
	bool same = rb->nmerged[0] == rb->nmerged[1];
	for (size_t i = 0; same && i < rb->nmerged[0]; i++)
		same = strcmp(m[i]->member, n[i]->member) == 0;
	for (int side = 0; side < 2; side++) {
		if (side == 1 && same)
			break;
		for (size_t i = 0; i < rb->nmerged[side]; i++)
			strbuf_addf(sb, "; %sallocation totals from %s", same ? "" : side == 0 ?
				    "before, " : "after, ", rb->merged[side][i]->member);
	}
}

/* Which files the kernel section comes from, said once at its top. */
static void
add_kernel_source(struct report *r, const struct report_bundles *rb)
{
	const struct kernel_view *v = rb->kernel;
	struct report_section *s = report_classes_section(r);
	struct strbuf sb = STRBUF_INIT;
	if (strcmp(v[0].reference->member, v[1].reference->member) == 0)
		strbuf_addf(&sb, "Kernel view from %s (%s) in both bundles", v[0].reference->member,
			    v[0].reference_source ? v[0].reference_source : "unread");
	else
		strbuf_addf(&sb, "Kernel view from %s (%s) before and %s (%s) after",
			    v[0].reference->member, v[0].reference_source ? v[0].reference_source
			    : "unread", v[1].reference->member, v[1].reference_source ?
			    v[1].reference_source : "unread");
	struct strbuf list[2] = { STRBUF_INIT, STRBUF_INIT };
	for (int side = 0; side < 2; side++)
		kernel_view_covered_list(&v[side], &list[side]);
	bool same = strcmp(list[0].len ? list[0].buf : "", list[1].len ? list[1].buf : "") == 0;
	for (int side = 0; side < 2; side++) {
		if (!v[side].ncovered || (side == 1 && same))
			continue;
		strbuf_addf(&sb, "; %s%s hold%s the same view (not shown again: the reference is "
			    "the one reported)", same ? "" : side == 0 ? "before, " : "after, ",
			    list[side].buf, v[side].ncovered == 1 ? "s" : "");
	}
	strbuf_release(&list[0]);
	strbuf_release(&list[1]);
	add_merged_source(rb, &sb);
	strbuf_addch(&sb, '.');
	report_section_add_paragraph(s, "%s", sb.buf);
	strbuf_release(&sb);
	add_uncovered(s, rb);
	add_disagreements(r, s, rb);
}

/* ---- kernel objects beside their memory ----------------------------------- */

/*
 * The objects both views see: the class's instances (its adjusted count,
 * of the kind that makes the kernel view) beside the regions of the types
 * named by a selector (the gates' selector: a type, or a glob of types), of
 * the kind whose metrics count regions by type (the row's region_types).
 */
static const struct {
	const char *label;
	const char *class_name;
	const char *types;
} beside[] = {
	{ "IOSurface", "IOSurface", "IOSurface" },
	{ "IOAccelerator", "IOAccelerator", "IOAccelerator*" },
};

/* A metric's figures into before/after/delta cells, or three empty cells. */
static bool
add_figures(struct report_table *t, const struct kind *k, const void *diff, const char *kind,
	    const char *metric, enum report_cell_kind cell, enum report_cell_kind dcell)
{
	int64_t b, a;
	struct diag err;
	diag_clear(&err);
	if (k->metric(diff, kind, metric, &b, &a, &err) != 0) {
		for (int i = 0; i < 3; i++)
			report_table_empty(t);
		return true;
	}
	report_table_figure(t, cell, b);
	report_table_figure(t, cell, a);
	int64_t d;
	if (__builtin_sub_overflow(a, b, &d))
		report_table_text(t, "overflow");
	else
		report_table_figure(t, dcell, d);
	return a == b;
}

static void
add_beside(struct report *r, const struct report_bundles *rb)
{
	static const char *const cols[] = {
		"object", "instances before", "instances after", "instances delta",
		"regions before", "regions after", "regions delta", "virtual before",
		"virtual after", "virtual delta",
	};
	const struct kind *ck = NULL, *vk = NULL;
	const void *cd = NULL, *vd = NULL;
	for (size_t i = 0; i < rb->ncompared; i++) {
		if (rb->kinds[i]->kernel_view && !cd)
			cd = rb->diffs[i], ck = rb->kinds[i];
		if (rb->kinds[i]->region_types && !vd)
			vd = rb->diffs[i], vk = rb->kinds[i];
	}
	if (!cd || !vd)
		return;
	struct report_section *s = report_section(r, REPORT_SEC_GPU, "GPU memory");
	char title[128];
	snprintf(title, sizeof(title), "Kernel objects beside their memory (IOKit %s and %s)",
		 ck->name, vk->name);
	struct report_table *t = report_section_add_table(s, "kernel-beside-user", title, 10,
							  cols);
	for (size_t i = 0; i < sizeof(beside) / sizeof(beside[0]); i++) {
		char metric[64];
		report_table_row(t);
		report_table_code(t, beside[i].label);
		bool same = add_figures(t, ck, cd, ck->name, beside[i].class_name,
					REPORT_CELL_COUNT, REPORT_CELL_DCOUNT);
		snprintf(metric, sizeof(metric), "%s.count", beside[i].types);
		same &= add_figures(t, vk, vd, vk->name, metric, REPORT_CELL_COUNT,
				    REPORT_CELL_DCOUNT);
		snprintf(metric, sizeof(metric), "%s.vsize", beside[i].types);
		same &= add_figures(t, vk, vd, vk->name, metric, REPORT_CELL_BYTES,
				    REPORT_CELL_DBYTES);
		if (same)
			report_table_unchanged(t);
	}
	t->note = xstrdup("Instances: the class's count in the kernel view (ioclasscount's "
			  "adjusted count). Regions and virtual size: vmmap's regions of type "
			  "IOSurface, and of every type whose name starts with IOAccelerator. "
			  "A dash: the capture does not hold it.");
}

/* ---- reconciliation: one thing measured by two sources --------------------- */

/*
 * What two sources both measure (docs/gpu.md, "Reconciliation"): each
 * measure's sources as gate metrics, so the figures are the ones gates
 * read. `cost` marks the source the summary's cost takes when it is there.
 */
static const struct {
	const char *measure;
	bool bytes;
	struct { const char *kind, *metric, *source; bool cost; } src[3];
} reconcile[] = {
	{ "GPU dirty", true, {
		{ "footprint", "gpu.dirty", "footprint: Dirty of the GPU categories", true },
		{ "vmmap", "gpu.dirty", "vmmap: dirty of the GPU types", false },
	} },
	{ "IOSurface dirty", true, {
		{ "footprint", "IOSurface.dirty", "footprint: category IOSurface, Dirty", false },
		{ "vmmap", "IOSurface.dirty", "vmmap: type IOSurface, dirty", false },
	} },
	{ "IOSurface objects", false, {
		{ "classes", "IOSurface", "IOKit: IOSurface instances", false },
		{ "vmmap", "IOSurface.count", "vmmap: IOSurface regions", false },
		{ "footprint", "IOSurface.regions", "footprint: IOSurface regions", false },
	} },
};

/*
 * Two changes of one measure agree when they are equal, or, for bytes,
 * within 1 % of the larger: vmmap and footprint round to their units.
 */
static bool
changes_agree(bool bytes, int64_t x, int64_t y)
{
	if (x == y)
		return true;
	if (!bytes)
		return false;
	uint64_t ax = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
	uint64_t ay = y < 0 ? (uint64_t)0 - (uint64_t)y : (uint64_t)y;
	uint64_t big = ax > ay ? ax : ay;
	uint64_t diff = (uint64_t)((x > y) ? (uint64_t)x - (uint64_t)y : (uint64_t)y - (uint64_t)x);
	return diff <= big / 100;
}

static void
add_reconciliation(struct report *r, const struct report_bundles *rb)
{
	static const char *const cols[] = {
		"measure", "source", "before", "after", "change", "the summary",
	};
	struct report_table *t = NULL;
	struct strbuf note = STRBUF_INIT;
	bool footprint_cost = summary_cost_source(&r->facts) == SUMMARY_SRC_FOOTPRINT;
	for (size_t m = 0; m < sizeof(reconcile) / sizeof(reconcile[0]); m++) {
		int64_t b[3], a[3];
		bool have[3] = { false, false, false };
		size_t n = 0;
		for (size_t i = 0; i < 3 && reconcile[m].src[i].kind; i++) {
			const struct kind *k = NULL;
			const void *d = diff_of(rb, reconcile[m].src[i].kind, &k);
			struct diag err;
			diag_clear(&err);
			have[i] = d && k->metric(d, reconcile[m].src[i].kind, reconcile[m].src[i].metric,
						 &b[i], &a[i], &err) == 0;
			n += have[i];
		}
		if (n < 2)
			continue;
		if (!t) {
			struct report_section *s = report_section(r, REPORT_SEC_GPU, "GPU memory");
			t = report_section_add_table(s, "reconciliation",
				"One thing, two sources: the figures side by side", 6, cols);
		}
		bool agree = true;
		int64_t first = 0;
		bool seen = false;
		for (size_t i = 0; i < 3; i++) {
			if (!have[i] || !report_table_row(t))
				continue;
			enum report_cell_kind ck = reconcile[m].bytes ? REPORT_CELL_BYTES
								      : REPORT_CELL_COUNT;
			enum report_cell_kind dk = reconcile[m].bytes ? REPORT_CELL_DBYTES
								      : REPORT_CELL_DCOUNT;
			int64_t d = a[i] - b[i];   /* gate figures: each at most 2^63 - 1, >= 0 */
			report_table_text(t, reconcile[m].measure);
			report_table_text(t, reconcile[m].src[i].source);
			report_table_figure(t, ck, b[i]);
			report_table_figure(t, ck, a[i]);
			report_table_figure(t, dk, d);
			report_table_text(t, reconcile[m].src[i].cost && footprint_cost
					  ? "the cost (with Swapped)" : "");
			if (seen && !changes_agree(reconcile[m].bytes, first, d))
				agree = false;
			if (!seen)
				first = d;
			seen = true;
		}
		if (!agree)
			strbuf_addf(&note, "%s%s: the sources disagree beyond rounding.",
				    note.len ? " " : "", reconcile[m].measure);
	}
	if (!t) {
		strbuf_release(&note);
		return;
	}
	strbuf_addf(&note, "%sThe cost is footprint's figure where a footprint capture has "
		    "it, the memory the kernel charges the process; vmmap's regions and "
		    "IOKit's instances count mappings and objects, which need not be one "
		    "each (docs/gpu.md, \"Reconciliation\").", note.len ? " " : "");
	t->note = strbuf_detach(&note, NULL);
}

/* Two kinds of one bundle name the same process: one row says it. */
static void
drop_repeated_provenance(struct report *r)
{
	size_t kept = 0;
	for (size_t i = 0; i < r->nprovenance; i++) {
		struct report_kv *kv = &r->provenance[i];
		bool seen = false;
		for (size_t j = 0; j < kept && !seen; j++)
			seen = strcmp(r->provenance[j].key, kv->key) == 0 &&
			       strcmp(r->provenance[j].value, kv->value) == 0;
		if (seen) {
			free(kv->key);
			free(kv->value);
		} else {
			r->provenance[kept++] = *kv;
		}
	}
	r->nprovenance = kept;
}

/* ---- gates ------------------------------------------------------------------ */

static int
check_gates(const struct report_bundles *rb, struct diff_gate *gates, size_t n,
	    struct diag *err)
{
	for (size_t i = 0; i < n; i++) {
		struct diff_gate *g = &gates[i];
		size_t j = 0;
		while (j < rb->ncompared && !kind_has_metric(rb->kinds[j], g->kind))
			j++;
		if (j == rb->ncompared) {
			const struct kind *k = kind_for_metric(g->kind);
			return diag_set(err, k ? DIAG_DATA : DIAG_USAGE, NULL, 0, 0, k ?
					"gate '%s': the bundles do not both hold a %s capture" :
					"gate '%s': unknown metric kind '%s'", g->text,
					k ? k->name : g->kind);
		}
		if (kind_resolve_gate(rb->kinds[j], rb->diffs[j], g, err) < 0)
			return -1;
	}
	return 0;
}

int
report_bundles_build(struct report_bundles *rb, struct report *r, struct diff_gate *gates,
		     size_t ngates, struct diag_list *notes, struct diag_list *warnings,
		     struct diag *err)
{
	for (int side = 0; side < 2; side++) {
		kernel_view_pick(&rb->b[side], &rb->kernel[side]);
		for (size_t i = 0; i < rb->kernel[side].ncovered; i++)
			if (bundle_verify_capture(rb->kernel[side].covered[i], notes, err) < 0)
				return -1;
	}
	for (const struct kind *k = kind_first(); k; k = kind_next(k)) {
		const struct bundle_capture *c[2] = { side_capture(rb, 0, k), side_capture(rb, 1, k) };
		if (!c[0] && !c[1])
			continue;
		if (!c[0] || !c[1]) {
			say_missing(rb, c[0] ? 1 : 0, k, warnings);
			continue;
		}
		if (compare_kind(rb, r, k, c, notes, warnings, err) < 0)
			return -1;
		for (int side = 0; side < 2; side++) {
			add_file(&rb->files[side], c[side]);
			const struct kernel_view *v = &rb->kernel[side];
			for (size_t i = 0; c[side] == v->reference && i < v->ncovered; i++)
				add_file(&rb->files[side], v->covered[i]);
			for (size_t i = 0; c[side] == v->reference && i < rb->nmerged[side]; i++)
				add_file(&rb->files[side], rb->merged[side][i]);
		}
		if (c[0] == rb->kernel[0].reference)
			add_kernel_source(r, rb);
	}
	if (rb->ncompared == 0)
		return diag_set(err, DIAG_NOINPUT, NULL, 0, 0, "the bundles %s and %s hold no "
				"capture of one kind iotally reads ('iotally %s' lists its steps)",
				diag_display_path(rb->paths[0]), diag_display_path(rb->paths[1]),
				rb->paths[0]);
	drop_repeated_provenance(r);
	add_beside(r, rb);
	add_reconciliation(r, rb);
	if (check_gates(rb, gates, ngates, err) < 0)
		return -1;
	report_add_gates(r, gates, ngates);
	return 0;
}

/* ---- provenance ---------------------------------------------------------------- */

void
report_bundles_provenance(struct report *r, const struct report side[2])
{
	bool *used = xcalloc(side[0].nprovenance + 1, sizeof(*used));
	for (size_t i = 0; i < side[1].nprovenance; i++) {
		const struct report_kv *kv = &side[1].provenance[i];
		const char *before = "(none)";
		for (size_t j = 0; j < side[0].nprovenance; j++)
			if (!used[j] && strcmp(side[0].provenance[j].key, kv->key) == 0) {
				used[j] = true;
				before = side[0].provenance[j].value;
				break;
			}
		/* A value that is a span already ("START → END") reads as two, not four. */
		if (strcmp(before, kv->value) != 0 &&
		    (strstr(before, "\u2192") || strstr(kv->value, "\u2192")))
			report_add_provenance(r, kv->key, "before: %s; after: %s", before, kv->value);
		else
			report_add_provenance_pair(r, kv->key, before, kv->value);
	}
	for (size_t j = 0; j < side[0].nprovenance; j++)
		if (!used[j])
			report_add_provenance(r, side[0].provenance[j].key, "%s \u2192 (none)",
					      side[0].provenance[j].value);
	free(used);
	/* A warning both bundles give is said once. */
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < side[s].nwarnings; i++) {
			const char *w = side[s].warnings[i];
			bool both = false;
			for (size_t j = 0; j < side[1 - s].nwarnings && !both; j++)
				both = strcmp(side[1 - s].warnings[j], w) == 0;
			if (both && s == 1)
				continue;
			report_add_warning(r, "%s: %s", both ? "both bundles" : side_name[s], w);
		}
}

void
report_bundles_release(struct report_bundles *rb)
{
	for (size_t i = 0; i < rb->ncompared; i++)
		rb->kinds[i]->free(rb->diffs[i]);
	for (int i = 0; i < 2; i++) {
		kernel_view_release(&rb->kernel[i]);
		if (rb->opened[i])
			bundle_release(&rb->b[i]);
		free(rb->files[i]);
	}
	memset(rb, 0, sizeof(*rb));
}
