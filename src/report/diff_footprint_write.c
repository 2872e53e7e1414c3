#include "report/diff_footprint_write.h"

#include "report/jsontext.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

bool
diff_footprint_row_changed(const struct diff_footprint_row *r)
{
	if (r->before.known != r->after.known)
		return true;
	return r->has_delta && r->delta != 0;
}

bool
diff_footprint_changed(const struct diff_footprint *d)
{
	for (size_t i = 0; i < d->nrows; i++)
		if (diff_footprint_row_changed(&d->rows[i]))
			return true;
	/* Opposite changes of two processes leave the sums as they were. */
	for (size_t i = 0; i < d->nprocs; i++)
		if (diff_footprint_changed(&d->procs[i].diff))
			return true;
	return false;
}

static json_t *
side_json(const struct footprint_figure *f)
{
	return f->known ? json_integer((json_int_t)f->value) : json_null();
}

/*
 * The bound of a row's figures: the delta's when both are known, else the
 * one known figure's own (a figure footprint printed rounded never reads as
 * exact, e.g. a process only one capture holds).
 */
static uint64_t
row_slack(const struct diff_footprint_row *r)
{
	if (r->has_delta)
		return r->slack;
	return r->before.known ? r->before.slack : r->after.known ? r->after.slack : 0;
}

/* {before, after, delta, slack, at_least}: the diff NDJSON's triple, and its bound. */
static json_t *
triple_json(const struct diff_footprint_row *r)
{
	json_t *o = json_object();
	json_object_set_new_nocheck(o, "before", side_json(&r->before));
	json_object_set_new_nocheck(o, "after", side_json(&r->after));
	json_object_set_new_nocheck(o, "delta", r->has_delta ? json_integer(r->delta)
							     : json_null());
	json_object_set_new_nocheck(o, "slack", json_integer((json_int_t)row_slack(r)));
	json_object_set_new_nocheck(o, "at_least",
				    json_boolean(r->before.at_least || r->after.at_least));
	return o;
}

static json_t *
label_json(const struct footprint_process *p)
{
	char *l = footprint_process_label(p);
	json_t *j = json_text(l);
	free(l);
	return j;
}

/* figures and categories of one comparison into `o` (the pair's sums, or one process). */
static void
figures_json(json_t *o, const struct diff_footprint *d)
{
	json_t *figs = json_object(), *cats = json_array(), *cat = NULL;
	const char *last = NULL;
	for (size_t i = 0; i < d->nrows; i++) {
		const struct diff_footprint_row *r = &d->rows[i];
		if (!r->category) {
			json_object_set_new(figs, r->metric, triple_json(r));
			continue;
		}
		/* Rows of one category are adjacent (model/diff_footprint.c). */
		if (!last || last != r->category) {
			cat = json_object();
			json_object_set_new_nocheck(cat, "category", json_text(r->category));
			json_array_append_new(cats, cat);
			last = r->category;
		}
		json_object_set_new_nocheck(cat, footprint_fields[r->field].name, triple_json(r));
	}
	json_object_set_new_nocheck(o, "figures", figs);
	json_object_set_new_nocheck(o, "categories", cats);
}

static json_t *
pid_json(const struct footprint_process *p)
{
	return p && p->has_pid ? json_integer((json_int_t)p->pid) : json_null();
}

static json_t *
process_json(const struct diff_footprint_proc *p)
{
	json_t *o = json_object();
	const struct footprint_process *named = p->before ? p->before : p->after;
	char *label = diff_footprint_proc_label(p);
	json_object_set_new_nocheck(o, "process", json_text(label));
	free(label);
	json_object_set_new_nocheck(o, "name", named->name ? json_text(named->name)
							   : json_null());
	json_object_set_new_nocheck(o, "pid_before", pid_json(p->before));
	json_object_set_new_nocheck(o, "pid_after", pid_json(p->after));
	json_object_set_new_nocheck(o, "change",
				    json_string(diff_footprint_match_name(p->match)));
	figures_json(o, &p->diff);
	return o;
}

json_t *
diff_footprint_json(const struct diff_footprint *d)
{
	json_t *o = json_object(), *proc = json_object();
	json_object_set_new_nocheck(proc, "before", label_json(d->before));
	json_object_set_new_nocheck(proc, "after", label_json(d->after));
	json_object_set_new_nocheck(o, "footprint_process", proc);
	figures_json(o, d);
	/* Only for captures of several processes: a pair of one each is as it was. */
	if (d->nprocs) {
		json_t *procs = json_array();
		for (size_t i = 0; i < d->nprocs; i++)
			json_array_append_new(procs, process_json(&d->procs[i]));
		json_object_set_new_nocheck(o, "processes", procs);
	}
	return o;
}
