/*
 * A trend sample read apart from its series, added later in input order
 * (model/trend_sample.h).
 */

#include "model/trend_sample.h"

#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

void
trend_sample_init(struct trend_sample *t)
{
	memset(t, 0, sizeof(*t));
	strbuf_init(&t->names);
}

void
trend_sample_release(struct trend_sample *t)
{
	free(t->v);
	strbuf_release(&t->names);
	trend_sample_init(t);
}

static struct trend_sample_entry *
add_entry(struct trend_sample *t, const char *name)
{
	t->v = xgrow(t->v, &t->alloc, t->n + 1, sizeof(*t->v));
	struct trend_sample_entry *e = &t->v[t->n++];
	memset(e, 0, sizeof(*e));
	e->name = t->names.len;
	strbuf_add(&t->names, name, strlen(name) + 1);   /* its NUL kept: names follow each other */
	return e;
}

void
trend_sample_set(struct trend_sample *t, const char *name, enum trend_unit unit, bool zero_fill,
		 bool leak_exempt, double value)
{
	struct trend_sample_entry *e = add_entry(t, name);
	e->unit = unit;
	e->zero_fill = zero_fill;
	e->leak_exempt = leak_exempt;
	e->v = value;
}

void
trend_sample_set_resolution(struct trend_sample *t, const char *name, double q)
{
	struct trend_sample_entry *e = add_entry(t, name);
	e->resolution = true;
	e->v = q;
}

size_t
trend_series_add(struct trend_series *s, const struct trend_sample *t)
{
	size_t k = trend_series_add_sample(s, t->complete);
	for (size_t i = 0; i < t->n; i++) {
		const struct trend_sample_entry *e = &t->v[i];
		const char *name = t->names.buf + e->name;
		if (e->resolution)
			trend_series_set_resolution(s, name, e->v);
		else
			trend_series_set(s, k, name, e->unit, e->zero_fill, e->leak_exempt, e->v);
	}
	return k;
}
