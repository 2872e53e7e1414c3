#include "cli/diff_kinds.h"

#include "ingest/classes.h"
#include "ingest/classes_json.h"
#include "ingest/track.h"
#include "ingest/track_json.h"
#include "ingest/vmmap.h"
#include "ingest/vmmap_json.h"
#include "model/diff_classes.h"
#include "model/diff_track.h"
#include "model/diff_vmmap.h"
#include "model/report_classes.h"
#include "model/report_track.h"
#include "model/report_vmmap.h"
#include "model/vmmap.h"
#include "model/diff.h"
#include "report/diff_classes.h"
#include "report/diff_report.h"
#include "report/diff_track.h"
#include "report/diff_vmmap.h"
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

struct vmmap_side {
	struct vmmap_capture cap;
	const struct vmmap_dump *dump;
};

struct vmmap_diff {
	struct vmmap_side before, after;
	struct diff_vmmap diff;
};

static int
vmmap_load(struct diff_input *in, struct vmmap_capture *cap, struct diag_list *notes,
	   struct diag *err)
{
	if (in->json)
		return vmmap_json_read(&in->reader, cap, err);
	struct vmmap_parse_opts popts = { .strict = false, .report_unparsed = 5 };
	cap->filter.all = true;
	cap->want_purgeable = true;
	return vmmap_parse(&in->reader, cap, &popts, notes, err);
}

static void
vmmap_process_text(const struct vmmap_dump *d, char *out, size_t n)
{
	if (d->process && d->has_pid)
		snprintf(out, n, "%s [%" PRIu64 "]", d->process, d->pid);
	else
		snprintf(out, n, "%s", d->process ? d->process : "unnamed process");
}

/* The dump to compare: the first, or --dump N; say which when there is a choice. */
static int
vmmap_pick(struct vmmap_side *s, const char *path, const struct diff_options *opts,
	   struct diag_list *notes, struct diag *err)
{
	size_t n = s->cap.ndumps;
	uint64_t want = opts->has_dump ? opts->dump : 1;
	if (n == 0)
		return diag_set(err, DIAG_DATA, path, 0, 0, "holds no vmmap dump");
	if (want > n)
		return diag_set(err, DIAG_DATA, path, 0, 0,
				"--dump %" PRIu64 " asked for, but the input holds %zu dump%s",
				want, n, n == 1 ? "" : "s");
	s->dump = s->cap.dumps[want - 1];
	if (n > 1) {
		char proc[256];
		vmmap_process_text(s->dump, proc, sizeof(proc));
		diag_list_add(notes, DIAG_NOTE, path, 0,
			      "holds %zu dumps; comparing dump %" PRIu64 " (%s)%s", n, want,
			      proc, opts->has_dump ? "" : "; --dump N picks another");
	}
	return 0;
}

static void vmmap_free(void *p);

static void *
vmmap_compare(struct diff_input *before, struct diff_input *after,
	      const struct diff_options *opts, struct diag_list *notes, struct diag *err)
{
	struct vmmap_diff *v = xcalloc(1, sizeof(*v));
	vmmap_capture_init(&v->before.cap);
	vmmap_capture_init(&v->after.cap);
	if (vmmap_load(before, &v->before.cap, notes, err) < 0 ||
	    vmmap_load(after, &v->after.cap, notes, err) < 0 ||
	    vmmap_pick(&v->before, before->path, opts, notes, err) < 0 ||
	    vmmap_pick(&v->after, after->path, opts, notes, err) < 0) {
		vmmap_free(v);
		return NULL;
	}
	diff_vmmap_compute(&v->diff, &v->before.cap, v->before.dump, &v->after.cap,
			   v->after.dump);
	return v;
}

static void
vmmap_comparability(const void *p, const char *bpath, const char *apath,
		    struct diag_list *w)
{
	const struct vmmap_diff *v = p;
	diff_vmmap_comparability(&v->diff, bpath, apath, w);
	note_partial(w, bpath, v->before.cap.partial, apath, v->after.cap.partial);
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
	return diff_vmmap_metric(&((const struct vmmap_diff *)p)->diff, metric, b, a, err);
}

static bool
vmmap_changed(const void *p)
{
	return diff_vmmap_changed(&((const struct vmmap_diff *)p)->diff);
}

static void
vmmap_write_text(FILE *out, const void *p, bool markdown)
{
	diff_vmmap_write_text(out, &((const struct vmmap_diff *)p)->diff, markdown);
}

static json_t *
vmmap_json(const void *p)
{
	return diff_vmmap_json(&((const struct vmmap_diff *)p)->diff);
}

static void
vmmap_report(struct report *rep, const void *p)
{
	report_add_vmmap_diff(rep, &((const struct vmmap_diff *)p)->diff);
}

static void
vmmap_free(void *p)
{
	struct vmmap_diff *v = p;
	if (!v)
		return;
	diff_vmmap_release(&v->diff);
	vmmap_capture_release(&v->before.cap);
	vmmap_capture_release(&v->after.cap);
	free(v);
}

/* ---- track -------------------------------------------------------------- */

struct track_diff {
	struct track_capture before, after;
	struct diff_track diff;
};

struct track_side_ctx {
	struct diff_track *diff;
	int side;
};

static int
track_add_record(void *ctx, const struct track_record *r, const char *path, struct diag *err)
{
	struct track_side_ctx *c = ctx;
	return diff_track_add_record(c->diff, c->side, r, path, err);
}

/* Records go straight into the diff's call sites as they are parsed. */
static int
track_load(struct diff_input *in, struct track_capture *cap, struct diff_track *diff,
	   int side, struct diag_list *notes, struct diag *err)
{
	struct track_side_ctx ctx = { diff, side };
	cap->on_record = track_add_record;
	cap->on_record_ctx = &ctx;
	int rc;
	if (in->json) {
		rc = track_json_read(&in->reader, cap, notes, err);
	} else {
		struct track_parse_opts popts = { .strict = false, .report_unparsed = 5 };
		rc = track_parse(&in->reader, cap, &popts, notes, err);
	}
	cap->on_record = NULL;
	cap->on_record_ctx = NULL;
	return rc;
}

static void track_free(void *p);

static void *
track_compare(struct diff_input *before, struct diff_input *after,
	      const struct diff_options *opts, struct diag_list *notes, struct diag *err)
{
	struct track_diff *t = xcalloc(1, sizeof(*t));
	track_capture_init(&t->before);
	track_capture_init(&t->after);
	diff_track_init(&t->diff, opts->match_offsets);
	if (track_load(before, &t->before, &t->diff, 0, notes, err) < 0 ||
	    track_load(after, &t->after, &t->diff, 1, notes, err) < 0) {
		track_free(t);
		return NULL;
	}
	return t;
}

static void
track_comparability(const void *p, const char *bpath, const char *apath,
		    struct diag_list *w)
{
	const struct track_diff *t = p;
	diff_track_comparability(&t->before, &t->after, bpath, apath, w);
	note_partial(w, bpath, t->before.partial, apath, t->after.partial);
}

static int
track_metric(const void *p, const char *kind, const char *metric, int64_t *b, int64_t *a,
	     struct diag *err)
{
	(void)kind;
	return diff_track_metric(&((const struct track_diff *)p)->diff, metric, b, a, err);
}

static bool
track_changed(const void *p)
{
	return diff_track_changed(&((const struct track_diff *)p)->diff);
}

static void
track_write_text(FILE *out, const void *p, bool markdown)
{
	diff_track_write_text(out, &((const struct track_diff *)p)->diff, markdown);
}

static json_t *
track_json(const void *p)
{
	return diff_track_json(&((const struct track_diff *)p)->diff);
}

static void
track_write_folded(FILE *out, const void *p)
{
	diff_track_write_folded(out, &((const struct track_diff *)p)->diff);
}

static void
track_report(struct report *rep, const void *p)
{
	const struct track_diff *t = p;
	report_add_track(rep, &t->diff, &t->before, &t->after);
}

static void
track_free(void *p)
{
	struct track_diff *t = p;
	if (!t)
		return;
	diff_track_release(&t->diff);
	track_capture_release(&t->before);
	track_capture_release(&t->after);
	free(t);
}

/* ---- classes ------------------------------------------------------------ */

struct classes_side {
	struct classes_capture cap;        /* as read */
	struct classes_capture json_direct;/* a JSON report's direct counts */
	struct hierarchy hier;
	const struct classes_snapshot *snap;
	struct classes_snapshot *direct;   /* computed direct counts (owned) */
};

struct classes_diff {
	struct classes_side before, after;
	struct diff_classes diff;
};

static void
classes_side_init(struct classes_side *s)
{
	memset(s, 0, sizeof(*s));
	classes_capture_init(&s->cap);
	classes_capture_init(&s->json_direct);
	hierarchy_init(&s->hier);
}

static void
classes_side_release(struct classes_side *s)
{
	classes_capture_release(&s->cap);
	classes_capture_release(&s->json_direct);
	hierarchy_release(&s->hier);
	classes_snapshot_free(s->direct);
}

static int
classes_load(struct diff_input *in, struct classes_side *s, const struct diff_options *opts,
	     struct diag_list *notes, struct diag *err)
{
	if (in->json)
		return classes_json_read(&in->reader, &s->cap, &s->json_direct, notes, err);
	struct classes_read_opts ropts = { .want_hierarchy = opts->direct, .need_counts = true };
	return classes_read(&in->reader, &s->cap, &s->hier, &ropts, notes, err);
}

/* The snapshot to compare: the first, or --dump N; say which when there is a choice. */
static int
classes_pick(struct classes_side *s, const char *path, const struct diff_options *opts,
	     struct diag_list *notes, struct diag *err)
{
	size_t n = s->cap.nsnapshots;
	uint64_t want = opts->has_dump ? opts->dump : 1;
	if (n == 0)
		return diag_set(err, DIAG_DATA, path, 0, 0, "holds no class counts");
	if (want > n)
		return diag_set(err, DIAG_DATA, path, 0, 0,
				"--dump %" PRIu64 " asked for, but the input holds %zu snapshot%s",
				want, n, n == 1 ? "" : "s");
	s->snap = s->cap.snapshots[want - 1];
	if (n > 1)
		diag_list_add(notes, DIAG_NOTE, path, 0,
			      "holds %zu snapshots; comparing snapshot %" PRIu64 "%s", n, want,
			      opts->has_dump ? "" : "; --dump N picks another");
	return 0;
}

/* Direct counts of one side: a JSON report's own, or from a hierarchy. */
static int
classes_direct(struct classes_side *s, const struct hierarchy *h, const char *path,
	       struct diag *err)
{
	if (s->json_direct.nsnapshots) {
		s->snap = s->json_direct.snapshots[0];
		return 0;
	}
	if (!h)
		return diag_set(err, DIAG_DATA, path, 0, 0,
				"--direct needs a class hierarchy and neither input records one "
				"(ioreg -i, a kext-info property list, or iotally classes JSON "
				"made with --direct)");
	s->direct = diff_classes_direct(h, s->snap);
	s->snap = s->direct;
	return 0;
}

static struct hierarchy *
usable_hierarchy(struct classes_side *s)
{
	if (hierarchy_empty(&s->hier))
		return NULL;
	if (!s->hier.finished)
		hierarchy_finish(&s->hier);
	return &s->hier;
}

static void classes_free(void *p);

static void *
classes_compare(struct diff_input *before, struct diff_input *after,
		const struct diff_options *opts, struct diag_list *notes, struct diag *err)
{
	struct classes_diff *c = xcalloc(1, sizeof(*c));
	classes_side_init(&c->before);
	classes_side_init(&c->after);
	if (classes_load(before, &c->before, opts, notes, err) < 0 ||
	    classes_load(after, &c->after, opts, notes, err) < 0 ||
	    classes_pick(&c->before, before->path, opts, notes, err) < 0 ||
	    classes_pick(&c->after, after->path, opts, notes, err) < 0)
		goto fail;
	if (opts->direct) {
		/* Class hierarchies change only with kexts: one serves both sides. */
		struct hierarchy *h = usable_hierarchy(&c->before);
		if (!h)
			h = usable_hierarchy(&c->after);
		if (classes_direct(&c->before, h, before->path, err) < 0 ||
		    classes_direct(&c->after, h, after->path, err) < 0)
			goto fail;
	}
	diff_classes_compute(&c->diff, c->before.snap, c->after.snap, opts->direct);
	return c;
fail:
	classes_free(c);
	return NULL;
}

static void
classes_comparability(const void *p, const char *bpath, const char *apath,
		      struct diag_list *w)
{
	const struct classes_diff *c = p;
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
}

static int
classes_metric(const void *p, const char *kind, const char *metric, int64_t *b, int64_t *a,
	       struct diag *err)
{
	return diff_classes_metric(&((const struct classes_diff *)p)->diff, kind, metric, b, a,
				   err);
}

static bool
classes_changed(const void *p)
{
	return diff_classes_changed(&((const struct classes_diff *)p)->diff);
}

static void
classes_write_text(FILE *out, const void *p, bool markdown)
{
	diff_classes_write_text(out, &((const struct classes_diff *)p)->diff, markdown);
}

static json_t *
classes_json(const void *p)
{
	return diff_classes_json(&((const struct classes_diff *)p)->diff);
}

static void
classes_report(struct report *rep, const void *p)
{
	report_add_classes_diff(rep, &((const struct classes_diff *)p)->diff);
}

static void
classes_free(void *p)
{
	struct classes_diff *c = p;
	if (!c)
		return;
	diff_classes_release(&c->diff);
	classes_side_release(&c->before);
	classes_side_release(&c->after);
	free(c);
}

/* ---- the table ---------------------------------------------------------- */

static const struct diff_kind kinds[] = {
	{
		.name = "classes",
		.raw = { INPUT_IOREG_TEXT, INPUT_XML_PLIST, INPUT_IOCLASSCOUNT },
		.metric_kinds = { "classes", "alloc" },
		.schema = "iotally.classes/1",
		.compare = classes_compare,
		.comparability = classes_comparability,
		.metric = classes_metric,
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
		.schema = "iotally.track/1",
		.compare = track_compare,
		.comparability = track_comparability,
		.metric = track_metric,
		.changed = track_changed,
		.write_text = track_write_text,
		.json = track_json,
		.write_folded = track_write_folded,
		.report = track_report,
		.free = track_free,
	},
	{
		.name = "vmmap",
		.raw = { INPUT_VMMAP },
		.metric_kinds = { "vmmap" },
		.schema = "iotally.vmmap/1",
		.compare = vmmap_compare,
		.comparability = vmmap_comparability,
		.metric = vmmap_metric,
		.changed = vmmap_changed,
		.write_text = vmmap_write_text,
		.json = vmmap_json,
		.report = vmmap_report,
		.free = vmmap_free,
	},
};

#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

static bool
has_raw(const struct diff_kind *k, enum input_kind kind)
{
	for (size_t i = 0; i < DIFF_KIND_MAX_RAW && k->raw[i] != INPUT_EMPTY; i++)
		if (k->raw[i] == kind)
			return true;
	return false;
}

const struct diff_kind *
diff_kind_for_input(enum input_kind kind, const char *schema)
{
	for (size_t i = 0; i < NKINDS; i++)
		if (kind == INPUT_IOTALLY_JSON ? schema && strcmp(schema, kinds[i].schema) == 0
					       : has_raw(&kinds[i], kind))
			return &kinds[i];
	return NULL;
}

bool
diff_kind_has_metric(const struct diff_kind *kind, const char *name)
{
	for (size_t i = 0; i < 3 && kind->metric_kinds[i]; i++)
		if (strcmp(kind->metric_kinds[i], name) == 0)
			return true;
	return false;
}

const struct diff_kind *
diff_kind_for_metric(const char *name)
{
	for (size_t i = 0; i < NKINDS; i++)
		if (diff_kind_has_metric(&kinds[i], name))
			return &kinds[i];
	return NULL;
}

int
diff_kind_open(struct diff_input *in, const char *path, const char *command,
	       const struct diff_kind **kind, char *schema, size_t schema_size,
	       enum input_kind *raw, struct diag *err)
{
	const char *p;
	size_t n;
	in->path = path;
	if (line_reader_open(&in->reader, path, 0, err) < 0)
		return -1;
	if (line_reader_peek(&in->reader, INPUT_DETECT_BYTES, &p, &n, err) < 0)
		return -1;
	*raw = input_detect(p, n);
	schema[0] = '\0';
	if (*raw == INPUT_IOTALLY_JSON && input_iotally_schema(p, n, schema, schema_size) < 0)
		snprintf(schema, schema_size, "(no schema)");
	*kind = diff_kind_for_input(*raw, schema);
	in->json = *raw == INPUT_IOTALLY_JSON;
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
diff_kind_check_gates(const struct diff_kind *kind, const void *diff, struct diff_gate *gates,
		      size_t n, struct diag *err)
{
	for (size_t i = 0; i < n; i++) {
		struct diff_gate *g = &gates[i];
		int64_t before, after;
		if (!diff_kind_has_metric(kind, g->kind))
			return diag_set(err, DIAG_USAGE, NULL, 0, 0,
					diff_kind_for_metric(g->kind)
					? "gate '%s': '%s:' metrics do not apply to %s captures"
					: "gate '%s': unknown metric kind '%s' (this diff compares "
					  "%s captures)", g->text, g->kind, kind->name);
		if (!diff)
			continue;
		if (kind->metric(diff, g->kind, g->metric, &before, &after, err) < 0 ||
		    diff_gate_check(g, before, after, err) < 0)
			return -1;
	}
	return 0;
}

size_t
diff_gates_print_tripped(const struct diff_gate *gates, size_t n)
{
	size_t tripped = 0;
	for (size_t i = 0; i < n; i++) {
		const struct diff_gate *g = &gates[i];
		if (!g->tripped)
			continue;
		struct strbuf sb = STRBUF_INIT;
		diff_gate_describe(g, &sb);
		fprintf(stderr, "iotally: gate '%s' tripped: %s\n", g->text, sb.buf);
		strbuf_release(&sb);
		tripped++;
	}
	return tripped;
}
