#include "cli/diff_kinds.h"

#include "ingest/track.h"
#include "ingest/track_json.h"
#include "ingest/vmmap.h"
#include "ingest/vmmap_json.h"
#include "model/diff_track.h"
#include "model/diff_vmmap.h"
#include "model/vmmap.h"
#include "report/diff_track.h"
#include "report/diff_vmmap.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

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
	if (v->before.cap.partial || v->after.cap.partial)
		diag_list_add(notes, DIAG_WARNING, NULL, 0,
			      "%s is partial: the diff covers what could be read",
			      v->before.cap.partial ? before->path : after->path);
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
	if (!v->before.cap.filter.all || !v->after.cap.filter.all)
		diag_list_add(w, DIAG_NOTE, NULL, 0,
			      "a JSON report holds only the region types it was made for; "
			      "only types both inputs hold are compared");
}

static int
vmmap_metric(const void *p, const char *metric, int64_t *b, int64_t *a, struct diag *err)
{
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

static int
track_load(struct diff_input *in, struct track_capture *cap, struct diag_list *notes,
	   struct diag *err)
{
	cap->keep_records = true;
	if (in->json)
		return track_json_read(&in->reader, cap, notes, err);
	struct track_parse_opts popts = { .strict = false, .report_unparsed = 5 };
	return track_parse(&in->reader, cap, &popts, notes, err);
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
	if (track_load(before, &t->before, notes, err) < 0 ||
	    track_load(after, &t->after, notes, err) < 0 ||
	    diff_track_add_capture(&t->diff, 0, &t->before, before->path, err) < 0 ||
	    diff_track_add_capture(&t->diff, 1, &t->after, after->path, err) < 0) {
		track_free(t);
		return NULL;
	}
	if (t->before.partial || t->after.partial)
		diag_list_add(notes, DIAG_WARNING, NULL, 0,
			      "%s is partial: the diff covers what could be read",
			      t->before.partial ? before->path : after->path);
	return t;
}

static void
track_comparability(const void *p, const char *bpath, const char *apath,
		    struct diag_list *w)
{
	const struct track_diff *t = p;
	diff_track_comparability(&t->before, &t->after, bpath, apath, w);
}

static int
track_metric(const void *p, const char *metric, int64_t *b, int64_t *a, struct diag *err)
{
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

/* ---- the table ---------------------------------------------------------- */

static const struct diff_kind kinds[] = {
	{
		.name = "track",
		.raw = INPUT_TRACK,
		.schema = "iotally.track/1",
		.compare = track_compare,
		.comparability = track_comparability,
		.metric = track_metric,
		.changed = track_changed,
		.write_text = track_write_text,
		.json = track_json,
		.write_folded = track_write_folded,
		.free = track_free,
	},
	{
		.name = "vmmap",
		.raw = INPUT_VMMAP,
		.schema = "iotally.vmmap/1",
		.compare = vmmap_compare,
		.comparability = vmmap_comparability,
		.metric = vmmap_metric,
		.changed = vmmap_changed,
		.write_text = vmmap_write_text,
		.json = vmmap_json,
		.free = vmmap_free,
	},
};

#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

const struct diff_kind *
diff_kind_for_input(enum input_kind kind, const char *schema)
{
	for (size_t i = 0; i < NKINDS; i++)
		if (kind == INPUT_IOTALLY_JSON ? schema && strcmp(schema, kinds[i].schema) == 0
					       : kind == kinds[i].raw)
			return &kinds[i];
	return NULL;
}

const struct diff_kind *
diff_kind_by_name(const char *name)
{
	for (size_t i = 0; i < NKINDS; i++)
		if (strcmp(name, kinds[i].name) == 0)
			return &kinds[i];
	return NULL;
}
