/*
 * Capture bundles as operands: the capture of a kind a bundle stands for,
 * and the captures of a series in time order.
 */

#include "app/bundle_inputs.h"

#include "app/kind.h"
#include "ingest/bundle.h"
#include "util/linereader.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

void
app_bundles_init(struct app_bundles *bs)
{
	memset(bs, 0, sizeof(*bs));
}

void
app_bundles_release(struct app_bundles *bs)
{
	for (size_t i = 0; i < bs->n; i++) {
		bundle_release(bs->v[i]);
		free(bs->v[i]);
	}
	free(bs->v);
	line_reader_unmap_all();
	memset(bs, 0, sizeof(*bs));
}

struct bundle *
app_bundles_open(struct app_bundles *bs, const char *path, struct diag *err)
{
	/* Opened already in this run (a series followed kind by kind): read once. */
	for (size_t i = 0; i < bs->n; i++)
		if (strcmp(bs->v[i]->path, path) == 0)
			return bs->v[i];
	struct bundle *b = xcalloc(1, sizeof(*b));
	if (bundle_open(path, b, err) < 0) {
		bundle_release(b);
		free(b);
		return NULL;
	}
	bs->v = xgrow(bs->v, &bs->alloc, bs->n + 1, sizeof(*bs->v));
	bs->v[bs->n++] = b;
	return b;
}

void
app_bundle_warn_partial(const struct bundle *b, struct diag_list *warnings)
{
	if (!b->complete)
		diag_list_add(warnings, DIAG_WARNING, b->path, 0,
			      "the capture did not complete (some steps failed or were cut "
			      "short; its manifest.json says which); reading what it holds");
}

int
app_bundle_operand(const char *kind, const char *path, struct app_bundles *bs,
		   const char **capture, struct diag_list *warnings, struct diag *err)
{
	struct bundle *b = app_bundles_open(bs, path, err);
	if (!b)
		return -1;
	if (b->series && b->nsamples)
		return diag_set(err, DIAG_USAGE, path, 0, 0,
				"this is a series of %zu samples; name one of them, e.g. 'iotally %s "
				"%s' ('iotally %s' lists them)", b->nsamples, kind, b->samples[0].path,
				path);
	if (b->series)
		return diag_set(err, DIAG_NOINPUT, path, 0, 0, "this series holds no sample");
	const struct bundle_capture *c = bundle_capture_of_kind(b, kind);
	if (!c) {
		const struct bundle_step_note *m = bundle_missed_of_kind(b, kind);
		if (m)
			return diag_set(err, DIAG_NOINPUT, path, 0, 0,
					"the bundle holds no %s capture: its step %s was %s%s%s",
					kind, m->step, m->status, m->reason ? ": " : "",
					m->reason ? m->reason : "");
		return diag_set(err, DIAG_NOINPUT, path, 0, 0,
				"the bundle holds no %s capture ('iotally %s' lists what it "
				"holds)", kind, path);
	}
	app_bundle_warn_partial(b, warnings);
	if (bundle_verify_capture(c, warnings, err) < 0)
		return -1;
	*capture = c->path;
	return 0;
}

/* The kind a trend of these bundles follows: the first the first bundle holds. */
static const char *
trend_kind(const struct bundle *b)
{
	const struct bundle *first = b->series ? (b->nsamples ? &b->samples[0] : NULL) : b;
	for (const struct kind *k = kind_first(); first && k; k = kind_next(k))
		if (bundle_capture_of_kind(first, k->name))
			return k->name;
	return NULL;
}

static void
add_input(struct app_bundle_inputs *out, const char *path, const char *time, char *missing)
{
	out->v = xgrow(out->v, &out->alloc, out->n + 1, sizeof(*out->v));
	out->v[out->n++] = (struct app_bundle_input){ path, time, missing, NULL };
}

/* A sample's name as bundle_open() takes it back: its folder, or "ARCHIVE:NNN". */
static char *
sample_name(const struct bundle *b)
{
	return xstrdup(b->path);
}

/* One sample (or bundle): its capture of `kind`, checked, or why it has none. */
static int
add_sample(const struct bundle *b, const char *kind, struct app_bundle_inputs *out,
	   struct diag_list *warnings, struct diag *err)
{
	const struct bundle_capture *c = bundle_capture_of_kind(b, kind);
	if (!c) {
		const struct bundle_step_note *m = bundle_missed_of_kind(b, kind);
		struct strbuf sb = STRBUF_INIT;
		if (m)
			strbuf_addf(&sb, "holds no %s capture: its step %s was %s%s%s", kind, m->step,
				    m->status, m->reason ? ": " : "", m->reason ? m->reason : "");
		else
			strbuf_addf(&sb, "holds no %s capture", kind);
		char *name = sample_name(b);
		add_input(out, name, b->started_utc, strbuf_detach(&sb, NULL));
		out->v[out->n - 1].sample = name;
		return 0;
	}
	if (bundle_verify_capture(c, warnings, err) < 0)
		return -1;
	add_input(out, c->path, b->started_utc, NULL);
	return 0;
}

int
app_bundle_trend_inputs_add(struct app_bundle_inputs *out, const char *path,
			    const char **kind, struct app_bundles *bs,
			    struct diag_list *warnings, struct diag *err)
{
	if (strcmp(path, "-") == 0 || !bundle_path_is_bundle(path)) {
		add_input(out, path, NULL, NULL);
		return 0;
	}
	struct bundle *b = app_bundles_open(bs, path, err);
	if (!b)
		return -1;
	if (!*kind && !(*kind = trend_kind(b)))
		return diag_set(err, DIAG_NOINPUT, path, 0, 0, "holds no capture iotally reads "
				"('iotally %s' lists its steps)", path);
	app_bundle_warn_partial(b, warnings);
	if (!b->series)
		return add_sample(b, *kind, out, warnings, err);
	for (size_t k = 0; k < b->nsamples; k++)
		if (add_sample(&b->samples[k], *kind, out, warnings, err) < 0)
			return -1;
	return 0;
}

void
app_bundle_inputs_release(struct app_bundle_inputs *in)
{
	for (size_t i = 0; i < in->n; i++) {
		free(in->v[i].missing);
		free(in->v[i].sample);
	}
	free(in->v);
	memset(in, 0, sizeof(*in));
}

int
app_bundle_operands(const char *kind, int argc, char **argv, struct app_bundles *bs,
		    struct diag_list *warnings, struct diag *err)
{
	for (int i = 1; i < argc; i++) {
		const char *capture = NULL;
		if (argv[i][0] == '-' || !bundle_path_is_bundle(argv[i]))
			continue;
		if (app_bundle_operand(kind, argv[i], bs, &capture, warnings, err) < 0)
			return -1;
		argv[i] = (char *)capture;
	}
	return 0;
}
