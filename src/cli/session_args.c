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

static void
list_bundle(const char *label, const char *path)
{
	struct bundle b;
	struct diag err;
	if (!path) {
		cli_out_line(stdout, "  %s: not written", label);
		return;
	}
	if (bundle_open(path, &b, &err) < 0) {
		cli_print_diag(&err);
		return;
	}
	cli_bundle_listing(&b, "  ");
	bundle_release(&b);
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
	if (si.tracking_left && strcmp(si.tracking_left, "off") != 0 &&
	    strcmp(si.tracking_left, "not-started") != 0)
		cli_warn(si.path, 0, "the session could not stop kernel tracking: if it is still "
			 "on, run %s", si.stop_command ? si.stop_command : "ioclasscount --stop");
	list_bundle("before", si.before);
	list_bundle("after", si.after);
	list_bundle("tracking", si.tracking);

	struct session_growth g;
	struct diag_list notes;
	session_growth_init(&g);
	diag_list_init(&notes, 20);
	int status = 0;
	if (app_session_growth(&si, &g, &notes, &err) < 0) {
		cli_print_diag(&err);
		status = err.code;
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
