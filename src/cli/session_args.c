/*
 * `iotally SESSION`: what a tracking session (capture --session) holds and
 * the evidence side by side (app/session.h).
 */

#include "cli/bundle_args.h"

#include "app/listing.h"
#include "app/session.h"
#include "cli/commands.h"
#include "cli/msgs.h"
#include "ingest/bundle.h"
#include "report/bundle_listing_write.h"
#include "report/session_growth_text.h"

#include <stdio.h>

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

/*
 * The summary block first (the tracked class and its call sites, the cost
 * and what grew between before and after), as `iotally report SESSION`
 * leads with it. Its notes go to standard error; a pair that cannot be
 * compared leaves the block with the session's growth alone.
 */
static void
print_summary(const struct session_index *si, const struct session_growth *g)
{
	struct summary_facts f;
	struct summary s;
	struct diag_list notes;
	summary_facts_init(&f, true);
	diag_list_init(&notes, 20);
	app_session_listing_facts(si, g, &f, &notes);
	fflush(stdout);
	cli_print_warnings(&notes);
	summary_build(&f, &s);
	summary_block_write(stdout, &s);
	summary_release(&s);
	summary_facts_release(&f);
	diag_list_release(&notes);
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
	/* The growth first: the summary block that leads is built from it. */
	struct session_growth g;
	struct diag_list notes;
	session_growth_init(&g);
	diag_list_init(&notes, 20);
	int grown = app_session_growth(&si, &g, &notes, &err);
	struct diag gerr = err;
	print_summary(&si, grown == 0 ? &g : NULL);
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

	if (grown < 0) {
		cli_print_diag(&gerr);
		status = status ? status : gerr.code;
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
