#include "app/session.h"

#include "ingest/bundle.h"
#include "ingest/diff_read.h"
#include "ingest/track_read.h"
#include "model/diff_classes.h"
#include "model/track.h"
#include "model/track_classify.h"
#include "util/linereader.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

int
app_session_pair(const char *path, char **before, char **after, struct diag *err)
{
	struct session_index si;
	*before = *after = NULL;
	if (session_index_read(path, &si, err) < 0)
		return -1;
	if (!si.before || !si.after) {
		diag_set(err, DIAG_DATA, path, 0, 0,
			 "the session has no %s capture to compare (%s)",
			 !si.before ? "before" : "after",
			 si.aborted ? si.aborted : "its capture failed");
		session_index_release(&si);
		return -1;
	}
	*before = si.before;
	*after = si.after;
	si.before = si.after = NULL;
	session_index_release(&si);
	return 0;
}

/* The classes capture of one side, read; -1 with a note when it cannot be. */
static int
read_side(const char *bundle_path, struct diff_classes_side *side, struct diag_list *notes)
{
	struct bundle b;
	struct diag err;
	if (bundle_open(bundle_path, &b, &err) < 0) {
		diag_list_add(notes, DIAG_NOTE, bundle_path, 0, "%s", err.msg);
		return -1;
	}
	const struct bundle_capture *c = bundle_capture_of_kind(&b, "classes");
	int rc = -1;
	struct line_reader r;
	if (!c) {
		diag_list_add(notes, DIAG_NOTE, bundle_path, 0,
			      "holds no classes capture: the class counts are not compared");
	} else if (line_reader_open(&r, c->path, 0, &err) < 0) {
		diag_list_add(notes, DIAG_NOTE, c->path, 0, "%s", err.msg);
	} else {
		rc = diff_classes_side_read(&r, false, side, false, notes, &err);
		if (rc < 0)
			diag_list_add(notes, DIAG_NOTE, c->path, 0, "%s", err.msg);
		line_reader_close(&r);
	}
	bundle_release(&b);
	return rc;
}

static int
add_counts(const struct session_index *si, struct session_growth *g, struct diag_list *notes)
{
	struct diff_classes_pair p;
	struct diff_options opts = { 0 };
	struct diag err;
	int rc = 0;
	diff_classes_pair_init(&p);
	if (read_side(si->before, &p.before, notes) == 0 &&
	    read_side(si->after, &p.after, notes) == 0) {
		if (diff_classes_pair_compare(&p, si->before, si->after, &opts, notes, &err) < 0) {
			diag_list_add(notes, DIAG_NOTE, si->path, 0, "%s", err.msg);
		} else {
			for (size_t i = 0; i < p.diff.nrows; i++) {
				const struct diff_classes_row *row = &p.diff.rows[i];
				if (row->in_before && row->in_after)
					session_growth_set_counts(g, row->name, strlen(row->name),
								  row->before, row->after);
			}
		}
	}
	diff_classes_pair_release(&p);
	return rc;
}

struct site_ctx {
	struct session_growth *g;
	bool leak;
};

/* track_capture on_record: a record whose gMetaClass frame names a class is charged to it. */
static int
on_site(void *ctx, const struct track_record *r, const char *path, struct diag *err)
{
	struct site_ctx *sc = ctx;
	(void)path;
	(void)err;
	for (size_t i = 0; i < r->nframes; i++) {
		const char *cls;
		size_t len;
		if (track_frame_metaclass(r, &r->frames[i], &cls, &len)) {
			if (sc->leak)
				session_growth_add_site(sc->g, cls, len, true, r->bytes, r->count);
			else
				session_growth_add_record(sc->g, cls, len, r);
			break;
		}
	}
	return 0;
}

static int
add_sites(const struct session_index *si, struct session_growth *g, struct diag_list *notes,
	  struct diag *err)
{
	static const struct { const char *step; bool leak; } outputs[] = {
		{ "kernel.track", false }, { "kernel.leaks", true },
	};
	if (!si->tracking)
		return 0;
	struct bundle b;
	struct diag e;
	if (bundle_open(si->tracking, &b, &e) < 0) {
		diag_list_add(notes, DIAG_NOTE, si->tracking, 0, "%s", e.msg);
		return 0;
	}
	int rc = 0;
	for (size_t k = 0; k < sizeof(outputs) / sizeof(outputs[0]) && rc == 0; k++) {
		const struct bundle_capture *c = NULL;
		for (size_t i = 0; i < b.ncaptures; i++)
			if (strcmp(b.captures[i].step, outputs[k].step) == 0)
				c = &b.captures[i];
		if (!c)
			continue;
		struct line_reader r;
		if (line_reader_open(&r, c->path, 0, &e) < 0) {
			diag_list_add(notes, DIAG_NOTE, c->path, 0, "%s", e.msg);
			continue;
		}
		struct track_capture cap;
		struct site_ctx sc = { g, outputs[k].leak };
		struct track_parse_opts po = { .strict = false, .report_unparsed = 3 };
		track_capture_init(&cap);
		cap.on_record = on_site;
		cap.on_record_ctx = &sc;
		/* Empty output is ioclasscount's "nothing tracked": no site, not an error. */
		if (track_parse(&r, &cap, &po, notes, &e) < 0 && e.code != DIAG_DATA)
			rc = (*err = e, -1);
		track_capture_release(&cap);
		line_reader_close(&r);
	}
	bundle_release(&b);
	return rc;
}

int
app_session_growth(const struct session_index *si, struct session_growth *g,
		   struct diag_list *notes, struct diag *err)
{
	if (si->before && si->after)
		add_counts(si, g, notes);
	if (add_sites(si, g, notes, err) < 0)
		return -1;
	session_growth_finish(g);
	return 0;
}

int
app_session_operand(const char *path, char *routed[2], struct diag *err)
{
	if (strcmp(path, "-") == 0 ||
	    (!session_path_is_session(path) && !session_path_is_session_archive(path)))
		return 0;
	return app_session_pair(path, &routed[0], &routed[1], err) < 0 ? -1 : 1;
}
