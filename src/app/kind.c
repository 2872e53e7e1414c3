#include "app/kind.h"
#include "app/input.h"

#include "ingest/diff_read.h"
#include "model/diff_classes.h"
#include "model/diff_track.h"
#include "model/diff_vmmap.h"
#include "model/report_classes.h"
#include "model/report_track.h"
#include "model/report_vmmap.h"
#include "report/diff_classes_write.h"
#include "report/diff_report.h"
#include "report/diff_track_write.h"
#include "report/diff_vmmap_write.h"
#include "util/array.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Inputs that could be read only in part: said with the comparability warnings. */
static void
note_partial(struct diag_list *w, const char *bpath, bool bpartial, const char *apath,
	     bool apartial)
{
	if (bpartial)
		diag_list_add(w, DIAG_WARNING, NULL, 0, "BEFORE (%s) is partial: the diff "
			      "covers what could be read", diag_display_path(bpath));
	if (apartial)
		diag_list_add(w, DIAG_WARNING, NULL, 0, "AFTER (%s) is partial: the diff "
			      "covers what could be read", diag_display_path(apath));
}

/* ---- vmmap -------------------------------------------------------------- */

static void vmmap_free(void *p);

static void *
vmmap_compare(struct kind_input *before, struct kind_input *after,
	      const struct diff_options *opts, struct diag_list *notes, struct diag *err)
{
	struct diff_vmmap_pair *v = xcalloc(1, sizeof(*v));
	diff_vmmap_pair_init(v);
	if (diff_vmmap_side_read(&before->reader, before->json, &v->before, notes, err) < 0 ||
	    diff_vmmap_side_read(&after->reader, after->json, &v->after, notes, err) < 0 ||
	    diff_vmmap_pair_compare(v, before->path, after->path, opts, notes, err) < 0) {
		vmmap_free(v);
		return NULL;
	}
	return v;
}

static void
vmmap_comparability(const void *p, const char *bpath, const char *apath,
		    struct diag_list *w)
{
	const struct diff_vmmap_pair *v = p;
	diff_vmmap_comparability(&v->diff, bpath, apath, w);
	note_partial(w, bpath, v->before.cap.partial, apath, v->after.cap.partial);
	if (v->diff.by_summary)
		diag_list_add(w, DIAG_NOTE, NULL, 0,
			      "%s no region lines: compared through the summary tables, whose "
			      "figures vmmap rounds",
			      v->before.dump->region_lines || v->after.dump->region_lines
			      ? "one dump has" : "the dumps have");
	if (!v->before.cap.filter.all || !v->after.cap.filter.all)
		diag_list_add(w, DIAG_NOTE, NULL, 0,
			      "a JSON report holds only the region types it was made for; "
			      "only types both inputs hold are compared");
}

static int
vmmap_metric(const void *p, const char *kind, const char *metric, int64_t *b, int64_t *a,
	     struct diag *err)
{
	(void)kind;
	return diff_vmmap_metric(&((const struct diff_vmmap_pair *)p)->diff, metric, b, a, err);
}

static bool
vmmap_metric_bytes(const char *kind, const char *metric)
{
	(void)kind;
	return diff_vmmap_metric_is_bytes(metric);
}

static const char *
vmmap_subject(const void *p, const char *kind, const char *metric)
{
	(void)p;
	(void)kind;
	return strcmp(metric, "footprint") == 0
	       ? "Physical footprint as printed, rounded by vmmap" : NULL;
}

static bool
vmmap_changed(const void *p)
{
	return diff_vmmap_changed(&((const struct diff_vmmap_pair *)p)->diff);
}

static void
vmmap_write_text(FILE *out, const void *p, bool markdown)
{
	diff_vmmap_write_text(out, &((const struct diff_vmmap_pair *)p)->diff, markdown);
}

static json_t *
vmmap_json(const void *p)
{
	return diff_vmmap_json(&((const struct diff_vmmap_pair *)p)->diff);
}

static void
vmmap_report(struct report *rep, const void *p)
{
	report_add_vmmap_diff(rep, &((const struct diff_vmmap_pair *)p)->diff);
}

static void
vmmap_free(void *p)
{
	if (!p)
		return;
	diff_vmmap_pair_release(p);
	free(p);
}

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
	note_partial(w, bpath, t->before.partial, apath, t->after.partial);
}

static int
track_metric(const void *p, const char *kind, const char *metric, int64_t *b, int64_t *a,
	     struct diag *err)
{
	(void)kind;
	return diff_track_metric(&((const struct diff_track_pair *)p)->diff, metric, b, a, err);
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

static void
track_write_text(FILE *out, const void *p, bool markdown)
{
	diff_track_write_text(out, &((const struct diff_track_pair *)p)->diff, markdown);
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

static void
classes_comparability(const void *p, const char *bpath, const char *apath,
		      struct diag_list *w)
{
	const struct diff_classes_pair *c = p;
	const struct classes_snapshot *b = c->before.snap, *a = c->after.snap;
	note_partial(w, bpath, b->truncated, apath, a->truncated);
	if (b->source != a->source)
		diag_list_add(w, DIAG_NOTE, NULL, 0,
			      "the snapshots come from different captures (%s before, %s after): "
			      "allocation totals are only in ioreg captures",
			      classes_source_name(b->source), classes_source_name(a->source));
	if (b->query || a->query)
		diag_list_add(w, DIAG_NOTE, NULL, 0,
			      "%s holds only some classes: only the classes it holds are compared",
			      b->query && a->query ? "each snapshot" : b->query ? "BEFORE" : "AFTER");
	const struct classes_snapshot *side[2] = { b, a };
	const char *path[2] = { bpath, apath };
	for (int i = 0; i < 2; i++)
		for (int k = 0; k < ALLOC_KINDS; k++) {
			struct strbuf sb = STRBUF_INIT;
			if (classes_alloc_negative_message(side[i], (enum alloc_kind)k, &sb))
				diag_list_add(w, DIAG_WARNING, path[i], side[i]->line, "%s", sb.buf);
			strbuf_release(&sb);
		}
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
	if (strcmp(kind, "classes") != 0 || strcmp(metric, "*") != 0)
		return NULL;
	r = diff_classes_largest_growth(&((const struct diff_classes_pair *)p)->diff);
	return r ? r->name : "no class grew";
}

static bool
classes_changed(const void *p)
{
	return diff_classes_changed(&((const struct diff_classes_pair *)p)->diff);
}

static void
classes_write_text(FILE *out, const void *p, bool markdown)
{
	diff_classes_write_text(out, &((const struct diff_classes_pair *)p)->diff, markdown);
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

static void
classes_free(void *p)
{
	if (!p)
		return;
	diff_classes_pair_release(p);
	free(p);
}

/* ---- the table ---------------------------------------------------------- */

/* In the order a bundle's captures are offered (`iotally BUNDLE`, trend's default kind). */

static const struct kind kinds[] = {
	{
		.name = "vmmap",
		.raw = { INPUT_VMMAP },
		.metric_kinds = { "vmmap" },
		.schema = VMMAP_SCHEMA,
		.accepts = KIND_ACCEPTS_DUMP,
		.compare = vmmap_compare,
		.comparability = vmmap_comparability,
		.metric = vmmap_metric,
		.metric_bytes = vmmap_metric_bytes,
		.subject = vmmap_subject,
		.changed = vmmap_changed,
		.write_text = vmmap_write_text,
		.json = vmmap_json,
		.report = vmmap_report,
		.free = vmmap_free,
	},
	{
		.name = "classes",
		.raw = { INPUT_IOREG_TEXT, INPUT_XML_PLIST, INPUT_IOCLASSCOUNT },
		.metric_kinds = { "classes", "alloc" },
		.schema = CLASSES_SCHEMA,
		.accepts = KIND_ACCEPTS_DUMP | KIND_ACCEPTS_DIRECT,
		.compare = classes_compare,
		.comparability = classes_comparability,
		.metric = classes_metric,
		.metric_bytes = classes_metric_bytes,
		.subject = classes_subject,
		.changed = classes_changed,
		.write_text = classes_write_text,
		.json = classes_json,
		.report = classes_report,
		.free = classes_free,
	},
	{
		.name = "track",
		.raw = { INPUT_TRACK },
		.metric_kinds = { "track" },
		.schema = TRACK_SCHEMA,
		.accepts = KIND_ACCEPTS_MATCH_OFFSETS | KIND_ACCEPTS_FOLDED,
		.compare = track_compare,
		.comparability = track_comparability,
		.metric = track_metric,
		.metric_bytes = track_metric_bytes,
		.changed = track_changed,
		.write_text = track_write_text,
		.json = track_json,
		.write_folded = track_write_folded,
		.report = track_report,
		.free = track_free,
	},
};

#define NKINDS (ARRAY_SIZE(kinds))

const struct kind *
kind_first(void)
{
	return &kinds[0];
}

const struct kind *
kind_next(const struct kind *k)
{
	return k + 1 < kinds + NKINDS ? k + 1 : NULL;
}

const char *
kind_refused_option(const struct kind *kind, unsigned given)
{
	static const struct {
		unsigned bit;
		const char *name;
	} names[] = {
		{ KIND_ACCEPTS_DUMP, "--dump" },
		{ KIND_ACCEPTS_DIRECT, "--direct" },
		{ KIND_ACCEPTS_MATCH_OFFSETS, "--match-offsets" },
		{ KIND_ACCEPTS_FOLDED, "--folded" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if ((given & names[i].bit) && !(kind->accepts & names[i].bit))
			return names[i].name;
	return NULL;
}

static bool
has_raw(const struct kind *k, enum input_kind kind)
{
	for (size_t i = 0; i < KIND_MAX_RAW && k->raw[i] != INPUT_EMPTY; i++)
		if (k->raw[i] == kind)
			return true;
	return false;
}

const struct kind *
kind_for_input(enum input_kind kind, const char *schema)
{
	for (size_t i = 0; i < NKINDS; i++)
		if (kind == INPUT_IOTALLY_JSON ? schema && strcmp(schema, kinds[i].schema) == 0
					       : has_raw(&kinds[i], kind))
			return &kinds[i];
	return NULL;
}

bool
kind_has_metric(const struct kind *kind, const char *name)
{
	for (size_t i = 0; i < 3 && kind->metric_kinds[i]; i++)
		if (strcmp(kind->metric_kinds[i], name) == 0)
			return true;
	return false;
}

const struct kind *
kind_for_metric(const char *name)
{
	for (size_t i = 0; i < NKINDS; i++)
		if (kind_has_metric(&kinds[i], name))
			return &kinds[i];
	return NULL;
}

int
kind_open(struct kind_input *in, const char *path, const char *command,
	       const struct kind **kind, char *schema, size_t schema_size,
	       enum input_kind *raw, struct diag *err)
{
	struct app_input peek;
	in->path = path;
	if (line_reader_open(&in->reader, path, 0, err) < 0)
		return -1;
	if (app_input_peek(&in->reader, &peek, err) < 0)
		return -1;
	/* Only blank and leading comment lines: empty, as in every command. */
	*raw = peek.empty ? INPUT_EMPTY : peek.kind;
	snprintf(schema, schema_size, "%s", *raw == INPUT_IOTALLY_JSON && !peek.schema[0] ?
		 "(no schema)" : peek.schema);
	*kind = kind_for_input(*raw, schema);
	in->json = *raw == INPUT_IOTALLY_JSON;
	char foreign[512];
	/* Another tool's report: the sentence every command says of it. */
	if (app_foreign_sentence(&peek, foreign, sizeof(foreign)))
		return diag_set(err, DIAG_DATA, path, 0, 0, "%s", foreign);
	if (!*kind)
		return diag_set(err, DIAG_DATA, path, 0, 0,
				"is %s%s%s%s: %s %s vmmap dumps, ioclasscount --track "
				"captures, IOKit class counts (ioreg, ioclasscount) or iotally's "
				"JSON reports of them",
				input_kind_describe(*raw), in->json ? " (schema '" : "",
				in->json ? schema : "", in->json ? "')" : "", command,
				strcmp(command, "diff") == 0 ? "compares" : "reads");
	return 0;
}

int
kind_check_gates(const struct kind *kind, const void *diff, struct diff_gate *gates,
		      size_t n, struct diag *err)
{
	for (size_t i = 0; i < n; i++) {
		struct diff_gate *g = &gates[i];
		if (!kind_has_metric(kind, g->kind))
			return diag_set(err, DIAG_USAGE, NULL, 0, 0,
					kind_for_metric(g->kind)
					? "gate '%s': '%s:' metrics do not apply to %s captures"
					: "gate '%s': unknown metric kind '%s' (this diff compares "
					  "%s captures)", g->text, g->kind, kind->name);
		if (diff && kind_resolve_gate(kind, diff, g, err) < 0)
			return -1;
	}
	return 0;
}

int
kind_resolve_gate(const struct kind *kind, const void *diff, struct diff_gate *g,
		       struct diag *err)
{
	int64_t before, after;
	int rc = kind->metric(diff, g->kind, g->metric, &before, &after, err);
	if (rc < 0)
		return -1;
	if (rc > 0) {
		/* A figure one capture lacks: the gate is not evaluable, never 0 against 0. */
		free(g->reason);
		g->reason = xstrdup(err->msg);
		g->unevaluable = true;
		diag_clear(err);
		return 0;
	}
	if (diff_gate_check(g, before, after, err) < 0)
		return -1;
	g->bytes = kind->metric_bytes(g->kind, g->metric);
	const char *subject = kind->subject ? kind->subject(diff, g->kind, g->metric) : NULL;
	free(g->subject);
	g->subject = subject ? xstrdup(subject) : NULL;
	return 0;
}
