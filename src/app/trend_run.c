/*
 * The steps of a trend shared by `iotally trend` and `iotally report
 * SERIES` (app/trend_run.h): reading, checking, ordering.
 */

#include "app/trend_run.h"

#include "app/kind.h"
#include "app/parallel.h"
#include "app/signature_inputs.h"
#include "ingest/bundle.h"
#include "model/signature.h"
#include "model/signature_series.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "vmmap (a.txt, b.txt and 3 more), classes (c.txt)". */
static void
describe_kinds(const struct trend_input *in, size_t n, struct strbuf *out)
{
	for (size_t i = 0; i < n; i++) {
		if (!in[i].kind)
			continue;
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = in[j].kind && strcmp(in[j].kind, in[i].kind) == 0;
		if (seen)
			continue;
		size_t count = 0, shown = 0;
		for (size_t j = i; j < n; j++)
			count += in[j].kind && strcmp(in[j].kind, in[i].kind) == 0;
		strbuf_addf(out, "%s%s (", out->len ? ", " : "", in[i].kind);
		for (size_t j = i; j < n && shown < 2; j++)
			if (in[j].kind && strcmp(in[j].kind, in[i].kind) == 0)
				strbuf_addf(out, "%s%s", shown++ ? ", " : "",
					    diag_display_path(in[j].path));
		if (count > shown)
			strbuf_addf(out, " and %zu more", count - shown);
		strbuf_addch(out, ')');
	}
}

/*
 * Reading the inputs with -j N (app/parallel.h): work() reads input i into
 * its own sample and notes on a worker; emit() adds them to the series and
 * the notes in input order, so the series, the notes and the kind decided
 * are those of reading the inputs one after the other.
 */
struct read_run {
	struct trend_input *in;
	const char *forced;          /* --kind, or NULL */
	struct trend_series *s;
	const char **kind;           /* the trend's kind: --kind's, else the first input's */
	struct diag_list *notes;
	bool mixed;
};

struct read_item {
	struct trend_sample smp;
	struct diag_list notes;
};

static void *
read_input(void *ctx, size_t i)
{
	struct read_run *r = ctx;
	struct read_item *item = xmalloc(sizeof(*item));
	trend_sample_init(&item->smp);
	diag_list_init(&item->notes, r->notes->limit);
	/*
	 * Without --kind the trend's kind is the first input's, known only in
	 * turn: read any kind here, and emit() leaves out one of another kind
	 * as reading with that kind wanted would have.
	 */
	trend_input_read(&r->in[i], r->forced, &item->smp, &item->notes);
	return item;
}

static void
read_item_free(struct read_item *item)
{
	trend_sample_release(&item->smp);
	diag_list_release(&item->notes);
	free(item);
}

static int
add_input(void *ctx, size_t i, void *result)
{
	struct read_run *r = ctx;
	struct read_item *item = result;
	struct trend_input *in = &r->in[i];
	if (in->kind && *r->kind && strcmp(in->kind, *r->kind) != 0) {
		trend_input_refuse_kind(in, *r->kind);   /* its sample and notes unsaid */
	} else {
		diag_list_append(r->notes, &item->notes);
		trend_input_add(in, r->s, &item->smp);
	}
	if (in->kind && !*r->kind)
		*r->kind = in->kind;
	else if (in->kind && strcmp(in->kind, *r->kind) != 0)
		r->mixed = true;
	read_item_free(item);
	return 0;
}

static void
drop_input(void *ctx, size_t i, void *result)
{
	(void)ctx;
	(void)i;
	read_item_free(result);
}

/* trend_run.h */
int
trend_run_read(struct trend_input *in, size_t n, const char *forced, unsigned jobs,
	       struct trend_series *s, const char **kind, struct diag_list *notes,
	       struct diag *err)
{
	struct read_run r = { .in = in, .forced = forced, .s = s, .kind = kind, .notes = notes };
	*kind = forced;
	struct app_parallel_opts opts = { .jobs = jobs ? jobs : 1,
					  .window = app_parallel_window(jobs ? jobs : 1) };
	app_parallel_map(n, &opts, read_input, add_input, drop_input, &r);
	bool mixed = r.mixed;
	if (!mixed)
		return 0;
	struct strbuf sb = STRBUF_INIT;
	describe_kinds(in, n, &sb);
	if (forced)
		diag_set(err, DIAG_DATA, NULL, 0, 0,
			 "--kind %s, but the inputs are captures of %s", forced, sb.buf);
	else
		diag_set(err, DIAG_DATA, NULL, 0, 0,
			 "the inputs are captures of different kinds: %s; a trend needs one kind",
			 sb.buf);
	strbuf_release(&sb);
	return -1;
}

/* Per thread: `signatures -j N` follows several series at once (app/parallel.h). */
static _Thread_local const struct trend_input *sort_base;

static int
cmp_time(const void *a, const void *b)
{
	const struct trend_input *x = &sort_base[*(const size_t *)a];
	const struct trend_input *y = &sort_base[*(const size_t *)b];
	if (x->ms != y->ms)
		return x->ms < y->ms ? -1 : 1;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	return (i > j) - (i < j);   /* equal times keep argument order */
}

/* Equal and decreasing capture times, said as warnings. */
static void
check_times(const struct trend_input *in, const size_t *used, size_t n, bool sorted,
	    struct diag_list *w)
{
	for (size_t k = 1; k < n; k++) {
		const struct trend_input *a = &in[used[k - 1]], *b = &in[used[k]];
		if (!a->has_time || !b->has_time)
			continue;
		if (a->ms == b->ms)
			diag_list_add(w, DIAG_WARNING, NULL, 0,
				      "%s and %s have the same capture time (%s): they keep "
				      "argument order and count as one point in time for slopes "
				      "per hour", diag_display_path(a->path),
				      diag_display_path(b->path), a->time_text);
		else if (!sorted && b->ms < a->ms)
			diag_list_add(w, DIAG_WARNING, NULL, 0,
				      "%s (%s) was captured before %s (%s), which comes before "
				      "it in argument order", diag_display_path(b->path),
				      b->time_text, diag_display_path(a->path), a->time_text);
	}
}

static void
order_samples(const struct trend_input *in, size_t n, struct trend_order *o, struct diag_list *w)
{
	size_t used = 0, timed = 0;
	o->perm = xmalloc((n ? n : 1) * sizeof(*o->perm));
	for (size_t i = 0; i < n; i++)
		if (in[i].used) {
			o->perm[used++] = i;
			timed += in[i].has_time;
		}
	o->by_time = used > 0 && timed == used;
	o->hours = NULL;
	o->span = NAN;
	if (o->by_time) {
		bool in_order = true;
		for (size_t k = 1; k < used; k++)
			in_order &= in[o->perm[k - 1]].ms <= in[o->perm[k]].ms;
		sort_base = in;
		qsort(o->perm, used, sizeof(*o->perm), cmp_time);
		o->hours = xmalloc(used * sizeof(*o->hours));
		for (size_t k = 0; k < used; k++)
			o->hours[k] = (double)(in[o->perm[k]].ms - in[o->perm[0]].ms) / 3.6e6;
		o->span = o->hours[used - 1];
		snprintf(o->note, sizeof(o->note), "capture-time order (%s)%s",
			 in[o->perm[0]].manifest_time ? "the bundle manifests' start times"
						      : "vmmap Date/Time",
			 in_order ? "" : "; the arguments were not in that order");
	} else if (timed) {
		snprintf(o->note, sizeof(o->note), "argument order (%zu of %zu captures carry "
			 "no capture time)", used - timed, used);
	} else {
		snprintf(o->note, sizeof(o->note),
			 "argument order (the captures carry no capture time)");
	}
	check_times(in, o->perm, used, o->by_time, w);
}

int
trend_run_check_usable(const struct trend_input *in, size_t n, struct diag_list *w, struct diag *err)
{
	size_t used = 0, opened = 0;
	for (size_t i = 0; i < n; i++) {
		used += in[i].used;
		opened += in[i].used || in[i].left_out_code != DIAG_NOINPUT;
		if (!in[i].used)
			diag_list_add(w, DIAG_WARNING, in[i].path, 0, "left out: %s",
				      in[i].left_out);
	}
	if (used >= 3)
		return 0;
	return diag_set(err, opened ? DIAG_DATA : DIAG_NOINPUT, NULL, 0, 0,
			"%zu usable input%s of %zu: a trend needs at least 3 captures", used,
			used == 1 ? "" : "s", n);
}

void
trend_run_rows(const struct trend_input *in, size_t n, const struct trend_order *o, size_t used,
	   struct trend_input_row *rows)
{
	size_t k = 0;
	for (size_t s = 0; s < used; s++) {
		const struct trend_input *x = &in[o->perm[s]];
		rows[k++] = (struct trend_input_row){ x->path, x->time_text, true, s, NULL };
	}
	for (size_t i = 0; i < n; i++)
		if (!in[i].used)
			rows[k++] = (struct trend_input_row){ in[i].path, in[i].time_text, false,
							      0, in[i].left_out };
}


void
trend_run_order(const struct trend_input *in, size_t n, struct trend_series *s,
		struct trend_order *o, struct diag_list *w)
{
	order_samples(in, n, o, w);
	/* o->perm indexes the inputs; the series numbers its samples in reading order. */
	size_t *samples = xmalloc((s->nsamples ? s->nsamples : 1) * sizeof(*samples));
	for (size_t k = 0; k < s->nsamples; k++)
		samples[k] = in[o->perm[k]].sample;
	trend_series_reorder(s, samples, o->hours);
	free(samples);
	trend_series_finish(s);
}

void
trend_order_release(struct trend_order *o)
{
	free(o->perm);
	free(o->hours);
	o->perm = NULL;
	o->hours = NULL;
}

int
trend_kind_run(struct trend_kind_run *t, const char *const *paths, size_t n, const char *kind,
	       unsigned jobs, struct app_bundles *bs, trend_params_fn params, void *ctx,
	       struct diag_list *notes, struct diag *err)
{
	memset(t, 0, sizeof(*t));
	trend_series_init(&t->s);
	diag_list_init(&t->warnings, 100);
	for (size_t i = 0; i < n; i++)
		if (app_bundle_trend_inputs_add(&t->bin, paths[i], &kind, bs, notes, err) < 0)
			return -1;
	t->n = t->bin.n;
	t->in = xcalloc(t->n ? t->n : 1, sizeof(*t->in));
	t->paths = xcalloc(t->n ? t->n : 1, sizeof(*t->paths));
	for (size_t i = 0; i < t->n; i++) {
		t->paths[i] = t->in[i].path = t->bin.v[i].path;
		t->in[i].manifest_time = t->bin.v[i].time;
		if (t->bin.v[i].missing) {
			t->in[i].left_out = xstrdup(t->bin.v[i].missing);
			t->in[i].left_out_code = DIAG_NOINPUT;
		}
	}
	if (trend_run_read(t->in, t->n, kind, jobs, &t->s, &t->kind, notes, err) < 0 ||
	    trend_run_check_usable(t->in, t->n, &t->warnings, err) < 0)
		return -1;
	trend_run_order(t->in, t->n, &t->s, &t->o, &t->warnings);
	if (params)
		params(ctx, t->s.nsamples, &t->p);
	else
		trend_params_default(&t->p, t->s.nsamples);
	if (t->p.warmup >= t->s.nsamples)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0, "--warmup %zu leaves none of the %zu "
				"samples to analyse", t->p.warmup, t->s.nsamples);
	trend_series_analyse(&t->s, &t->p);
	t->rows = xcalloc(t->n ? t->n : 1, sizeof(*t->rows));
	trend_run_rows(t->in, t->n, &t->o, t->s.nsamples, t->rows);
	t->rep = (struct trend_report){
		.kind = t->kind,
		.by_time = t->o.by_time,
		.order_note = t->o.note,
		.span_hours = t->o.span,
		.inputs = t->rows,
		.ninputs = t->n,
		.warnings = &t->warnings,
		.series = &t->s,
		.params = &t->p,
	};
	return 0;
}

void
trend_kind_run_release(struct trend_kind_run *t)
{
	for (size_t i = 0; t->in && i < t->n; i++)
		trend_input_release(&t->in[i]);
	free(t->in);
	free(t->paths);
	free(t->rows);
	trend_order_release(&t->o);
	trend_series_release(&t->s);
	diag_list_release(&t->warnings);
	app_bundle_inputs_release(&t->bin);
	memset(t, 0, sizeof(*t));
}

size_t
trend_run_bundle_kinds(const char *const *paths, size_t n, struct app_bundles *bs,
		       const char **kinds, size_t max)
{
	const struct bundle **bundles = xcalloc(n ? n : 1, sizeof(*bundles));
	size_t nk = 0;
	for (size_t i = 0; i < n; i++) {
		struct diag err;
		if (strcmp(paths[i], "-") == 0 || !bundle_path_is_bundle(paths[i]) ||
		    !(bundles[i] = app_bundles_open(bs, paths[i], &err))) {
			free(bundles);
			return 0;
		}
	}
	for (const struct kind *k = kind_first(); k && nk < max; k = kind_next(k)) {
		bool held = false;
		for (size_t i = 0; i < n && !held; i++) {
			const struct bundle *b = bundles[i];
			if (!b->series)
				held = bundle_capture_of_kind(b, k->name) != NULL;
			for (size_t j = 0; b->series && j < b->nsamples && !held; j++)
				held = bundle_capture_of_kind(&b->samples[j], k->name) != NULL;
		}
		if (held)
			kinds[nk++] = k->name;
	}
	free(bundles);
	return nk;
}

void
trend_params_given(void *ctx, size_t nsamples, struct trend_params *p)
{
	const struct trend_given *g = ctx;
	trend_params_default(p, nsamples);
	if (g->has_warmup)
		p->warmup = g->warmup;
	if (g->has_min_bytes)
		p->min_bytes = g->min_bytes;
	if (g->has_min_count)
		p->min_count = g->min_count;
	if (g->has_min_percent)
		p->min_percent = g->min_percent;
	if (g->has_alpha)
		p->alpha = g->alpha;
}

size_t
trend_run_kinds_to_follow(const char *forced, bool one, const char *const *paths, size_t n,
			  struct app_bundles *bs, const char **kinds)
{
	kinds[0] = forced;
	if (forced || one)
		return 1;
	size_t nk = trend_run_bundle_kinds(paths, n, bs, kinds, KINDS_MAX);
	if (nk == 0)
		kinds[nk++] = NULL;
	return nk;
}

bool
trend_run_kind_left_out(size_t nk, size_t i, size_t ok, const struct diag *err)
{
	return nk > 1 && err->code != DIAG_USAGE && (ok || i + 1 < nk);
}

int
trend_kind_run_signature(const struct trend_kind_run *t, struct signature *sig, struct diag *err)
{
	const struct trend_series *s = &t->s;
	enum trend_verdict best = signature_series_verdict(s);
	struct diag_list notes;
	diag_list_init(&notes, 20);
	const char *first = s->nsamples >= 2 ? t->in[t->o.perm[0]].path : NULL;
	const char *last = s->nsamples >= 2 ? t->in[t->o.perm[s->nsamples - 1]].path : NULL;
	int rc = !first || best == TREND_VERDICTS || strcmp(first, "-") == 0 ||
		 strcmp(last, "-") == 0
		 ? (signature_init(sig), signature_finish(sig), 0)
		 : signature_of_series(first, last, trend_verdict_name(best), sig, &notes, err);
	diag_list_release(&notes);   /* said once already, when the samples were read */
	if (rc < 0) {
		signature_release(sig);
		signature_init(sig);
		signature_finish(sig);
	}
	return rc;
}
