#include "model/diff_classes.h"

#include "model/diff.h"
#include "model/pick.h"
#include "util/array.h"
#include "util/strbuf.h"
#include "util/suggest.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool
readable(const struct class_count *c, int64_t *v)
{
	if (!c || c->state != CLASS_COUNT_OK)
		return false;
	*v = c->value;
	return true;
}

static void
add_row(struct diff_classes *d, const struct class_count *b, const struct class_count *a)
{
	struct diff_classes_row r = { .name = b ? b->name : a->name };
	r.in_before = readable(b, &r.before);
	r.in_after = readable(a, &r.after);
	if (!r.in_before && !r.in_after)
		return;
	/* A snapshot that holds only some classes says nothing of the others. */
	if ((!b && d->before->query) || (!a && d->after->query))
		return;
	r.delta_overflow = __builtin_sub_overflow(r.after, r.before, &r.delta);
	d->rows[d->nrows++] = r;
}

static uint64_t
magnitude(const struct diff_classes_row *r)
{
	if (r->delta_overflow)
		return UINT64_MAX;
	return r->delta < 0 ? (uint64_t)0 - (uint64_t)r->delta : (uint64_t)r->delta;
}

static int
cmp_row(const void *x, const void *y)
{
	const struct diff_classes_row *a = x, *b = y;
	uint64_t ma = magnitude(a), mb = magnitude(b);
	if (ma != mb)
		return ma > mb ? -1 : 1;
	return classes_name_cmp(a->name, strlen(a->name), b->name, strlen(b->name));
}

void
diff_classes_compute(struct diff_classes *d, const struct classes_snapshot *before,
		     const struct classes_snapshot *after, bool direct)
{
	memset(d, 0, sizeof(*d));
	d->before = before;
	d->after = after;
	d->totals[0] = before;
	d->totals[1] = after;
	d->direct = direct;
	d->rows = xcalloc(before->nclasses + after->nclasses + 1, sizeof(*d->rows));
	for (size_t i = 0; i < before->nclasses; i++) {
		const struct class_count *b = &before->classes[i];
		add_row(d, b, classes_snapshot_find(after, b->name, b->len));
	}
	for (size_t i = 0; i < after->nclasses; i++) {
		const struct class_count *a = &after->classes[i];
		const struct class_count *b = classes_snapshot_find(before, a->name, a->len);
		int64_t v;
		if (!readable(b, &v))
			add_row(d, NULL, a);
	}
	array_sort(d->rows, d->nrows, sizeof(*d->rows), cmp_row);   /* NULL when no row */
}

void
diff_classes_release(struct diff_classes *d)
{
	free(d->rows);
	memset(d, 0, sizeof(*d));
}

void
diff_classes_join_totals(struct diff_classes *d, const struct classes_snapshot *const totals[2],
			 const char *const from[2])
{
	for (int side = 0; side < 2; side++) {
		d->totals[side] = totals[side];
		d->totals_from[side] = from[side];
	}
}

bool
diff_classes_totals_sources_differ(const struct diff_classes *d)
{
	return d->totals_from[0] && d->totals_from[1] &&
	       strcmp(d->totals_from[0], d->totals_from[1]) != 0;
}

bool
diff_classes_row_changed(const struct diff_classes_row *r)
{
	return r->in_before != r->in_after || r->delta != 0 || r->delta_overflow;
}

bool
diff_classes_changed(const struct diff_classes *d)
{
	for (size_t i = 0; i < d->nrows; i++)
		if (diff_classes_row_changed(&d->rows[i]))
			return true;
	for (int k = 0; k < ALLOC_KINDS; k++)
		if (d->totals[0]->alloc_present[k] != d->totals[1]->alloc_present[k] ||
		    d->totals[0]->alloc[k] != d->totals[1]->alloc[k])
			return true;
	return false;
}

struct classes_snapshot *
diff_classes_direct(const struct hierarchy *h, const struct classes_snapshot *s)
{
	struct classes_snapshot *out = xcalloc(1, sizeof(*out));
	out->source = s->source;
	out->line = s->line;
	strmap_init(&out->index);
	for (size_t i = 0; i < s->nclasses; i++) {
		const struct class_count *c = &s->classes[i];
		size_t cls = hierarchy_find(h, c->name, c->len);
		int64_t direct;
		uint64_t live;
		if (cls != HIER_NONE && hierarchy_direct_count(h, cls, s, &direct, &live))
			classes_snapshot_add(out, c->name, c->len, direct, CLASS_COUNT_OK, c->line);
	}
	memcpy(out->alloc, s->alloc, sizeof(out->alloc));
	memcpy(out->alloc_present, s->alloc_present, sizeof(out->alloc_present));
	return out;
}

static int
alloc_metric(const struct diff_classes *d, const char *metric, int64_t *before,
	     int64_t *after, struct diag *err)
{
	int k = alloc_kind_from_name(metric);
	if (k < 0) {
		/* Listed from the one table of names (model/classes.h). */
		struct strbuf list = STRBUF_INIT;
		for (int i = 0; i < ALLOC_KINDS; i++)
			strbuf_addf(&list, "%salloc:%s", i == 0 ? "" : i + 1 == ALLOC_KINDS ? " or " :
				    ", ", alloc_kind_name((enum alloc_kind)i));
		diag_set(err, DIAG_USAGE, NULL, 0, 0, "metric 'alloc:%s': expected %s", metric,
			 list.buf);
		strbuf_release(&list);
		return -1;
	}
	const struct classes_snapshot *b = d->totals[0], *a = d->totals[1];
	if (!b->alloc_present[k] && !a->alloc_present[k])
		return diag_set(err, DIAG_DATA, NULL, 0, 0,
				"metric 'alloc:%s': neither capture records the '%s' total "
				"(ioclasscount listings do not; ioreg captures do)", metric,
				alloc_kind_key((enum alloc_kind)k));
	/* A total one capture does not record is unknown, not zero: a gate
	 * against 0 would report the whole total as growth (or loss). */
	if (!b->alloc_present[k] || !a->alloc_present[k])
		return diag_set(err, DIAG_DATA, NULL, 0, 0,
				"metric 'alloc:%s': only the %s capture records the '%s' total "
				"(ioclasscount listings do not; ioreg captures do), so it has "
				"no change to gate", metric,
				b->alloc_present[k] ? "before" : "after",
				alloc_kind_key((enum alloc_kind)k));
	*before = b->alloc[k];
	*after = a->alloc[k];
	return 0;
}

const struct diff_classes_row *
diff_classes_largest_growth(const struct diff_classes *d)
{
	const struct diff_classes_row *best = NULL;
	for (size_t i = 0; i < d->nrows; i++) {
		const struct diff_classes_row *r = &d->rows[i];
		if (r->delta_overflow || r->delta <= 0)
			continue;
		if (!best || r->delta > best->delta)
			best = r;
	}
	return best;
}

bool
diff_classes_metric_is_bytes(const char *kind)
{
	return strcmp(kind, "alloc") == 0;
}

int
diff_classes_metric(const struct diff_classes *d, const char *kind, const char *metric,
		    int64_t *before, int64_t *after, struct diag *err)
{
	if (strcmp(kind, "alloc") == 0)
		return alloc_metric(d, metric, before, after, err);
	if (strcmp(metric, "*") == 0) {
		const struct diff_classes_row *r = diff_classes_largest_growth(d);
		*before = r ? r->before : 0;
		*after = r ? r->after : 0;
		return 0;
	}
	for (size_t i = 0; i < d->nrows; i++)
		if (strcmp(d->rows[i].name, metric) == 0) {
			*before = d->rows[i].before;
			*after = d->rows[i].after;
			return 0;
		}
	struct suggest s;
	suggest_init(&s, metric, strlen(metric));
	for (size_t i = 0; i < d->nrows; i++)
		suggest_consider(&s, d->rows[i].name, strlen(d->rows[i].name));
	diag_set(err, DIAG_DATA, NULL, 0, 0,
		 "metric 'classes:%s': neither capture has a%s count for class '%s' "
		 "(names are matched exactly, case-sensitive)", metric,
		 d->direct ? " direct" : "", metric);
	diff_diag_add_suggestion(err, &s);
	return -1;
}

void
diff_classes_side_init(struct diff_classes_side *s)
{
	memset(s, 0, sizeof(*s));
	classes_capture_init(&s->cap);
	classes_capture_init(&s->json_direct);
	hierarchy_init(&s->hier);
}

void
diff_classes_side_release(struct diff_classes_side *s)
{
	classes_capture_release(&s->cap);
	classes_capture_release(&s->json_direct);
	hierarchy_release(&s->hier);
	classes_snapshot_free(s->direct);
	s->direct = NULL;
	s->snap = NULL;
}

int
diff_classes_side_pick(struct diff_classes_side *s, const char *path,
		       const struct diff_options *opts, struct diag_list *notes,
		       struct diag *err)
{
	size_t i;
	if (capture_pick_nth(s->cap.nsnapshots, opts->has_dump ? opts->dump : 0, "--dump",
			     "class-count snapshot", path, &i, err) < 0)
		return -1;
	s->snap = s->cap.snapshots[i];
	if (s->cap.nsnapshots > 1)
		diag_list_add(notes, DIAG_NOTE, path, 0,
			      "holds %zu snapshots; comparing snapshot %zu%s", s->cap.nsnapshots,
			      i + 1, opts->has_dump ? "" : "; --dump N picks another");
	return 0;
}

static const struct hierarchy *
usable_hierarchy(struct diff_classes_side *s)
{
	if (hierarchy_empty(&s->hier))
		return NULL;
	if (!s->hier.finished)
		hierarchy_finish(&s->hier);
	return &s->hier;
}

/* Direct counts of one side: a JSON report's own, or from a hierarchy. */
static int
side_direct(struct diff_classes_side *s, const struct hierarchy *h, const char *path,
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

int
diff_classes_sides_direct(struct diff_classes_side *before, const char *before_path,
			  struct diff_classes_side *after, const char *after_path,
			  struct diag *err)
{
	const struct hierarchy *h = usable_hierarchy(before);
	if (!h)
		h = usable_hierarchy(after);
	if (side_direct(before, h, before_path, err) < 0 ||
	    side_direct(after, h, after_path, err) < 0)
		return -1;
	return 0;
}

void
diff_classes_pair_init(struct diff_classes_pair *p)
{
	memset(p, 0, sizeof(*p));
	diff_classes_side_init(&p->before);
	diff_classes_side_init(&p->after);
	classes_capture_init(&p->joined[0]);
	classes_capture_init(&p->joined[1]);
}

void
diff_classes_pair_release(struct diff_classes_pair *p)
{
	diff_classes_release(&p->diff);
	diff_classes_side_release(&p->before);
	diff_classes_side_release(&p->after);
	for (int side = 0; side < 2; side++) {
		classes_capture_release(&p->joined[side]);
		free(p->joined_path[side]);
		free(p->totals_from[side]);
	}
	free(p->totals_subject);
}

int
diff_classes_pair_compare(struct diff_classes_pair *p, const char *before_path,
			  const char *after_path, const struct diff_options *opts,
			  struct diag_list *notes, struct diag *err)
{
	if (diff_classes_side_pick(&p->before, before_path, opts, notes, err) < 0 ||
	    diff_classes_side_pick(&p->after, after_path, opts, notes, err) < 0)
		return -1;
	if (opts->direct && diff_classes_sides_direct(&p->before, before_path, &p->after,
						      after_path, err) < 0)
		return -1;
	diff_classes_compute(&p->diff, p->before.snap, p->after.snap, opts->direct);
	return 0;
}

void
diff_classes_metric_label(const char *kind, const char *metric, char *out, size_t size)
{
	if (strcmp(kind, "alloc") == 0)
		snprintf(out, size, "IOKit %s allocations", metric);
	else
		snprintf(out, size, "%s", metric);
}
