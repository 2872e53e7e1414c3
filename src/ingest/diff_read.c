#include "ingest/diff_read.h"

#include "ingest/classes_read.h"
#include "ingest/classes_json_read.h"
#include "ingest/track_read.h"
#include "ingest/track_json_read.h"
#include "ingest/vmmap_read.h"
#include "ingest/vmmap_json_read.h"
#include "util/view.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

int
diff_vmmap_side_read(struct line_reader *r, bool json, struct diff_vmmap_side *s,
		     struct diag_list *notes, struct diag *err)
{
	if (json)
		return vmmap_json_read(r, &s->cap, err);
	struct vmmap_parse_opts popts = { .strict = false, .report_unparsed = 5 };
	s->cap.filter.all = true;
	s->cap.want_purgeable = true;
	return vmmap_parse(r, &s->cap, &popts, notes, err);
}

struct track_side_ctx {
	struct diff_track *diff;
	int side;
};

static int
track_add_record(void *ctx, const struct track_record *rec, const char *path,
		 struct diag *err)
{
	struct track_side_ctx *c = ctx;
	return diff_track_add_record(c->diff, c->side, rec, path, err);
}

int
diff_track_side_read(struct line_reader *r, bool json, struct diff_track_pair *p, int side,
		     struct diag_list *notes, struct diag *err)
{
	struct track_capture *cap = side ? &p->after : &p->before;
	struct track_side_ctx ctx = { &p->diff, side };
	int rc;
	cap->on_record = track_add_record;
	cap->on_record_ctx = &ctx;
	if (json) {
		rc = track_json_read(r, cap, notes, err);
	} else {
		struct track_parse_opts popts = { .strict = false, .report_unparsed = 5 };
		rc = track_parse(r, cap, &popts, notes, err);
	}
	cap->on_record = NULL;
	cap->on_record_ctx = NULL;
	return rc;
}

int
diff_classes_side_read(struct line_reader *r, bool json, struct diff_classes_side *s,
		       bool want_hierarchy, struct diag_list *notes, struct diag *err)
{
	if (json)
		return classes_json_read(r, &s->cap, &s->json_direct, notes, err);
	struct classes_read_opts ropts = { .want_hierarchy = want_hierarchy,
					   .need_counts = true };
	return classes_read(r, &s->cap, &s->hier, &ropts, notes, err);
}

/*
 * The gate of a line: without its blanks at both ends and without a
 * trailing comment, a '#' after a blank and what follows it ("vmmap:gpu.dirty
 * > +256M   # per app"); NULL for a blank or comment line. A '#' with no
 * blank before it stays: no gate grammar gives it a meaning, so the metric
 * or value it is part of is said to be wrong, not cut short silently.
 */
static char *
gate_line_text(const struct line *ln)
{
	const char *p = ln->p;
	size_t n = ln->len;
	while (n && view_is_space(*p)) {
		p++;
		n--;
	}
	if (n == 0 || *p == '#')
		return NULL;
	for (size_t i = 1; i < n; i++)
		if (p[i] == '#' && (p[i - 1] == ' ' || p[i - 1] == '\t')) {
			n = i;
			break;
		}
	while (n && view_is_space(p[n - 1]))
		n--;
	return xmemdup0(p, n);
}

int
diff_gates_read(struct line_reader *r, struct diff_gate **gates, size_t *n, size_t *alloc,
		struct diag *err)
{
	struct line ln;
	int rc;
	while ((rc = line_reader_next(r, &ln, err)) > 0) {
		if (ln.has_nul || ln.overlong)
			return diag_set(err, DIAG_DATA, r->path, ln.no, 0,
					"not a gate: a gates file is text, one gate a line");
		char *text = gate_line_text(&ln);
		if (!text)
			continue;
		rc = diff_gate_list_add(gates, n, alloc, text, err);
		free(text);
		if (rc < 0) {
			diag_set_path(err, r->path);
			err->line = ln.no;
			return -1;
		}
	}
	return rc;
}

int
diff_gates_read_file(const char *path, struct diff_gate **gates, size_t *n, size_t *alloc,
		     struct diag *err)
{
	struct line_reader r;
	if (line_reader_open(&r, path, 0, err) < 0)
		return -1;
	int rc = diff_gates_read(&r, gates, n, alloc, err);
	line_reader_close(&r);
	return rc;
}
