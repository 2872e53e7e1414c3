#include "report/footprint_ndjson_write.h"

#include "report/footprint_text.h"
#include "report/jsontext.h"
#include "report/ndjson.h"

#include <string.h>

struct flags {
	bool rounded, lower;
};

static json_t *
fig(const struct footprint_figure *f, struct flags *fl)
{
	if (!f || !f->known)
		return json_null();
	fl->rounded |= f->slack != 0;
	fl->lower |= f->at_least;
	return json_uint(f->value);
}

static struct ndjson_row *
row_start(const char *row, const struct ndjson_source *src, const char *status, const char *error,
	  size_t index, const struct footprint_process *p)
{
	struct ndjson_row *o = ndjson_row_new_at(FOOTPRINT_NDJSON_SCHEMA, row, src, "footprint");
	ndjson_set(o, "status", json_string_nocheck(status));
	ndjson_set(o, "error", ndjson_text_or_null(error));
	ndjson_set(o, "process_index", ndjson_uint_or_null(p != NULL, index));
	ndjson_set(o, "process", ndjson_text_or_null(p ? p->name : NULL));
	ndjson_set(o, "pid", ndjson_uint_or_null(p && p->has_pid, p ? p->pid : 0));
	ndjson_set(o, "page_size", ndjson_uint_or_null(p && p->page_size, p ? p->page_size : 0));
	return o;
}

/* The figures of a row: process-wide ones, or a category's (NULL: neither). */
static void
set_figures(struct ndjson_row *o, const struct footprint_process *p, const struct footprint_category *c)
{
	struct flags fl = { 0 };
	bool wide = p && !c;
	ndjson_set(o, "footprint", fig(wide ? &p->footprint : NULL, &fl));
	ndjson_set(o, "phys_footprint", fig(wide ? &p->phys_footprint : NULL, &fl));
	ndjson_set(o, "phys_footprint_peak", fig(wide ? &p->phys_footprint_peak : NULL, &fl));
	ndjson_set(o, "gpu_dirty", fig(wide ? &p->gpu_dirty : NULL, &fl));
	ndjson_set(o, "category", ndjson_text_or_null(c ? c->name : NULL));
	ndjson_set(o, "gpu", c ? json_boolean(footprint_category_is_gpu(c->name, strlen(c->name)))
			       : json_null());
	for (int f = 0; f < FOOTPRINT_FIELDS; f++)
		ndjson_set(o, footprint_fields[f].name,
			   fig(c && (p->columns & (1u << f)) ? &c->f[f] : NULL, &fl));
	ndjson_set(o, "elided", p ? json_boolean(p->elided) : json_null());
	ndjson_set(o, "rounded", p ? json_boolean(fl.rounded) : json_null());
	ndjson_set(o, "lower_bound", p ? json_boolean(fl.lower) : json_null());
}

int
footprint_ndjson_write(FILE *out, const struct footprint_capture *cap, const struct ndjson_source *src,
		       bool all)
{
	const char *status = cap->partial ? "partial" : "ok";
	struct ndjson_row *o = row_start("input", src, status, NULL, 0, NULL);
	set_figures(o, NULL, NULL);
	if (ndjson_row_write(out, o) < 0)
		return -1;
	for (size_t i = 0; i < cap->nprocs; i++) {
		const struct footprint_process *p = cap->procs[i];
		o = row_start("process", src, status, NULL, i + 1, p);
		set_figures(o, p, NULL);
		if (ndjson_row_write(out, o) < 0)
			return -1;
		for (size_t k = 0; k < p->ncats; k++) {
			if (!footprint_category_shown(&p->cats[k], all))
				continue;
			o = row_start("category", src, status, NULL, i + 1, p);
			set_figures(o, p, &p->cats[k]);
			if (ndjson_row_write(out, o) < 0)
				return -1;
		}
	}
	return 0;
}

int
footprint_ndjson_write_error(FILE *out, const struct ndjson_source *src, const char *error)
{
	struct ndjson_row *o = row_start("input", src, "error", error, 0, NULL);
	set_figures(o, NULL, NULL);
	return ndjson_row_write(out, o);
}
