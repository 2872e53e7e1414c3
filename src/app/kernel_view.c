/*
 * The kernel view of a bundle: which of its classes captures is the
 * reference, which the reference covers, and where they disagree
 * (app/kernel_view.h).
 */

#include "app/kernel_view.h"

#include "app/kind.h"

#include "ingest/bundle.h"
#include "ingest/classes_read.h"
#include "model/classes.h"
#include "util/linereader.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* One classes capture of the bundle, read (snap NULL when it could not be). */
struct source {
	const struct bundle_capture *c;
	struct classes_capture cap;
	const struct classes_snapshot *snap;
};

static void
read_source(struct source *s)
{
	struct line_reader r;
	struct diag err;
	struct diag_list quiet;      /* the commands' own reading says these */
	struct classes_read_opts opts = { .partial = false, .need_counts = true };
	classes_capture_init(&s->cap);
	diag_list_init(&quiet, 1);
	diag_clear(&err);
	if (line_reader_open(&r, s->c->path, 0, &err) == 0) {
		if (classes_read(&r, &s->cap, NULL, &opts, &quiet, &err) == 0 &&
		    s->cap.nsnapshots > 0)
			s->snap = s->cap.snapshots[0];
		line_reader_close(&r);
	}
	diag_list_release(&quiet);
}

static bool
is_ioreg(const struct classes_snapshot *s)
{
	return s && (s->source == CLASSES_SRC_IOREG_TEXT || s->source == CLASSES_SRC_IOREG_XML);
}

/* Does the reference hold every kind of figure `o` holds? */
static bool
covers(const struct classes_snapshot *ref, const struct classes_snapshot *o)
{
	if (classes_snapshot_holds_counts(o) &&
	    (!classes_snapshot_holds_counts(ref) || ref->query))
		return false;
	for (int k = 0; k < ALLOC_KINDS; k++)
		if (o->alloc_present[k] && !ref->alloc_present[k])
			return false;
	return true;
}

static void
add_disagreement(struct kernel_view *v, const struct bundle_capture *c, const char *figure,
		 bool bytes, bool in_ref, int64_t ref, int64_t other)
{
	if (v->ndisagree == KERNEL_VIEW_DISAGREEMENTS_MAX) {
		v->disagree_more++;
		return;
	}
	if (!v->disagree)
		v->disagree = xcalloc(KERNEL_VIEW_DISAGREEMENTS_MAX, sizeof(*v->disagree));
	v->disagree[v->ndisagree++] = (struct kernel_disagreement){
		.source = c, .figure = xstrdup(figure), .bytes = bytes, .in_reference = in_ref,
		.reference = ref, .other = other,
	};
}

/* Every figure of `o` that the reference says otherwise, in `o`'s order. */
static void
compare_sources(struct kernel_view *v, const struct classes_snapshot *ref,
		const struct source *o)
{
	const struct classes_snapshot *s = o->snap;
	for (size_t i = 0; i < s->nclasses; i++) {
		const struct class_count *c = &s->classes[i];
		if (c->state != CLASS_COUNT_OK)
			continue;
		const struct class_count *r = classes_snapshot_find(ref, c->name, c->len);
		bool in_ref = r && r->state == CLASS_COUNT_OK;
		if (!in_ref || r->value != c->value)
			add_disagreement(v, o->c, c->name, false, in_ref, in_ref ? r->value : 0,
					 c->value);
	}
	for (int k = 0; k < ALLOC_KINDS; k++)
		if (s->alloc_present[k] && s->alloc[k] != ref->alloc[k])
			add_disagreement(v, o->c, alloc_kind_key((enum alloc_kind)k), true, true,
					 ref->alloc[k], s->alloc[k]);
}

/* A capture of the kind whose captures make the view (its registry row says so). */
static bool
is_view_source(const struct bundle_capture *c)
{
	const struct kind *k = kind_by_name(c->kind);
	return k && k->kernel_view;
}

void
kernel_view_pick(const struct bundle *b, struct kernel_view *v)
{
	struct source src[KERNEL_VIEW_SOURCES];
	size_t n = 0, ref = 0;
	memset(v, 0, sizeof(*v));
	for (size_t i = 0; i < b->ncaptures && n < KERNEL_VIEW_SOURCES; i++)
		if (is_view_source(&b->captures[i])) {
			memset(&src[n], 0, sizeof(src[n]));
			src[n].c = &b->captures[i];
			read_source(&src[n++]);
		}
	if (n == 0)
		return;
	while (ref < n && !is_ioreg(src[ref].snap))
		ref++;
	if (ref == n)
		ref = 0;
	v->reference = src[ref].c;
	const struct classes_snapshot *rs = src[ref].snap;
	v->reference_source = rs ? classes_source_name(rs->source) : NULL;
	if (rs && classes_snapshot_holds_totals(rs))
		v->totals = v->reference;
	for (size_t i = 0; i < n; i++) {
		if (i == ref)
			continue;
		if (!rs || !src[i].snap || !covers(rs, src[i].snap)) {
			const struct classes_snapshot *o = src[i].snap;
			if (!v->totals && rs && o && classes_snapshot_holds_totals(o) &&
			    !classes_snapshot_holds_counts(o))
				v->totals = src[i].c;
			v->uncovered[v->nuncovered++] = src[i].c;
			continue;
		}
		v->covered[v->ncovered++] = src[i].c;
		compare_sources(v, rs, &src[i]);
	}
	for (size_t i = 0; i < n; i++)
		classes_capture_release(&src[i].cap);
}

bool
kernel_view_pair_totals(const struct kernel_view v[2], const struct bundle_capture *out[2])
{
	out[0] = out[1] = NULL;
	if (!v[0].totals || !v[1].totals ||
	    (v[0].totals == v[0].reference && v[1].totals == v[1].reference))
		return false;
	out[0] = v[0].totals;
	out[1] = v[1].totals;
	return true;
}

bool
kernel_view_covers(const struct kernel_view *v, const struct bundle_capture *c)
{
	for (size_t i = 0; i < v->ncovered; i++)
		if (v->covered[i] == c)
			return true;
	return false;
}

void
kernel_view_release(struct kernel_view *v)
{
	for (size_t i = 0; i < v->ndisagree; i++)
		free(v->disagree[i].figure);
	free(v->disagree);
	memset(v, 0, sizeof(*v));
}

void
kernel_view_covered_list(const struct kernel_view *v, struct strbuf *sb)
{
	for (size_t i = 0; i < v->ncovered; i++)
		strbuf_addf(sb, "%s%s", i == 0 ? "" : i + 1 == v->ncovered ? " and " : ", ",
			    v->covered[i]->member);
}

static const char *
taken(const struct bundle_capture *c)
{
	return c->started_utc ? c->started_utc : "time not recorded";
}

void
kernel_disagreement_describe(const struct kernel_view *v, const struct kernel_disagreement *d,
			     struct strbuf *sb)
{
	const char *unit = d->bytes ? " bytes" : "";
	strbuf_addf(sb, "%s (taken %s) says %s = %" PRId64 "%s, %s (taken %s, the reference) ",
		    d->source->member, taken(d->source), d->figure, d->other, unit,
		    v->reference->member, taken(v->reference));
	if (d->in_reference)
		strbuf_addf(sb, "says %" PRId64 "%s", d->reference, unit);
	else
		strbuf_addstr(sb, "does not hold it");
}
