/*
 * The vmmap kind: `iotally vmmap` captures and iotally's JSON of them,
 * compared (model/diff_vmmap.c), reported alone (model/report_vmmap.c)
 * and followed over time (the gpu family and the per-type fields of
 * model/gpu.h's descriptor table, and the physical footprint).
 */

#include "app/kind_rows.h"

#include "app/trend_inputs.h"
#include "ingest/diff_read.h"
#include "ingest/vmmap_json_read.h"
#include "ingest/vmmap_read.h"
#include "model/diff_vmmap.h"
#include "model/gpu.h"
#include "model/report_vmmap.h"
#include "model/signature_diff.h"
#include "model/summary.h"
#include "model/vmmap.h"
#include "report/diff_vmmap_write.h"
#include "util/datetime.h"
#include "util/size.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

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
	kind_note_partial(w, bpath, v->before.cap.partial, apath, v->after.cap.partial);
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
	return strcmp(metric, DIFF_VMMAP_METRIC_FOOTPRINT) == 0
	       ? "Physical footprint as printed, rounded by vmmap" : NULL;
}

/* The type and purge state that grew most under the gate's selection. */
static bool
vmmap_gate_growth(const void *p, const struct diff_gate *g, struct summary_growth *out,
		  struct strbuf *scratch)
{
	(void)scratch;
	int field;
	const struct diff_vmmap_row *row =
		diff_vmmap_metric_grew_most(&((const struct diff_vmmap_pair *)p)->diff, g->metric,
					    &field);
	if (!row)
		return false;
	summary_growth_of_vmmap_row(row, field, out);
	return true;
}

static bool
vmmap_changed(const void *p)
{
	return diff_vmmap_changed(&((const struct diff_vmmap_pair *)p)->diff);
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

/* ---- one capture: `iotally report FILE` ---- */

static int
report_single(struct report *r, struct kind_input *in, struct diag_list *notes,
	      struct diag *err)
{
	struct vmmap_capture cap;
	vmmap_capture_init(&cap);
	/* The GPU types (model/gpu.h): the headline is the gpu metric family. */
	static const char *const gpu[] = { "IOAccelerator", "IOSurface",
					   "owned unmapped (graphics)" };
	for (size_t i = 0; i < 3; i++)
		vmmap_filter_add(&cap.filter, gpu[i], strlen(gpu[i]));
	cap.want_surfaces = true;
	struct vmmap_parse_opts popts = { .strict = false, .report_unparsed = 5 };
	int rc = in->json ? vmmap_json_read(&in->reader, &cap, err)
			  : vmmap_parse(&in->reader, &cap, &popts, notes, err);
	if (rc == 0 && cap.ndumps == 0)
		rc = diag_set(err, DIAG_DATA, in->path, 0, 0, "holds no vmmap dump");
	if (rc == 0) {
		if (cap.ndumps > 1)
			diag_list_add(notes, DIAG_NOTE, in->path, 0,
				      "holds %zu dumps; the report is of the first", cap.ndumps);
		if (cap.partial)
			report_add_warning(r, "%s is partial: the report covers what could be "
					   "read", diag_display_path(in->path));
		report_add_vmmap(r, cap.dumps[0]);
	}
	vmmap_capture_release(&cap);
	return rc;
}

/* ---- vmmap: GPU region types x purge state, and the physical footprint ---- */

/*
 * The rounding step of a figure vmmap prints: one unit of its last digit
 * ("26.3G": 0.1 GiB, "8192K": 1 KiB, "2560": 1 byte).
 */
static double
vmmap_figure_step(const char *text)
{
	static const char units[] = "BKMGT";
	size_t n = strlen(text);
	double unit = 1;
	if (n && strchr(units, text[n - 1])) {
		for (const char *u = units; *u != text[n - 1]; u++)
			unit *= 1024;
		n--;
	}
	const char *dot = memchr(text, '.', n);
	for (size_t d = dot ? (size_t)(text + n - dot - 1) : 0; d > 0; d--)
		unit /= 10;
	return unit;
}

/*
 * The per-type byte metrics and the gpu family take their fields from the
 * one descriptor table (model/gpu.h): the gpu family's fields, each only
 * when the dump printed its column (an unknown figure is no sample).
 */
static void
vmmap_metrics(const struct vmmap_dump *d, struct trend_sample *out)
{
	const struct vmmap_type_stats **types;
	size_t n = vmmap_dump_sorted_types(d, &types);
	for (size_t i = 0; i < n; i++) {
		for (int p = 0; p < VMMAP_PURGE_STATES; p++) {
			const struct vmmap_amounts *a = &types[i]->by_purge[p];
			if (!a->count)
				continue;
			bool exempt = p == VMMAP_PURGE_V || p == VMMAP_PURGE_E;
			for (int f = 0; f < VMMAP_FIELDS; f++) {
				if (!vmmap_fields[f].gpu ||
				    d->max_size_columns < vmmap_fields[f].line_column)
					continue;
				uint64_t v = vmmap_amounts_field(a, (enum vmmap_metric_field)f);
				trend_input_metric(out, TREND_BYTES, true, exempt, (double)v,
						   "vmmap:%s:%c.%s", types[i]->name,
						   vmmap_purge_char((enum vmmap_purge)p),
						   vmmap_fields[f].name);
			}
		}
	}
	free(types);
	for (size_t f = 0; f < VMMAP_FIELDS; f++) {
		uint64_t v;
		bool rounded;
		if (vmmap_fields[f].gpu &&
		    vmmap_dump_gpu_figure(d, (enum vmmap_metric_field)f, &v, &rounded))
			trend_input_metric(out, TREND_BYTES, false, false, (double)v, "vmmap:" GPU_FAMILY ".%s",
			       vmmap_fields[f].name);
	}
	const char *fp = vmmap_dump_field(d, "Physical footprint");
	uint64_t bytes;
	if (fp && size_parse_vmmap(fp, strlen(fp), &bytes) == SIZE_OK) {
		trend_input_metric(out, TREND_BYTES, false, false, (double)bytes, "vmmap:footprint");
		trend_sample_set_resolution(out, "vmmap:footprint", vmmap_figure_step(fp));
	}
}

static void
trend_read(struct trend_input *in, struct line_reader *r, bool json, struct trend_sample *out,
	   struct diag_list *notes)
{
	struct vmmap_capture cap;
	struct diag err;
	diag_clear(&err);
	vmmap_capture_init(&cap);
	int rc;
	if (json) {
		rc = vmmap_json_read(r, &cap, &err);
	} else {
		struct vmmap_parse_opts popts = { .strict = false, .report_unparsed = 3 };
		vmmap_filter_add(&cap.filter, "IOAccelerator", strlen("IOAccelerator"));
		vmmap_filter_add(&cap.filter, "IOSurface", strlen("IOSurface"));
		rc = vmmap_parse(r, &cap, &popts, notes, &err);
	}
	if (rc < 0) {
		trend_input_leave_out_diag(in, &err);
	} else if (cap.partial) {
		trend_input_leave_out(in, DIAG_DATA, "partial: the input ends inside a table or a line");
	} else if (cap.ndumps == 0) {
		trend_input_leave_out(in, DIAG_DATA, "holds no vmmap dump");
	} else {
		const struct vmmap_dump *d = cap.dumps[0];
		if (cap.ndumps > 1)
			diag_list_add(notes, DIAG_NOTE, in->path, 0,
				      "holds %zu dumps; the trend uses the first", cap.ndumps);
		const char *t = vmmap_dump_field(d, "Date/Time");
		if (t && datetime_parse(t, &in->ms)) {
			in->has_time = true;
			in->time_text = xstrdup(t);
		} else if (t) {
			diag_list_add(notes, DIAG_WARNING, in->path, 0,
				      "Date/Time '%s' is not a time iotally reads; the input has "
				      "no capture time", t);
		}
		out->complete = true;
		in->used = true;
		vmmap_metrics(d, out);
	}
	vmmap_capture_release(&cap);
}

/* ---- the row ---- */

static void
vmmap_signature(const void *p, struct signature *sig)
{
	const struct diff_vmmap_pair *v = p;
	signature_add_vmmap(sig, &v->diff);
}

/*
 * A type's field without a purge state ("vmmap:IOSurface.dirty") is the
 * sum of its states' series: part i is state i's ("vmmap:IOSurface:N.dirty").
 */
static bool
series_sum_part(const char *metric, size_t i, struct strbuf *out)
{
	const char *dot = strrchr(metric, '.');
	if (!dot || i >= VMMAP_PURGE_STATES)
		return false;
	strbuf_addf(out, "%.*s:%c%s", (int)(dot - metric), metric,
		    vmmap_purge_char((enum vmmap_purge)i), dot);
	return true;
}
extern const struct kind_command kind_vmmap_command;

const struct kind kind_vmmap = {
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
	.gate_growth = vmmap_gate_growth,
	.changed = vmmap_changed,
	.json = vmmap_json,
	.report = vmmap_report,
	.free = vmmap_free,
	.single_report = report_single,
	.trend_read = trend_read,
	.signature = vmmap_signature,
	.series_sum_part = series_sum_part,
	.command = &kind_vmmap_command,
	.gpu_memory = true,
	/* Last: vmmap suspends the target while it reads it. */
	.capture_steps = {
		{ "target.vmmap", "target/vmmap.txt", CAPTURE_STEP_TARGET,
		  { "vmmap", "-w", "-noCoalesce", "{pid}", NULL }, NULL, 6 },
	},
	.metric_label = diff_vmmap_metric_label,
	.dirty_shadows = true,
	.region_types = true,
	.rounded_member = DIFF_VMMAP_METRIC_FOOTPRINT,
	.gate_grammar = "vmmap:<Type>[:<N|V|E|->].<vsize|resident|dirty> (without a state, "
			"all states summed), vmmap:footprint",
};
