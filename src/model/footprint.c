#include "model/footprint.h"

#include "util/bytes.h"
#include "util/size.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct footprint_figure
footprint_figure_rounded(uint64_t value, uint64_t unit)
{
	/* To the nearest unit: the true value is within half a unit. */
	return (struct footprint_figure){ .value = value, .slack = unit / 2, .known = true };
}

struct footprint_figure
footprint_figure_exact(uint64_t value)
{
	return (struct footprint_figure){ .value = value, .known = true };
}

bool
footprint_figure_add(struct footprint_figure *a, const struct footprint_figure *b)
{
	if (!a->known || !b->known) {
		*a = (struct footprint_figure){ 0 };
		return true;
	}
	uint64_t v = a->value, s = a->slack;
	if (!bytes_add(&v, b->value) || !bytes_add(&s, b->slack))
		return false;
	a->value = v;
	a->slack = s;
	a->at_least |= b->at_least;
	return true;
}

void
footprint_capture_init(struct footprint_capture *cap)
{
	memset(cap, 0, sizeof(*cap));
}

static void
process_release(struct footprint_process *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->ncats; i++)
		free(p->cats[i].name);
	free(p->cats);
	free(p->total.name);
	strmap_release(&p->index);
	free(p->name);
	for (size_t i = 0; i < p->nshared; i++)
		process_release(p->shared[i]);
	free(p->shared);
	free(p->shared_with);
	free(p);
}

void
footprint_capture_release(struct footprint_capture *cap)
{
	for (size_t i = 0; i < cap->nprocs; i++)
		process_release(cap->procs[i]);
	free(cap->procs);
	process_release(cap->summed);
	memset(cap, 0, sizeof(*cap));
}

static struct footprint_process *
process_new(uint64_t line)
{
	struct footprint_process *p = xcalloc(1, sizeof(*p));
	strmap_init(&p->index);
	p->first_line = line;
	return p;
}

struct footprint_process *
footprint_capture_add_process(struct footprint_capture *cap, uint64_t line)
{
	struct footprint_process *p = process_new(line);
	cap->procs = xgrow(cap->procs, &cap->alloc, cap->nprocs + 1, sizeof(*cap->procs));
	cap->procs[cap->nprocs++] = p;
	return p;
}

struct footprint_process *
footprint_process_add_shared(struct footprint_process *p, const char *with, size_t len,
			     uint64_t line)
{
	struct footprint_process *s = process_new(line);
	s->shared_with = xmemdup0(with, len);
	s->owner = p;
	p->shared = xgrow(p->shared, &p->shared_alloc, p->nshared + 1, sizeof(*p->shared));
	p->shared[p->nshared++] = s;
	return s;
}

struct footprint_category *
footprint_process_find(const struct footprint_process *p, const char *name, size_t len)
{
	size_t *i = strmap_get(&p->index, name, len);
	return i ? &p->cats[*i] : NULL;
}

struct footprint_category *
footprint_process_add(struct footprint_process *p, const char *name, size_t len,
		      uint64_t line)
{
	bool created;
	size_t *i = strmap_put(&p->index, name, len, &created);
	if (!created)
		return NULL;
	*i = p->ncats;
	p->cats = xgrow(p->cats, &p->alloc, p->ncats + 1, sizeof(*p->cats));
	struct footprint_category *c = &p->cats[p->ncats++];
	memset(c, 0, sizeof(*c));
	c->name = xmemdup0(name, len);
	c->line = line;
	return c;
}

struct footprint_figure
footprint_process_unlisted(const struct footprint_process *p, enum footprint_field f)
{
	if (!p->has_table || !(p->columns & p->unlisted_zero & (1u << f)))
		return (struct footprint_figure){ 0 };
	return footprint_figure_exact(0);
}

bool
footprint_process_adds_up(const struct footprint_process *p, enum footprint_field f,
			  struct footprint_figure *rows)
{
	*rows = footprint_figure_exact(0);
	for (size_t k = 0; k < p->ncats; k++)
		if (!footprint_figure_add(rows, &p->cats[k].f[f]))
			*rows = (struct footprint_figure){ 0 };
	const struct footprint_figure *t = &p->total.f[f];
	if (!p->has_total || !(p->columns & (1u << f)) || !rows->known || !t->known)
		return false;
	uint64_t gap = rows->value > t->value ? rows->value - t->value : t->value - rows->value;
	/* Both within their slack of the truth: at most the two slacks apart. */
	uint64_t slack = rows->slack;
	if (!bytes_add(&slack, t->slack))
		return true;
	/*
	 * footprint's TOTAL counts a few regions no row shows (a complete
	 * capture lists 9384 of its 9386): 1 % of TOTAL is taken as that.
	 */
	if (f == FOOTPRINT_REGIONS)
		slack += t->value / 100;
	return gap <= slack;
}

/*
 * Where an unlisted category holds 0 (docs/footprint.md, "Unknown is not
 * 0"). footprint lists every category the process has and prints TOTAL as
 * their sum: a table whose rows add up to its TOTAL (Dirty and Regions)
 * is all of them. Rows are sorted by Dirty, largest first: below a 0 B row
 * of a table read from its header down, every row's Dirty is 0 too. An
 * author's " ..." or a grep may hide any row: there nothing is known.
 */
static unsigned
unlisted_zero(const struct footprint_process *p)
{
	struct footprint_figure rows;
	if (!p->has_table || p->elided)
		return 0;
	if (footprint_process_adds_up(p, FOOTPRINT_DIRTY, &rows) &&
	    footprint_process_adds_up(p, FOOTPRINT_REGIONS, &rows))
		return (1u << FOOTPRINT_FIELDS) - 1;
	if (p->grepped || p->rows_lost || p->ncats == 0)
		return 0;
	const struct footprint_figure *last = &p->cats[p->ncats - 1].f[FOOTPRINT_DIRTY];
	return last->known && last->value == 0 && last->slack == 0 ? 1u << FOOTPRINT_DIRTY : 0;
}

struct footprint_figure
footprint_process_figure(const struct footprint_process *p, const char *name, size_t len,
			 enum footprint_field f)
{
	if (!p->has_table || !(p->columns & (1u << f)))
		return (struct footprint_figure){ 0 };
	const struct footprint_category *c = footprint_process_find(p, name, len);
	return c ? c->f[f] : footprint_process_unlisted(p, f);
}

static int
overflow(const char *path, const char *what, struct diag *err)
{
	return diag_set(err, DIAG_DATA, path, 0, 0,
			"the %s sum past 2^63 - 1 bytes: the figures cannot be right", what);
}

/* footprint:gpu.dirty: the Dirty column over the GPU categories it lists. */
static int
finish_gpu(struct footprint_process *p, const char *path, struct diag *err)
{
	p->gpu_dirty = (struct footprint_figure){ 0 };
	if (!p->has_table || !(p->columns & (1u << FOOTPRINT_DIRTY)))
		return 0;
	struct footprint_figure sum = footprint_figure_exact(0);
	size_t listed = 0;
	for (size_t i = 0; i < p->ncats; i++) {
		const struct footprint_category *c = &p->cats[i];
		if (!footprint_category_is_gpu(c->name, strlen(c->name)))
			continue;
		listed++;
		if (!footprint_figure_add(&sum, &c->f[FOOTPRINT_DIRTY]))
			return overflow(path, "GPU categories' dirty figures", err);
	}
	/* A GPU category the table does not list may hold more: a lower bound. */
	sum.at_least |= listed < footprint_gpu_ncategories &&
			!footprint_process_unlisted(p, FOOTPRINT_DIRTY).known;
	p->gpu_dirty = sum;
	return 0;
}

static int
add_into(struct footprint_figure *to, const struct footprint_figure *from, const char *path,
	 struct diag *err)
{
	if (!footprint_figure_add(to, from))
		return overflow(path, "processes' figures", err);
	return 0;
}

/*
 * Each process's listed rows added into the sum's rows of their names: one
 * pass over the rows, whatever the number of processes and categories.
 * listed[k * FIELDS + f] counts the processes with unknown unlisted f
 * figures that list category k: the ones that do not make k's sum unknown.
 */
static int
sum_listed(struct footprint_process *s, const struct footprint_process *p, size_t *listed,
	   const char *path, struct diag *err)
{
	for (size_t k = 0; k < p->ncats; k++) {
		const struct footprint_category *c = &p->cats[k];
		size_t *at = strmap_get(&s->index, c->name, strlen(c->name));
		for (int f = 0; f < FOOTPRINT_FIELDS; f++) {
			struct footprint_figure v = footprint_process_figure(p, c->name,
									     strlen(c->name),
									     (enum footprint_field)f);
			if (add_into(&s->cats[*at].f[f], &v, path, err) < 0)
				return -1;
			listed[*at * FOOTPRINT_FIELDS + (size_t)f] +=
				!footprint_process_unlisted(p, (enum footprint_field)f).known;
		}
	}
	return 0;
}

/* The sum of every process: a category any process lists, figures as each has them. */
static int
finish_summed(struct footprint_capture *cap, const char *path, struct diag *err)
{
	struct footprint_process *s = process_new(0);
	cap->summed = s;
	s->has_table = true;
	s->columns = (1u << FOOTPRINT_FIELDS) - 1;
	s->footprint = s->phys_footprint = s->phys_footprint_peak = footprint_figure_exact(0);
	s->has_total = true;
	s->total.name = xstrdup("TOTAL");
	s->unlisted_zero = (1u << FOOTPRINT_FIELDS) - 1;
	s->gpu_dirty = footprint_figure_exact(0);
	for (int f = 0; f < FOOTPRINT_FIELDS; f++)
		s->total.f[f] = footprint_figure_exact(0);
	for (size_t i = 0; i < cap->nprocs; i++) {
		const struct footprint_process *p = cap->procs[i];
		s->has_table &= p->has_table;
		s->columns &= p->columns;
		s->elided |= p->elided;
		/* A category no process lists is 0 where every process says so. */
		s->unlisted_zero &= p->unlisted_zero;
		for (size_t k = 0; k < p->ncats; k++)
			if (!footprint_process_find(s, p->cats[k].name, strlen(p->cats[k].name)))
				footprint_process_add(s, p->cats[k].name, strlen(p->cats[k].name),
						      0);
	}
	for (size_t k = 0; k < s->ncats; k++)
		for (int f = 0; f < FOOTPRINT_FIELDS; f++)
			s->cats[k].f[f] = footprint_figure_exact(0);
	/* Processes whose unlisted f figures are unknown: how many. */
	size_t unknown_unlisted[FOOTPRINT_FIELDS] = { 0 };
	size_t *listed = xcalloc(s->ncats ? s->ncats * FOOTPRINT_FIELDS : 1, sizeof(*listed));
	int rc = 0;
	for (size_t i = 0; i < cap->nprocs && rc == 0; i++) {
		const struct footprint_process *p = cap->procs[i];
		rc |= add_into(&s->footprint, &p->footprint, path, err);
		rc |= add_into(&s->phys_footprint, &p->phys_footprint, path, err);
		rc |= add_into(&s->gpu_dirty, &p->gpu_dirty, path, err);
		for (int f = 0; f < FOOTPRINT_FIELDS && rc == 0; f++) {
			struct footprint_figure t = p->has_total ? p->total.f[f] :
							(struct footprint_figure){ 0 };
			rc |= add_into(&s->total.f[f], &t, path, err);
			unknown_unlisted[f] +=
				!footprint_process_unlisted(p, (enum footprint_field)f).known;
		}
		if (rc == 0)
			rc = sum_listed(s, p, listed, path, err);
	}
	/* Peaks at different times do not add up to a peak of anything. */
	s->phys_footprint_peak = (struct footprint_figure){ 0 };
	/* A process that may hold a category it does not list leaves that sum unknown. */
	for (size_t k = 0; k < s->ncats && rc == 0; k++)
		for (int f = 0; f < FOOTPRINT_FIELDS; f++)
			if (listed[k * FOOTPRINT_FIELDS + (size_t)f] < unknown_unlisted[f])
				s->cats[k].f[f] = (struct footprint_figure){ 0 };
	free(listed);
	/* Each process's GPU figure, lower bound or not, summed: not the sum's rows,
	 * which are unknown where one process's is. */
	return rc ? -1 : 0;
}

int
footprint_capture_finish(struct footprint_capture *cap, const char *path, struct diag *err)
{
	for (size_t i = 0; i < cap->nprocs; i++) {
		cap->elided |= cap->procs[i]->elided;
		cap->procs[i]->unlisted_zero = unlisted_zero(cap->procs[i]);
		if (finish_gpu(cap->procs[i], path, err) < 0)
			return -1;
		for (size_t k = 0; k < cap->procs[i]->nshared; k++) {
			struct footprint_process *sh = cap->procs[i]->shared[k];
			sh->unlisted_zero = unlisted_zero(sh);
			if (finish_gpu(sh, path, err) < 0)
				return -1;
		}
	}
	if (cap->nprocs > 1)
		return finish_summed(cap, path, err);
	return 0;
}

static const struct footprint_figure *
process_wide(const struct footprint_process *p, const char *name)
{
	if (strcmp(name, "phys_footprint") == 0)
		return &p->phys_footprint;
	if (strcmp(name, "phys_footprint_peak") == 0)
		return &p->phys_footprint_peak;
	if (strcmp(name, "footprint") == 0)
		return &p->footprint;
	return NULL;
}

static const char *
field_names(void)
{
	static _Thread_local char buf[128];   /* one per thread: -j N reads on several */
	size_t n = 0;
	for (int f = 0; f < FOOTPRINT_FIELDS; f++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s",
				      f == 0 ? "" : f + 1 == FOOTPRINT_FIELDS ? " or " : ", ",
				      footprint_fields[f].name);
	return buf;
}

int
footprint_metric(const struct footprint_process *p, const char *metric,
		 struct footprint_figure *out, struct diag *err)
{
	const struct footprint_figure *w = process_wide(p, metric);
	*out = (struct footprint_figure){ 0 };
	if (w) {
		*out = *w;
		return 0;
	}
	const char *dot = strrchr(metric, '.');
	if (!dot || dot == metric)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"metric 'footprint:%s': expected CATEGORY.FIELD, gpu.dirty, "
				"phys_footprint, phys_footprint_peak or footprint", metric);
	int f = footprint_field_find(dot + 1, strlen(dot + 1));
	if (f < 0)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"metric 'footprint:%s': the field is one of %s", metric,
				field_names());
	size_t len = (size_t)(dot - metric);
	if (len == strlen(GPU_FAMILY) && memcmp(metric, GPU_FAMILY, len) == 0) {
		if (!footprint_fields[f].gpu)
			return diag_set(err, DIAG_USAGE, NULL, 0, 0,
					"metric 'footprint:%s': the gpu family of footprint has "
					"dirty only (docs/gpu.md)", metric);
		*out = p->gpu_dirty;
		return 0;
	}
	if (len == 5 && memcmp(metric, "TOTAL", 5) == 0) {
		if (p->has_total && (p->columns & (1u << f)))
			*out = p->total.f[f];
		return 0;
	}
	*out = footprint_process_figure(p, metric, len, (enum footprint_field)f);
	return 0;
}

enum metric_unit
footprint_metric_unit(const char *metric)
{
	/* The field is after the last '.', whatever the category or process
	 * name holds; the process-wide figures name no field. */
	const char *dot = strrchr(metric, '.');
	int f = dot ? footprint_field_find(dot + 1, strlen(dot + 1)) : -1;
	return f < 0 ? METRIC_BYTES : footprint_fields[f].unit;
}

void
footprint_metric_each(const struct footprint_process *p, footprint_metric_fn fn, void *ctx)
{
	static const char *const wide[] = { "footprint", "phys_footprint", "phys_footprint_peak" };
	struct strbuf name = STRBUF_INIT;
	for (size_t i = 0; i < sizeof(wide) / sizeof(wide[0]); i++) {
		const struct footprint_figure *w = process_wide(p, wide[i]);
		if (w->known)
			fn(ctx, wide[i], w);
	}
	if (p->gpu_dirty.known)
		fn(ctx, GPU_FAMILY ".dirty", &p->gpu_dirty);
	for (size_t k = 0; k < p->ncats; k++)
		for (int f = 0; f < FOOTPRINT_FIELDS; f++) {
			if (!p->cats[k].f[f].known)
				continue;
			strbuf_reset(&name);
			strbuf_addf(&name, "%s.%s", p->cats[k].name, footprint_fields[f].name);
			fn(ctx, name.buf, &p->cats[k].f[f]);
		}
	strbuf_release(&name);
}

char *
footprint_process_label(const struct footprint_process *p)
{
	struct strbuf sb = STRBUF_INIT;
	if (p->name)
		strbuf_addstr(&sb, p->name);
	if (p->has_pid)
		strbuf_addf(&sb, "%s[%" PRIu64 "]", p->name ? " " : "", p->pid);
	if (!p->name && !p->has_pid)
		strbuf_addstr(&sb, "(unnamed process)");
	return strbuf_detach(&sb, NULL);
}

void
footprint_figure_text(const struct footprint_figure *fig, bool count, char out[64])
{
	char human[32];
	if (!fig->known) {
		snprintf(out, 64, "?");
		return;
	}
	const char *lb = fig->at_least ? ">=" : "";
	if (count) {
		snprintf(out, 64, "%s%" PRIu64, lb, fig->value);
		return;
	}
	/* The one text formatter (util/size.h): "~" for a figure footprint rounded. */
	size_format_text(fig->value > INT64_MAX ? INT64_MAX : (int64_t)fig->value,
			 fig->slack ? SIZE_TEXT_ROUNDED : 0, human);
	snprintf(out, 64, "%s%s", lb, human);
}

void
footprint_delta_text(int64_t delta, uint64_t slack, bool count, char out[64])
{
	if (count) {
		snprintf(out, 64, "%s%+" PRId64, slack ? "~" : "", delta);
		return;
	}
	char human[32];
	/* A delta of rounded figures is shown as one ("~+64 MiB"). */
	size_format_text(delta, SIZE_TEXT_SIGNED | (slack ? SIZE_TEXT_ROUNDED : 0), human);
	snprintf(out, 64, "%s", human);
}
