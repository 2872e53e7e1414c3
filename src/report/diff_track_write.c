#include "report/diff_track_write.h"

#include "report/diff_report.h"
#include "report/jsontext.h"
#include "util/escape.h"
#include "util/hashmap.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- JSON -------------------------------------------------------------- */

static json_t *
count_triple(int64_t before, int64_t after)
{
	json_t *o = json_object();
	int64_t dc;
	json_object_set_new_nocheck(o, "before", json_integer(before));
	json_object_set_new_nocheck(o, "after", json_integer(after));
	json_object_set_new_nocheck(o, "delta", __builtin_sub_overflow(after, before, &dc)
				    ? json_null() : json_integer(dc));
	return o;
}

static json_t *
frames_json(const struct diff_track *d, const struct diff_track_site *s)
{
	json_t *arr = json_array();
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < s->nframes; i++) {
		strbuf_reset(&sb);
		diff_track_frame_text(d, diff_track_site_frame(s, i), &sb);
		json_array_append_new(arr, json_textn(sb.buf, sb.len));
	}
	strbuf_release(&sb);
	return arr;
}

static json_t *
site_json(const struct diff_track *d, const struct diff_track_site *s)
{
	json_t *o = json_object();
	struct strbuf label = STRBUF_INIT;
	diff_track_site_label(d, s, &label);
	json_object_set_new_nocheck(o, "change",
		json_string_nocheck(diff_track_change_name(diff_track_site_change(d, s))));
	json_object_set_new_nocheck(o, "type", json_string_nocheck(s->mapping ? "mapping"
										 : "allocation"));
	json_object_set_new_nocheck(o, "site", json_textn(label.buf, label.len));
	json_object_set_new_nocheck(o, "module", json_text(d->modules[s->module].name));
	const struct diff_track_figures *b = diff_track_site_side(d, s, 0);
	const struct diff_track_figures *a = diff_track_site_side(d, s, 1);
	json_object_set_new_nocheck(o, "bytes", diff_json_triple(b->bytes, a->bytes));
	json_object_set_new_nocheck(o, "count", count_triple(b->count, a->count));
	json_object_set_new_nocheck(o, "records", diff_json_triple(b->records, a->records));
	json_object_set_new_nocheck(o, "frames", frames_json(d, s));
	strbuf_release(&label);
	return o;
}

json_t *
diff_track_json(const struct diff_track *d)
{
	json_t *o = json_object(), *sites = json_array(), *mods = json_array();
	const struct diff_track_site **s;
	const struct diff_track_module **m;
	size_t ns = diff_track_sorted_sites(d, &s), nm = diff_track_sorted_modules(d, &m);
	json_object_set_new_nocheck(o, "match_offsets", json_boolean(d->match_offsets));
	json_object_set_new_nocheck(o, "total", diff_json_triple(d->total[0], d->total[1]));
	json_object_set_new_nocheck(o, "sites_count",
				    diff_json_triple(d->nsites_side[0], d->nsites_side[1]));
	json_object_set_new_nocheck(o, "records", diff_json_triple(d->records[0], d->records[1]));
	for (size_t i = 0; i < ns; i++)
		json_array_append_new(sites, site_json(d, s[i]));
	json_object_set_new_nocheck(o, "sites", sites);
	for (size_t i = 0; i < nm; i++) {
		json_t *mo = json_object();
		json_object_set_new_nocheck(mo, "module", json_text(m[i]->name));
		json_object_set_new_nocheck(mo, "bytes",
					    diff_json_triple(m[i]->bytes[0], m[i]->bytes[1]));
		json_object_set_new_nocheck(mo, "records",
					    diff_json_triple(m[i]->records[0], m[i]->records[1]));
		json_array_append_new(mods, mo);
	}
	json_object_set_new_nocheck(o, "modules", mods);
	free(s);
	free(m);
	return o;
}

/* ---- folded ------------------------------------------------------------ */

struct folded_row {
	char *stack;
	uint64_t bytes[2];
};

static int
cmp_folded(const void *a, const void *b)
{
	return strcmp(((const struct folded_row *)a)->stack, ((const struct folded_row *)b)->stack);
}

void
diff_track_write_folded(FILE *out, const struct diff_track *d)
{
	struct strmap index;
	struct folded_row *rows = xcalloc(d->nsites + 1, sizeof(*rows));
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0;
	strmap_init(&index);
	for (size_t i = 0; i < d->nsites; i++) {
		const struct diff_track_site *s = &d->sites[i];
		bool created;
		strbuf_reset(&sb);
		diff_track_site_folded(d, s, &sb);
		size_t *idx = strmap_put(&index, sb.buf, sb.len, &created);
		if (created) {
			rows[n].stack = xmemdup0(sb.buf, sb.len);
			*idx = n++;
		}
		/* Each side's sum is bounded by its total, which was checked. */
		rows[*idx].bytes[0] += diff_track_site_side(d, s, 0)->bytes;
		rows[*idx].bytes[1] += diff_track_site_side(d, s, 1)->bytes;
	}
	qsort(rows, n, sizeof(*rows), cmp_folded);
	for (size_t i = 0; i < n; i++) {
		escape_puts(out, rows[i].stack);
		fprintf(out, " %" PRIu64 " %" PRIu64 "\n", rows[i].bytes[0], rows[i].bytes[1]);
		free(rows[i].stack);
	}
	strbuf_release(&sb);
	strmap_release(&index);
	free(rows);
}
