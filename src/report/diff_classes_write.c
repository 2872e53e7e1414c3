#include "report/diff_classes_write.h"

#include "report/jsontext.h"

static const char *
row_mark(const struct diff_classes_row *r)
{
	if (!r->in_before)
		return "new";
	if (!r->in_after)
		return "gone";
	return "";
}

static json_t *
side(bool present, int64_t v)
{
	return present ? json_integer(v) : json_null();
}

static json_t *
delta_json(int64_t before, int64_t after)
{
	int64_t d;
	return __builtin_sub_overflow(after, before, &d) ? json_null() : json_integer(d);
}

json_t *
diff_classes_json(const struct diff_classes *d)
{
	json_t *o = json_object(), *rows = json_array(), *alloc = json_object();
	json_object_set_new_nocheck(o, "direct", json_boolean(d->direct));
	for (size_t i = 0; i < d->nrows; i++) {
		const struct diff_classes_row *r = &d->rows[i];
		json_t *c = json_object();
		const char *mark = row_mark(r);
		json_object_set_new_nocheck(c, "class", json_text(r->name));
		json_object_set_new_nocheck(c, "before", side(r->in_before, r->before));
		json_object_set_new_nocheck(c, "after", side(r->in_after, r->after));
		json_object_set_new_nocheck(c, "delta", r->delta_overflow ? json_null()
								    : json_integer(r->delta));
		json_object_set_new_nocheck(c, "change", json_string_nocheck(
			*mark ? mark : diff_classes_row_changed(r) ? "changed" : "same"));
		json_array_append_new(rows, c);
	}
	json_object_set_new_nocheck(o, "classes", rows);
	const struct classes_snapshot *tb = d->totals[0], *ta = d->totals[1];
	for (int k = 0; k < ALLOC_KINDS; k++) {
		bool hb = tb->alloc_present[k], ha = ta->alloc_present[k];
		if (!hb && !ha)
			continue;
		json_t *a = json_object();
		json_object_set_new_nocheck(a, "before", side(hb, tb->alloc[k]));
		json_object_set_new_nocheck(a, "after", side(ha, ta->alloc[k]));
		/* null: one side does not hold the total (unknown, not 0), or overflow. */
		json_object_set_new_nocheck(a, "delta", hb != ha ? json_null() :
					    delta_json(tb->alloc[k], ta->alloc[k]));
		json_object_set_new_nocheck(alloc, alloc_kind_name((enum alloc_kind)k), a);
	}
	json_object_set_new_nocheck(o, DIFF_CLASSES_ALLOCATION_KEY, alloc);
	return o;
}
