#include "report/track_ndjson_write.h"

#include "report/ndjson.h"
#include "util/array.h"
#include "util/strbuf.h"

#include <stdlib.h>

/* The keys every row has, up to the capture's own; cap NULL: an error row. */
static struct ndjson_row *
row_start(const char *row, const struct ndjson_source *src, const char *status, const char *error,
	  const struct track_capture *cap)
{
	struct ndjson_row *o = ndjson_row_new_at(TRACK_NDJSON_SCHEMA, row, src, "track");
	const char *kind = cap ? track_kind_name(cap->kind) : NULL;
	ndjson_set_text(o, "status", status);
	ndjson_set_text(o, "error", error);
	ndjson_set_text(o, "capture", kind);
	ndjson_set_uint(o, "total", cap != NULL, cap ? track_capture_total(cap) : 0);
	return o;
}

/* The site's own keys, null for the input row (site NULL). */
static void
set_site(struct ndjson_row *o, const struct diff_track *d, const struct diff_track_site *s,
	 struct strbuf *sb)
{
	if (!s) {
		static const char *const keys[] = { "site", "module", "type", "frames", "stack" };
		for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
			ndjson_set_null(o, keys[i]);
		return;
	}
	strbuf_reset(sb);
	diff_track_site_label(d, s, sb);
	ndjson_set_textn(o, "site", sb->buf, sb->len);
	ndjson_set_text(o, "module", d->modules[s->module].name);
	ndjson_set_text(o, "type", s->mapping ? "mapping" : "allocation");
	ndjson_set_uint(o, "frames", true, s->nframes);
	strbuf_reset(sb);
	diff_track_site_folded(d, s, sb);
	ndjson_set_textn(o, "stack", sb->buf, sb->len);
}

static void
set_figures(struct ndjson_row *o, uint64_t sites, uint64_t bytes, int64_t count, uint64_t records,
	    bool has_count)
{
	ndjson_set_uint(o, "sites", true, sites);
	ndjson_set_uint(o, "bytes", true, bytes);
	ndjson_set_int(o, "count", has_count, count);
	ndjson_set_uint(o, "records", true, records);
}

int
track_ndjson_write(FILE *out, const struct track_ndjson_input *in)
{
	const struct track_capture *cap = in->cap;
	const struct diff_track *d = in->sites;
	const char *status = cap->partial ? "partial" : "ok";
	const struct diff_track_site **v;
	size_t n = diff_track_sorted_sites(d, &v);
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;

	if (in->top && n > in->top)
		n = (size_t)in->top;
	struct ndjson_row *o = row_start("input", in->src, status, NULL, cap);
	set_site(o, d, NULL, &sb);
	set_figures(o, d->nsites_side[1], cap->shown_bytes, 0, cap->shown_records, false);
	rc = ndjson_row_write(out, o);
	for (size_t i = 0; i < n && rc == 0; i++) {
		const struct diff_track_figures *f = diff_track_site_side(d, v[i], 1);
		o = row_start("site", in->src, status, NULL, cap);
		set_site(o, d, v[i], &sb);
		set_figures(o, 1, f->bytes, f->count, f->records, true);
		rc = ndjson_row_write(out, o);
	}
	strbuf_release(&sb);
	free(v);
	return rc;
}

int
track_ndjson_write_error(FILE *out, const struct ndjson_source *src, const char *error)
{
	struct strbuf sb = STRBUF_INIT;
	struct ndjson_row *o = row_start("input", src, "error", error, NULL);
	set_site(o, NULL, NULL, &sb);
	ndjson_set_null(o, "sites");
	ndjson_set_null(o, "bytes");
	ndjson_set_null(o, "count");
	ndjson_set_null(o, "records");
	strbuf_release(&sb);
	return ndjson_row_write(out, o);
}
