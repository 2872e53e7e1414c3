#include "app/trend_inputs.h"

#include "app/kind.h"
#include "util/datetime.h"
#include "util/linereader.h"
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

void
trend_input_leave_out(struct trend_input *in, int code, const char *fmt, ...)
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

void
trend_input_leave_out_diag(struct trend_input *in, const struct diag *err)
{
	if (err->line)
		trend_input_leave_out(in, err->code, "line %llu: %s", (unsigned long long)err->line,
			  err->msg);
	else
		trend_input_leave_out(in, err->code, "%s", err->msg);
}

void
trend_input_metric(struct trend_sample *out, enum trend_unit unit, bool zero_fill, bool exempt,
		   double v, const char *fmt, ...)
{
	struct strbuf name = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&name, fmt, ap);
	va_end(ap);
	trend_sample_set(out, name.buf, unit, zero_fill, exempt, v);
	strbuf_release(&name);
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
trend_input_read(struct trend_input *in, const char *want, struct trend_sample *out,
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
		trend_input_leave_out(in, err.code ? err.code : DIAG_DATA, "%s", err.msg);
	} else if ((in->kind = k->name), want && strcmp(want, in->kind) != 0) {
		trend_input_refuse_kind(in, want);
	} else {
		k->trend_read(in, &din.reader, din.json, out, notes);
	}
	line_reader_close(&din.reader);
	if (in->used && in->manifest_time)
		use_manifest_time(in, notes);
}

void
trend_input_add(struct trend_input *in, struct trend_series *s, const struct trend_sample *smp)
{
	if (in->used)
		in->sample = trend_series_add(s, smp);
}

void
trend_input_refuse_kind(struct trend_input *in, const char *want)
{
	free(in->time_text);
	in->time_text = NULL;
	in->has_time = false;
	in->ms = 0;
	trend_input_leave_out(in, DIAG_DATA, "is a %s capture; the others are %s", in->kind, want);
}
