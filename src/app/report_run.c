/*
 * `iotally report` over its operands (app/report_run.h).
 */

#include "app/report_run.h"

#include "app/kind_command.h"
#include "app/report_inputs.h"
#include "app/session.h"
#include "util/linereader.h"

#include <stdlib.h>
#include <string.h>

/* `iotally report BUNDLE`: one report of every capture the bundle holds. */
static int
run_bundle(struct report_run *rr, bool all, struct diag_list *notes, struct diag *err)
{
	rr->bundle_open = true;
	if (bundle_open(rr->paths[0], &rr->bundle, err) < 0)
		return -1;
	if (rr->bundle.series) {
		/* A series: its report over time (app/series_page.h) opens it again. */
		bundle_release(&rr->bundle);
		rr->bundle_open = false;
		rr->series = true;
		return 0;
	}
	rr->say[rr->nsay++] = notes;
	rr->built = true;
	int rc = bundle_report_build(&rr->report, &rr->bundle, all, notes, err);
	if (rc == 0)
		kind_report_provenance(&rr->report, rr->paths, 1);
	return rc;
}

/* `iotally report BEFORE_BUNDLE AFTER_BUNDLE` (or SESSION): every kind both hold. */
static int
run_bundles(struct report_run *rr, bool all, struct diff_gate *gates, size_t ngates,
	    const char *session, struct diag_list *notes, struct diag *err)
{
	rr->say[rr->nsay++] = notes;
	rr->say[rr->nsay++] = &rr->warnings;
	rr->say[rr->nsay++] = &rr->session_notes;
	rr->built = rr->bundles_open = true;
	int rc = bundle_report_pair(&rr->report, &rr->bundles, rr->paths, all, gates, ngates,
				    session, notes, &rr->warnings, &rr->session_notes, err);
	if (rc == 0)
		kind_report_provenance(&rr->report, rr->paths, 2);
	return rc;
}

/* One capture (kind_open()), or a pair opened and compared (pair_open_compare()). */
static int
run_capture(struct report_run *rr, bool all, struct diff_gate *gates, size_t ngates,
	    struct diag_list *notes, struct diag *err)
{
	const struct kind *k = NULL;
	bool pair = rr->npaths == 2;
	int rc;
	if (pair) {
		const struct pair_open_opts po = { .command = "report", .needs = "a report compares" };
		rc = pair_open_compare(&rr->pair, rr->paths[0], rr->paths[1], &po, notes, err);
		k = rr->pair.kind;
	} else {
		char schema[64];
		enum input_kind raw;
		rc = kind_open(&rr->one, rr->paths[0], "report", &k, schema, sizeof(schema), &raw,
			       err);
	}
	if (rc < 0) {
		rr->say[rr->nsay++] = notes;
		return -1;
	}
	/* The pair's comparability warnings are said before the notes. */
	if (pair)
		rr->say[rr->nsay++] = &rr->warnings;
	rr->say[rr->nsay++] = notes;
	report_init(&rr->report, k->name, pair);
	rr->built = true;
	rr->report.all = all;
	rc = pair ? report_pair_build(&rr->report, &rr->pair, rr->paths, gates, ngates,
				      &rr->warnings, err)
		  : k->single_report(&rr->report, &rr->one, notes, err);
	app_report_add_notes(&rr->report, notes);
	if (rc == 0)
		kind_report_provenance(&rr->report, rr->paths, rr->npaths);
	return rc;
}

int
app_report_run(struct report_run *rr, const char *const *paths, size_t n, bool all,
	       struct diff_gate *gates, size_t ngates, struct diag_list *notes, struct diag *err)
{
	memset(rr, 0, sizeof(*rr));
	pair_open_init(&rr->pair);
	rr->one.reader.fd = -1;
	diag_list_init(&rr->warnings, 50);
	diag_list_init(&rr->session_notes, 20);
	rr->paths = paths;
	rr->npaths = n;
	/* `report SESSION` is `report BEFORE AFTER` of its two bundles. */
	int routed = n == 1 ? app_session_operand(paths[0], rr->routed, err) : 0;
	if (routed < 0)
		return -1;
	const char *session = NULL;
	if (routed) {
		session = paths[0];
		rr->routed_paths[0] = rr->routed[0];
		rr->routed_paths[1] = rr->routed[1];
		rr->paths = rr->routed_paths;
		rr->npaths = 2;
	}
	enum report_shape shape;
	if (report_shape_of(rr->paths, rr->npaths, &shape, err) < 0)
		return -1;
	if (shape == REPORT_SHAPE_SERIES) {
		rr->series = true;
		return 0;
	}
	if (shape == REPORT_SHAPE_BUNDLE)
		return run_bundle(rr, all, notes, err);
	if (shape == REPORT_SHAPE_BUNDLES)
		return run_bundles(rr, all, gates, ngates, session, notes, err);
	return run_capture(rr, all, gates, ngates, notes, err);
}

void
app_report_run_release(struct report_run *rr)
{
	bool mapped = rr->bundle_open || rr->bundles_open;
	if (rr->built)
		report_release(&rr->report);
	if (rr->bundle_open)
		bundle_release(&rr->bundle);
	if (rr->bundles_open)
		report_bundles_release(&rr->bundles);
	/* A bundle's archive members stay mapped until its report is written. */
	if (mapped)
		line_reader_unmap_all();
	pair_open_close(&rr->pair);
	if (rr->one.path)
		line_reader_close(&rr->one.reader);
	diag_list_release(&rr->warnings);
	diag_list_release(&rr->session_notes);
	free(rr->routed[0]);
	free(rr->routed[1]);
}
