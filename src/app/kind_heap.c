/*
 * The heap kind: saved output of Apple's `heap PID` (ingest/heap_read.h),
 * compared class by class (model/heap.h), reported alone and in pairs
 * (model/report_heap.c) and followed over time (heap:nodes, heap:bytes). Gates: heap:nodes, heap:bytes ("All zones"),
 * heap:CLASS.count and heap:CLASS.bytes (every row of that class name).
 * iotally's own heap JSON is an output only: it is not read back.
 */

#include "app/kind_rows.h"

#include "app/trend_inputs.h"
#include "ingest/heap_read.h"
#include "model/heap.h"
#include "model/report_heap.h"
#include "model/summary.h"
#include "model/trend.h"
#include "report/heap_write.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

struct heap_side {
	struct heap_capture cap;
	char *path;
};

struct heap_pair {
	struct heap_side before, after;
	struct heap_diff diff;
};

static int
read_side(struct line_reader *r, const char *path, bool json, struct heap_side *s,
	  struct diag_list *notes, struct diag *err)
{
	heap_capture_init(&s->cap);
	s->path = xstrdup(path);
	if (json)
		return diag_set(err, DIAG_DATA, path, 0, 0,
				"is iotally's JSON of a heap report, which is not read back: "
				"give heap's own output ('heap PID > FILE')");
	return heap_read(r, &s->cap, notes, err);
}

static void
side_release(struct heap_side *s)
{
	heap_capture_release(&s->cap);
	free(s->path);
}

/* ---- diff ---- */

static void heap_free(void *p);

static void *
heap_compare(struct kind_input *before, struct kind_input *after,
	     const struct diff_options *opts, struct diag_list *notes, struct diag *err)
{
	(void)opts;
	struct heap_pair *h = xcalloc(1, sizeof(*h));
	if (read_side(&before->reader, before->path, before->json, &h->before, notes, err) < 0 ||
	    read_side(&after->reader, after->path, after->json, &h->after, notes, err) < 0) {
		heap_free(h);
		return NULL;
	}
	heap_diff_compare(&h->diff, &h->before.cap, &h->after.cap);
	return h;
}

static void
heap_comparability(const void *p, const char *bpath, const char *apath, struct diag_list *w)
{
	const struct heap_pair *h = p;
	kind_note_partial(w, bpath, h->before.cap.partial, apath, h->after.cap.partial);
	const char *pb = heap_header_value(&h->before.cap, "Identifier");
	const char *pa = heap_header_value(&h->after.cap, "Identifier");
	if (pb && pa && strcmp(pb, pa) != 0)
		diag_list_add(w, DIAG_WARNING, NULL, 0, "the heap reports are of different "
			      "processes (Identifier)");
	if (h->before.cap.rounded != h->after.cap.rounded)
		diag_list_add(w, DIAG_WARNING, NULL, 0, "one heap report has sizes printed "
			      "human-readable (heap -H), the other exact: byte deltas carry "
			      "the rounding");
}

static int
heap_gate_metric(const void *p, const char *kind, const char *metric, int64_t *b, int64_t *a,
		 struct diag *err)
{
	(void)kind;
	const struct heap_pair *h = p;
	const char *cls;
	size_t clen;
	enum heap_figure fig;
	bool total;
	if (heap_metric_parse(metric, &cls, &clen, &fig, &total) < 0)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"unknown heap metric '%s' (heap:nodes, heap:bytes, "
				"heap:CLASS.count, heap:CLASS.bytes)", metric);
	if (total) {
		*b = (int64_t)heap_total_figure(&h->before.cap, fig);
		*a = (int64_t)heap_total_figure(&h->after.cap, fig);
		return 0;
	}
	bool fb, fa;
	/* Each at most 2^63 - 1 (heap_row_add()'s checked sums). */
	*b = (int64_t)heap_class_figure(&h->before.cap, cls, clen, fig, &fb);
	*a = (int64_t)heap_class_figure(&h->after.cap, cls, clen, fig, &fa);
	if (!fb && !fa)
		return diag_set(err, DIAG_DATA, NULL, 0, 0,
				"neither heap report has class '%.*s'", (int)clen, cls);
	/* heap lists every class it found: absence is 0, unless the table is partial. */
	const struct heap_side *missing = !fb && h->before.cap.partial ? &h->before
		: !fa && h->after.cap.partial ? &h->after : NULL;
	if (missing) {
		diag_set(err, DIAG_OK, NULL, 0, 0, "the %s capture (%s) is partial and has no "
			 "heap:%s figure", missing == &h->before ? "BEFORE" : "AFTER",
			 diag_display_path(missing->path), metric);
		return 1;
	}
	return 0;
}

static bool
heap_metric_bytes(const char *kind, const char *metric)
{
	(void)kind;
	const char *cls;
	size_t clen;
	enum heap_figure fig;
	bool total;
	return heap_metric_parse(metric, &cls, &clen, &fig, &total) == 0 && fig == HEAP_BYTES;
}

static const char *
heap_subject(const void *p, const char *kind, const char *metric)
{
	(void)kind;
	(void)metric;
	const struct heap_pair *h = p;
	return h->before.cap.rounded || h->after.cap.rounded ? "sizes as heap -H printed them" : NULL;
}

/*
 * The class row that grew most under the gate's figure: of the class the
 * gate names (its rows, one a binary), or of every class for heap:nodes
 * and heap:bytes.
 */
static bool
heap_gate_growth(const void *p, const struct diff_gate *g, struct summary_growth *out,
		 struct strbuf *scratch)
{
	const struct heap_pair *h = p;
	const char *cls;
	size_t clen;
	enum heap_figure fig;
	bool total;
	if (g->delta <= 0 || heap_metric_parse(g->metric, &cls, &clen, &fig, &total) < 0)
		return false;
	const struct heap_diff_row *most = NULL;
	int64_t most_delta = 0;
	for (size_t i = 0; i < h->diff.nrows; i++) {
		const struct heap_diff_row *r = &h->diff.rows[i];
		if (!total && (strlen(r->name) != clen || memcmp(r->name, cls, clen) != 0))
			continue;
		/* Each figure at most 2^63 - 1 (heap_row_add()'s checked sums). */
		int64_t delta = fig == HEAP_BYTES
			? (int64_t)r->after_bytes - (int64_t)r->before_bytes
			: (int64_t)r->after_count - (int64_t)r->before_count;
		if (delta > most_delta) {
			most = r;
			most_delta = delta;
		}
	}
	if (!most)
		return false;
	summary_growth_of_heap_row(most, h->before.cap.rounded || h->after.cap.rounded, scratch,
				   out);
	return true;
}

static bool
heap_changed(const void *p)
{
	return heap_diff_changed(&((const struct heap_pair *)p)->diff);
}

static json_t *
heap_json(const void *p)
{
	return heap_diff_json(&((const struct heap_pair *)p)->diff);
}

static void
heap_report(struct report *rep, const void *p)
{
	report_add_heap_diff(rep, &((const struct heap_pair *)p)->diff);
}

static void
heap_free(void *p)
{
	struct heap_pair *h = p;
	if (!h)
		return;
	heap_diff_release(&h->diff);
	side_release(&h->before);
	side_release(&h->after);
	free(h);
}

/* ---- one capture: `iotally report FILE` ---- */

static int
report_single(struct report *r, struct kind_input *in, struct diag_list *notes,
	      struct diag *err)
{
	struct heap_side s;
	int rc = read_side(&in->reader, in->path, in->json, &s, notes, err);
	if (rc == 0)
		report_add_heap(r, &s.cap);
	side_release(&s);
	return rc;
}

/* ---- trend: heap:nodes, heap:bytes ("All zones") ---- */

static void
trend_read(struct trend_input *in, struct line_reader *r, bool json, struct trend_sample *out,
	   struct diag_list *notes)
{
	struct heap_side s;
	struct diag err;
	diag_clear(&err);
	if (read_side(r, in->path, json, &s, notes, &err) < 0) {
		trend_input_leave_out_diag(in, &err);
	} else if (s.cap.partial) {
		trend_input_leave_out(in, DIAG_DATA, "partial: lines of its table were not read");
	} else {
		/* heap lists every class it found: a class it does not list has none. */
		out->complete = true;
		in->used = true;
		trend_input_metric(out, TREND_COUNT, false, false,
				   (double)heap_total_figure(&s.cap, HEAP_COUNT), "heap:nodes");
		trend_input_metric(out, TREND_BYTES, false, false,
				   (double)heap_total_figure(&s.cap, HEAP_BYTES), "heap:bytes");
	}
	side_release(&s);
}

extern const struct kind_command kind_heap_command;

const struct kind kind_heap = {
	.name = "heap",
	.raw = { INPUT_HEAP },
	.metric_kinds = { "heap" },
	/* Its JSON (iotally.heap/1) is an output only: no reader takes it back. */
	.schema = NULL,
	.compare = heap_compare,
	.comparability = heap_comparability,
	.metric = heap_gate_metric,
	.metric_bytes = heap_metric_bytes,
	.subject = heap_subject,
	.gate_growth = heap_gate_growth,
	.changed = heap_changed,
	.json = heap_json,
	.report = heap_report,
	.free = heap_free,
	.single_report = report_single,
	.trend_read = trend_read,
	.command = &kind_heap_command,
	.gate_grammar = "heap:nodes, heap:bytes",
};
