/*
 * `iotally SESSION`: what a tracking session (capture --session) holds and
 * the evidence side by side (app/session.h).
 */

#include "cli/bundle_args.h"

#include "app/session.h"
#include "cli/commands.h"
#include "cli/msgs.h"
#include "ingest/bundle.h"
#include "report/session_growth_text.h"

#include <stdio.h>
#include <string.h>

/* One bundle of the session listed: 0, or the status of the error said when it cannot be opened. */
static int
list_bundle(const char *label, const char *path)
{
	struct bundle b;
	struct diag err;
	if (!path) {
		cli_out_line(stdout, "  %s: not written", label);
		return 0;
	}
	if (bundle_open(path, &b, &err) < 0) {
		cli_print_diag(&err);
		return err.code ? err.code : DIAG_SOFTWARE;
	}
	cli_bundle_listing(&b, "  ");
	bundle_release(&b);
	return 0;
}

int
cli_run_session(int argc, char **argv)
{
	struct session_index si;
	struct diag err;
	if (argc > 2) {
		diag_set(&err, DIAG_USAGE, NULL, 0, 0,
			 "'%s' is a tracking session: options go to one command, so name it "
			 "(iotally diff|report %s %s...)", argv[1], argv[1], argv[2]);
		return cli_usage_error(NULL, &err);
	}
	if (session_index_read(argv[1], &si, &err) < 0) {
		cli_print_diag(&err);
		return err.code;
	}
	cli_out_line(stdout, "%s: %s tracking session%s%s started %s, tracking left %s", si.path,
		     si.complete ? "complete" : "partial", si.target_name ? " of " : "",
		     si.target_name ? si.target_name : "",
		     si.started_utc ? si.started_utc : "at an unknown time",
		     si.tracking_left ? si.tracking_left : "unknown");
	if (si.aborted)
		cli_out_line(stdout, "  stopped early: %s", si.aborted);
	if (session_tracking_maybe_on(&si))
		cli_warn(si.path, 0, "%s", SESSION_MAYBE_ON_WARNING);
	/* A bundle that cannot be opened is an error said in its place: the
	 * status is the first such error's, the rest is still listed. */
	int status = list_bundle("before", si.before);
	int rc = list_bundle("after", si.after);
	status = status ? status : rc;
	rc = list_bundle("tracking", si.tracking);
	status = status ? status : rc;

	struct session_growth g;
	struct diag_list notes;
	session_growth_init(&g);
	diag_list_init(&notes, 20);
	if (app_session_growth(&si, &g, &notes, &err) < 0) {
		cli_print_diag(&err);
		status = status ? status : err.code;
	} else {
		fputc('\n', stdout);
		if (g.nrows)
			session_growth_write(stdout, &g, false);
		else
			fputs("No class grew, and tracking charged no call site to a class.\n\n",
			      stdout);
	}
	cli_print_warnings(&notes);
	if (si.before && si.after) {
		fputs("Before and after compared:\n", stdout);
		cli_out_line(stdout, "  iotally diff %s", si.path);
		cli_out_line(stdout, "  iotally report %s", si.path);
	}
	diag_list_release(&notes);
	session_growth_release(&g);
	session_index_release(&si);
	return status;
}

int
cli_session_operand(const char *path, char *routed[2], struct diag *err)
{
	if (strcmp(path, "-") == 0 ||
	    (!session_path_is_session(path) && !session_path_is_session_archive(path)))
		return 0;
	return app_session_pair(path, &routed[0], &routed[1], err) < 0 ? -1 : 1;
}
