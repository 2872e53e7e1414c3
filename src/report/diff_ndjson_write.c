#include "report/diff_ndjson_write.h"

#include "report/jsontext.h"
#include "report/ndjson.h"
#include "report/signature_write.h"
#include "util/array.h"

#include <string.h>

/* What a row says about its pair. */
struct pair_cols {
	const char *name, *before, *after, *kind, *status, *error;
	const struct signature *sig;       /* NULL: none */
	/* A section read from other files than the pair's (diff_report.h). */
	const struct diff_section_files *files;
	/* The body's "rounded": the pair's sizes were printed rounded (human-readable). */
	bool rounded;
};

static struct ndjson_row *
row_start(const char *row, const struct pair_cols *p)
{
	struct ndjson_row *o = ndjson_row_new(DIFF_NDJSON_SCHEMA, row, p->after, p->kind);
	ndjson_set(o, "baseline", json_text(p->before));
	ndjson_set(o, "pair", ndjson_text_or_null(p->name));
	ndjson_set(o, "status", json_string_nocheck(p->status));
	ndjson_set(o, "error", ndjson_text_or_null(p->error));
	return o;
}

/* The keys after the pair's: what changed, by how much, and the gate. */
struct change_cols {
	const char *table, *item, *module, *purge, *change, *metric;
	json_t *before, *after, *delta;    /* taken; NULL: null */
	bool rounded;
	const char *gate;
	json_t *tripped;                   /* taken; NULL: null */
	/* footprint: the element of the JSON's processes the row is of (NULL: none). */
	const json_t *proc;
	/* footprint: the figure is a lower bound (rows were elided); taken, NULL: null. */
	json_t *lower_bound;
};

static json_t *
or_null(json_t *v)
{
	return v ? v : json_null();
}

static const char *
str_member(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* An integer member of `o` (NULL o, or not an integer: null). */
static json_t *
int_member(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	return json_is_integer(v) ? json_integer(json_integer_value(v)) : json_null();
}

/*
 * The process a footprint row is of, in columns of its own (the last of
 * the row: keys are only added at the end): its name, each capture's
 * pid and how it was matched; null on every other row.
 */
static void
set_process(struct ndjson_row *o, const json_t *proc)
{
	ndjson_set(o, "process", ndjson_text_or_null(str_member(proc, "name")));
	ndjson_set(o, "pid_before", int_member(proc, "pid_before"));
	ndjson_set(o, "pid_after", int_member(proc, "pid_after"));
	ndjson_set(o, "process_change", ndjson_text_or_null(str_member(proc, "change")));
}

static int
write_row(FILE *out, const char *row, const struct pair_cols *p, const struct change_cols *c)
{
	struct pair_cols from = *p;
	/* Figures read from other files than the pair's name those files. */
	if (p->files && c->table && strcmp(c->table, p->files->section) == 0) {
		from.before = p->files->before;
		from.after = p->files->after;
	}
	struct ndjson_row *o = row_start(row, &from);
	ndjson_set(o, "section", ndjson_text_or_null(c->table));
	ndjson_set(o, "item", ndjson_text_or_null(c->item));
	ndjson_set(o, "module", ndjson_text_or_null(c->module));
	ndjson_set(o, "purge", ndjson_text_or_null(c->purge));
	ndjson_set(o, "change", ndjson_text_or_null(c->change));
	ndjson_set(o, "metric", ndjson_text_or_null(c->metric));
	ndjson_set(o, "before", or_null(c->before));
	ndjson_set(o, "after", or_null(c->after));
	ndjson_set(o, "delta", or_null(c->delta));
	ndjson_set(o, "rounded", json_boolean(c->rounded));
	ndjson_set(o, "gate", ndjson_text_or_null(c->gate));
	ndjson_set(o, "tripped", or_null(c->tripped));
	signature_ndjson_set(o, p->sig);
	set_process(o, c->proc);
	ndjson_set(o, "lower_bound", or_null(c->lower_bound));
	return ndjson_row_write(out, o);
}

/*
 * {"before", "after", "delta"}: a figure that changed hands. A delta of
 * null with a known side is a figure one capture does not have (vmmap
 * summary tables without that column): a row with null, never 0.
 */
static bool
is_triple(const json_t *v)
{
	const json_t *d = json_object_get(v, "delta"), *b = json_object_get(v, "before"),
		     *a = json_object_get(v, "after");
	return json_is_object(v) && b && a &&
	       (json_is_integer(d) || (json_is_null(d) && (json_is_integer(b) ||
							   json_is_integer(a))));
}

/*
 * A row even when its delta is 0: its item is new or gone, or it is a
 * process-wide figure of a relaunched process (the other pid is the change).
 */
static bool
row_moved(const struct change_cols *c)
{
	if (c->change && (strcmp(c->change, "new") == 0 || strcmp(c->change, "gone") == 0))
		return true;
	const char *how = str_member(c->proc, "change");
	return !c->item && how && strcmp(how, "relaunched") == 0;
}

/* One change row for a triple, when it changed or row_moved(). */
static int
write_triple(FILE *out, const struct pair_cols *p, struct change_cols c, const json_t *t)
{
	bool moved = row_moved(&c);
	c.rounded |= p->rounded;
	const json_t *delta = json_object_get(t, "delta");
	if (json_is_integer(delta) && json_integer_value(delta) == 0 && !moved)
		return 0;
	/* footprint's figures say their bound: one printed formatted is rounded. */
	const json_t *slack = json_object_get(t, "slack");
	if (json_is_integer(slack) && json_integer_value(slack) > 0)
		c.rounded = true;
	/*
	 * ... and whether it is only a lower bound (the JSON's at_least): a
	 * reader of the rows must not take a sum of listed rows as the figure.
	 * Kinds without the bound (exact figures) say null, not false.
	 */
	const json_t *at_least = json_object_get(t, "at_least");
	if (json_is_boolean(at_least))
		c.lower_bound = json_boolean(json_is_true(at_least));
	c.before = json_copy(json_object_get(t, "before"));
	c.after = json_copy(json_object_get(t, "after"));
	c.delta = json_copy(json_object_get(t, "delta"));
	return write_row(out, "change", p, &c);
}

/* A table of the kind's JSON: one item an element, its triples the metrics. */
struct table {
	const char *key;      /* member of the body */
	const char *item;     /* the element's name member */
	bool rounded;         /* vmmap's rounded summary figures */
};

/* The elements of `arr` (t->key of the body, or of one process), their columns from `base`. */
static int
write_elements(FILE *out, const struct pair_cols *p, const struct change_cols *base,
	       const json_t *arr, const char *item)
{
	size_t i;
	const json_t *el;
	json_array_foreach(arr, i, el) {
		struct change_cols c = *base;
		c.item = str_member(el, item);
		c.module = strcmp(item, "site") == 0 ? str_member(el, "module") : NULL;
		c.purge = str_member(el, "purge");
		c.change = str_member(el, "change");
		if (is_triple(el)) {        /* classes: the element is the count */
			c.metric = "count";
			if (write_triple(out, p, c, el) < 0)
				return -1;
			continue;
		}
		const char *key;
		const json_t *v;
		json_object_foreach((json_t *)el, key, v) {
			c.metric = key;
			if (is_triple(v) && write_triple(out, p, c, v) < 0)
				return -1;
		}
	}
	return 0;
}

static int
write_table(FILE *out, const struct pair_cols *p, const json_t *body, const struct table *t)
{
	struct change_cols c = { .table = t->key, .rounded = t->rounded };
	return write_elements(out, p, &c, json_object_get(body, t->key), t->item);
}

/* The triples of an object whose members are metrics (footprint's figures). */
static int
write_metrics(FILE *out, const struct pair_cols *p, struct change_cols c, const json_t *obj)
{
	const char *key;
	const json_t *t;
	json_object_foreach((json_t *)obj, key, t) {
		c.metric = key;
		if (is_triple(t) && write_triple(out, p, c, t) < 0)
			return -1;
	}
	return 0;
}

/*
 * Triples at the top of the body (footprint, total) or one level down
 * (allocation: the member is the item; figures, footprint's process-wide
 * ones: the member is the metric).
 */
static int
write_totals(FILE *out, const struct pair_cols *p, const json_t *body, const char *rounded)
{
	static const char *const tops[] = { "footprint", "total", "allocation", "figures" };
	for (size_t i = 0; i < ARRAY_SIZE(tops); i++) {
		const json_t *v = json_object_get(body, tops[i]);
		struct change_cols c = { .table = tops[i], .metric = tops[i],
					 .rounded = rounded && strcmp(tops[i], rounded) == 0 };
		if (is_triple(v)) {
			if (write_triple(out, p, c, v) < 0)
				return -1;
			continue;
		}
		if (strcmp(tops[i], "figures") == 0) {
			if (write_metrics(out, p, c, v) < 0)
				return -1;
			continue;
		}
		const char *key;
		const json_t *t;
		json_object_foreach((json_t *)v, key, t) {
			c.item = key;
			if (is_triple(t) && write_triple(out, p, c, t) < 0)
				return -1;
		}
	}
	return 0;
}

/*
 * footprint captures of several processes: each process's rows as the
 * sums' (its figures, item null; its categories, item the category), in
 * section "processes", with the process in columns of its own (set_process).
 */
static int
write_processes(FILE *out, const struct pair_cols *p, const json_t *body)
{
	size_t i;
	const json_t *proc;
	json_array_foreach(json_object_get(body, "processes"), i, proc) {
		struct change_cols c = { .table = "processes", .proc = proc };
		if (write_metrics(out, p, c, json_object_get(proc, "figures")) < 0 ||
		    write_elements(out, p, &c, json_object_get(proc, "categories"), "category") < 0)
			return -1;
	}
	return 0;
}

static int
write_gates(FILE *out, const struct pair_cols *p, const struct diff_report *r)
{
	for (size_t i = 0; i < r->ngates; i++) {
		const struct diff_gate *g = &r->gates[i];
		struct change_cols c = {
			.item = g->subject, .metric = g->metric, .gate = g->text,
		};
		/* Not evaluable: no figures, tripped null. */
		if (!g->unevaluable) {
			c.before = json_integer(g->before);
			c.after = json_integer(g->after);
			c.delta = json_integer(g->delta);
			c.tripped = json_boolean(g->tripped);
		}
		if (write_row(out, "gate", p, &c) < 0)
			return -1;
	}
	return 0;
}

int
diff_ndjson_write(FILE *out, const struct diff_report *r, const char *name, json_t *body)
{
	static const struct table tables[] = {
		{ "rows", "type", false },
		{ "summary_rows", "type", true },
		{ "classes", "class", false },
		{ "sites", "site", false },
		{ "modules", "module", false },
		{ "categories", "category", false },
	};
	struct pair_cols p = { name, r->before_path, r->after_path, r->kind, "ok", NULL, r->sig,
			       r->files.section ? &r->files : NULL,
			       json_is_true(json_object_get(body, "rounded")) };
	struct change_cols c = { .change = r->changed ? "changed" : "same" };
	int rc = write_row(out, "pair", &p, &c);
	for (size_t i = 0; i < ARRAY_SIZE(tables) && rc == 0; i++)
		rc = write_table(out, &p, body, &tables[i]);
	if (rc == 0)
		rc = write_totals(out, &p, body, r->rounded_member);
	if (rc == 0)
		rc = write_processes(out, &p, body);
	if (rc == 0)
		rc = write_gates(out, &p, r);
	json_decref(body);
	return rc;
}

int
diff_ndjson_write_error(FILE *out, const char *name, const char *before, const char *after,
			const char *kind, const char *error)
{
	struct pair_cols p = { name, before, after, kind, "error", error, NULL, NULL, false };
	struct change_cols c = { 0 };
	return write_row(out, "pair", &p, &c);
}
