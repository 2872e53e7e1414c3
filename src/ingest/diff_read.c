#include "ingest/diff_read.h"

#include "ingest/classes_read.h"
#include "ingest/classes_json_read.h"
#include "ingest/track_read.h"
#include "ingest/track_json_read.h"
#include "ingest/vmmap_read.h"
#include "ingest/vmmap_json_read.h"

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
