/*
 * The footprint kind: saved text output of Apple's `footprint`
 * (ingest/footprint_read.h), compared (model/diff_footprint.c), reported
 * alone and in pairs (model/report_footprint.c) and followed over time
 * (footprint:gpu.dirty, footprint:phys_footprint, each category's dirty).
 * A capture of several processes is taken as their sum (a note says so),
 * which the gates read, and a pair of such captures is also compared
 * process by process (model/diff_footprint.h: matched by name and pid);
 * iotally's own footprint JSON is not read back.
 */

#include "app/kind_rows.h"

#include "app/trend_inputs.h"
#include "ingest/footprint_read.h"
#include "model/diff_footprint.h"
#include "model/footprint.h"
#include "model/report_footprint.h"
#include "model/signature_diff.h"
#include "model/summary.h"
#include "model/trend.h"
#include "report/diff_footprint_write.h"
#include "util/hashmap.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

struct footprint_side {
	struct footprint_capture cap;
	const struct footprint_process *proc;   /* the one process, or the sum */
	char *path;
};

struct footprint_pair {
	struct footprint_side before, after;
	struct diff_footprint diff;
};

/*
 * Read a capture and pick what it stands for: its one process, or all of
 * them summed. 0, or -1 with *err.
 */
static int
read_side(struct line_reader *r, const char *path, bool json, struct footprint_side *s,
	  struct diag_list *notes, struct diag *err)
{
	struct footprint_read_opts opts = { .strict = false };
	footprint_capture_init(&s->cap);
	s->path = xstrdup(path);
	if (json)
		return diag_set(err, DIAG_DATA, path, 0, 0,
				"is iotally's JSON of a footprint capture, which is not read "
				"back: give footprint's own text output ('footprint -f bytes -p "
				"PID > FILE')");
	if (footprint_read(r, &s->cap, &opts, notes, err) < 0)
		return -1;
	if (s->cap.nprocs == 0)
		return diag_set(err, DIAG_DATA, path, 0, 0, "holds no footprint process");
	if (s->cap.nprocs > 1) {
		diag_list_add(notes, DIAG_NOTE, path, 0,
			      "holds %zu processes: their sum is used", s->cap.nprocs);
		/* Headings and the diff JSON name the sum for what it is. */
		if (!s->cap.summed->name) {
			struct strbuf sb = STRBUF_INIT;
			strbuf_addf(&sb, "all %zu processes", s->cap.nprocs);
			s->cap.summed->name = strbuf_detach(&sb, NULL);
		}
		s->proc = s->cap.summed;
	} else {
		s->proc = s->cap.procs[0];
	}
	return 0;
}

static void
side_release(struct footprint_side *s)
{
	footprint_capture_release(&s->cap);
	free(s->path);
}

/* ---- diff ------------------------------------------------------------------ */

static void footprint_free(void *p);

static void *
footprint_compare(struct kind_input *before, struct kind_input *after,
		  const struct diff_options *opts, struct diag_list *notes, struct diag *err)
{
	(void)opts;
	struct footprint_pair *f = xcalloc(1, sizeof(*f));
	if (read_side(&before->reader, before->path, before->json, &f->before, notes, err) < 0 ||
	    read_side(&after->reader, after->path, after->json, &f->after, notes, err) < 0 ||
	    diff_footprint_compare(&f->diff, f->before.proc, f->after.proc, err) < 0) {
		footprint_free(f);
		return NULL;
	}
	/* Sums hide opposite changes of two processes: each is compared on its own too. */
	if ((f->before.cap.nprocs > 1 || f->after.cap.nprocs > 1) &&
	    diff_footprint_compare_processes(&f->diff, &f->before.cap, &f->after.cap, err) < 0) {
		footprint_free(f);
		return NULL;
	}
	return f;
}

/* Processes named in a list of a warning; the rest are counted. */
#define OTHER_PROCESSES_NAMED 5

/* The processes of a capture by name, and the unnamed ones by pid: one lookup each. */
struct process_set {
	struct strmap names;
	struct u64map pids;
};

static void
process_set_build(struct process_set *set, const struct footprint_capture *cap)
{
	bool created;
	strmap_init(&set->names);
	u64map_init(&set->pids);
	for (size_t i = 0; i < cap->nprocs; i++) {
		const struct footprint_process *q = cap->procs[i];
		if (q->name)
			*strmap_put(&set->names, q->name, strlen(q->name), &created) = i;
		else if (q->has_pid)
			*u64map_put(&set->pids, q->pid, &created) = i;
	}
}

static void
process_set_release(struct process_set *set)
{
	strmap_release(&set->names);
	u64map_release(&set->pids);
}

/* Does the set hold a process of p's name (or, unnamed, of its pid)? */
static bool
holds_process(const struct process_set *set, const struct footprint_process *p)
{
	if (p->name)
		return strmap_get(&set->names, p->name, strlen(p->name)) != NULL;
	return p->has_pid && u64map_get(&set->pids, p->pid) != NULL;
}

/* "helper [101], indexer [102]": the processes of `cap` that `other` does not hold; how many. */
static size_t
list_only_in(const struct footprint_capture *cap, const struct footprint_capture *other,
	     struct strbuf *sb)
{
	struct process_set set;
	size_t n = 0;
	process_set_build(&set, other);
	for (size_t i = 0; i < cap->nprocs; i++) {
		const struct footprint_process *p = cap->procs[i];
		if (holds_process(&set, p))
			continue;
		if (n < OTHER_PROCESSES_NAMED) {
			strbuf_addf(sb, "%s%s", n ? ", " : "", p->name ? p->name : "(unnamed)");
			if (p->has_pid)
				strbuf_addf(sb, " [%llu]", (unsigned long long)p->pid);
		}
		n++;
	}
	process_set_release(&set);
	if (n > OTHER_PROCESSES_NAMED)
		strbuf_addf(sb, " and %zu more", n - OTHER_PROCESSES_NAMED);
	return n;
}

/*
 * A capture of several processes is compared as their sum: a process one
 * side holds and the other does not moves the sum without any figure of a
 * process changing (or hides a change when the two weigh the same). Say
 * which processes (by name, as a relaunch changes the pid).
 */
static void
warn_other_processes(const struct footprint_capture *b, const struct footprint_capture *a,
		     struct diag_list *w)
{
	struct strbuf ob = STRBUF_INIT, oa = STRBUF_INIT;
	size_t nb = list_only_in(b, a, &ob), na = list_only_in(a, b, &oa);
	if (nb || na)
		diag_list_add(w, DIAG_WARNING, NULL, 0, "the captures hold different processes: "
			      "%s%s%s%s%s: the sums compare different sets",
			      nb ? "only BEFORE holds " : "", ob.len ? ob.buf : "",
			      nb && na ? "; " : "", na ? "only AFTER holds " : "",
			      oa.len ? oa.buf : "");
	strbuf_release(&ob);
	strbuf_release(&oa);
}

static void
footprint_comparability(const void *p, const char *bpath, const char *apath,
			struct diag_list *w)
{
	const struct footprint_pair *f = p;
	kind_note_partial(w, bpath, f->before.cap.partial, apath, f->after.cap.partial);
	if (f->before.cap.elided || f->after.cap.elided)
		diag_list_add(w, DIAG_WARNING, NULL, 0,
			      "%s rows elided by its author: figures they would change are "
			      "lower bounds or unknown",
			      f->before.cap.elided && f->after.cap.elided ? "both captures have"
			      : f->before.cap.elided ? "BEFORE has" : "AFTER has");
	const struct footprint_process *b = f->before.proc, *a = f->after.proc;
	if (f->before.cap.nprocs > 1 || f->after.cap.nprocs > 1)
		warn_other_processes(&f->before.cap, &f->after.cap, w);
	else if (b->name && a->name && strcmp(b->name, a->name) != 0)
		diag_list_add(w, DIAG_WARNING, NULL, 0,
			      "the captures are of different processes");
	if (b->page_size && a->page_size && b->page_size != a->page_size)
		diag_list_add(w, DIAG_NOTE, NULL, 0, "the captures' page sizes differ");
}

/* A gate's figures: the sums', or one process's ("process:NAME:<figure>"). */
static int
pair_metric(const struct footprint_pair *f, const char *metric, struct footprint_figure *fb,
	    struct footprint_figure *fa, const char **missing, bool *no_process,
	    struct diag *err)
{
	*no_process = false;
	if (diff_footprint_metric_is_process(metric))
		return diff_footprint_process_metric(&f->before.cap, &f->after.cap, metric, fb, fa,
						     missing, no_process, err);
	return diff_footprint_metric(&f->diff, metric, fb, fa, missing, err);
}

static int
footprint_gate_metric(const void *p, const char *kind, const char *metric, int64_t *b,
		      int64_t *a, struct diag *err)
{
	(void)kind;
	const struct footprint_pair *f = p;
	struct footprint_figure fb, fa;
	const char *missing;
	bool no_process;
	if (pair_metric(f, metric, &fb, &fa, &missing, &no_process, err) < 0)
		return -1;
	if (missing) {
		/* Not evaluable, never 0: the capture's file says which one. */
		bool before = strcmp(missing, "BEFORE") == 0;
		diag_set(err, DIAG_OK, NULL, 0, 0, "the %s capture (%s) %s footprint:%s%s",
			 missing, diag_display_path(before ? f->before.path : f->after.path),
			 no_process ? "holds no process that" : "has no", metric,
			 no_process ? " names" : " figure");
		return 1;
	}
	/* Both at most 2^63 - 1 (model/footprint.h). */
	*b = (int64_t)fb.value;
	*a = (int64_t)fa.value;
	return 0;
}

static bool
footprint_metric_bytes(const char *kind, const char *metric)
{
	(void)kind;
	return footprint_metric_unit(metric) == METRIC_BYTES;
}

static const char *
footprint_subject(const void *p, const char *kind, const char *metric)
{
	(void)kind;
	const struct footprint_pair *f = p;
	struct footprint_figure fb, fa;
	const char *missing;
	bool no_process;
	struct diag err;
	diag_clear(&err);
	if (pair_metric(f, metric, &fb, &fa, &missing, &no_process, &err) < 0 || missing)
		return NULL;
	if (fb.at_least || fa.at_least)
		return "a lower bound: the table does not list every category";
	return fb.slack || fa.slack ? "figures as printed, rounded by footprint" : NULL;
}

/* The category that grew most under the gate's metric (a GPU one for gpu.*). */
static bool
footprint_gate_growth(const void *p, const struct diff_gate *g, struct summary_growth *out,
		      struct strbuf *scratch)
{
	const struct diff_footprint_row *row =
		diff_footprint_metric_grew_most(&((const struct footprint_pair *)p)->diff, g->metric);
	if (!row)
		return false;
	summary_growth_of_footprint_row(row, scratch, out);
	return true;
}

static bool
footprint_changed(const void *p)
{
	return diff_footprint_changed(&((const struct footprint_pair *)p)->diff);
}

static json_t *
footprint_json(const void *p)
{
	return diff_footprint_json(&((const struct footprint_pair *)p)->diff);
}

static void
footprint_report(struct report *rep, const void *p)
{
	report_add_footprint_diff(rep, &((const struct footprint_pair *)p)->diff);
}

static void
footprint_free(void *p)
{
	struct footprint_pair *f = p;
	if (!f)
		return;
	diff_footprint_release(&f->diff);
	side_release(&f->before);
	side_release(&f->after);
	free(f);
}

/* ---- one capture: `iotally report FILE` ---- */

static int
report_single(struct report *r, struct kind_input *in, struct diag_list *notes,
	      struct diag *err)
{
	struct footprint_side s;
	int rc = read_side(&in->reader, in->path, in->json, &s, notes, err);
	if (rc == 0) {
		if (s.cap.partial || s.cap.elided)
			report_add_warning(r, "%s is partial: the report covers what could be "
					   "read", diag_display_path(in->path));
		report_add_footprint(r, s.proc);
	}
	side_release(&s);
	return rc;
}

/* ---- trend: footprint:gpu.dirty, footprint:phys_footprint, <Category>.dirty ---- */

struct trend_ctx {
	struct trend_sample *out;
	double gpu_step;   /* the largest unit of a GPU category's Dirty figure */
};

/* The unit a figure was printed in (footprint rounds to the nearest one), 0 exact. */
static double
figure_step(const struct footprint_figure *f)
{
	return (double)f->slack * 2;
}

static bool
ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), k = strlen(tail);
	return n >= k && strcmp(s + n - k, tail) == 0;
}

static void
trend_metric(void *ctx, const char *name, const struct footprint_figure *fig)
{
	struct trend_ctx *c = ctx;
	if (!name)   /* never: said for gcc's UBSan build, which sees a null path */
		return;
	bool gpu = strcmp(name, GPU_FAMILY ".dirty") == 0;
	if (!fig->known || fig->at_least ||
	    !(gpu || strcmp(name, "phys_footprint") == 0 || ends_with(name, ".dirty")))
		return;
	char full[600];
	snprintf(full, sizeof(full), "footprint:%s", name);
	/* A category's dirty: 0 in a sample whose table says so by not listing it. */
	bool category = !gpu && strcmp(name, "phys_footprint") != 0;
	trend_input_metric(c->out, TREND_BYTES, category, false, (double)fig->value, "%s",
			   full);
	if (!gpu && footprint_category_is_gpu(name, strlen(name) - strlen(".dirty")) &&
	    figure_step(fig) > c->gpu_step)
		c->gpu_step = figure_step(fig);
	/* A sum of rounded figures moves in steps of its terms' unit, not of its bound. */
	double step = gpu ? 0 : figure_step(fig);
	if (step > 0)
		trend_sample_set_resolution(c->out, full, step);
}

static void
trend_read(struct trend_input *in, struct line_reader *r, bool json, struct trend_sample *out,
	   struct diag_list *notes)
{
	struct footprint_side side;
	struct diag err;
	diag_clear(&err);
	if (read_side(r, in->path, json, &side, notes, &err) < 0) {
		trend_input_leave_out_diag(in, &err);
	} else if (side.cap.partial) {
		trend_input_leave_out(in, DIAG_DATA, "partial: the input ends inside a table or a line");
	} else {
		/* Absence is 0 where the table is shown complete (model/footprint.h). */
		out->complete = footprint_process_unlisted(side.proc, FOOTPRINT_DIRTY).known;
		in->used = true;
		struct trend_ctx c = { .out = out };
		footprint_metric_each(side.proc, trend_metric, &c);
		if (c.gpu_step > 0)
			trend_sample_set_resolution(out, "footprint:" GPU_FAMILY ".dirty", c.gpu_step);
	}
	side_release(&side);
}

/* ---- the row ---- */

static void
footprint_signature(const void *p, struct signature *sig)
{
	const struct footprint_pair *f = p;
	signature_add_footprint(sig, &f->diff);
}

extern const struct kind_command kind_footprint_command;

const struct kind kind_footprint = {
	.name = "footprint",
	.raw = { INPUT_FOOTPRINT },
	.metric_kinds = { "footprint" },
	/* Its JSON (iotally.footprint/1) is an output only: no reader takes it back. */
	.schema = NULL,
	.compare = footprint_compare,
	.comparability = footprint_comparability,
	.metric = footprint_gate_metric,
	.metric_bytes = footprint_metric_bytes,
	.subject = footprint_subject,
	.gate_growth = footprint_gate_growth,
	.changed = footprint_changed,
	.json = footprint_json,
	.report = footprint_report,
	.free = footprint_free,
	.single_report = report_single,
	.trend_read = trend_read,
	.signature = footprint_signature,
	.command = &kind_footprint_command,
	.gpu_memory = true,
	/* footprint reads the target without pausing it (vmmap does) */
	.repeat_snapshot = true,
	.capture_steps = {
		{ "target.footprint", "target/footprint.txt", CAPTURE_STEP_TARGET,
		  { "footprint", "-f", "bytes", "-p", "{pid}", NULL },
		  "footprint is not installed", 5 },
	},
	.metric_label = diff_footprint_metric_label,
	.gate_grammar = "footprint:gpu.dirty, footprint:phys_footprint, "
			"footprint:<Category>.dirty",
};
