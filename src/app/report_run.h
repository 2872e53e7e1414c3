#ifndef IOTALLY_APP_REPORT_RUN_H
#define IOTALLY_APP_REPORT_RUN_H

/*
 * `iotally report`'s run, once its command line is parsed: a tracking
 * session routed to its two bundles, the shape of the operands
 * (app/report_inputs.h), and the report built: of one capture, of a pair
 * opened and compared, of a bundle, of two bundles. A series is left to
 * app/series_page.h (`series` set). cli/ says what the run gathered, in
 * `say` order, and writes the page.
 */

#include <stdbool.h>
#include <stddef.h>

#include "app/kind.h"
#include "app/pair_open.h"
#include "app/report_bundles.h"
#include "ingest/bundle.h"
#include "model/diff.h"
#include "model/report.h"
#include "util/diag.h"

struct report_run {
	struct report report;        /* built when app_report_run() returned 0 and !series */
	bool built;
	bool series;                 /* the operands are a series: paths[0..npaths) */
	const char *const *paths;    /* the operands, a session's two bundles in its place */
	size_t npaths;
	/* What to say, in this order (warnings and notes of the run). */
	const struct diag_list *say[3];
	size_t nsay;
	/* What the report refers to while it is written. */
	struct diag_list warnings, session_notes;
	char *routed[2];             /* a tracking session's before/ and after/ */
	const char *routed_paths[2];
	struct pair_open pair;
	struct kind_input one;
	struct bundle bundle;
	bool bundle_open;
	struct report_bundles bundles;
	bool bundles_open;
};

/*
 * Run `report` over paths[0..n) with `gates` (checked here on a pair:
 * their tripped flags are set), `all` (nothing folded). Notes go to
 * `notes`. 0; -1 with *err. Release *rr in either case.
 */
int app_report_run(struct report_run *rr, const char *const *paths, size_t n, bool all,
		   struct diff_gate *gates, size_t ngates, struct diag_list *notes,
		   struct diag *err);
void app_report_run_release(struct report_run *rr);

#endif
