#include "report/footprint_json_write.h"

#include "report/footprint_text.h"
#include "report/jsontext.h"

#include <string.h>

static json_t *
figure_json(const struct footprint_figure *f, bool count)
{
	if (!f->known)
		return json_null();
	json_t *o = json_object();
	json_object_set_new_nocheck(o, count ? "count" : "bytes", json_uint(f->value));
	json_object_set_new_nocheck(o, "exact", json_boolean(f->slack == 0 && !f->at_least));
	json_object_set_new_nocheck(o, "slack", json_uint(f->slack));
	json_object_set_new_nocheck(o, "at_least", json_boolean(f->at_least));
	return o;
}

static json_t *
category_json(const struct footprint_process *p, const struct footprint_category *c,
	      bool named)
{
	json_t *o = json_object();
	if (named) {
		json_object_set_new_nocheck(o, "name", json_text(c->name));
		json_object_set_new_nocheck(o, "gpu", json_boolean(footprint_category_is_gpu(
								 c->name, strlen(c->name))));
		json_object_set_new_nocheck(o, "line", c->line ? json_uint(c->line) : json_null());
	}
	for (int f = 0; f < FOOTPRINT_FIELDS; f++) {
		struct footprint_figure none = { 0 };
		const struct footprint_figure *v = (p->columns & (1u << f)) ? &c->f[f] : &none;
		json_object_set_new_nocheck(o, footprint_fields[f].name,
					    figure_json(v, f == FOOTPRINT_REGIONS));
	}
	return o;
}

static json_t *
process_json(const struct footprint_process *p, bool all)
{
	json_t *o = json_object();
	json_object_set_new_nocheck(o, "name", p->name ? json_text(p->name) : json_null());
	json_object_set_new_nocheck(o, "pid", p->has_pid ? json_uint(p->pid) : json_null());
	json_object_set_new_nocheck(o, "bits", p->bits ? json_uint(p->bits) : json_null());
	json_object_set_new_nocheck(o, "page_size",
				    p->page_size ? json_uint(p->page_size) : json_null());
	json_object_set_new_nocheck(o, "footprint", figure_json(&p->footprint, false));
	json_object_set_new_nocheck(o, "phys_footprint", figure_json(&p->phys_footprint, false));
	json_object_set_new_nocheck(o, "phys_footprint_peak",
				    figure_json(&p->phys_footprint_peak, false));
	json_object_set_new_nocheck(o, "gpu_dirty", figure_json(&p->gpu_dirty, false));
	json_object_set_new_nocheck(o, "has_table", json_boolean(p->has_table));
	json_t *cols = json_array();
	for (int f = 0; f < FOOTPRINT_FIELDS; f++)
		if (p->columns & (1u << f))
			json_array_append_new(cols, json_string_nocheck(footprint_fields[f].name));
	json_object_set_new_nocheck(o, "columns", cols);
	json_object_set_new_nocheck(o, "elided", json_boolean(p->elided));
	json_t *cats = json_array();
	for (size_t i = 0; i < p->ncats; i++)
		if (footprint_category_shown(&p->cats[i], all))
			json_array_append_new(cats, category_json(p, &p->cats[i], true));
	json_object_set_new_nocheck(o, "categories", cats);
	json_object_set_new_nocheck(o, "total",
				    p->has_total ? category_json(p, &p->total, false) : json_null());
	return o;
}

int
footprint_json_write(FILE *out, const struct footprint_capture *cap, const char *path,
		     bool all)
{
	json_t *root = json_document_new(FOOTPRINT_SCHEMA);
	json_object_set_new_nocheck(root, "input", json_text(path));
	json_object_set_new_nocheck(root, "categories", json_string_nocheck(all ? "all" : "gpu"));
	json_object_set_new_nocheck(root, "partial", json_boolean(cap->partial));
	json_object_set_new_nocheck(root, "elided", json_boolean(cap->elided));
	json_t *lk = json_object();
	json_object_set_new_nocheck(lk, "found", json_uint(cap->lookups_found));
	json_object_set_new_nocheck(lk, "failed", json_uint(cap->lookups_failed));
	json_object_set_new_nocheck(root, "lookups", lk);
	json_object_set_new_nocheck(root, "summary_footprint",
				    figure_json(&cap->summary_footprint, false));
	json_t *procs = json_array();
	for (size_t i = 0; i < cap->nprocs; i++)
		json_array_append_new(procs, process_json(cap->procs[i], all));
	json_object_set_new_nocheck(root, "processes", procs);
	json_object_set_new_nocheck(root, "summed",
				    cap->summed ? process_json(cap->summed, all) : json_null());
	return json_document_write(out, root);
}
