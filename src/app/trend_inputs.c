#include "app/trend_inputs.h"

#include "app/kind.h"
#include "ingest/classes_read.h"
#include "ingest/classes_json_read.h"
#include "ingest/detect.h"
#include "ingest/track_read.h"
#include "ingest/track_json_read.h"
#include "ingest/vmmap_read.h"
#include "ingest/vmmap_json_read.h"
#include "model/classes.h"
#include "model/gpu.h"
#include "model/track.h"
#include "model/vmmap.h"
#include "util/datetime.h"
#include "util/linereader.h"
#include "util/size.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void
trend_input_release(struct trend_input *in)
{
	free(in->left_out);
	free(in->time_text);
	in->left_out = in->time_text = NULL;
}

static void
leave_out(struct trend_input *in, int code, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	free(in->left_out);
	in->left_out = strbuf_detach(&sb, NULL);
	in->left_out_code = code;
	in->used = false;
}

/* A stopping error of a parser as the reason to leave the input out. */
static void
leave_out_diag(struct trend_input *in, const struct diag *err)
{
	if (err->line)
		leave_out(in, err->code, "line %llu: %s", (unsigned long long)err->line,
			  err->msg);
	else
		leave_out(in, err->code, "%s", err->msg);
}

static void
metric(struct trend_series *s, size_t k, enum trend_unit unit, bool zero_fill, bool exempt,
       double v, const char *fmt, ...) __attribute__((format(printf, 7, 8)));

static void
metric(struct trend_series *s, size_t k, enum trend_unit unit, bool zero_fill, bool exempt,
       double v, const char *fmt, ...)
{
	struct strbuf name = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&name, fmt, ap);
	va_end(ap);
	trend_series_set(s, k, name.buf, unit, zero_fill, exempt, v);
	strbuf_release(&name);
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
vmmap_metrics(const struct vmmap_dump *d, struct trend_series *s, size_t k)
{
	const struct vmmap_type_stats **types;
	size_t n = vmmap_dump_sorted_types(d, &types);
	for (size_t i = 0; i < n; i++) {
		for (int p = 0; p < VMMAP_PURGE_STATES; p++) {
			const struct vmmap_amounts *a = &types[i]->by_purge[p];
			if (!a->count)
				continue;
			const uint64_t v[VMMAP_FIELDS] = { a->count, a->vsize, a->resident,
							   a->dirty, a->swapped };
			bool exempt = p == VMMAP_PURGE_V || p == VMMAP_PURGE_E;
			for (size_t f = 0; f < VMMAP_FIELDS; f++)
				if (vmmap_fields[f].gpu &&
				    d->max_size_columns >= vmmap_fields[f].line_column)
					metric(s, k, TREND_BYTES, true, exempt, (double)v[f],
					       "vmmap:%s:%c.%s", types[i]->name,
					       vmmap_purge_char((enum vmmap_purge)p),
					       vmmap_fields[f].name);
		}
	}
	free(types);
	for (size_t f = 0; f < VMMAP_FIELDS; f++) {
		uint64_t v;
		bool rounded;
		if (vmmap_fields[f].gpu &&
		    vmmap_dump_gpu_figure(d, (enum vmmap_metric_field)f, &v, &rounded))
			metric(s, k, TREND_BYTES, false, false, (double)v, "vmmap:" GPU_FAMILY ".%s",
			       vmmap_fields[f].name);
	}
	const char *fp = vmmap_dump_field(d, "Physical footprint");
	uint64_t bytes;
	if (fp && size_parse_vmmap(fp, strlen(fp), &bytes) == SIZE_OK) {
		metric(s, k, TREND_BYTES, false, false, (double)bytes, "vmmap:footprint");
		trend_series_set_resolution(s, "vmmap:footprint", vmmap_figure_step(fp));
	}
}

static void
read_vmmap(struct trend_input *in, struct line_reader *r, bool json, struct trend_series *s,
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
		leave_out_diag(in, &err);
	} else if (cap.partial) {
		leave_out(in, DIAG_DATA, "partial: the input ends inside a table or a line");
	} else if (cap.ndumps == 0) {
		leave_out(in, DIAG_DATA, "holds no vmmap dump");
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
		in->sample = trend_series_add_sample(s, true);
		in->used = true;
		vmmap_metrics(d, s, in->sample);
	}
	vmmap_capture_release(&cap);
}

/* ---- classes: every class count and the allocation totals ----------------- */

static void
classes_metrics(const struct classes_snapshot *snap, struct trend_series *s, size_t k)
{
	static const char *const alloc_names[ALLOC_KINDS] = {
		"instance", "container", "iomalloc", "pageable",
	};
	for (size_t i = 0; i < snap->nclasses; i++) {
		const struct class_count *c = &snap->classes[i];
		if (c->state == CLASS_COUNT_OK)
			metric(s, k, TREND_COUNT, !snap->query, false, (double)c->value,
			       "classes:%s", c->name);
	}
	for (int a = 0; a < ALLOC_KINDS; a++)
		if (snap->alloc_present[a])
			metric(s, k, TREND_BYTES, false, false, (double)snap->alloc[a],
			       "alloc:%s", alloc_names[a]);
}

static void
read_classes(struct trend_input *in, struct line_reader *r, bool json,
	     struct trend_series *s, struct diag_list *notes)
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
		leave_out_diag(in, &err);
	} else if (cap.nsnapshots == 0) {
		leave_out(in, DIAG_DATA, "holds no class counts");
	} else if (cap.snapshots[0]->truncated) {
		leave_out(in, DIAG_DATA, "partial: the input ends inside the class counts");
	} else {
		if (cap.nsnapshots > 1)
			diag_list_add(notes, DIAG_NOTE, in->path, 0,
				      "holds %zu snapshots; the trend uses the first",
				      cap.nsnapshots);
		in->sample = trend_series_add_sample(s, !cap.snapshots[0]->query);
		in->used = true;
		classes_metrics(cap.snapshots[0], s, in->sample);
	}
	hierarchy_release(&hier);
	classes_capture_release(&direct);
	classes_capture_release(&cap);
}

/* ---- track: the total and the bytes charged to each module ----------------- */

static void
read_track(struct trend_input *in, struct line_reader *r, bool json, struct trend_series *s,
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
		leave_out_diag(in, &err);
	} else if (cap.partial) {
		leave_out(in, DIAG_DATA, "partial: some of the input was not understood");
	} else {
		in->sample = trend_series_add_sample(s, true);
		in->used = true;
		size_t k = in->sample;
		metric(s, k, TREND_BYTES, false, false, (double)track_capture_total(&cap),
		       "track:total");
		for (size_t i = 0; i < cap.grouping.ngroups; i++)
			metric(s, k, TREND_BYTES, true, false, (double)cap.grouping.groups[i].bytes,
			       "track:%s", cap.grouping.groups[i].name);
	}
	track_capture_release(&cap);
}

/* A manifest's "2026-11-30T06:00:00Z" as the capture time (it wins over vmmap's Date/Time). */
static void
use_manifest_time(struct trend_input *in, struct diag_list *notes)
{
	char text[40];
	size_t n = strlen(in->manifest_time);
	if (n >= sizeof(text) || n < 2 || in->manifest_time[n - 1] != 'Z') {
		diag_list_add(notes, DIAG_WARNING, in->path, 0, "the bundle's start time '%s' is "
			      "not a UTC time iotally reads", in->manifest_time);
		return;
	}
	memcpy(text, in->manifest_time, n - 1);
	text[n - 1] = '\0';
	char *t = strchr(text, 'T');
	if (t)
		*t = ' ';
	int64_t ms;
	if (!datetime_parse(text, &ms)) {
		diag_list_add(notes, DIAG_WARNING, in->path, 0, "the bundle's start time '%s' is "
			      "not a UTC time iotally reads", in->manifest_time);
		return;
	}
	in->has_time = true;
	in->ms = ms;
	free(in->time_text);
	in->time_text = xstrdup(in->manifest_time);
}

void
trend_input_read(struct trend_input *in, const char *want, struct trend_series *s,
		 struct diag_list *notes)
{
	struct kind_input din;
	const struct kind *k = NULL;
	char schema[64];
	enum input_kind raw;
	struct diag err;
	if (in->left_out)
		return;
	memset(&din, 0, sizeof(din));
	din.reader.fd = -1;
	diag_clear(&err);
	if (kind_open(&din, in->path, "trend", &k, schema, sizeof(schema), &raw, &err) < 0) {
		leave_out(in, err.code ? err.code : DIAG_DATA, "%s", err.msg);
	} else if ((in->kind = k->name), want && strcmp(want, in->kind) != 0) {
		leave_out(in, DIAG_DATA, "is a %s capture; the others are %s", in->kind, want);
	} else if (strcmp(in->kind, "vmmap") == 0) {
		read_vmmap(in, &din.reader, din.json, s, notes);
	} else if (strcmp(in->kind, "classes") == 0) {
		read_classes(in, &din.reader, din.json, s, notes);
	} else {
		read_track(in, &din.reader, din.json, s, notes);
	}
	line_reader_close(&din.reader);
	if (in->used && in->manifest_time)
		use_manifest_time(in, notes);
}
