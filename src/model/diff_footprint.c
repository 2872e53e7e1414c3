#include "model/diff_footprint.h"

#include "util/bytes.h"
#include "util/hashmap.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int
add_row(struct diff_footprint *d, const char *category, const char *metric,
	enum footprint_field f, struct footprint_figure before, struct footprint_figure after,
	struct diag *err)
{
	d->rows = xgrow(d->rows, &d->alloc, d->nrows + 1, sizeof(*d->rows));
	struct diff_footprint_row *r = &d->rows[d->nrows++];
	memset(r, 0, sizeof(*r));
	r->category = category;
	r->metric = metric;
	r->field = f;
	r->before = before;
	r->after = after;
	if (!before.known || !after.known)
		return 0;
	/* Both at most 2^63 - 1 (util/bytes.h): the difference fits in int64_t. */
	r->delta = (int64_t)after.value - (int64_t)before.value;
	r->slack = before.slack;
	if (!bytes_add(&r->slack, after.slack))
		return diag_set(err, DIAG_DATA, NULL, 0, 0,
				"footprint figures whose bounds pass 2^63 - 1 bytes");
	r->has_delta = true;
	return 0;
}

static bool
either_has_column(const struct diff_footprint *d, int f)
{
	return ((d->before->columns | d->after->columns) & (1u << f)) != 0;
}

static int
add_category(struct diff_footprint *d, const char *name, struct diag *err)
{
	size_t len = strlen(name);
	for (int f = 0; f < FOOTPRINT_FIELDS; f++) {
		if (!either_has_column(d, f))
			continue;
		if (add_row(d, name, NULL, (enum footprint_field)f,
			    footprint_process_figure(d->before, name, len, f),
			    footprint_process_figure(d->after, name, len, f), err) < 0)
			return -1;
	}
	return 0;
}

int
diff_footprint_compare(struct diff_footprint *d, const struct footprint_process *before,
		       const struct footprint_process *after, struct diag *err)
{
	static const char *const wide[] = {
		"footprint", "phys_footprint", "phys_footprint_peak", GPU_FAMILY ".dirty",
	};
	memset(d, 0, sizeof(*d));
	d->before = before;
	d->after = after;
	for (size_t i = 0; i < sizeof(wide) / sizeof(wide[0]); i++) {
		struct footprint_figure b, a;
		footprint_metric(before, wide[i], &b, NULL);
		footprint_metric(after, wide[i], &a, NULL);
		if (add_row(d, NULL, wide[i], FOOTPRINT_DIRTY, b, a, err) < 0)
			return -1;
	}
	for (size_t k = 0; k < before->ncats; k++)
		if (add_category(d, before->cats[k].name, err) < 0)
			return -1;
	for (size_t k = 0; k < after->ncats; k++) {
		const char *n = after->cats[k].name;
		if (!footprint_process_find(before, n, strlen(n)) && add_category(d, n, err) < 0)
			return -1;
	}
	return 0;
}

void
diff_footprint_release(struct diff_footprint *d)
{
	for (size_t i = 0; i < d->nprocs; i++)
		diff_footprint_release(&d->procs[i].diff);
	free(d->procs);
	free(d->rows);
	memset(d, 0, sizeof(*d));
}

/* ---- per process ---------------------------------------------------------- */

const char *
diff_footprint_match_name(enum diff_footprint_match m)
{
	switch (m) {
	case DIFF_FP_SAME: return "same";
	case DIFF_FP_RELAUNCHED: return "relaunched";
	case DIFF_FP_REMOVED: return "removed";
	case DIFF_FP_ADDED: return "added";
	}
	return "?";
}

const char *const diff_footprint_proc_figures[4] = {
	GPU_FAMILY ".dirty", "footprint", "phys_footprint", "phys_footprint_peak",
};

const struct diff_footprint_row *
diff_footprint_figure_row(const struct diff_footprint *d, const char *metric)
{
	for (size_t i = 0; i < d->nrows; i++)
		if (!d->rows[i].category && strcmp(d->rows[i].metric, metric) == 0)
			return &d->rows[i];
	return NULL;
}

void
diff_footprint_cells(const struct diff_footprint *d, const struct diff_footprint_row *r,
		     bool count, char before[64], char after[64], char delta[64])
{
	snprintf(before, 64, "-");
	snprintf(after, 64, "-");
	snprintf(delta, 64, "-");
	if (d->before)
		footprint_figure_text(&r->before, count, before);
	if (d->after)
		footprint_figure_text(&r->after, count, after);
	if (r->has_delta)
		footprint_delta_text(r->delta, r->slack, count, delta);
	else if (d->before && d->after)
		snprintf(delta, 64, "?");
}

char *
diff_footprint_proc_label(const struct diff_footprint_proc *p)
{
	if (p->match != DIFF_FP_RELAUNCHED)
		return footprint_process_label(p->before ? p->before : p->after);
	/* Matched by name, so both are named; each side's pid as the capture has it. */
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s [", p->before->name);
	if (p->before->has_pid)
		strbuf_addf(&sb, "%" PRIu64, p->before->pid);
	else
		strbuf_addstr(&sb, "?");
	strbuf_addstr(&sb, " -> ");
	if (p->after->has_pid)
		strbuf_addf(&sb, "%" PRIu64, p->after->pid);
	else
		strbuf_addstr(&sb, "?");
	strbuf_addstr(&sb, "]");
	return strbuf_detach(&sb, NULL);
}

/*
 * AFTER's processes indexed by a key, each key's processes chained in
 * capture order, so that matching takes time linear in the processes
 * (a capture of `footprint --all` holds hundreds; a hostile one more).
 */
struct chain_index {
	struct strmap heads;   /* key -> first index of the chain not yet skipped */
	size_t *next;          /* the next index of the same key; SIZE_MAX ends */
};

#define CHAIN_END SIZE_MAX

/* The key of a stage: "NAME [PID]" (exact) or NAME (relaunch); NULL: no key. */
typedef char *(*process_key_fn)(const struct footprint_process *p);

static char *
exact_key(const struct footprint_process *p)
{
	return footprint_process_label(p);
}

static char *
name_key(const struct footprint_process *p)
{
	return p->name ? xstrdup(p->name) : NULL;
}

static void
chain_build(struct chain_index *c, const struct footprint_capture *cap, process_key_fn key)
{
	strmap_init(&c->heads);
	c->next = xcalloc(cap->nprocs ? cap->nprocs : 1, sizeof(*c->next));
	/* Backwards, each index pushed in front: chains run in capture order. */
	for (size_t i = cap->nprocs; i-- > 0;) {
		char *k = key(cap->procs[i]);
		c->next[i] = CHAIN_END;
		if (!k)
			continue;
		bool created;
		size_t *head = strmap_put(&c->heads, k, strlen(k), &created);
		c->next[i] = created ? CHAIN_END : *head;
		*head = i;
		free(k);
	}
}

static void
chain_release(struct chain_index *c)
{
	strmap_release(&c->heads);
	free(c->next);
}

/* The first process of `p`'s key not matched yet (CHAIN_END: none); skipped ones leave the chain. */
static size_t
chain_take(struct chain_index *c, const struct footprint_process *p, process_key_fn key,
	   const bool *used)
{
	char *k = key(p);
	if (!k)
		return CHAIN_END;
	size_t *head = strmap_get(&c->heads, k, strlen(k));
	free(k);
	if (!head)
		return CHAIN_END;
	while (*head != CHAIN_END && used[*head])
		*head = c->next[*head];
	return *head;
}

/* One stage: BEFORE's unmatched processes in order, each given the first unmatched AFTER of its key. */
static void
match_stage(const struct footprint_capture *b, const struct footprint_capture *a,
	    process_key_fn key, size_t *pair_of, bool *used)
{
	struct chain_index c;
	chain_build(&c, a, key);
	for (size_t i = 0; i < b->nprocs; i++) {
		if (pair_of[i] != CHAIN_END)
			continue;
		size_t j = chain_take(&c, b->procs[i], key, used);
		if (j != CHAIN_END) {
			pair_of[i] = j;
			used[j] = true;
		}
	}
	chain_release(&c);
}

static const struct footprint_process absent;   /* a side without the process: no figure */

static int
add_proc(struct diff_footprint *d, size_t *alloc, enum diff_footprint_match m,
	 const struct footprint_process *b, const struct footprint_process *a,
	 struct diag *err)
{
	d->procs = xgrow(d->procs, alloc, d->nprocs + 1, sizeof(*d->procs));
	struct diff_footprint_proc *p = &d->procs[d->nprocs++];
	memset(p, 0, sizeof(*p));
	p->match = m;
	p->before = b;
	p->after = a;
	int rc = diff_footprint_compare(&p->diff, b ? b : &absent, a ? a : &absent, err);
	/* Writers tell a missing side by the NULL above, not by the stand-in. */
	p->diff.before = b;
	p->diff.after = a;
	return rc;
}

int
diff_footprint_compare_processes(struct diff_footprint *d,
				 const struct footprint_capture *before,
				 const struct footprint_capture *after, struct diag *err)
{
	size_t *pair_of = xcalloc(before->nprocs ? before->nprocs : 1, sizeof(*pair_of));
	bool *used = xcalloc(after->nprocs ? after->nprocs : 1, sizeof(*used));
	size_t alloc = 0;
	int rc = 0;
	for (size_t i = 0; i < before->nprocs; i++)
		pair_of[i] = CHAIN_END;
	/* Every exact match first: a relaunch must not take a process that stayed. */
	match_stage(before, after, exact_key, pair_of, used);
	match_stage(before, after, name_key, pair_of, used);
	for (size_t i = 0; i < before->nprocs && rc == 0; i++) {
		const struct footprint_process *b = before->procs[i];
		if (pair_of[i] == CHAIN_END) {
			rc = add_proc(d, &alloc, DIFF_FP_REMOVED, b, NULL, err);
			continue;
		}
		const struct footprint_process *a = after->procs[pair_of[i]];
		bool same = b->has_pid == a->has_pid && (!b->has_pid || b->pid == a->pid);
		rc = add_proc(d, &alloc, same ? DIFF_FP_SAME : DIFF_FP_RELAUNCHED, b, a, err);
	}
	for (size_t j = 0; j < after->nprocs && rc == 0; j++)
		if (!used[j])
			rc = add_proc(d, &alloc, DIFF_FP_ADDED, NULL, after->procs[j], err);
	free(pair_of);
	free(used);
	return rc;
}

/* ---- a gate on one process ---------------------------------------------------- */

#define PROCESS_PREFIX "process:"

bool
diff_footprint_metric_is_process(const char *metric)
{
	return strncmp(metric, PROCESS_PREFIX, strlen(PROCESS_PREFIX)) == 0;
}

/*
 * The process `sel` names in `cap` (by its label "NAME [PID]", else by
 * name): NULL when none; *several when more than one has that name.
 */
static const struct footprint_process *
find_process(const struct footprint_capture *cap, const char *sel, size_t len, bool *several)
{
	const struct footprint_process *by_name = NULL;
	*several = false;
	for (size_t i = 0; i < cap->nprocs; i++) {
		const struct footprint_process *p = cap->procs[i];
		char *label = footprint_process_label(p);
		bool exact = strlen(label) == len && memcmp(label, sel, len) == 0;
		free(label);
		if (exact)
			return p;
		if (p->name && strlen(p->name) == len && memcmp(p->name, sel, len) == 0) {
			*several |= by_name != NULL;
			if (!by_name)
				by_name = p;
		}
	}
	return by_name;
}

int
diff_footprint_process_metric(const struct footprint_capture *before,
			      const struct footprint_capture *after, const char *metric,
			      struct footprint_figure *fb, struct footprint_figure *fa,
			      const char **missing, bool *no_process, struct diag *err)
{
	*missing = NULL;
	*no_process = false;
	*fb = *fa = (struct footprint_figure){ 0 };
	const char *sel = metric + strlen(PROCESS_PREFIX), *colon = strrchr(sel, ':');
	if (!colon || colon == sel || !colon[1])
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"metric 'footprint:%s': expected process:NAME:FIGURE (NAME as "
				"footprint prints it, or 'NAME [PID]'; FIGURE as the sum's: "
				"gpu.dirty, phys_footprint, CATEGORY.FIELD, ...)", metric);
	size_t len = (size_t)(colon - sel);
	bool sb, sa;
	const struct footprint_process *b = find_process(before, sel, len, &sb),
					*a = find_process(after, sel, len, &sa);
	/* The figure's name first: a typo in it is a usage error whatever the captures hold. */
	if (footprint_metric(b ? b : &absent, colon + 1, fb, err) < 0 ||
	    footprint_metric(a ? a : &absent, colon + 1, fa, err) < 0)
		return -1;
	if (!b && !a)
		return diag_set(err, DIAG_DATA, NULL, 0, 0,
				"metric 'footprint:%s': neither capture holds a process '%.*s'",
				metric, (int)len, sel);
	if (sb || sa)
		return diag_set(err, DIAG_DATA, NULL, 0, 0,
				"metric 'footprint:%s': the %s capture holds several processes "
				"named '%.*s': name one as 'NAME [PID]'", metric,
				sb ? "BEFORE" : "AFTER", (int)len, sel);
	if (!fb->known)
		*missing = "BEFORE";
	else if (!fa->known)
		*missing = "AFTER";
	*no_process = *missing && !(fb->known ? a : b);
	return 0;
}

const struct diff_footprint_row *
diff_footprint_metric_grew_most(const struct diff_footprint *d, const char *metric)
{
	const char *dot = strrchr(metric, '.');
	int f = dot ? footprint_field_find(dot + 1, strlen(dot + 1)) : -1;
	if (f < 0 || dot == metric)
		return NULL;
	size_t len = (size_t)(dot - metric);
	bool family = len == strlen(GPU_FAMILY) && memcmp(metric, GPU_FAMILY, len) == 0;
	const struct diff_footprint_row *most = NULL;
	for (size_t i = 0; i < d->nrows; i++) {
		const struct diff_footprint_row *r = &d->rows[i];
		if (!r->category || r->field != (enum footprint_field)f || !r->has_delta ||
		    r->delta <= 0 || (most && r->delta <= most->delta))
			continue;
		if (family ? footprint_category_is_gpu(r->category, strlen(r->category))
			   : strlen(r->category) == len && memcmp(r->category, metric, len) == 0)
			most = r;
	}
	return most;
}

int
diff_footprint_metric(const struct diff_footprint *d, const char *metric,
		      struct footprint_figure *before, struct footprint_figure *after,
		      const char **missing, struct diag *err)
{
	*missing = NULL;
	if (footprint_metric(d->before, metric, before, err) < 0 ||
	    footprint_metric(d->after, metric, after, err) < 0)
		return -1;
	if (!before->known)
		*missing = "BEFORE";
	else if (!after->known)
		*missing = "AFTER";
	return 0;
}

void
diff_footprint_metric_label(const char *kind, const char *metric, char *out, size_t size)
{
	(void)kind;
	const char *dot = strrchr(metric, '.');
	if (strcmp(metric, "phys_footprint") == 0)
		snprintf(out, size, "physical footprint");
	else if (strncmp(metric, "gpu.", 4) == 0)
		snprintf(out, size, "GPU %s", metric + 4);
	else if (dot)
		snprintf(out, size, "%.*s %s", (int)(dot - metric), metric, dot + 1);
	else
		snprintf(out, size, "%s", metric);
}
